// RUN: tilecc compile --emit=tile-ir %s 2>&1 | FileCheck %s
// A struct of tiles with a constructor and methods, the online-softmax state: a non-const
// method called in a loop changes the variable, so the loop carries both of its tiles; a
// loop inside a method that changes `this` carries the object's fields.
#include <tile/tile.hpp>

struct Stats {
  tile::Tile<float, 64> m;
  tile::Tile<float, 64> l;
  Stats() : m(tile::full<float, 64>(-1e30f)), l(tile::zeros<float, 64>()) {}
  void update(tile::Tile<float, 64> x) {
    auto mn = tile::max(m, x);
    l = l * tile::exp(m - mn) + tile::exp(x - mn);
    m = mn;
  }
  void scaleTimes(int n) {
    for (int i = 0; i < n; ++i)
      l = l * 0.5f;
  }
};

TILE_KERNEL void online(tile::Tensor<float, 64>& z,
                        const tile::Tensor<float, tile::dyn, tile::dyn>& x, int steps) {
  Stats s;
  auto columns = x.partition<64, 1>();
  for (int j = 0; j < steps; ++j)
    s.update(tile::reshape<64>(columns.load(tile::block_id(0), j)));
  s.scaleTimes(steps);
  z.store(s.l);
}
// CHECK-LABEL: func.func @online
// CHECK: %[[M0:.*]] = tile.splat
// CHECK: %[[S:.*]]:2 = scf.for {{.*}} iter_args(%[[M:.*]] = %[[M0]], %[[L:.*]] = %{{.*}}) -> (tensor<64xf32>, tensor<64xf32>)
// CHECK:   %[[MN:.*]] = arith.maxnumf %[[M]]
// CHECK:   scf.yield %[[MN]], %{{.*}} : tensor<64xf32>, tensor<64xf32>
// CHECK: %[[H:.*]]:2 = scf.for {{.*}} iter_args(%{{.*}} = %[[S]]#0, %[[HL:.*]] = %[[S]]#1)
// CHECK:   arith.mulf %[[HL]]
// CHECK: tile.store %[[H]]#1
