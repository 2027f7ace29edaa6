#!/usr/bin/env bash
# On a GPU machine, after bench/gpu/prepare.sh: every example and every GPU test program under
# compute-sanitizer's memcheck, racecheck and synccheck, at sizes no tile divides (so the masked
# and the whole-tile paths both run) and small enough for racecheck. Reuses the binaries of a
# run.sh in the same $WORK and builds what is missing. One line per program and tool; the
# summary counts failures. Writes ${OUT:-/tmp/tilecc-gpu}/sanitize.log.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${OUT:-/tmp/tilecc-gpu}
work=${WORK:-$(mktemp -d)}
mkdir -p "$out" "$work" "$out/sanitize"
exec > >(tee "$out/sanitize.log") 2>&1
echo "== machine"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "commit $(cat .device-carry/commit)"; date -u +%Y-%m-%dT%H:%M:%SZ
command -v compute-sanitizer > /dev/null || { echo "no compute-sanitizer"; exit 1; }
[ -f "$work/libtile_rt.a" ] || bash bench/gpu/build_runtime.sh "$work" > /dev/null || exit 1
# program: the arguments it runs with (the examples' first arguments are sizes).
runs=(
  "add 100003" "saxpy 300 0.75" "matrix_relu 301 1000" "pipeline 300 200 3"
  "column_stats 300 130 40 3 7" "softmax 301 1000" "gemm 65 63 33" "histogram 100000"
  "attention 2 200 causal" "attention 1 256" "fft 17 256 inverse" "fft 3 4096" "fft 1 16384"
  "decode 512 4 1376 200 0 3" "control_flow" "atomics" "f8" "complex" "tf32_warpgroup" "mma_fragments"
  "warp_shuffles" "cat_extract" "scans" "staged_exchanges" "reduce_min_max_zeros" "reduce_across_warps" "run-kernels")
nvcc_cmd=(nvcc -O3 -std=c++20 -x cu -Iinclude -Iruntime -Itest/Driver/Inputs -I.
          -gencode=arch=compute_90a,code=sm_90a)
pids=()
for name in $(printf '%s\n' "${runs[@]}" | cut -d' ' -f1 | sort -u); do
  [ -x "$work/$name" ] && continue
  if [ "$name" = run-kernels ]; then
    "${nvcc_cmd[@]}" -include test/CodeGen/GPU/Inputs/entries.h .device-carry/run-kernels.cu \
      -x cu test/CodeGen/GPU/Inputs/harness.cu -o "$work/run-kernels" &
  else
    dir=examples/$name; [ -d "$dir" ] || dir=bench
    "${nvcc_cmd[@]}" -I"$dir" ".device-carry/$name.cu" -L"$work" -ltile_rt -lpthread \
      -o "$work/$name" > "$work/$name.build.log" 2>&1 &
  fi
  pids+=($!)
done
[ ${#pids[@]} = 0 ] || wait "${pids[@]}"
# Every (program, tool) pair, four at a time on the one GPU.
jobs=()
for run in "${runs[@]}"; do
  for tool in memcheck racecheck synccheck; do jobs+=("$tool $run"); done
done
check_one() {
  local tool=$1; shift
  local name=$1; shift
  local log="$OUT_DIR/sanitize/$name-$(echo "$*" | tr ' ' _)-$tool.log"
  if [ ! -x "$WORK_DIR/$name" ]; then echo "$tool $name $*: NOT BUILT"; return 1; fi
  timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 3 "$WORK_DIR/$name" "$@" \
    > "$log" 2>&1
  local rc=$?
  local summary
  summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -1)
  if [ $rc = 0 ]; then echo "$tool $name $*: ok (${summary:-no summary})"
  else echo "$tool $name $*: FAILED rc=$rc (${summary})"; return 1; fi
}
export -f check_one
export OUT_DIR=$out WORK_DIR=$work
printf '%s\n' "${jobs[@]}" | xargs -P 4 -I{} bash -c 'check_one {}' | sort | tee "$out/sanitize-summary.txt"
failed=$(grep -c -E "FAILED|NOT BUILT" "$out/sanitize-summary.txt")
echo "TOTAL: ${#jobs[@]} runs, $failed failed"
[ "$failed" = 0 ]
