// RUN: tilecc compile --emit=tile-ir %s 2>&1 | FileCheck %s
// Structured bindings of a user's struct and of std::pair (the tuple protocol: std::get
// inlined), and a struct returned from a device function from inside an `if` and a loop.
#include <tile/tile.hpp>
#include <utility>

struct MinMax {
  float lo, hi;
};
inline MinMax ordered(float a, float b) {
  if (a > b)
    return MinMax{b, a};
  return MinMax{a, b};
}
inline MinMax firstAbove(int n, float t) {
  for (int i = 0; i < n; ++i)
    if (float(i) > t)
      return MinMax{t, float(i)};
  return MinMax{t, t};
}

TILE_KERNEL void bindings(tile::Tensor<float, 64>& z, float a, float b, int n) {
  auto [lo, hi] = ordered(a, b);
  std::pair<float, int> p(hi - lo, n);
  auto [width, count] = p;
  const MinMax found = firstAbove(n, a);
  z.store(tile::full<float, 64>(width * float(count) + found.hi));
}
// CHECK-LABEL: func.func @bindings
// CHECK: %[[C:.*]] = arith.cmpf ogt, %arg1, %arg2 : f32
// CHECK: %[[O:.*]]:2 = scf.if %[[C]] -> (f32, f32)
// CHECK:   scf.yield %arg2, %arg1 : f32, f32
// CHECK:   scf.yield %arg1, %arg2 : f32, f32
// CHECK: %[[W:.*]] = arith.subf %[[O]]#1, %[[O]]#0 : f32
// CHECK: scf.while
// CHECK: %[[N:.*]] = arith.sitofp %arg3 : i32 to f32
// CHECK: arith.mulf %[[W]], %[[N]] : f32
