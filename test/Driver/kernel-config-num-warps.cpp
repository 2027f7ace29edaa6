// RUN: tilecc compile %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc -c %t.cu -o %t.o %}
// TILE_KERNEL_CONFIG(num_warps = 8) overrides the compiler's choice (one warp for a 128-element
// tile): the layout spreads over 8 warps and the CUDA block has 256 threads.
#include <tile/tile.hpp>

TILE_KERNEL TILE_KERNEL_CONFIG(num_warps = 8)
void scale(tile::Tensor<float, 128>& z) { z.store(z.load() * 2.0f); }

TILE_KERNEL void chosen(tile::Tensor<float, 128>& z) { z.store(z.load() * 2.0f); }

// CHECK: // scale: 8 warp(s), 256 threads per tile program
// CHECK: warpsPerBlock = [8]
// CHECK: __launch_bounds__(256)
// CHECK: // chosen: 1 warp(s), 32 threads per tile program
