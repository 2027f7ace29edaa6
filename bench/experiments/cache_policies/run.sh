#!/usr/bin/env bash
# Cache-policy experiment (bench/results/2026-12-02-h200-cache-policies.md). Here:
#   build/bin/tilecc compile bench/memory_bound.tile.cpp -o /tmp/mb.cu
#   mkdir -p .device-carry/cache_policies
#   python3 bench/experiments/cache_policies/make_variants.py /tmp/mb.cu .device-carry/cache_policies
# then on the GPU machine (carry .device-carry): bash bench/experiments/cache_policies/run.sh
set -uo pipefail
out=/tmp/o; mkdir -p "$out"
work=$(mktemp -d)
bash bench/gpu/build_runtime.sh "$work" || exit 1
for f in .device-carry/cache_policies/*.cu; do
  n=$(basename "$f" .cu)
  nvcc -O3 -std=c++20 -x cu -Iinclude -Iruntime -Ibench/experiments/cache_policies -gencode=arch=compute_90a,code=sm_90a \
    "$f" -L"$work" -ltile_rt -lpthread -o "$work/$n" > "$out/$n.build.log" 2>&1 || echo "BUILD FAILED $n" &
done
wait
for f in .device-carry/cache_policies/*.cu; do n=$(basename "$f" .cu); grep -m3 -i "error" "$out/$n.build.log"; done
W="layernorm_bf16_4096x16384 rmsnorm_bf16_4096x16384 layernorm_bf16_8192x8192 rmsnorm_bf16_8192x8192 gemv_bf16_8192x8192 gemv_bf16_4096x14336 copy_f32_2^28"
for pass in 1 2; do
for n in mb_base mb_x1 mb_w2 mb_x1w2 mb_x3w4 mb_x3w4s3 mb_x1w2s1 mb_x5w2s5 mb_x0w4 mb_s5; do
  echo "== $n pass $pass"
  [ -x "$work/$n" ] && timeout 120 "$work/$n" $W 2>&1 | grep -v "^device" | paste - - 
done
done
cuobjdump -sass "$work/mb_x3w4s3" | grep -E "LDG|STG" | sed 's/^ *\/\*[0-9a-f]*\*\/ *//; s/ R[0-9]*.*//' | sort | uniq -c | sort -rn | head -12
