// RUN: tilecc compile --emit=tile-ir %s 2>&1 | FileCheck %s
// A kernel's own struct of scalars is a value: aggregate initialization (a missing field takes
// its in-class initializer), nested structs, reading and assigning fields, a whole-struct
// assignment in one branch of an `if` (the `if` yields exactly the fields, as scalars).
#include <tile/tile.hpp>

struct Range {
  float lo;
  float hi = 4.0f;
};
struct Box {
  Range r;
  int n;
};

TILE_KERNEL void fields(tile::Tensor<float, 64>& z, float a, int steps) {
  Box box{Range{a}, 3};
  if (steps > 2)
    box.r.lo += 1.0f;
  else
    box = Box{Range{0.0f, 2.0f}, 1};
  z.store(tile::full<float, 64>((box.r.hi - box.r.lo) * float(box.n)));
}
// CHECK-LABEL: func.func @fields
// CHECK: %[[HI:.*]] = arith.constant 4.0
// CHECK: %[[J:.*]]:3 = scf.if %{{.*}} -> (f32, f32, i32) {
// CHECK:   %[[LO:.*]] = arith.addf %arg1, %{{.*}} : f32
// CHECK:   scf.yield %[[LO]], %[[HI]], %c3_i32 : f32, f32, i32
// CHECK: } else {
// CHECK:   scf.yield %{{.*}}, %{{.*}}, %{{.*}} : f32, f32, i32
// CHECK: %[[D:.*]] = arith.subf %[[J]]#1, %[[J]]#0 : f32
// CHECK: %[[N:.*]] = arith.sitofp %[[J]]#2 : i32 to f32
// CHECK: arith.mulf %[[D]], %[[N]] : f32
