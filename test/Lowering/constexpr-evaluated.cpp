// RUN: tilecc check %s
// RUN: tilecc compile --emit=tile-ir %s 2>&1 | FileCheck %s
// What the compiler evaluates runs nowhere, so its code is neither checked as kernel code nor
// lowered: a constexpr local initialized through std::array's operator[] and a builtin
// (std::countr_zero) is its value, and a recursive constexpr function in a template argument
// is not recursion in the kernel.
#include <bit>
#include <tile/tile.hpp>

template <class T>
T scaledByLogRows(const T& t) {
  constexpr int64_t rows = T::shape[0];
  constexpr int logRows = std::countr_zero(uint64_t(rows));
  return t * float(logRows);
}

constexpr int log2Of(int64_t v) { return v <= 1 ? 0 : 1 + log2Of(v / 2); }

template <int K, class T>
T scaled(const T& t) {
  return t * float(K);
}

TILE_KERNEL void rows(tile::Tensor<float, 16, 64>& y,
                      const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  y.store(scaledByLogRows(tile::load_tile_like(x, y)));
}
// CHECK-LABEL: func.func @rows
// CHECK: arith.constant 4.000000e+00 : f32

TILE_KERNEL void templateArgument(tile::Tensor<float, 16, 64>& y,
                                  const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  y.store(scaled<log2Of(64)>(tile::load_tile_like(x, y)));
}
// CHECK-LABEL: func.func @templateArgument
// CHECK: arith.constant 6.000000e+00 : f32
