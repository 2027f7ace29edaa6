#!/usr/bin/env bash
# On the GPU machine, after bench/gpu/prepare.sh: the tile_rt Python module (python/tile_rt.cpp)
# and test/Python's module of tile kernels (their CUDA from tilecc, .device-carry/python_kernels.cu)
# built with nvcc against this machine's Python headers and pybind11 (torch's copy, else the one
# prepare.sh carried), both linked to one shared tile_rt (one runtime, so one set of loans, in the
# process); then bench/gpu/python_torch.py drives them with CUDA tensors of PyTorch.
# Writes ${OUT:-/tmp/tilecc-gpu}/python_torch.log.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${OUT:-/tmp/tilecc-gpu}
work=$(mktemp -d)
mkdir -p "$out"
exec > >(tee "$out/python_torch.log") 2>&1
echo "commit $(cat .device-carry/commit)"
py_inc=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
[ -f "$py_inc/Python.h" ] || { echo "FAILED: no Python.h under $py_inc"; exit 1; }
pybind=$(python3 -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "include"))')
[ -f "$pybind/pybind11/pybind11.h" ] || pybind=$root/.device-carry
suffix=$(python3 -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
echo "python $(python3 -c 'import sys; print(sys.version.split()[0])'), torch $(python3 -c 'import torch; print(torch.__version__)'), pybind11 from $pybind"
bash bench/gpu/build_runtime.sh "$work" > /dev/null || { echo "FAILED: tile_rt"; exit 1; }
cuda=${CUDA_HOME:-/usr/local/cuda}
g++ -shared -o "$work/libtile_rt.so" -Wl,--whole-archive "$work/libtile_rt.a" -Wl,--no-whole-archive \
  -L"$cuda/lib64" -lcudart -lpthread || { echo "FAILED: libtile_rt.so"; exit 1; }
flags=(-O2 -std=c++20 -shared -Xcompiler -fPIC -Xcompiler -fvisibility=hidden -Iinclude -Iruntime
       -I"$py_inc" -I"$pybind" -Itest/Python -L"$work" -ltile_rt -Xlinker -rpath="$work")
nvcc "${flags[@]}" python/tile_rt.cpp -o "$work/tile_rt$suffix" || { echo "FAILED: tile_rt module"; exit 1; }
nvcc "${flags[@]}" -gencode=arch=compute_90a,code=sm_90a test/Python/module.cpp \
  .device-carry/python_kernels.cu -o "$work/tile_test_kernels$suffix" ||
  { echo "FAILED: kernel module"; exit 1; }
PYTHONPATH="$work" python3 bench/gpu/python_torch.py -v || { echo "FAILED: python_torch.py"; exit 1; }
