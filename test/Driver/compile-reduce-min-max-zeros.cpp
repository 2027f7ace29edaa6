// RUN: tilecc compile %s -I%S/Inputs -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc -c %t.cu -I%S/Inputs -o %t.o %}
// RUN: %if nvcc %{ %nvcc-link %t.o -L%tile_libdir -ltile_rt -o %t.exe %}
// RUN: %if nvcc %{ %t.exe | FileCheck --check-prefix=OUT %s %}
// tile::max and tile::min of floats order -0 below +0 and skip NaN. On the GPU each thread
// combines its registers with the hardware's max / min, one instruction each, which may
// return either zero, and combines them again exactly where its partial comes out zero. Rows
// made to end at -0, at +0 among many -0, at -0 among NaN, and ordinary ones, reduced along
// rows (registers and lanes) and along columns (registers, lanes and warps), on the default
// device and on the CPU backend: every result must agree bit for bit.
#include <cmath>
#include <tile/tile.hpp>

#include "bitwise_checks.h"

using tile::dyn;

TILE_KERNEL void row_max(tile::Tensor<float, 8>& out, const tile::Tensor<float, dyn, dyn>& x) {
  out.store(tile::max<1>(x.partition<8, 512>().load(tile::block_id(0), 0)));
}

TILE_KERNEL void row_min(tile::Tensor<float, 8>& out, const tile::Tensor<float, dyn, dyn>& x) {
  out.store(tile::min<1>(x.partition<8, 512>().load(tile::block_id(0), 0)));
}

TILE_KERNEL void column_max(tile::Tensor<float, 512>& out, const tile::Tensor<float, dyn, dyn>& x) {
  out.store(tile::max<0>(x.partition<64, 512>().load(0, tile::block_id(0))));
}

// The patterns are regular expressions so that they do not match these lines, which the
// generated file quotes.
// CHECK-LABEL: {{^}}// row_max:
// CHECK: {{tile_dev::maxnumf<float>}}
// CHECK-SAME: {{= fmaxf[(]}}
// CHECK-SAME: {{ == 0.0f; if [(]}}
// CHECK-LABEL: {{^}}// row_min:
// CHECK: {{tile_dev::minnumf<float>}}
// CHECK-SAME: {{= fminf[(]}}

// Row r of `rows` x `cols`: negative values and NaN, then by r % 5 nothing else, some -0, many
// -0 and one +0, many +0 and one -0, or values of both signs with zeros of both signs.
// `sign` -1 mirrors every value (for the minimum).
std::vector<float> zeroRows(int64_t rows, int64_t cols, float sign, unsigned seed) {
  std::mt19937 rng(seed);
  const float nan = std::nanf("");
  std::vector<float> v(size_t(rows * cols));
  auto at = [&](int64_t r) { return &v[size_t(r * cols + int64_t(rng() % cols))]; };
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      const unsigned pick = rng() % 8;
      v[size_t(r * cols + c)] = pick == 0 ? nan : -float(1 + pick);
    }
    switch (r % 5) {
      case 1:
        for (int k = 0; k < 3; ++k) *at(r) = -0.0f;
        break;
      case 2:
        for (int k = 0; k < 40; ++k) *at(r) = -0.0f;
        *at(r) = 0.0f;
        break;
      case 3:
        for (int k = 0; k < 40; ++k) *at(r) = 0.0f;
        *at(r) = -0.0f;
        break;
      case 4:
        for (int64_t c = 0; c < cols; ++c)
          v[size_t(r * cols + c)] =
              rng() % 4 == 0 ? (rng() % 2 ? 0.0f : -0.0f) : float(int(rng() % 9) - 4);
        break;
    }
  }
  if (sign < 0)
    for (float& e : v) e = -e;
  return v;
}

int main() {
  int bad = 0;
  for (float sign : {1.0f, -1.0f}) {
    {
      const auto hx = zeroRows(8 * 40, 512, sign, 1);
      auto run = [&](const tile::Device& dev, bool max) {
        auto x = tile::from_host(hx, {8 * 40, 512}, dev);
        auto y = tile::zeros<float>({8 * 40}, dev);
        if (max)
          tile::launch<row_max>(y.partition_mut<8>(), x).sync();
        else
          tile::launch<row_min>(y.partition_mut<8>(), x).sync();
        return y.to_host();
      };
      bad += compare("row max", run(tile::default_device(), true), run(tile::cpu_device(), true));
      bad += compare("row min", run(tile::default_device(), false), run(tile::cpu_device(), false));
    }
    {
      // Transposed: column c of the input is row c of zeroRows.
      const auto rows = zeroRows(512 * 3, 64, sign, 2);
      std::vector<float> hx(rows.size());
      for (int64_t c = 0; c < 512 * 3; ++c)
        for (int64_t r = 0; r < 64; ++r) hx[size_t(r * 512 * 3 + c)] = rows[size_t(c * 64 + r)];
      auto run = [&](const tile::Device& dev) {
        auto x = tile::from_host(hx, {64, 512 * 3}, dev);
        auto y = tile::zeros<float>({512 * 3}, dev);
        tile::launch<column_max>(y.partition_mut<512>(), x).sync();
        return y.to_host();
      };
      bad += compare("column max", run(tile::default_device()), run(tile::cpu_device()));
    }
  }
  std::printf("float min/max reductions: %d mismatches on %s\n", bad,
              tile::default_device().name().c_str());
  return bad != 0;
}
// OUT: float min/max reductions: 0 mismatches
