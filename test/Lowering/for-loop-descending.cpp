// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// A counting-down `for` (`i > b` with `--i`, `i >= b` with `i -= c`) becomes an scf.for that
// counts j up from 0 to a - b (a - b + 1 for >=) by |c|, with i = a - j in the body.
#include <tile/tile.hpp>

TILE_KERNEL void down(tile::Tensor<int32_t, 32>& z, int a, int b) {
  int sum = 0;
  for (int i = a; i > b; --i)
    sum += i;
  for (int i = a; i >= b; i -= 3)
    sum -= i;
  z.store(tile::full<int32_t, 32>(sum));
}

// CHECK-LABEL: func.func @down(
// CHECK: %[[A:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[B:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[TRIP:.*]] = arith.subi %[[A]], %[[B]] : index
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[S1:.*]] = scf.for %[[J:.*]] = %[[ZERO]] to %[[TRIP]] step %[[ONE]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (i32) {
// CHECK:   %[[I:.*]] = arith.subi %[[A]], %[[J]] : index
// CHECK:   %[[II:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK:   %[[NEXT:.*]] = arith.addi %[[ACC]], %[[II]] : i32
// CHECK:   scf.yield %[[NEXT]] : i32
// CHECK: }
// CHECK: %[[A2:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[B2:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[D:.*]] = arith.subi %[[A2]], %[[B2]] : index
// CHECK: %[[TRIP2:.*]] = arith.addi %[[D]], %{{.*}} : index
// CHECK: %[[THREE:.*]] = arith.constant 3 : index
// CHECK: scf.for %[[J2:.*]] = %{{.*}} to %[[TRIP2]] step %[[THREE]] iter_args(%{{.*}} = %[[S1]]) -> (i32) {
// CHECK:   arith.subi %[[A2]], %[[J2]] : index
