// RUN: tilecc compile %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc-sm80 -c %t.cu -o %t.o %}
// RUN: %if nvcc %{ %nvcc-link %t.o -L%tile_libdir -ltile_rt -o %t.exe %}
// RUN: %if nvcc %{ %t.exe | FileCheck --check-prefix=OUT %s %}
// f8 tiles end to end: quantising floats to e4m3 and e5m2 (saturating), arithmetic and max on
// f8 (computed in float and rounded back), a row sum (accumulated in float, rounded once) and
// an f8 x f8 mma (staged as f16, which holds every f8 value exactly). The same kernel runs on
// the default device and on the CPU backend in one process; every f8 result must agree bit for
// bit, and the mma results to float rounding.
#include <tile/tile.hpp>
#include <cstdio>
#include <vector>
#include <random>
#include <cmath>
#include <cstring>

// Quantise to e4m3 with a scale, do arithmetic in f8, a row sum, a max, and an f8 GEMM.
TILE_KERNEL void quant(tile::Tensor<tile::f8e4m3, 16, 32>& q, tile::Tensor<float, 16, 1>& rowsum,
                       tile::Tensor<tile::f8e5m2, 16, 32>& e, tile::Tensor<float, 16, 16>& c,
                       const tile::Tensor<float, tile::dyn, tile::dyn>& x, float scale) {
  auto t = x.partition<16, 32>().load(tile::block_id(0), 0);
  auto f = tile::cast<tile::f8e4m3>(t * scale);
  auto g = f * f - tile::f8e4m3(1.5f);
  q.store(tile::max(g, f));
  rowsum.store(tile::reshape<16, 1>(tile::cast<float>(tile::sum<1>(f))));
  auto h = tile::cast<tile::f8e5m2>(t);
  e.store(h + h);
  c.store(tile::matmul(f, tile::transpose(h)));
}

// Conversions into f8 from float (every rounding case, saturation, inf, NaN), from double
// (rounded once), from int32 and from f16, and back to float.
TILE_KERNEL void convert(tile::Tensor<tile::f8e4m3, 1024>& a, tile::Tensor<tile::f8e5m2, 1024>& b,
                         tile::Tensor<tile::f8e4m3, 1024>& c, tile::Tensor<tile::f8e5m2, 1024>& d,
                         tile::Tensor<float, 1024>& back,
                         const tile::Tensor<float, tile::dyn>& x, const tile::Tensor<double, tile::dyn>& y,
                         const tile::Tensor<int32_t, tile::dyn>& n) {
  auto f = tile::load_tile_like(x, a);
  a.store(tile::cast<tile::f8e4m3>(f));
  b.store(tile::cast<tile::f8e5m2>(tile::cast<tile::f16>(f)));
  c.store(tile::cast<tile::f8e4m3>(tile::load_tile_like(y, a)));
  d.store(tile::cast<tile::f8e5m2>(tile::load_tile_like(n, a)));
  back.store(tile::cast<float>(tile::cast<tile::f8e4m3>(f)) + tile::cast<float>(tile::cast<tile::f8e5m2>(f)));
}

// CHECK: tile_dev::cvt<__nv_fp8_e4m3>(
// CHECK: tile_dev::to_shared_as(
// CHECK: tile_dev::mma_shared<__half,

int main() {
  const long long rows = 64, cols = 32;
  std::vector<float> hx(rows * cols);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> d(-4, 4);
  for (auto& v : hx) v = d(rng);
  auto x = tile::from_host(hx, {rows, cols});
  auto run = [&](const tile::Device& dev, std::vector<uint8_t>& qb, std::vector<float>& rs, std::vector<uint8_t>& eb, std::vector<float>& cc) {
    auto xd = tile::from_host(hx, {rows, cols}, dev);
    auto q = tile::zeros<tile::f8e4m3>({rows, cols}, dev);
    auto r = tile::zeros<float>({rows, 1}, dev);
    auto e = tile::zeros<tile::f8e5m2>({rows, cols}, dev);
    auto c = tile::zeros<float>({rows, 16}, dev);
    tile::launch<quant>(q.partition_mut<16, 32>(), r.partition_mut<16, 1>(), e.partition_mut<16, 32>(), c.partition_mut<16, 16>(), xd, 3.0f).sync();
    for (auto v : q.to_host()) qb.push_back(v.bits);
    rs = r.to_host();
    for (auto v : e.to_host()) eb.push_back(v.bits);
    cc = c.to_host();
  };
  std::vector<uint8_t> q1, q2, e1, e2; std::vector<float> r1, r2, c1, c2;
  run(tile::default_device(), q1, r1, e1, c1);
  run(tile::cpu_device(), q2, r2, e2, c2);
  int bad = 0;
  for (size_t i = 0; i < q1.size(); ++i) bad += q1[i] != q2[i] || e1[i] != e2[i];
  for (size_t i = 0; i < r1.size(); ++i) bad += r1[i] != r2[i];
  for (size_t i = 0; i < c1.size(); ++i) bad += std::fabs(c1[i] - c2[i]) > 1e-3f * (1 + std::fabs(c2[i]));
  // Conversions: float bit patterns around every f8 value, doubles near midpoints, integers.
  const long long m = 1 << 16;
  std::vector<float> fx(m);
  std::vector<double> dy(m);
  std::vector<int32_t> ni(m);
  std::mt19937 bits(11);
  for (long long i = 0; i < m; ++i) {
    uint32_t u = (i < 512) ? uint32_t(i & 255) << 24 | uint32_t(i >> 8) << 31 : uint32_t(bits());
    if (i % 7 == 0) u = (u & 0x80000000u) | (0x3c000000u + (u & 0x07ffffffu));  // near 2^-7..2^8
    std::memcpy(&fx[i], &u, 4);
    dy[i] = double(fx[i]) * (1.0 + 1e-9 * double(i % 5) - 2e-9);
    ni[i] = int32_t(bits() % 200001) - 100000;
  }
  auto conv = [&](const tile::Device& dev, std::vector<uint8_t>& out, std::vector<float>& fb) {
    auto xa = tile::from_host(fx, {m}, dev);
    auto ya = tile::from_host(dy, {m}, dev);
    auto na = tile::from_host(ni, {m}, dev);
    auto a = tile::zeros<tile::f8e4m3>({m}, dev);
    auto b = tile::zeros<tile::f8e5m2>({m}, dev);
    auto c = tile::zeros<tile::f8e4m3>({m}, dev);
    auto d = tile::zeros<tile::f8e5m2>({m}, dev);
    auto back = tile::zeros<float>({m}, dev);
    tile::launch<convert>(a.partition_mut<1024>(), b.partition_mut<1024>(), c.partition_mut<1024>(),
                          d.partition_mut<1024>(), back.partition_mut<1024>(), xa, ya, na).sync();
    for (auto v : a.to_host()) out.push_back(v.bits);
    for (auto v : b.to_host()) out.push_back(v.bits);
    for (auto v : c.to_host()) out.push_back(v.bits);
    for (auto v : d.to_host()) out.push_back(v.bits);
    fb = back.to_host();
  };
  std::vector<uint8_t> o1, o2;
  std::vector<float> b1, b2;
  conv(tile::default_device(), o1, b1);
  conv(tile::cpu_device(), o2, b2);
  for (size_t i = 0; i < o1.size(); ++i) bad += o1[i] != o2[i];
  for (size_t i = 0; i < b1.size(); ++i) bad += std::memcmp(&b1[i], &b2[i], 4) != 0 && !(b1[i] != b1[i] && b2[i] != b2[i]);
  std::printf("f8: %d mismatches on %s\n", bad, tile::default_device().name().c_str());
  return bad != 0;
}
// OUT: f8: 0 mismatches
