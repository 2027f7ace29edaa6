#!/usr/bin/env bash
# On the GPU machine, after bench/gpu/prepare.sh: the batch-1 decode step of a Llama-like layer
# (examples/decode/decode.tile.cpp, compiled by tilecc into .device-carry/decode.cu). First its
# checks (every output element against a double-precision host reference, graph replay against
# plain launches) at two small shapes and at the full shape; then, in the same run, its bench mode
# at the full Llama shape (hidden 4096, 32 heads of 128, MLP 14336, position 4095 of a 4096
# context: us per layer with plain launches and with graph replay, each kernel's GB/s and the copy
# ceiling) and bench/gpu/decode_torch.py (the same layer in torch, bf16, eager and CUDA graphs).
# A sweep of the keys per attention program follows (not recorded).
# Writes ${OUT:-/tmp/tilecc-gpu}/decode.log and the records ${OUT}/results/decode.json (+ .md).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${OUT:-/tmp/tilecc-gpu}
mkdir -p "$out"
work=$(mktemp -d)
exec > >(tee "$out/decode.log") 2>&1
echo "== machine"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
echo "commit $(cat .device-carry/commit)"; date -u +%Y-%m-%dT%H:%M:%SZ
bash bench/gpu/build_runtime.sh "$work" > /dev/null || exit 1
nvcc -O3 -std=c++20 -x cu -Iinclude -Iruntime -Iexamples/decode \
  -gencode=arch=compute_90a,code=sm_90a -Xptxas -v \
  .device-carry/decode.cu -L"$work" -ltile_rt -lpthread -o "$work/decode" \
  > "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
grep -E "spill|Used [0-9]+ registers" "$work/build.log" | sort | uniq -c | head -24
status=0
check() { echo "+ $*"; "$@" || { echo "FAILED: $*"; status=1; }; }

echo "== checks"
check "$work/decode"
check "$work/decode" 512 4 1376 200 0 3
check "$work/decode" 4096 32 14336 4096 4093 3

echo "== tilecc (layer 0 checked, then timed)"
"$work/decode" --bench | tee "$work/tilecc.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "FAILED: decode --bench"; status=1; }

echo "== torch"
python3 bench/gpu/decode_torch.py baselines | tee "$work/torch.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "FAILED: decode_torch.py"; status=1; }

echo "== records"
python3 bench/gpu/decode_torch.py record "$work/tilecc.log" "$work/torch.log" \
  "$(cat .device-carry/commit)" "$out/results" || status=1

echo "== keys per attention program (default: 256)"
for chunk in 64 128 512; do
  "$work/decode" --bench 4096 32 14336 4096 "$chunk" | grep -E "RESULT|attend_chunk|combine_chunks" |
    sed "s/^/chunk $chunk: /"
done
exit $status
