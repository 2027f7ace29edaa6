#!/usr/bin/env bash
# On a GPU machine: builds the random programs that prepare.sh generated and compiled to CUDA
# (.device-carry/random/*.cu: random_<k> of generate_programs.py, gemm_random_<k> of
# generate_gemm_programs.py), the softmax and gemm examples and the nested-partition test, and
# runs them. Each random program
# runs on the GPU and on the CPU backend with the same fresh random inputs and compares every
# element; the summary counts programs and mismatches. Writes ${OUT:-/tmp/tilecc-gpu}/random.log.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${OUT:-/tmp/tilecc-gpu}
mkdir -p "$out"
work=$(mktemp -d)
exec > >(tee "$out/random.log") 2>&1
status=0
echo "== machine"; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "commit $(cat .device-carry/commit)"; date -u +%Y-%m-%dT%H:%M:%SZ
bash bench/gpu/build_runtime.sh "$work" || exit 1
nvcc_cmd=(nvcc -O3 -std=c++20 -x cu -Iinclude -Iruntime -gencode=arch=compute_90a,code=sm_90a)
pids=()
for cu in .device-carry/random/*.cu .device-carry/softmax.cu .device-carry/gemm.cu \
          .device-carry/nested_partition.cu; do
  "${nvcc_cmd[@]}" "$cu" -L"$work" -ltile_rt -lpthread -o "$work/$(basename "$cu" .cu)" \
    > "$work/$(basename "$cu" .cu).build.log" 2>&1 &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
cat "$work"/*.build.log | grep -E "error" | head -20
echo "== examples with reductions and mma"
for args in "" "1 1" "4097 1024" "33 5"; do
  "$work/softmax" $args || status=1
done
for args in "" "1 1 1" "65 63 33" "1024 1024 1024" "17 300 5"; do
  "$work/gemm" $args || status=1
done
"$work/nested_partition" || status=1
echo "== random programs (seed ${SEED:-1})"
total=0; bad=0
for bin in "$work"/random_* "$work"/gemm_random_*; do
  [ -x "$bin" ] || continue
  line=$("$bin" "${SEED:-1}" 2>&1 | tee -a "$out/random-detail.log" | tail -1)
  echo "$(basename "$bin"): $line"
  n=$(echo "$line" | sed -n 's/^\([0-9]*\) programs.*: \([0-9]*\) mismatched$/\1 \2/p')
  if [ -z "$n" ]; then status=1; echo "  (no summary: crashed?)"; continue; fi
  total=$((total + ${n% *})); bad=$((bad + ${n#* }))
done
echo "TOTAL: $total programs, $bad mismatched"
[ "$bad" = 0 ] || status=1
if command -v compute-sanitizer >/dev/null; then
  for bin in "$work/random_0" "$work/softmax" "$work/gemm"; do
    [ -x "$bin" ] || continue
    compute-sanitizer --tool memcheck --error-exitcode 3 "$bin" > "$work/san.log" 2>&1 \
      && echo "compute-sanitizer $(basename "$bin"): 0 errors" \
      || { echo "compute-sanitizer $(basename "$bin") FAILED"; tail -20 "$work/san.log"; status=1; }
  done
  for bin in "$work/random_1" "$work/gemm_random_0"; do
    [ -x "$bin" ] || continue
    for tool in racecheck synccheck; do
      compute-sanitizer --tool $tool --error-exitcode 3 "$bin" > "$work/race.log" 2>&1 \
        && echo "$tool $(basename "$bin"): 0 errors" \
        || { echo "$tool $(basename "$bin") FAILED"; grep -m5 -E "Error|Hazard" "$work/race.log"; status=1; }
    done
  done
fi
exit $status
