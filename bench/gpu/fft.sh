#!/usr/bin/env bash
# On the GPU machine, after bench/gpu/prepare.sh: the FFT example (examples/fft/fft.tile.cpp)
# checked on the GPU, then its kernels timed by bench/fft.tile.cpp against cuFFT's
# cufftExecC2C in the same run: batched complex-to-complex f32, forward, 256 MB of rows each
# (N = 256, 1024, 4096 and 16384 by default; arguments pick others), every output element
# checked against cuFFT (and three rows against a double-precision FFT) before either is
# timed. One RESULT line per N with both throughputs and the ratio (records fft_c64_<N>).
# Writes ${OUT:-/tmp/tilecc-gpu}/fft.log.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${OUT:-/tmp/tilecc-gpu}
mkdir -p "$out"
work=$(mktemp -d)
exec > >(tee "$out/fft.log") 2>&1
echo "== machine"; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
echo "commit $(cat .device-carry/commit)"; date -u +%Y-%m-%dT%H:%M:%SZ
bash bench/gpu/build_runtime.sh "$work" > /dev/null || exit 1
# The example (all six N, forward and inverse, every element against a double-precision FFT)
# and the benchmark, built side by side; -I. finds examples/fft/fft.tile.cpp, which the
# benchmark's generated file includes.
nvcc_cmd=(nvcc -O3 -std=c++20 -x cu -Iinclude -Iruntime -I. -gencode=arch=compute_90a,code=sm_90a)
"${nvcc_cmd[@]}" .device-carry/fft.cu -L"$work" -ltile_rt -lpthread -o "$work/fft_example" \
  > "$work/example.log" 2>&1 &
example_build=$!
"${nvcc_cmd[@]}" -Xptxas -v .device-carry/fft_bench.cu -L"$work" -ltile_rt -lcufft -lpthread \
  -o "$work/fft" > "$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
wait $example_build || { tail -30 "$work/example.log"; exit 1; }
# Registers and spills of the timed (forward) kernels.
grep -E "Compiling entry|spill|Used [0-9]+ registers" "$work/build.log" | sed 's/ptxas info    ://' |
  paste - - - | sed -E "s/ *Compiling entry function '_Z[0-9]+__tilecc_([A-Za-z0-9_]+)ILb([01])E[^\t]*/\1 whole=\2/" | head -24
status=0
echo "== the example on the GPU"
"$work/fft_example" || status=1
"$work/fft_example" 1000 4096 inverse || status=1
"$work/fft_example" 333 16384 || status=1
echo "== tilecc against cuFFT"
"$work/fft" "$@" || status=1
exit $status
