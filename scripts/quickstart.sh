#!/usr/bin/env bash
# The main job: install what is missing, build tilecc, compile examples/add with tilecc and run
# it (on the GPU when there is one, else on the CPU backend).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
export PATH="$PATH:/usr/local/cuda/bin"
mode=()
command -v nvcc >/dev/null || mode=(--cpu)
"$build/bin/tilecc" build "${mode[@]}" "$root/examples/add/add.tile.cpp" -o "$build/add"
"$build/add" "$@"
