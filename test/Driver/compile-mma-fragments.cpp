// RUN: tilecc compile %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc-sm80 -c %t.cu -o %t.o %}
// RUN: %if nvcc %{ %nvcc-link %t.o -L%tile_libdir -ltile_rt -o %t.exe %}
// RUN: %if nvcc %{ %t.exe | FileCheck --check-prefix=OUT %s %}
// mma on fragment registers, end to end: K loops over f16, bf16, TF32 and f8 inputs (native
// m16n8k32 from sm_89, two f16 instructions on the same registers before) with the
// accumulator carried in the mma layout, a batched mma, two chained mma ops (the first's
// result scaled, cast to f16 and multiplied again), and a block with more warps than the
// accumulator has instruction tiles (the extra warps hold copies). Inputs are multiples of
// 1/16 (1/4 for f8), so every product and sum but the chained one is exact in f32 and the GPU
// must agree with the CPU backend bit for bit; the chained one to float rounding.
#include <tile/tile.hpp>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

// CHECK-DAG: tile_dev::MmaAcc<tile_dev::Ix<128, 128>, 4, 2, 8>
// CHECK-DAG: tile_dev::MmaOperand<tile_dev::Ix<128, 32>, 0, 2, 4, 2, 8>
// CHECK-DAG: tile_dev::MmaOperand<tile_dev::Ix<32, 16>, 0, 1,
// CHECK-DAG: tile_dev::MmaOperand<tile_dev::Ix<64, 32>, 0, 4, 4, 2, 8>
// CHECK-DAG: tile_dev::MmaAcc<tile_dev::Ix<2, 32, 32>,
// CHECK-DAG: tile_dev::MmaAcc<tile_dev::Ix<16, 16>, 1, 2, 8>
template <class T, int BM, int BN, int BK>
TILE_KERNEL void gemm(tile::Tensor<float, BM, BN>& c, const tile::Tensor<float, tile::dyn, tile::dyn>& a,
                      const tile::Tensor<float, tile::dyn, tile::dyn>& b) {
  auto at = a.partition<BM, BK>();
  auto bt = b.partition<BK, BN>();
  tile::Tile<float, BM, BN> acc = tile::full<float, BM, BN>(0.0f);
  for (int64_t k = 0; k < tile::num_tiles(at, 1); ++k)
    acc = tile::mma(tile::cast<T>(at.load(tile::block_id(0), k)),
                    tile::cast<T>(bt.load(k, tile::block_id(1))), acc);
  c.store(acc);
}

TILE_KERNEL void gemm_f8(tile::Tensor<float, 64, 32>& c, const tile::Tensor<float, tile::dyn, tile::dyn>& a,
                         const tile::Tensor<float, tile::dyn, tile::dyn>& b) {
  auto at = a.partition<64, 32>();
  auto bt = b.partition<32, 32>();
  auto acc = tile::full<float, 64, 32>(1.0f);
  for (int64_t k = 0; k < tile::num_tiles(at, 1); ++k)
    acc = tile::mma(tile::cast<tile::f8e4m3>(at.load(tile::block_id(0), k)),
                    tile::cast<tile::f8e5m2>(bt.load(k, tile::block_id(1))), acc);
  c.store(acc);
}

TILE_KERNEL void bmm(tile::Tensor<float, 2, 32, 32>& c, const tile::Tensor<float, tile::dyn, tile::dyn, tile::dyn>& a,
                     const tile::Tensor<float, tile::dyn, tile::dyn, tile::dyn>& b) {
  auto x = tile::cast<tile::bf16>(a.partition<2, 32, 16>().load(tile::block_id(0), tile::block_id(1), 0));
  auto y = tile::cast<tile::bf16>(b.partition<2, 16, 32>().load(tile::block_id(0), 0, tile::block_id(2)));
  c.store(tile::matmul(x, y));
}

TILE_KERNEL void chained(tile::Tensor<float, 64, 32>& o, const tile::Tensor<float, tile::dyn, tile::dyn>& q,
                         const tile::Tensor<float, tile::dyn, tile::dyn>& k,
                         const tile::Tensor<float, tile::dyn, tile::dyn>& v) {
  auto qt = tile::cast<tile::f16>(q.partition<64, 32>().load(tile::block_id(0), 0));
  auto kt = tile::cast<tile::f16>(k.partition<32, 64>().load(0, 0));
  auto s = tile::matmul(qt, kt);
  auto p = tile::cast<tile::f16>(s * 0.125f);
  auto vt = tile::cast<tile::f16>(v.partition<64, 32>().load(0, 0));
  o.store(tile::mma(p, vt, tile::full<float, 64, 32>(0.0f)));
}

TILE_KERNEL_CONFIG(num_warps = 8)
TILE_KERNEL void small(tile::Tensor<float, 16, 16>& c, const tile::Tensor<float, tile::dyn, tile::dyn>& a,
                       const tile::Tensor<float, tile::dyn, tile::dyn>& b) {
  auto x = tile::cast<tile::f16>(a.partition<16, 64>().load(tile::block_id(0), 0));
  auto y = tile::cast<tile::f16>(b.partition<64, 16>().load(0, tile::block_id(1)));
  c.store(tile::mma(x, y, tile::full<float, 16, 16>(2.0f)));
}

static std::vector<float> sixteenths(size_t n, unsigned seed, int range) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(-range, range - 1);
  std::vector<float> v(n);
  for (auto& x : v) x = float(d(rng)) / (range == 8 ? 4.0f : 16.0f);
  return v;
}

template <class Launch>
static std::vector<float> on(const tile::Device& dev, Launch launch) {
  return launch(dev);
}

int main() {
  int bad = 0, checked = 0;
  auto compare = [&](const char* what, const std::vector<float>& g, const std::vector<float>& c,
                     float tol) {
    int before = bad;
    for (size_t i = 0; i < g.size(); ++i, ++checked)
      bad += tol == 0 ? g[i] != c[i] : std::fabs(g[i] - c[i]) > tol * (1 + std::fabs(c[i]));
    if (bad != before) std::printf("%s: %d mismatches\n", what, bad - before);
  };
  auto matrices = [&](long long m, long long n, long long k, int range, auto kernel, const char* what) {
    const auto ha = sixteenths(size_t(m * k), 1, range), hb = sixteenths(size_t(k * n), 2, range);
    auto run = [&](const tile::Device& d) {
      auto a = tile::from_host(ha, {m, k}, d);
      auto b = tile::from_host(hb, {k, n}, d);
      auto c = tile::zeros<float>({m, n}, d);
      kernel(c, a, b);
      return c.to_host();
    };
    compare(what, run(tile::default_device()), run(tile::cpu_device()), 0);
  };
  matrices(256, 256, 512, 32, [](auto& c, auto& a, auto& b) {
    tile::launch<gemm<tile::f16, 128, 128, 32>>(c.template partition_mut<128, 128>(), a, b).sync();
  }, "f16");
  matrices(128, 192, 80, 32, [](auto& c, auto& a, auto& b) {
    tile::launch<gemm<tile::bf16, 64, 64, 16>>(c.template partition_mut<64, 64>(), a, b).sync();
  }, "bf16");
  matrices(96, 64, 48, 32, [](auto& c, auto& a, auto& b) {
    tile::launch<gemm<float, 32, 32, 16>>(c.template partition_mut<32, 32>(), a, b).sync();
  }, "tf32");
  matrices(128, 64, 96, 8, [](auto& c, auto& a, auto& b) {
    tile::launch<gemm_f8>(c.template partition_mut<64, 32>(), a, b).sync();
  }, "f8");
  matrices(48, 48, 64, 32, [](auto& c, auto& a, auto& b) {
    tile::launch<small>(c.template partition_mut<16, 16>(), a, b).sync();
  }, "replicated warps");
  {
    const auto ha = sixteenths(4 * 64 * 16, 3, 32), hb = sixteenths(4 * 16 * 64, 4, 32);
    auto run = [&](const tile::Device& d) {
      auto a = tile::from_host(ha, {4, 64, 16}, d);
      auto b = tile::from_host(hb, {4, 16, 64}, d);
      auto c = tile::zeros<float>({4, 64, 64}, d);
      tile::launch<bmm>(c.partition_mut<2, 32, 32>(), a, b).sync();
      return c.to_host();
    };
    compare("batched", run(tile::default_device()), run(tile::cpu_device()), 0);
  }
  {
    const auto hq = sixteenths(128 * 32, 5, 32), hk = sixteenths(32 * 64, 6, 32),
               hv = sixteenths(64 * 32, 7, 32);
    auto run = [&](const tile::Device& d) {
      auto q = tile::from_host(hq, {128, 32}, d);
      auto k = tile::from_host(hk, {32, 64}, d);
      auto v = tile::from_host(hv, {64, 32}, d);
      auto o = tile::zeros<float>({128, 32}, d);
      tile::launch<chained>(o.partition_mut<64, 32>(), q, k, v).sync();
      return o.to_host();
    };
    compare("chained", run(tile::default_device()), run(tile::cpu_device()), 1e-5f);
  }
  std::printf("mma fragments: %d mismatches in %d elements on %s\n", bad, checked,
              tile::default_device().name().c_str());
  return bad != 0;
}
// OUT: mma fragments: 0 mismatches
