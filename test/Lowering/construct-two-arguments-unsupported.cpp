// RUN: not tilecc compile --emit=tile-ir %s 2>&1 | FileCheck %s --check-prefix=PAIR
// RUN: not tilecc compile --emit=tile-ir -DUSER_CLASS %s 2>&1 | FileCheck %s --check-prefix=USER
// An object constructed from two arguments that is not a complex number (a std::pair, a
// user's class with a default argument) is a located tile-unsupported error, not a crash.
#include <tile/tile.hpp>
#include <utility>

#ifndef USER_CLASS
TILE_KERNEL void pair(tile::Tensor<float, 16>& y, const tile::Tensor<float, tile::dyn>& a) {
  std::pair<int, int> p(1, 2);
  // PAIR: construct-two-arguments-unsupported.cpp:[[@LINE-1]]:23: error: constructing 'std::pair<int, int>' is not supported in a tile kernel [tile-unsupported]
  y.store(a.partition<16>().load(tile::block_id(0)) * float(p.first));
}
#else
struct Scale {
  int a, b;
  Scale(int x, int y = 3) : a(x), b(y) {}
};

TILE_KERNEL void user_class(tile::Tensor<float, 16>& y, const tile::Tensor<float, tile::dyn>& a) {
  Scale s(1);
  // USER: construct-two-arguments-unsupported.cpp:[[@LINE-1]]:9: error: constructing 'Scale' is not supported in a tile kernel [tile-unsupported]
  y.store(a.partition<16>().load(tile::block_id(0)) * float(s.a + s.b));
}
#endif
