#!/usr/bin/env bash
# Long fuzzing runs with libFuzzer: builds the fuzz targets (fuzz/) with clang-19, coverage
# and AddressSanitizer in every library into ${BUILD_DIR:-build-fuzz}, then runs each target
# for SECONDS (default 3600) on a working corpus seeded from the lit tests. Crashes are written
# to $OUT/<target>-crash-*; each one becomes a regression test once fixed. CI runs the same
# targets for a minute each without libFuzzer (ctest -L fuzz).
#   scripts/fuzz.sh [SECONDS] [TARGET...]     (targets: tile_program kernel_builder mlir)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-fuzz}
out=${OUT:-$build/fuzz-out}
seconds=${1:-3600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(tile_program kernel_builder mlir)
if [ ! -f "$build/build.ninja" ]; then
  CC=clang-19 CXX=clang++-19 cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DTILECC_FUZZ=ON -DCMAKE_CUDA_COMPILER=
fi
cmake --build "$build" -j "${JOBS:-2}" --target "${targets[@]/#/tilecc_fuzz_}"
mkdir -p "$out"
# The LLVM, MLIR and Clang libraries are Debian's, not instrumented, while the header code they
# share with the targets is: LLVM's allocators poison memory in the instrumented copies that the
# uninstrumented ones then write (use-after-poison that is no bug), and allocations made inside
# those libraries for their own lifetime show as leaks. So user poisoning is off, and leaks whose
# stack passes through them are suppressed (fuzz/lsan.supp).
export ASAN_OPTIONS="allow_user_poisoning=0:${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$root/fuzz/lsan.supp:${LSAN_OPTIONS:-}"
for t in "${targets[@]}"; do
  corpus=$out/$t-corpus
  mkdir -p "$corpus"
  case $t in
    tile_program) seeds=("$root"/test/Lowering/*.cpp "$root"/test/Check/*.cpp "$root"/test/Analysis/kernel-*.cpp) ;;
    kernel_builder) seeds=("$root"/test/Lowering/*.cpp) ;;
    mlir) seeds=("$root"/test/Transforms/*.mlir "$root"/test/Dialect/*.mlir "$root"/test/CodeGen/*.mlir) ;;
  esac
  cp -n "${seeds[@]}" "$corpus/" 2>/dev/null || true
  echo "== $t: $seconds s"
  "$build/bin/tilecc_fuzz_$t" "$corpus" -max_total_time="$seconds" -timeout=60 -rss_limit_mb=8192 \
    -artifact_prefix="$out/$t-" -print_final_stats=1 -close_fd_mask=2 2>&1 | tee "$out/$t.log" | tail -25
done
