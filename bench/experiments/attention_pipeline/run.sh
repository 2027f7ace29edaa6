#!/usr/bin/env bash
# On the GPU machine: builds the variants written by make_variants.py (in .device-carry/ab/),
# checks and times each at S = 16384 (8 heads) and 4096 (32 heads), d = 128, not causal,
# beside torch's SDPA, and profiles v0 and v3 with ncu. Writes $OUT/ab.log, $OUT/ncu-*.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
out=${OUT:-/tmp/tilecc-gpu}
mkdir -p "$out"
work=$(mktemp -d)
exec > >(tee "$out/ab.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash bench/gpu/build_runtime.sh "$work" > /dev/null || exit 1
variants=${VARIANTS:-v0 v1 v2 v3}
pids=()
for v in $variants; do
  nvcc -O3 -std=c++20 -x cu -Iinclude -Iruntime -gencode=arch=compute_90a,code=sm_90a -lineinfo \
    -Xptxas -v .device-carry/ab/att_$v.cu -L"$work" -ltile_rt -lpthread -o "$work/att_$v" \
    > "$work/build_$v.log" 2>&1 &
  pids+=($!)
done
wait "${pids[@]}"  # not a bare wait: that would also wait for the tee above
for v in $variants; do
  echo "== $v: $(grep -c 'C751' "$work/build_$v.log") serialization warnings, $(grep -E 'spill' "$work/build_$v.log" | sort -u | tr '\n' ' ')"
done
cases="8 16384 128 full 32 4096 128 full"
for round in 1 2; do
  for v in $variants; do echo "-- $v round $round"; "$work/att_$v" $cases; done
done
python3 bench/gpu/sdpa.py $cases
for v in ${PROFILE:-v3}; do
  ncu --launch-skip 3 --launch-count 1 -k regex:attention --section WarpStateStats \
    --section SourceCounters --section InstructionStats -o "$work/rep_$v" \
    "$work/att_$v" 8 16384 128 full > /dev/null 2>&1
  ncu -i "$work/rep_$v.ncu-rep" --page source --csv --print-source sass > "$out/sass-$v.csv" 2>&1
  ncu -i "$work/rep_$v.ncu-rep" > "$out/ncu-$v.txt" 2>&1
done
echo done
