#!/usr/bin/env bash
# On the GPU machine, after bench/gpu/prepare.sh: the warpgroup mma of the device header alone
# (bench/gpu/warpgroup_mma.cu; also as compute_80 PTX, the ldmatrix and mma.sync path of
# targets without wgmma), the tile GEMMs against cuBLAS in the same run
# (bench/gemm_tflops: f16 and bf16 in, f32 out, every element compared with cuBLAS before
# timing, 4000 a size no tile divides; the SASS must hold HGMMA; TF32 from float inputs, B
# row-major and transposed), the gemm example at sizes
# no tile divides, B as a transposed view (correct, sanitized and timed), f8 e4m3 GEMMs
# (bench/gemm_f8, against cuBLASLt and torch._scaled_mm; B also row-major, restaged), compute-sanitizer
# memcheck, racecheck and synccheck of the example,
# memcheck and synccheck of the tensor-map producer, and racecheck and synccheck of persistent
# blocks that run several programs.
# Writes ${OUT:-/tmp/tilecc-gpu}/gemm.log (bench/gpu/gemm_records.py turns it into records).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${OUT:-/tmp/tilecc-gpu}
mkdir -p "$out"
work=$(mktemp -d)
exec > >(tee "$out/gemm.log") 2>&1
status=0
echo "== machine"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "commit $(cat .device-carry/commit)"; date -u +%Y-%m-%dT%H:%M:%SZ
bash bench/gpu/build_runtime.sh "$work" || exit 1
nvcc_cmd=(nvcc -O3 -std=c++20 -x cu -Iinclude -Iruntime -gencode=arch=compute_90a,code=sm_90a)
"${nvcc_cmd[@]}" -Xptxas -v .device-carry/gemm_tflops.cu -L"$work" -ltile_rt -lcublas -lpthread \
  -o "$work/gemm_tflops" > "$work/gemm_tflops.build.log" 2>&1 || { tail -30 "$work/gemm_tflops.build.log"; exit 1; }
grep -E "spill|Used [0-9]+ registers|C7511" "$work/gemm_tflops.build.log" | sort | uniq -c | head -12
"${nvcc_cmd[@]}" .device-carry/gemm_f8.cu -L"$work" -ltile_rt -lcublasLt -lpthread \
  -o "$work/gemm_f8" > "$work/gemm_f8.build.log" 2>&1 || { tail -30 "$work/gemm_f8.build.log"; exit 1; }
echo "f8 wgmma (QGMMA) instructions in gemm_f8: $(cuobjdump -sass "$work/gemm_f8" | grep -c QGMMA)"
echo "HGMMA instructions in gemm_tflops: $(cuobjdump -sass "$work/gemm_tflops" | grep -c HGMMA) (TF32: $(cuobjdump -sass "$work/gemm_tflops" | grep HGMMA | grep -c TF32))"
echo "tensor-map copies (UTMALDG) in gemm_tflops: $(cuobjdump -sass "$work/gemm_tflops" | grep -c UTMALDG)"
echo "== warpgroup mma alone"
"${nvcc_cmd[@]}" bench/gpu/warpgroup_mma.cu -o "$work/warpgroup_mma" && "$work/warpgroup_mma" || status=1
echo "== warpgroup mma alone, the path of targets without wgmma (compute_80 PTX, JIT-compiled)"
nvcc -O3 -std=c++20 -x cu -Iinclude -Iruntime -gencode=arch=compute_80,code=compute_80 \
  bench/gpu/warpgroup_mma.cu -o "$work/warpgroup_mma_sm80" && "$work/warpgroup_mma_sm80" || status=1
"${nvcc_cmd[@]}" -Iexamples/gemm .device-carry/gemm.cu -L"$work" -ltile_rt -lpthread \
  -o "$work/gemm" || exit 1
echo "== the gemm example"
for args in "" "1 1 1" "65 63 33" "1024 1024 1024" "17 300 5" "129 257 1000"; do
  "$work/gemm" $args || status=1
done
echo "== sanitizers"
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 1 "$work/gemm" 65 63 33 2>&1 | tail -2 || status=1
done
echo "== sanitizers, the tensor-map (TMA) producer of gemm_tflops, and its cp.async fallback (K=1001: rows of A not 16-byte multiples)"
for tool in memcheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 1 "$work/gemm_tflops" bf16 200 300 260 1 2>&1 | tail -3 || status=1
done
"$work/gemm_tflops" bf16 1000 1000 1001 3 || status=1
echo "== B a transposed view (the kernel version for B contiguous along its first axis): tensor maps, and the element-copy fallback (K=1001)"
for args in "bf16 200 300 256 1" "f16 129 257 1000 1" "bf16 1000 1000 1001 1"; do
  "$work/gemm_tflops" $args bt || status=1
done
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 1 "$work/gemm_tflops" bf16 256 512 128 1 bt 2>&1 | tail -1 || status=1
done
echo "== f8 e4m3 with B transposed (wgmma k32 from K-major stages), against cuBLASLt: tile-divided, cut, and K = 1000 (no tensor map)"
for args in "256 512 384 1" "200 300 256 1" "129 257 1000 1"; do
  "$work/gemm_f8" $args || status=1
done
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 1 "$work/gemm_f8" 256 512 256 1 2>&1 | tail -1 || status=1
done
echo "== restaged operands: TF32 (rounded in place where K-major, B row-major restaged into column-major stages) and f8 with B row-major, cut shapes and K = 1000"
for args in "256 512 256 1" "200 300 256 1" "129 257 1000 1"; do
  "$work/gemm_tflops" tf32 $args || status=1
  "$work/gemm_tflops" tf32 $args bt || status=1
  "$work/gemm_f8" $args bn || status=1
done
for tool in memcheck racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 1 "$work/gemm_tflops" tf32 256 256 128 1 2>&1 | tail -1 || status=1
  compute-sanitizer --tool $tool --error-exitcode 1 "$work/gemm_f8" 256 512 256 1 bn 2>&1 | tail -1 || status=1
done
echo "== sanitizers, persistent blocks running two programs each (256 programs of 128x128 on 132 multiprocessors)"
for tool in racecheck synccheck; do
  compute-sanitizer --tool $tool --error-exitcode 1 "$work/gemm_tflops" bf16 2048 2048 64 1 2>&1 | tail -1 || status=1
done
echo "== timed against cuBLAS"
for type in ${GEMM_TYPES:-bf16 f16}; do
  for size in ${GEMM_SIZES:-2048 4000 4096 8192}; do
    "$work/gemm_tflops" $type $size $size $size $([ $size = 8192 ] && echo 5 || echo 20) || status=1
  done
done
for size in ${GEMM_BT_SIZES:-4096 8192}; do
  "$work/gemm_tflops" bf16 $size $size $size $([ $size = 8192 ] && echo 5 || echo 20) bt || status=1
done
for size in ${GEMM_F8_SIZES:-4096 8192}; do
  "$work/gemm_f8" $size $size $size 10 || status=1
  "$work/gemm_f8" $size $size $size 10 bn || status=1
done
for size in ${GEMM_TF32_SIZES:-4096 8192}; do
  "$work/gemm_tflops" tf32 $size $size $size $([ $size = 8192 ] && echo 5 || echo 20) || status=1
  "$work/gemm_tflops" tf32 $size $size $size $([ $size = 8192 ] && echo 5 || echo 20) bt || status=1
done
python3 bench/gpu/scaled_mm.py ${GEMM_F8_SIZES:-4096 8192} || status=1
exit $status
