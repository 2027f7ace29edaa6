// The examples of the operation reference (docs/book/pages/reference/ops/): loads and stores,
// matrix multiplication, atomics and debugging. Each kernel's result is compared with a host
// computation; any mismatch makes the program fail.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <tile/tile.hpp>
#include <vector>

using tile::dyn;
using tile::Tensor;

// --8<-- [start:mask]
// The largest element of each 32-element piece of x. Past x's end a load reads zeros, so the
// mask (Triton's `offsets < n`) replaces them with -inf before the max.
TILE_KERNEL void piece_max(Tensor<float, 1>& m, const Tensor<float, dyn>& x) {
  const int64_t i = tile::block_id(0);
  auto t = x.partition<32>().load(i);
  auto in_x = tile::iota<int64_t, 32>() + i * 32 < x.shape(0);
  m.store(tile::full<float, 1>(tile::max(tile::where(in_x, t, -INFINITY))));
}
// --8<-- [end:mask]

// --8<-- [start:tiles]
// Row sums of an M x K matrix: program i owns 16 rows and walks K in 16 x 32 tiles.
TILE_KERNEL void row_sums(Tensor<float, 16>& s, const Tensor<float, dyn, dyn>& x) {
  auto tiles = x.partition<16, 32>();
  tile::Tile<float, 16> acc;   // zeros
  for (int64_t k = 0; k < tile::num_tiles(tiles, 1); ++k) acc += tile::sum<1>(tiles.load(tile::block_id(0), k));
  s.store(acc);   // rows past M are dropped
}
// --8<-- [end:tiles]

// --8<-- [start:nested]
// A program's own 64-element piece, written as four 16-element tiles.
TILE_KERNEL void quarters(Tensor<int32_t, 64>& y) {
  auto parts = y.partition_mut<16>();
  for (int64_t j = 0; j < 4; ++j)
    parts.store(tile::iota<int32_t, 16>() + int32_t(tile::block_id(0) * 64 + j * 16), j);
}
// --8<-- [end:nested]

// --8<-- [start:mma]
// C = A x B with f16 inputs and a float accumulator, K in steps of 16.
TILE_KERNEL void gemm(Tensor<float, 16, 16>& c, const Tensor<tile::f16, dyn, dyn>& a,
                      const Tensor<tile::f16, dyn, dyn>& b) {
  auto at = a.partition<16, 16>();
  auto bt = b.partition<16, 16>();
  tile::Tile<float, 16, 16> acc;
  for (int64_t k = 0; k < tile::num_tiles(at, 1); ++k)
    acc = tile::mma(at.load(tile::block_id(0), k), bt.load(k, tile::block_id(1)), acc);
  c.store(acc);
}

// Two products at once (rank 3: batch x M x K times batch x K x N), with mixed FP8 inputs.
TILE_KERNEL void batched_f8(Tensor<float, 2, 16, 16>& c, const Tensor<float, dyn, dyn, dyn>& a,
                            const Tensor<float, dyn, dyn, dyn>& b) {
  auto x = tile::cast<tile::f8e4m3>(a.partition<2, 16, 32>().load(0, 0, 0));
  auto y = tile::cast<tile::f8e5m2>(b.partition<2, 32, 16>().load(0, 0, 0));
  c.store(tile::matmul(x, y));   // Tile<float, 2, 16, 16>
}
// --8<-- [end:mma]

// --8<-- [start:atomics]
// Every program adds its piece's sum to total[0], raises max_seen element by element, and tries
// to claim owner[0] (still -1) for itself; old gets the values max_seen held before.
TILE_KERNEL void atomics(Tensor<int32_t, 16>& old, const Tensor<int32_t, dyn>& x,
                         tile::Atomic<int32_t, dyn>& total, tile::Atomic<int32_t, 16>& max_seen,
                         tile::Atomic<int32_t, 1>& owner) {
  auto t = tile::load_tile_like(x, old);
  total.atomic_add(tile::sum(t), 0);                           // one element
  old.store(max_seen.atomic_max(t, 0));                        // the 16-element tile 0
  owner.atomic_cas(-1, int32_t(tile::block_id(0)), 0);         // succeeds once
}
// --8<-- [end:atomics]

// --8<-- [start:debug]
TILE_KERNEL void checked_sqrt(Tensor<float, 4>& y, const Tensor<float, dyn>& x) {
  auto t = tile::load_tile_like(x, y);
  tile::check(t >= 0.0f, "sqrt of a negative number");
  if (tile::block_id(0) == 0) tile::print("t", t);   // [program (0)] t[0] = ... , one line each
  y.store(tile::sqrt(t));
}
// --8<-- [end:debug]

int main() {
  int bad = 0;
  auto expect = [&](bool ok, const char* what) {
    if (!ok && ++bad) std::printf("wrong: %s\n", what);
  };
  {
    std::vector<float> h(100);
    for (int i = 0; i < 100; ++i) h[i] = -1.0f - float((i * 37) % 101);
    auto m = tile::zeros<float>({4});
    tile::launch<piece_max>(m.partition_mut<1>(), tile::from_host(h)).sync();
    const auto r = m.to_host();
    bool ok = true;
    for (int p = 0; p < 4; ++p) {
      float want = -INFINITY;
      for (int i = p * 32; i < std::min(100, p * 32 + 32); ++i) want = std::max(want, h[i]);
      ok &= r[p] == want;
    }
    expect(ok, "piece_max");  // without the mask, piece 3 would give 0
  }
  {
    const int M = 40, K = 70;
    std::vector<float> h(M * K);
    for (int i = 0; i < M * K; ++i) h[i] = float(i % 9) - 4.0f;
    auto s = tile::zeros<float>({M});
    tile::launch<row_sums>(s.partition_mut<16>(), tile::from_host(h, {M, K})).sync();
    const auto r = s.to_host();
    bool ok = true;
    for (int i = 0; i < M; ++i) {
      float want = 0;
      for (int k = 0; k < K; ++k) want += h[i * K + k];
      ok &= r[i] == want;
    }
    expect(ok, "row_sums");
  }
  {
    auto y = tile::zeros<int32_t>({128});
    tile::launch<quarters>(y.partition_mut<64>()).sync();
    const auto r = y.to_host();
    bool ok = true;
    for (int i = 0; i < 128; ++i) ok &= r[i] == i;
    expect(ok, "quarters");
  }
  {
    const int M = 32, N = 48, K = 40;  // K is not a multiple of 16: the last tiles read zeros
    std::vector<tile::f16> ha(M * K), hb(K * N);
    for (int i = 0; i < M * K; ++i) ha[i] = tile::f16(float(i % 7) - 3.0f);
    for (int i = 0; i < K * N; ++i) hb[i] = tile::f16(float(i % 5) - 2.0f);
    auto c = tile::zeros<float>({M, N});
    tile::launch<gemm>(c.partition_mut<16, 16>(), tile::from_host(ha, {M, K}), tile::from_host(hb, {K, N})).sync();
    const auto r = c.to_host();
    bool ok = true;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float want = 0;  // small integers: every partial sum is exact
        for (int k = 0; k < K; ++k) want += float(ha[i * K + k]) * float(hb[k * N + j]);
        ok &= r[i * N + j] == want;
      }
    expect(ok, "gemm");
  }
  {
    std::vector<float> ha(2 * 16 * 32), hb(2 * 32 * 16);
    for (std::size_t i = 0; i < ha.size(); ++i) ha[i] = float(int(i % 9) - 4);  // exact in both f8 types
    for (std::size_t i = 0; i < hb.size(); ++i) hb[i] = float(int(i % 7) - 3);
    auto c = tile::zeros<float>({2, 16, 16});
    tile::launch<batched_f8>(c.partition_mut<2, 16, 16>(), tile::from_host(ha, {2, 16, 32}),
                             tile::from_host(hb, {2, 32, 16}))
        .sync();
    const auto r = c.to_host();
    bool ok = true;
    for (int b = 0; b < 2; ++b)
      for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
          float want = 0;
          for (int k = 0; k < 32; ++k) want += ha[(b * 16 + i) * 32 + k] * hb[(b * 32 + k) * 16 + j];
          ok &= r[(b * 16 + i) * 16 + j] == want;
        }
    expect(ok, "batched_f8");
  }
  {
    std::vector<int32_t> h(64);
    for (int i = 0; i < 64; ++i) h[i] = (i * 13) % 29;
    auto old = tile::zeros<int32_t>({64});
    auto total = tile::zeros<int32_t>({1});
    auto max_seen = tile::zeros<int32_t>({16});
    auto owner = tile::full<int32_t>({1}, -1);
    tile::launch<atomics>(old.partition_mut<16>(), tile::from_host(h), total, max_seen, owner).sync();
    const auto ro = old.to_host();
    const auto rm = max_seen.to_host();
    int32_t sum = 0;
    for (int v : h) sum += v;
    bool ok = total.to_host()[0] == sum && owner.to_host()[0] >= 0 && owner.to_host()[0] < 4;
    for (int j = 0; j < 16; ++j) {
      const int32_t want = std::max(std::max(h[j], h[16 + j]), std::max(h[32 + j], h[48 + j]));
      ok &= rm[j] == want;
      for (int p = 0; p < 4; ++p) ok &= ro[p * 16 + j] >= 0 && ro[p * 16 + j] <= want;
    }
    expect(ok, "atomics");
  }
  {
    std::vector<float> h{0.0f, 1.0f, 4.0f, 9.0f, 16.0f, -25.0f, 36.0f, 49.0f};
    auto y = tile::zeros<float>({8});
    try {
      tile::launch<checked_sqrt>(y.partition_mut<4>(), tile::from_host(h)).sync();
      expect(false, "checked_sqrt: the check did not fail");
    } catch (const tile::Error& e) {
      // Names the check's file and line, the failing program (1) and the message.
      const char* text = e.what();
      expect(std::strstr(text, "tile program (1)") && std::strstr(text, "sqrt of a negative number"),
             "checked_sqrt: the message");
    }
  }
  std::printf("operation reference (memory): %s on %s\n", bad ? "WRONG" : "OK",
              tile::default_device().name().c_str());
  return bad ? 1 : 0;
}
