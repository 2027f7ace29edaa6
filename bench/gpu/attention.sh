#!/usr/bin/env bash
# On the GPU machine, after bench/gpu/prepare.sh: flash attention forward written as a user
# writes it (bench/attention.tile.cpp, sampled rows checked against a float64 reference before
# timing) and torch's scaled_dot_product_attention in the same run, at S = 4096 (32 heads) and
# 16384 (8 heads), d = 64 and 128, causal and not, and at S = 4000 (no block divides it); the
# SASS must hold HGMMA.
# Writes ${OUT:-/tmp/tilecc-gpu}/attention.log.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${OUT:-/tmp/tilecc-gpu}
mkdir -p "$out"
work=$(mktemp -d)
exec > >(tee "$out/attention.log") 2>&1
echo "== machine"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "commit $(cat .device-carry/commit)"; date -u +%Y-%m-%dT%H:%M:%SZ
bash bench/gpu/build_runtime.sh "$work" > /dev/null || exit 1
nvcc -O3 -std=c++20 -x cu -Iinclude -Iruntime -I. -gencode=arch=compute_90a,code=sm_90a -Xptxas -v \
  .device-carry/attention_bench.cu -L"$work" -ltile_rt -lpthread -o "$work/attention" \
  > "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
grep -E "spill|Used [0-9]+ registers" "$work/build.log" | sort | uniq -c | head -12
echo "HGMMA instructions: $(cuobjdump -sass "$work/attention" | grep -c HGMMA)"
cases="32 4096 64 full 32 4096 128 full 32 4096 64 causal 32 4096 128 causal
       8 16384 64 full 8 16384 128 full 8 16384 64 causal 8 16384 128 causal
       32 4000 128 full 32 4000 128 causal"
status=0
"$work/attention" $cases || status=1
python3 bench/gpu/sdpa.py $cases || status=1
exit $status
