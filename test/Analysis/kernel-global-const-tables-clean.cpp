// RUN: tilecc check -verify %s
// Deeply constant globals: tables, strings, constant structs and pointers to constants.
// expected-no-diagnostics
#include <tile/tile.hpp>

constexpr float kTable[4] = {0.5f, 1.0f, 1.5f, 2.0f};
const char* const kNames[2] = {"a", "b"};
struct Range {
  int lo, hi;
};
constexpr Range kRange{1, 7};
constexpr const float* kFirst = &kTable[0];

TILE_KERNEL void k(tile::Tensor<float, 64>& z, int i) {
  int j = i < kRange.lo ? kRange.lo : (i > kRange.hi ? kRange.hi : i);
  z.store(tile::full<float, 64>(kTable[j & 3] + *kFirst + float(kNames[0][0] == 'a')));
}
