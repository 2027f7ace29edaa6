// RUN: tilecc compile --emit=tile-ir %s 2>&1 | FileCheck %s --check-prefix=PAIR
// RUN: tilecc compile --emit=tile-ir -DUSER_CLASS %s 2>&1 | FileCheck %s --check-prefix=USER
// Objects built by constructors: std::pair from two arguments (its constructor template
// inlined), and a user's class whose constructor has a default argument and member
// initializers.
#include <tile/tile.hpp>
#include <utility>

#ifndef USER_CLASS
TILE_KERNEL void pair(tile::Tensor<float, 16>& y, const tile::Tensor<float, tile::dyn>& a) {
  std::pair<int, int> p(1, 2);
  y.store(a.partition<16>().load(tile::block_id(0)) * float(p.first - p.second));
}
// PAIR-LABEL: func.func @pair
// PAIR: %[[D:.*]] = arith.subi %c1_i32, %c2_i32 : i32
// PAIR: arith.sitofp %[[D]] : i32 to f32
#else
struct Scale {
  int a, b;
  Scale(int x, int y = 3) : a(x), b(y * 2) {}
};

TILE_KERNEL void user_class(tile::Tensor<float, 16>& y, const tile::Tensor<float, tile::dyn>& a,
                            int k) {
  Scale s(k);
  y.store(a.partition<16>().load(tile::block_id(0)) * float(s.a + s.b));
}
// USER-LABEL: func.func @user_class
// USER: %[[B:.*]] = arith.muli %c3_i32, %c2_i32 : i32
// USER: %[[S:.*]] = arith.addi %arg2, %[[B]] : i32
// USER: arith.sitofp %[[S]] : i32 to f32
#endif
