// RUN: tilecc check -verify %s
// A map is proven injective on the integers the machine computes: each operation and
// conversion must hold every value a coordinate takes on a grid of up to 2^31 - 1 programs
// per axis, up to terms that do not depend on the program (wrapping shifts all values alike).
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
#include <cstdint>

void in_64_bits() {
  auto p = tile::zeros<float>({64, 64}).partition<16, 16>().map(
      [](std::array<int64_t, 2> c, std::array<int64_t, 2> g) {
        return std::array<int64_t, 2>{c[0] * 65536 + c[1], c[1]};
      });
}

void shifted_by_a_capture(int64_t n) {
  auto p = tile::zeros<float>({64, 64}).partition<16, 16>().map(
      [n](std::array<int64_t, 2> c, std::array<int64_t, 2> g) {
        return std::array<int64_t, 2>{n - c[1], c[0] + n * n};
      });
}

void narrowed_to_32_bits() {
  auto p = tile::zeros<float>({64, 64}).partition<16, 16>().map( // expected-error {{tile coordinate 0: a coordinate may wrap around in 'int32_t' on a large grid (its values span more than 2^32)}}
      [](std::array<int64_t, 2> c, std::array<int64_t, 2> g) {
        return std::array<int64_t, 2>{int32_t(c[0] * 65536 + c[1]), c[1]};
      });
}

void computed_in_int() {
  auto p = tile::zeros<float>({64, 64}).partition<16, 16>().map( // expected-error {{tile coordinate 0: a coordinate may wrap around in 'int' on a large grid (its values span more than 2^32)}}
      [](std::array<int64_t, 2> c, std::array<int64_t, 2> g) {
        const int row = int(c[0]) * 3;
        return std::array<int64_t, 2>{row, c[1]};
      });
}

void one_coordinate_in_int() {
  auto p = tile::zeros<float>({64, 64}).partition<16, 16>().map(
      [](std::array<int64_t, 2> c, std::array<int64_t, 2> g) {
        const int row = int(c[1]);
        return std::array<int64_t, 2>{c[0], row};
      });
}

void scaled_past_64_bits() {
  auto p = tile::zeros<float>({64, 64}).partition<16, 16>().map( // expected-error {{tile coordinate 1: a coordinate may wrap around in 'long' on a large grid (its values span more than 2^64)}}
      [](std::array<int64_t, 2> c, std::array<int64_t, 2> g) {
        return std::array<int64_t, 2>{c[0], c[1] * 1099511627776};
      });
}
