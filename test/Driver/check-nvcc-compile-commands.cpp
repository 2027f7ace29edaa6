// RUN: rm -rf %t && mkdir -p %t
// A CUDA project's compile_commands.json: the file's flags come from the CUDA that tilecc
// generated from it, compiled by nvcc (CMake's spelling of it), the only entry there is.
// RUN: echo '[{"directory": "%t", "file": "%t/k.tile.cpp.cu", "arguments": ["/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler", "-DTILE_B=8", "-I%S/Inputs", "-isystem=/usr/local/cuda/include", "-gencode=arch=compute_90a,code=sm_90a", "-gencode", "arch=compute_80,code=sm_80", "-Xcompiler=-fPIC,-Wall", "--expt-relaxed-constexpr", "-std=c++20", "-x", "cu", "-c", "%t/k.tile.cpp.cu", "-o", "k.o"]}]' > %t/compile_commands.json
// RUN: tilecc compile --emit=tile-ir -p %t %s | FileCheck %s
// RUN: tilecc check -p %t %s
// The same flags on the file's own entry.
// RUN: echo '[{"directory": "%t", "file": "%s", "arguments": ["nvcc", "-forward-unknown-to-host-compiler", "-DTILE_B=8", "-I%S/Inputs", "-arch", "sm_90a", "-Xcompiler", "-Wall", "--std=c++20", "-x", "cu", "-c", "%s"]}]' > %t/compile_commands.json
// RUN: tilecc compile --emit=tile-ir -p %t %s | FileCheck %s
#include "block_size.h"
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, kBlock>& z) { z.store(z.load()); }
// CHECK: !tile.view<16xf32, exclusive>
