#!/usr/bin/env bash
# On the GPU machine, after bench/gpu/prepare.sh: builds bench/memory_bound (the tile kernels
# tilecc compiled into .device-carry/memory_bound.cu), runs it (every element checked against
# a double reference, then timed), runs torch's baselines in the same run, and writes
# latest.json, a dated copy and a Markdown table to ${OUT:-/tmp/tilecc-gpu}/results.
# Arguments pick workloads (default: all).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${OUT:-/tmp/tilecc-gpu}
mkdir -p "$out"
work=$(mktemp -d)
echo "== machine"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
bash bench/gpu/build_runtime.sh "$work" || exit 1
nvcc -O3 -std=c++20 -x cu -Iinclude -Iruntime -gencode=arch=compute_90a,code=sm_90a -Xptxas -v \
  .device-carry/memory_bound.cu -L"$work" -ltile_rt -lpthread -o "$work/memory_bound" \
  > "$out/memory_bound.build.log" 2>&1 || { tail -40 "$out/memory_bound.build.log"; exit 1; }
grep -E "spill|Used [0-9]+ registers" "$out/memory_bound.build.log" | sed 's/ptxas info    ://' |
  paste - - | grep -v "0 bytes spill stores, 0 bytes spill loads.*0 bytes spill" | head -20
echo "== tilecc (checked, then timed)"
"$work/memory_bound" "$@" | tee "$out/tilecc.log"
status=${PIPESTATUS[0]}
echo "== baselines"
python3 bench/gpu/memory_bound.py baselines | tee "$out/baselines.log"
python3 bench/gpu/memory_bound.py record "$out/tilecc.log" "$out/baselines.log" \
  "$(cat .device-carry/commit)" "$out/results"
exit $status
