// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
#include <tile/tile.hpp>

struct Scale {
  virtual float factor() const { return 2.0f; }
};

inline float scaled(float v) {
  Scale s;
  return v * s.factor();
}

TILE_KERNEL void k(tile::Tensor<float, 128>& z, float v) { z.store(z.load() * scaled(v)); }
// CHECK: virtual-call.cpp:10:14: error: virtual call to 'Scale::factor' is not allowed in a tile kernel [tile-kernel-virtual-call]
