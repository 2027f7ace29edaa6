#!/usr/bin/env bash
# Prepares a GPU run on a machine with tilecc built: compiles every example, the add benchmark
# and the GPU CodeGen test to CUDA into .device-carry/ (the GPU machine has nvcc but no LLVM).
# Then run bench/gpu/run.sh on the GPU machine with .device-carry present.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
carry=$root/.device-carry
rm -rf "$carry" && mkdir -p "$carry"
for src in examples/add/add.tile.cpp examples/saxpy/saxpy.tile.cpp bench/memory_bound.tile.cpp \
           examples/matrix_relu/matrix_relu.tile.cpp examples/pipeline/pipeline.tile.cpp \
           examples/column_stats/column_stats.tile.cpp examples/softmax/softmax.tile.cpp \
           examples/gemm/gemm.tile.cpp examples/histogram/histogram.tile.cpp \
           bench/add_bandwidth.tile.cpp bench/op_overhead.tile.cpp; do
  name=$(basename "$src" .tile.cpp)
  "$build/bin/tilecc" compile "$root/$src" -o "$carry/$name.cu"
done
"$build/bin/tilecc" compile "$root/test/Driver/compile-control-flow.cpp" -o "$carry/control_flow.cu"
"$build/bin/tilecc" compile "$root/test/Driver/compile-nested-partition.cpp" \
  -o "$carry/nested_partition.cu"
"$build/bin/tilecc" compile "$root/test/Driver/compile-atomics.cpp" -o "$carry/atomics.cu"
"$build/bin/tilecc" compile "$root/test/Driver/compile-check-print.cpp" -o "$carry/check_print.cu"
"$build/bin/tilecc" compile "$root/test/Driver/compile-f8.cpp" -o "$carry/f8.cu"
"$build/bin/tilecc" compile "$root/test/Driver/compile-complex.cpp" -o "$carry/complex.cu"
"$build/bin/tilecc" compile "$root/test/Driver/compile-tf32-warpgroup.cpp" -o "$carry/tf32_warpgroup.cu"
"$build/bin/tilecc" compile "$root/test/Driver/compile-mma-fragments.cpp" -o "$carry/mma_fragments.cu"
inputs=$root/test/Driver/Inputs
"$build/bin/tilecc" compile "$root/test/Driver/compile-warp-shuffles.cpp" -I"$inputs" \
  -o "$carry/warp_shuffles.cu"
"$build/bin/tilecc" compile "$root/test/Driver/compile-cat-extract-in-registers.cpp" -I"$inputs" \
  -o "$carry/cat_extract.cu"
"$build/bin/tilecc" compile "$root/test/Driver/compile-scan-in-registers.cpp" -I"$inputs" \
  -o "$carry/scans.cu"
"$build/bin/tilecc" compile "$root/test/Driver/compile-staged-exchanges.cpp" -I"$inputs" \
  -o "$carry/staged_exchanges.cu"
"$build/bin/tilecc" compile "$root/test/Driver/compile-reduce-min-max-zeros.cpp" -I"$inputs" \
  -o "$carry/reduce_min_max_zeros.cu"
"$build/bin/tilecc" compile "$root/test/Driver/compile-reduce-across-warps.cpp" -I"$inputs" \
  -o "$carry/reduce_across_warps.cu"
"$build/bin/tilecc" compile "$root/bench/gpu/dlpack_torch.tile.cpp" -o "$carry/dlpack_torch.cu"
# The Python module of test/Python (python_torch.sh), and pybind11's headers should torch lack them.
"$build/bin/tilecc" compile "$root/test/Python/kernels.tile.cpp" -o "$carry/python_kernels.cu"
rm -rf "$carry/pybind11" && cp -r /usr/include/pybind11 "$carry/pybind11"
"$build/bin/tilecc" compile "$root/bench/gpu/timeline.tile.cpp" -o "$carry/timeline.cu"
"$build/bin/tilecc" compile "$root/bench/gpu/device_reset.tile.cpp" -o "$carry/device_reset.cu" \
  -I"${CUDA_HOME:-/usr/local/cuda}/include"
# The GEMM benchmark runs on the H200 only: its shared memory is planned for sm_90a alone.
"$build/bin/tilecc" compile "$root/bench/gemm_tflops.tile.cpp" -o "$carry/gemm_tflops.cu" \
  --arch=sm_90a -I"${CUDA_HOME:-/usr/local/cuda}/include"
"$build/bin/tilecc" compile "$root/bench/gemm_f8.tile.cpp" -o "$carry/gemm_f8.cu" \
  --arch=sm_90a -I"${CUDA_HOME:-/usr/local/cuda}/include"
# The attention benchmark includes examples/attention/attention.tile.cpp by its path from the
# repository root.
"$build/bin/tilecc" compile "$root/bench/attention.tile.cpp" -o "$carry/attention_bench.cu" \
  --arch=sm_90a -I"${CUDA_HOME:-/usr/local/cuda}/include" -I"$root"
# The attention example as the CMake rule builds it (sm_90a: warpgroup mma, tensor maps).
"$build/bin/tilecc" compile "$root/examples/attention/attention.tile.cpp" \
  -o "$carry/attention.cu" --arch=sm_90a -I"${CUDA_HOME:-/usr/local/cuda}/include"
# The FFT example, and its kernels against cuFFT (bench/gpu/fft.sh); the benchmark includes
# examples/fft/fft.tile.cpp by its path from the repository root.
"$build/bin/tilecc" compile "$root/examples/fft/fft.tile.cpp" -o "$carry/fft.cu" \
  --arch=sm_90a -I"${CUDA_HOME:-/usr/local/cuda}/include"
"$build/bin/tilecc" compile "$root/bench/fft.tile.cpp" -o "$carry/fft_bench.cu" \
  --arch=sm_90a -I"${CUDA_HOME:-/usr/local/cuda}/include" -I"$root"
# The batch-1 decode layer (checks and bench mode in one program), run by bench/gpu/decode.sh.
"$build/bin/tilecc" compile "$root/examples/decode/decode.tile.cpp" -o "$carry/decode.cu" \
  --arch=sm_90a -I"${CUDA_HOME:-/usr/local/cuda}/include"
"$build/bin/tilecc-translate" --tile-to-cuda "$root/test/CodeGen/GPU/run-kernels.mlir" \
  -o "$carry/run-kernels.cu"
# Random programs for differential testing (bench/gpu/random_programs.sh runs them).
python3 "$root/test/RandomPrograms/generate_programs.py" --out "$carry/random" \
  --programs "${RANDOM_PROGRAMS:-500}" --per-file 20 --seed "${RANDOM_SEED:-1}"
for src in "$carry"/random/*.tile.cpp; do
  "$build/bin/tilecc" compile "$src" -o "${src%.tile.cpp}.cu" &
done
wait
# Random GEMM-shaped programs (K loops on the warpgroup path, epilogues, chained mma), planned
# for the H200 like the GEMM benchmark.
python3 "$root/test/RandomPrograms/generate_gemm_programs.py" --out "$carry/random" \
  --programs "${RANDOM_GEMM_PROGRAMS:-500}" --per-file 25 --seed "${RANDOM_SEED:-1}"
for src in "$carry"/random/gemm_random_*.tile.cpp; do
  "$build/bin/tilecc" compile "$src" -o "${src%.tile.cpp}.cu" --arch=sm_90a \
    -I"${CUDA_HOME:-/usr/local/cuda}/include" &
done
wait
# The runtime's unit tests, built here with the CUDA backend: on the GPU machine the default
# device is the GPU, so they exercise its copies, fills, streams, events and graphs.
if [ -x "$build/bin/tile_runtime_tests" ]; then cp "$build/bin/tile_runtime_tests" "$carry/"; fi
git -C "$root" rev-parse HEAD > "$carry/commit"
ls -l "$carry"
