// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// `i <= b` runs scf.for to b + 1; `i != b` stepping by one runs to b; the step is any constant.
#include <tile/tile.hpp>

TILE_KERNEL void steps(tile::Tensor<float, 64>& z, int64_t n) {
  auto t = z.load();
  for (int64_t i = 1; i <= n; i += 4)
    t = t + 1.0f;
  for (int64_t j = 0; j != n; j++)
    t = t * 2.0f;
  z.store(t);
}

// CHECK-LABEL: func.func @steps(
// CHECK: %[[N:.*]] = arith.index_cast %arg1 : i64 to index
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[UB:.*]] = arith.addi %[[N]], %[[ONE]] : index
// CHECK: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK: %[[T1:.*]] = scf.for %{{.*}} = %{{.*}} to %[[UB]] step %[[FOUR]] iter_args(%{{.*}} = %{{.*}}) -> (tensor<64xf32>)
// CHECK: %[[N2:.*]] = arith.index_cast %arg1 : i64 to index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N2]] step %{{.*}} iter_args(%{{.*}} = %[[T1]]) -> (tensor<64xf32>)
