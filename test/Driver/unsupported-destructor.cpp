// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
// The CPU backend runs a destructor at the end of its object's scope. The GPU lowering does not
// emit destructors yet, so it refuses the kernel rather than drop what the CPU runs.
#include <tile/tile.hpp>

struct Finish {
  tile::Tensor<float, 64>& z;
  ~Finish() { z.store(tile::full<float, 64>(2.0f)); }
};

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  Finish f{z};
  z.store(x.load());
}
// CHECK: unsupported-destructor.cpp:12:10: error: an object whose destruction runs code (the destructor of 'Finish') is not supported in a tile kernel [tile-unsupported]
