#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer and UndefinedBehaviorSanitizer: install what
# is missing, build an instrumented copy of everything (compiler, runtime, tests) into
# ${BUILD_DIR:-build-sanitize}, then ctest (lit, GoogleTest, the examples on the CPU backend,
# the runtime's tests under ThreadSanitizer, fuzz and soak smoke runs) two at a time.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export BUILD_DIR=${BUILD_DIR:-$root/build-sanitize}
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" -DTILECC_SANITIZE=ON
ctest --test-dir "$BUILD_DIR" -j2 --output-on-failure
