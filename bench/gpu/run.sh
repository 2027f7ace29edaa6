#!/usr/bin/env bash
# On a GPU machine (nvcc, python3 with torch): builds tile_rt and the CUDA that prepare.sh
# generated, checks every example against its host reference on fresh random data at lengths
# no tile divides, runs the CodeGen GPU test, and times tilecc's add against torch.add at
# 2^28 float32 elements in the same run, and shows on the timeline that independent async ops
# overlap while dependent ones do not (timeline.tile.cpp). Writes everything to ${OUT:-/tmp/tilecc-gpu};
# the binaries stay in ${WORK} when it is set (bench/gpu/sanitize.sh reuses them).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${OUT:-/tmp/tilecc-gpu}
mkdir -p "$out"
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
log="$out/gpu-run.log"
exec > >(tee "$log") 2>&1
cuda=${CUDA_HOME:-/usr/local/cuda}
status=0
check() { echo "+ $*"; "$@" || { echo "FAILED: $*"; status=1; }; }

echo "== machine"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
echo "commit $(cat .device-carry/commit)"; date -u +%Y-%m-%dT%H:%M:%SZ

echo "== build tile_rt and the generated programs (sm_90a)"
bash bench/gpu/build_runtime.sh "$work" || exit 1
nvcc_cmd=(nvcc -O3 -std=c++20 -x cu -Iinclude -Iruntime -Itest/Driver/Inputs
          -gencode=arch=compute_90a,code=sm_90a)
pids=()
for name in add saxpy matrix_relu pipeline column_stats softmax gemm histogram attention control_flow atomics check_print f8 complex tf32_warpgroup mma_fragments warp_shuffles cat_extract scans staged_exchanges reduce_min_max_zeros reduce_across_warps add_bandwidth op_overhead timeline device_reset; do
  dir=examples/$name; [ -d "$dir" ] || dir=bench
  "${nvcc_cmd[@]}" -I"$dir" ".device-carry/$name.cu" -L"$work" -ltile_rt -lpthread \
    -o "$work/$name" &
  pids+=($!)
done
wait "${pids[@]}"  # not a bare wait: the tee behind the log is a child too
"${nvcc_cmd[@]}" -include test/CodeGen/GPU/Inputs/entries.h .device-carry/run-kernels.cu \
  -x cu test/CodeGen/GPU/Inputs/harness.cu -o "$work/run-kernels" || exit 1
cuobjdump --dump-sass "$work/add" | grep -E "LDG|STG" | sort | uniq -c | head -5

echo "== correctness: every element against the host reference, fresh random data"
check "$work/add"
check "$work/add" 1
check "$work/add" 77777777
check "$work/saxpy" 12345677 -1.5
check "$work/saxpy" 300 0.75
check "$work/matrix_relu"
check "$work/matrix_relu" 4097 333
check "$work/matrix_relu" 3 1025
check "$work/pipeline"
check "$work/pipeline" 4097 333 20
check "$work/pipeline" 1 1 0
check "$work/column_stats"
check "$work/column_stats" 1 1
check "$work/column_stats" 300 130 40 3 7
check "$work/column_stats" 20 70 25 1 5
check "$work/column_stats" 4099 1031 5 2 3000
check "$work/softmax"
check "$work/softmax" 4097 1024
check "$work/softmax" 1 1
check "$work/gemm"
check "$work/gemm" 65 63 33
check "$work/attention"
check "$work/attention" 3 384 causal
check "$work/attention" 2 200
check "$work/attention" 3 333 causal
check "$work/attention" 1 1
# Lengths every vector run divides but no tile does: the runs instance (Fit_ = 1), whose cut
# tiles move one predicated vector per run.
check "$work/add" 1000000
check "$work/matrix_relu" 4099 1000
check "$work/pipeline" 1000 1000 3
check "$work/column_stats" 300 136 40 3 7
check "$work/softmax" 4097 1000
check "$work/gemm" 72 200 40
check "$work/histogram"
check "$work/histogram" 1
check "$work/histogram" 77777777
check bash -c "'$work/control_flow' | tee /dev/stderr | grep -q 'mismatches: 0'"
check bash -c "'$work/atomics' | tee /dev/stderr | grep -q ', 0 failures'"
check bash -c "'$work/f8' | tee /dev/stderr | grep -q 'f8: 0 mismatches'"
check bash -c "'$work/complex' | tee /dev/stderr | grep -q 'complex: 0 mismatches'"
check bash -c "'$work/tf32_warpgroup' | tee /dev/stderr | grep -c 'agree\|bit for bit' | grep -qx 18"
check bash -c "'$work/mma_fragments' | tee /dev/stderr | grep -q 'mma fragments: 0 mismatches'"
check bash -c "'$work/warp_shuffles' | tee /dev/stderr | grep -q 'warp shuffles: 0 mismatches'"
nvcc -O3 -std=c++20 -Iinclude -Iruntime -gencode=arch=compute_90a,code=sm_90a \
  bench/gpu/float_min_max.cu -o "$work/float_min_max" && check "$work/float_min_max"
check bash -c "'$work/cat_extract' | tee /dev/stderr | grep -q 'cat and extract in registers: 0 mismatches'"
check bash -c "'$work/scans' | tee /dev/stderr | grep -q 'scans in registers: 0 mismatches'"
check bash -c "'$work/staged_exchanges' | tee /dev/stderr | grep -q 'staged exchanges: 0 mismatches'"
check bash -c "'$work/reduce_min_max_zeros' | tee /dev/stderr | grep -q 'float min/max reductions: 0 mismatches'"
check bash -c "'$work/reduce_across_warps' | tee /dev/stderr | grep -q 'reductions across warps: 0 mismatches'"
check bash -c "'$work/device_reset' | tee /dev/stderr | grep -q 'device reset: 0 failures'"
"$work/check_print" | LC_ALL=C sort > "$out/check_print.txt"; cat "$out/check_print.txt"
check diff <(grep -v '^~z' "$out/check_print.txt") <(grep -v '^~z' bench/gpu/expected/check_print.txt)
check "$work/run-kernels"
if command -v compute-sanitizer >/dev/null; then
  check compute-sanitizer --tool memcheck --error-exitcode 3 "$work/add" 100003
  check compute-sanitizer --tool memcheck --error-exitcode 3 "$work/add" 100000
  check compute-sanitizer --tool memcheck --error-exitcode 3 "$work/matrix_relu" 301 1000
  check compute-sanitizer --tool memcheck --error-exitcode 3 "$work/softmax" 301 1000
  check compute-sanitizer --tool memcheck --error-exitcode 3 "$work/pipeline" 300 200 3
  check compute-sanitizer --tool memcheck --error-exitcode 3 "$work/column_stats" 300 130 40 3 7
  check compute-sanitizer --tool memcheck --error-exitcode 3 "$work/atomics"
  check compute-sanitizer --tool racecheck --error-exitcode 3 "$work/histogram" 100000
  check compute-sanitizer --tool racecheck --error-exitcode 3 "$work/scans"
  check compute-sanitizer --tool memcheck --error-exitcode 3 "$work/cat_extract"
  check compute-sanitizer --tool memcheck --error-exitcode 3 "$work/staged_exchanges"
  check compute-sanitizer --tool racecheck --error-exitcode 3 "$work/staged_exchanges"
  check compute-sanitizer --tool memcheck --error-exitcode 3 "$work/attention" 1 256
  check compute-sanitizer --tool racecheck --error-exitcode 3 "$work/attention" 1 256
  check compute-sanitizer --tool synccheck --error-exitcode 3 "$work/attention" 1 256 causal
  check compute-sanitizer --tool memcheck --error-exitcode 3 "$work/attention" 2 200 causal
fi

if [ -x .device-carry/tile_runtime_tests ]; then
  echo "== the runtime's unit tests with the GPU as the default device"
  check .device-carry/tile_runtime_tests --gtest_brief=1 --gtest_output=xml:"$out/runtime-tests.xml"
fi

echo "== timing: add at 2^28 float32 elements, tilecc vs torch, same run"
"$work/add_bandwidth" 28 50 | tee "$out/tilecc-add.txt" || status=1
python3 bench/gpu/torch_add.py 28 50 | tee "$out/torch-add.txt" || status=1
echo "== timing: copies between views vs cudaMemcpyAsync, same run"
g++ -O2 -std=c++20 -Iinclude -I"$cuda/include" bench/gpu/copy_bandwidth.cpp -L"$work" -ltile_rt \
  -L"$cuda/lib64" -lcudart_static -ldl -lrt -lpthread -o "$work/copy_bandwidth" &&
  "$work/copy_bandwidth" 8192 50 | tee "$out/copy-bandwidth.txt" || status=1
echo "== timing: executing ops vs raw launches of the same kernel, same run"
"$work/op_overhead" 2000 | tee "$out/op-overhead.txt" || status=1
echo "== ordering: independent async ops overlap on the GPU, dependent ones do not"
"$work/timeline" | tee "$out/timeline.txt" || status=1
echo "== DLPack with torch: a CUDA tensor through tile_rt and back, no copy"
"${nvcc_cmd[@]}" -shared -Xcompiler -fPIC .device-carry/dlpack_torch.cu -L"$work" -ltile_rt -lpthread \
  -o "$work/libdlpack_torch.so" && check python3 bench/gpu/dlpack_torch.py "$work/libdlpack_torch.so"
exit $status
