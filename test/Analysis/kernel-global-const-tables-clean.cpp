// RUN: tilecc check -verify %s
// Deeply constant globals: tables, constant structs and pointers to constants.
// expected-no-diagnostics
#include <tile/tile.hpp>

constexpr float kTable[4] = {0.5f, 1.0f, 1.5f, 2.0f};
struct Range {
  int lo, hi;
};
constexpr Range kRange{1, 7};
constexpr const float* kFirst = &kTable[0];
const int kBias = 3;

TILE_KERNEL void k(tile::Tensor<float, 64>& z, int i) {
  int j = i < kRange.lo ? kRange.lo : (i > kRange.hi ? kRange.hi : i);
  z.store(tile::full<float, 64>(kTable[2] + *kFirst + float(j + kBias)));
}
