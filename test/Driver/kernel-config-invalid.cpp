// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
// A TILE_KERNEL_CONFIG tilecc does not know is an error at the attribute, not ignored.
#include <tile/tile.hpp>

TILE_KERNEL TILE_KERNEL_CONFIG(num_warps = 3)
void three(tile::Tensor<float, 128>& z) { z.store(z.load() * 2.0f); }
// CHECK: kernel-config-invalid.cpp:5:13: error: 'num_warps = 3' is not a kernel configuration; TILE_KERNEL_CONFIG takes 'num_warps = N' with N one of 1, 2, 4, 8, 16, 32 [tile-kernel-config]

TILE_KERNEL TILE_KERNEL_CONFIG(warps = 4)
void misspelled(tile::Tensor<float, 128>& z) { z.store(z.load() * 2.0f); }
// CHECK: kernel-config-invalid.cpp:9:13: error: 'warps = 4' is not a kernel configuration

TILE_KERNEL TILE_KERNEL_CONFIG(num_warps = 4) TILE_KERNEL_CONFIG(num_warps = 8)
void twice(tile::Tensor<float, 128>& z) { z.store(z.load() * 2.0f); }
// CHECK: kernel-config-invalid.cpp:[[@LINE-2]]:{{[0-9]+}}: error: a second TILE_KERNEL_CONFIG on one kernel is not a kernel configuration
