// One kernel per group of tile operations, each result checked on the host.
#include <cmath>
#include <cstdio>
#include <tile/tile.hpp>
#include <vector>

using tile::dyn;
using tile::Tensor;

// Element-wise arithmetic, math and selection: y = where(x > 0, sqrt(x) * 2, -1).
TILE_KERNEL void elementwise(Tensor<float, 64>& y, const Tensor<float, dyn>& x) {
  auto t = tile::load_tile_like(x, y);
  y.store(tile::where(t > 0.0f, tile::sqrt(t) * 2.0f, tile::full<float, 64>(-1.0f)));
}

// Reductions and shapes: each row of a 16 x 32 piece minus the row's mean.
TILE_KERNEL void center_rows(Tensor<float, 16, 32>& y, const Tensor<float, dyn, dyn>& x) {
  auto t = tile::load_tile_like(x, y);
  auto mean = tile::sum<1>(t) / 32.0f;                                  // Tile<float, 16>
  y.store(t - tile::broadcast<16, 32>(tile::reshape<16, 1>(mean)));    // back against each row
}

// Scans and iota: y[i] = 0 + 1 + ... + i within each 128-element piece.
TILE_KERNEL void prefix(Tensor<int32_t, 128>& y) {
  y.store(tile::cumsum<0>(tile::iota<int32_t, 128>()));
}

// Matrix multiply: c = a x b for one 32 x 32 piece of c, K = 64 in one step.
TILE_KERNEL void matmul(Tensor<float, 32, 32>& c, const Tensor<float, dyn, dyn>& a,
                        const Tensor<float, dyn, dyn>& b) {
  const int64_t i = tile::block_id(0), j = tile::block_id(1);
  c.store(tile::matmul(a.partition<32, 64>().load(i, 0), b.partition<64, 32>().load(0, j)));
}

// Loops and atomics: a histogram of x's values (0..15) over all programs.
TILE_KERNEL void histogram(Tensor<int32_t, 256>& unused, const Tensor<int32_t, dyn>& x,
                           tile::Atomic<int32_t, 16>& bins) {
  auto v = tile::load_tile_like(x, unused);
  for (int b = 0; b < 16; ++b) bins.atomic_add(tile::sum(tile::cast<int32_t>(v == b)), b);
  unused.store(v);
}

int main() {
  int bad = 0;
  auto expect = [&](bool ok, const char* what) {
    if (!ok && ++bad) std::printf("wrong: %s\n", what);
  };
  {
    std::vector<float> h(100);
    for (int i = 0; i < 100; ++i) h[i] = float(i - 50);
    auto y = tile::zeros<float>({100});
    tile::launch<elementwise>(y.partition_mut<64>(), tile::from_host(h)).sync();
    const auto r = y.to_host();
    expect(r[10] == -1.0f && r[66] == 2.0f * std::sqrt(16.0f), "elementwise");
  }
  {
    std::vector<float> h(16 * 32);
    for (int i = 0; i < 16 * 32; ++i) h[i] = float(i % 32);
    auto y = tile::zeros<float>({16, 32});
    tile::launch<center_rows>(y.partition_mut<16, 32>(), tile::from_host(h, {16, 32})).sync();
    expect(y.to_host()[0] == -15.5f && y.to_host()[31] == 15.5f, "center_rows");
  }
  {
    auto y = tile::zeros<int32_t>({128});
    tile::launch<prefix>(y.partition_mut<128>()).sync();
    expect(y.to_host()[127] == 127 * 128 / 2, "prefix");
  }
  {
    auto a = tile::from_host(std::vector<float>(64 * 64, 1.0f), {64, 64});
    auto b = tile::from_host(std::vector<float>(64 * 64, 0.5f), {64, 64});
    auto c = tile::zeros<float>({64, 64});
    tile::launch<matmul>(c.partition_mut<32, 32>(), a, b).sync();
    expect(c.to_host()[64 * 64 - 1] == 32.0f, "matmul");
  }
  {
    std::vector<int32_t> h(1024);
    for (int i = 0; i < 1024; ++i) h[i] = i % 16;
    auto x = tile::from_host(h);
    auto out = tile::zeros<int32_t>({1024});
    auto bins = tile::zeros<int32_t>({16});
    tile::launch<histogram>(out.partition_mut<256>(), x, bins).sync();
    expect(bins.to_host()[3] == 64, "histogram");
  }
  std::printf("language tour: %s on %s\n", bad ? "WRONG" : "OK", tile::default_device().name().c_str());
  return bad ? 1 : 0;
}
