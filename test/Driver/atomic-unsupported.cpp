// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
// `tilecc check` accepts tile::Atomic kernels (they run on the CPU backend); the GPU lowering of
// atomic updates is not built yet, so compiling one for the GPU is an error, never a crash.
#include <tile/tile.hpp>

TILE_KERNEL void histogram(tile::Tensor<int32_t, 128>& x, tile::Atomic<int32_t, tile::dyn>& bins) {
  bins.atomic_add(tile::ones<int32_t, 128>(), 0);
}
// CHECK: atomic-unsupported.cpp:6:93: error: the tile::Atomic parameter 'bins' (GPU code for atomic updates is not generated yet; the kernel runs on the CPU backend only) is not supported in a tile kernel [tile-unsupported]
