#!/usr/bin/env bash
# Runs the whole test suite: install what is missing, build, then ctest (lit, GoogleTest,
# examples on the CPU backend) two at a time.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
ctest --test-dir "$build" -j2 --output-on-failure
