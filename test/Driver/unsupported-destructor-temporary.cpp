// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
// A temporary whose destructor runs code, destroyed at the end of its full-expression.
#include <tile/tile.hpp>

struct Finish {
  tile::Tensor<float, 64>* z;
  ~Finish() { z->store(tile::full<float, 64>(2.0f)); }
  float scale() const { return 2.0f; }
};

TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
  z.store(x.load() * Finish{&z}.scale());
}
// CHECK: unsupported-destructor-temporary.cpp:12:28: error: an object whose destruction runs code (the destructor of 'Finish') is not supported in a tile kernel [tile-unsupported]
