// RUN: tilecc compile %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc -c %t.cu -o %t.o %}
// RUN: %if nvcc %{ %nvcc-link %t.o -L%tile_libdir -ltile_rt -o %t.exe %}
// RUN: %if nvcc %{ %t.exe | FileCheck --check-prefix=OUT %s %}
// complex<float> tiles end to end: products, quotients, conjugates, magnitudes, negation,
// equality, casts to and from real types and a complex sum and cumsum. The same kernel runs on
// the default device and on the CPU backend in one process; the elementwise results must agree
// bit for bit (both compute each product on its own, the textbook quotient and the magnitude in
// double), the sums (whose order differs) to float rounding.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <tile/tile.hpp>
#include <vector>

using cf = tile::complex<float>;

TILE_KERNEL void arith(tile::Tensor<cf, 8, 32>& out, tile::Tensor<float, 8, 32>& mag,
                       tile::Tensor<cf, 8, 32>& sums, tile::Tensor<int32_t, 8, 32>& same,
                       const tile::Tensor<cf, tile::dyn, tile::dyn>& x,
                       const tile::Tensor<cf, tile::dyn, tile::dyn>& y, float scale) {
  auto a = x.partition<8, 32>().load(tile::block_id(0), 0);
  auto b = y.partition<8, 32>().load(tile::block_id(0), 0);
  auto q = a * b / (b - cf(0.5f, -0.25f)) + tile::conj(a) * scale - (-b);
  out.store(q);
  mag.store(tile::abs(q) + tile::real(a) * tile::imag(b) + tile::cast<float>(b));
  auto total = tile::broadcast<8, 32>(tile::reshape<8, 1>(tile::sum<1>(a)));
  sums.store(tile::cumsum<1>(b) + total + tile::make_complex(tile::real(a), tile::ones<float, 8, 32>()));
  same.store(tile::cast<int32_t>(a == b) + tile::cast<int32_t>(a != tile::cast<cf>(tile::real(a))) * 2 +
             tile::cast<int32_t>(tile::cast<bool>(b)) * 4);
}

// CHECK: tile_dev::cfloat{
// CHECK: __fmul_rn(

int main() {
  const long long rows = 40, cols = 32;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> d(-3, 3);
  std::vector<cf> hx(rows * cols), hy(rows * cols);
  for (long long i = 0; i < rows * cols; ++i) {
    hx[i] = cf(d(rng), d(rng));
    hy[i] = i % 9 == 0 ? hx[i] : i % 11 == 0 ? cf(0.0f, 0.0f) : cf(d(rng), i % 5 == 0 ? 0.0f : d(rng));
  }
  struct Out { std::vector<cf> q, s; std::vector<float> m; std::vector<int32_t> e; };
  auto run = [&](const tile::Device& dev) {
    auto x = tile::from_host(hx, {rows, cols}, dev);
    auto y = tile::from_host(hy, {rows, cols}, dev);
    auto q = tile::zeros<cf>({rows, cols}, dev);
    auto m = tile::zeros<float>({rows, cols}, dev);
    auto s = tile::zeros<cf>({rows, cols}, dev);
    auto e = tile::zeros<int32_t>({rows, cols}, dev);
    tile::launch<arith>(q.partition_mut<8, 32>(), m.partition_mut<8, 32>(), s.partition_mut<8, 32>(),
                        e.partition_mut<8, 32>(), x, y, 1.5f).sync();
    return Out{q.to_host(), s.to_host(), m.to_host(), e.to_host()};
  };
  const Out g = run(tile::default_device()), c = run(tile::cpu_device());
  int bad = 0;
  for (long long i = 0; i < rows * cols; ++i) {
    bad += std::memcmp(&g.q[i], &c.q[i], 8) != 0;
    bad += std::memcmp(&g.m[i], &c.m[i], 4) != 0;
    bad += g.e[i] != c.e[i];
    const cf diff = g.s[i] - c.s[i];
    bad += !(tile::abs(diff) <= 1e-5f * (1 + tile::abs(c.s[i])));
  }
  std::printf("complex: %d mismatches on %s\n", bad, tile::default_device().name().c_str());
  return bad != 0;
}
// OUT: complex: 0 mismatches
