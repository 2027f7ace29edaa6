#!/usr/bin/env bash
# Builds tile_rt with its CUDA backend into $1/libtile_rt.a on a GPU machine (nvcc, no CMake
# build of the compiler needed). Used by run.sh and random_programs.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$1
cuda=${CUDA_HOME:-/usr/local/cuda}
pids=()
for f in "$root"/runtime/*.cpp "$root"/runtime/cpu/*.cpp "$root"/runtime/cuda/*.cpp; do
  g++ -O2 -fPIC -std=c++20 -DTILE_RT_HAS_CUDA=1 -DTILE_RT_HAS_COPY_KERNEL=1 -I"$root/include" \
    -I"$root/runtime" -I"$cuda/include" -c "$f" -o "$work/$(basename "$f" .cpp).o" &
  pids+=($!)
done
nvcc -O3 -std=c++20 -Xcompiler -fPIC -I"$root/include" -I"$root/runtime" \
  -gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a \
  -c "$root/runtime/cuda/strided_copy.cu" -o "$work/strided_copy.o" &
pids+=($!)
wait "${pids[@]}"
ar rcs "$work/libtile_rt.a" "$work"/*.o
