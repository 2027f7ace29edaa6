// The examples of the operation reference (docs/book/pages/reference/ops/): creating and
// converting tiles, element-wise arithmetic, shapes, reductions and scans. Each kernel's result
// is compared with a host computation; any mismatch makes the program fail.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <tile/tile.hpp>
#include <vector>

using tile::dyn;
using tile::Tensor;

// --8<-- [start:create]
// y[r][c] = v + c: a constant, an iota converted to float and broadcast over the rows.
TILE_KERNEL void create(Tensor<float, 4, 8>& y, float v) {
  auto base = tile::full<float, 4, 8>(v);                    // every element v
  auto cols = tile::cast<float>(tile::iota<int32_t, 8>());   // 0, 1, ..., 7
  y.store(base + tile::broadcast<4, 8>(cols) + tile::zeros<float, 4, 8>());
}
// --8<-- [end:create]

// --8<-- [start:cast]
// The three conversions of one float input: saturating to int32_t, then modular to uint8_t,
// and the float's bit pattern.
TILE_KERNEL void convert(Tensor<int32_t, 8>& sat, Tensor<uint8_t, 8>& wrap, Tensor<uint32_t, 8>& bits,
                         const Tensor<float, dyn>& x) {
  auto t = tile::load_tile_like(x, sat);
  auto i = tile::cast<int32_t>(t);   // rounds toward zero, saturates, NaN -> 0
  sat.store(i);
  wrap.store(tile::cast<uint8_t>(i));   // keeps the low 8 bits
  bits.store(tile::bitcast<uint32_t>(t));
}
// --8<-- [end:cast]

// --8<-- [start:int]
// Integer arithmetic is C++'s, without its undefined overflow: + - * wrap around.
TILE_KERNEL void int_ops(Tensor<int32_t, 8>& q, Tensor<int32_t, 8>& r, Tensor<int32_t, 8>& w,
                         const Tensor<int32_t, dyn>& x) {
  auto t = tile::load_tile_like(x, q);
  q.store(t / 3);                 // rounds toward zero
  r.store(t % 3);                 // has the sign of t
  w.store(t + 2147483647);        // wraps: 1 + INT32_MAX == INT32_MIN
}
// --8<-- [end:int]

// --8<-- [start:minmax]
// min and max ignore a NaN operand and order -0 below +0; where and the math functions work element by element.
TILE_KERNEL void float_ops(Tensor<float, 8>& lo, Tensor<float, 8>& hi, Tensor<float, 8>& f,
                           const Tensor<float, dyn>& a, const Tensor<float, dyn>& b) {
  auto x = tile::load_tile_like(a, lo);
  auto y = tile::load_tile_like(b, lo);
  lo.store(tile::min(x, y));
  hi.store(tile::max(x, y));
  f.store(tile::where(x > 0.0f, tile::rsqrt(x), tile::fma(x, 2.0f, 1.0f)));
}
// --8<-- [end:minmax]

// --8<-- [start:complex]
// (t + i) * i = -1 + t i, taken apart again; |3 + 4i| = 5.
TILE_KERNEL void rotate(Tensor<float, 8>& re, Tensor<float, 8>& im, Tensor<float, 8>& mag,
                        const Tensor<float, dyn>& x) {
  auto t = tile::load_tile_like(x, re);
  auto z = tile::make_complex(t, 1.0f) * tile::complex<float>(0.0f, 1.0f);
  re.store(tile::real(z));
  im.store(tile::imag(tile::conj(z)));   // -t
  mag.store(tile::abs(tile::make_complex(tile::full<float, 8>(3.0f), 4.0f)));
}
// --8<-- [end:complex]

// --8<-- [start:shape]
TILE_KERNEL void shapes(Tensor<int32_t, 4, 8>& y, Tensor<int32_t, 1, 8>& p) {
  auto row = tile::iota<int32_t, 8>();                 // 0 1 2 3 4 5 6 7
  auto m = tile::reshape<2, 4>(row);                   // [[0 1 2 3] [4 5 6 7]]
  auto t = tile::transpose(m);                         // 4 x 2: [[0 4] [1 5] [2 6] [3 7]]
  auto c = tile::cat<1>(t, t * 10);                    // 4 x 4: [[0 4 0 40] ...]
  auto second = tile::extract<1, 4>(m, 1, 0);          // the 1 x 4 piece (1, 0): [[4 5 6 7]]
  auto outside = tile::extract<1, 4>(m, 2, 0);         // past m's end: zeros
  y.store(tile::cat<1>(c, tile::broadcast<4, 4>(second + outside)));
  // Rank 3: result axis k is axis Perm[k] of the operand.
  p.store(tile::reshape<1, 8>(tile::permute<2, 0, 1>(tile::reshape<2, 2, 2>(row))));
}
// --8<-- [end:shape]

// --8<-- [start:reduce]
// Per row of a 4 x 8 tile: the sum, the max (NaN ignored), where the max is, and the sum of
// absolute values with a combining function; and the largest element of the whole tile.
TILE_KERNEL void row_stats(Tensor<float, 4>& sums, Tensor<float, 4>& maxs, Tensor<int32_t, 4>& at,
                           Tensor<float, 4>& l1, Tensor<float, 1>& top, const Tensor<float, dyn, dyn>& x) {
  auto t = x.partition<4, 8>().load(0, 0);
  sums.store(tile::sum<1>(t));                                    // Tile<float, 4>
  maxs.store(tile::max<1>(t));
  at.store(tile::argmax<1>(t));                                   // Tile<int32_t, 4>
  l1.store(tile::reduce<1>(tile::abs(t), 0.0f, [](float a, float b) { return a + b; }));
  top.store(tile::full<float, 1>(tile::max(t)));                  // a float
}
// --8<-- [end:reduce]

// --8<-- [start:scan]
// Running sums and running maxima along each row (inclusive).
TILE_KERNEL void running(Tensor<int32_t, 2, 8>& sums, Tensor<int32_t, 2, 8>& maxs,
                         const Tensor<int32_t, dyn, dyn>& x) {
  auto t = tile::load_tile_like(x, sums);
  sums.store(tile::cumsum<1>(t));
  maxs.store(tile::scan<1>(t, INT32_MIN, [](int32_t a, int32_t b) { return a > b ? a : b; }));
}
// --8<-- [end:scan]

int main() {
  int bad = 0;
  auto expect = [&](bool ok, const char* what) {
    if (!ok && ++bad) std::printf("wrong: %s\n", what);
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  {
    auto y = tile::zeros<float>({4, 8});
    tile::launch<create>(y.partition_mut<4, 8>(), 0.5f).sync();
    const auto r = y.to_host();
    bool ok = true;
    for (int i = 0; i < 32; ++i) ok &= r[i] == 0.5f + float(i % 8);
    expect(ok, "create");
  }
  {
    const std::vector<float> h{1.5f, -1.5f, 3e10f, -3e10f, nan, 300.0f, -1.0f, 0.75f};
    const std::vector<int32_t> sat{1, -1, INT32_MAX, INT32_MIN, 0, 300, -1, 0};
    auto s = tile::zeros<int32_t>({8});
    auto w = tile::zeros<uint8_t>({8});
    auto b = tile::zeros<uint32_t>({8});
    tile::launch<convert>(s.partition_mut<8>(), w.partition_mut<8>(), b.partition_mut<8>(), tile::from_host(h))
        .sync();
    const auto rs = s.to_host();
    const auto rw = w.to_host();
    const auto rb = b.to_host();
    bool ok = true;
    for (int i = 0; i < 8; ++i) {
      uint32_t bits;
      std::memcpy(&bits, &h[i], 4);
      ok &= rs[i] == sat[i] && rw[i] == uint8_t(uint32_t(sat[i]) & 0xffu) && rb[i] == bits;
    }
    expect(ok, "convert");
  }
  {
    const std::vector<int32_t> h{7, -7, 6, -6, 1, 0, 2147483647, -2147483647 - 1};
    auto q = tile::zeros<int32_t>({8});
    auto r = tile::zeros<int32_t>({8});
    auto w = tile::zeros<int32_t>({8});
    tile::launch<int_ops>(q.partition_mut<8>(), r.partition_mut<8>(), w.partition_mut<8>(), tile::from_host(h))
        .sync();
    const auto rq = q.to_host();
    const auto rr = r.to_host();
    const auto rw = w.to_host();
    bool ok = true;
    for (int i = 0; i < 8; ++i)
      ok &= rq[i] == h[i] / 3 && rr[i] == h[i] % 3 && rw[i] == int32_t(uint32_t(h[i]) + 2147483647u);
    expect(ok && rr[1] == -1 && rw[4] == INT32_MIN, "int_ops");
  }
  {
    const std::vector<float> a{1.0f, nan, nan, -2.0f, 0.0f, 0.25f, -0.5f, 9.0f};
    const std::vector<float> b{2.0f, 3.0f, nan, -1.0f, -0.0f, 0.5f, 0.5f, 1.0f};
    auto lo = tile::zeros<float>({8});
    auto hi = tile::zeros<float>({8});
    auto f = tile::zeros<float>({8});
    tile::launch<float_ops>(lo.partition_mut<8>(), hi.partition_mut<8>(), f.partition_mut<8>(),
                            tile::from_host(a), tile::from_host(b))
        .sync();
    const auto rl = lo.to_host();
    const auto rh = hi.to_host();
    const auto rf = f.to_host();
    bool ok = rl[1] == 3.0f && rh[1] == 3.0f && std::isnan(rl[2]) && std::isnan(rh[2]);
    ok &= std::signbit(rl[4]) && !std::signbit(rh[4]);  // -0 is below +0
    for (int i = 0; i < 8; ++i) {
      if (i == 1 || i == 2) continue;
      ok &= rl[i] == std::fmin(a[i], b[i]) && rh[i] == std::fmax(a[i], b[i]);
    }
    for (int i = 0; i < 8; ++i) {
      if (std::isnan(a[i])) continue;
      const float want = a[i] > 0 ? 1.0f / std::sqrt(a[i]) : a[i] * 2.0f + 1.0f;
      ok &= std::fabs(rf[i] - want) <= 1e-6f * std::fabs(want);
    }
    expect(ok, "float_ops");
  }
  {
    std::vector<float> h(8);
    for (int i = 0; i < 8; ++i) h[i] = float(i) - 3.0f;
    auto re = tile::zeros<float>({8});
    auto im = tile::zeros<float>({8});
    auto mag = tile::zeros<float>({8});
    tile::launch<rotate>(re.partition_mut<8>(), im.partition_mut<8>(), mag.partition_mut<8>(), tile::from_host(h))
        .sync();
    const auto rr = re.to_host();
    const auto ri = im.to_host();
    const auto rm = mag.to_host();
    bool ok = true;
    for (int i = 0; i < 8; ++i) ok &= rr[i] == -1.0f && ri[i] == -h[i] && rm[i] == 5.0f;
    expect(ok, "rotate");
  }
  {
    auto y = tile::zeros<int32_t>({4, 8});
    auto p = tile::zeros<int32_t>({1, 8});
    tile::launch<shapes>(y.partition_mut<4, 8>(), p.partition_mut<1, 8>()).sync();
    const auto ry = y.to_host();
    const auto rp = p.to_host();
    bool ok = true;
    for (int r = 0; r < 4; ++r) {
      const int want[8] = {r, r + 4, 10 * r, 10 * (r + 4), 4, 5, 6, 7};
      for (int c = 0; c < 8; ++c) ok &= ry[r * 8 + c] == want[c];
    }
    const int perm[8] = {0, 2, 4, 6, 1, 3, 5, 7};
    for (int i = 0; i < 8; ++i) ok &= rp[i] == perm[i];
    expect(ok, "shapes");
  }
  {
    std::vector<float> h(32);
    for (int i = 0; i < 32; ++i) h[i] = float((i * 7) % 11) - 5.0f;
    h[9] = nan;  // row 1 holds a NaN: max and argmax ignore it, the sums become NaN
    auto sums = tile::zeros<float>({4});
    auto maxs = tile::zeros<float>({4});
    auto at = tile::zeros<int32_t>({4});
    auto l1 = tile::zeros<float>({4});
    auto top = tile::zeros<float>({1});
    tile::launch<row_stats>(sums.partition_mut<4>(), maxs.partition_mut<4>(), at.partition_mut<4>(),
                            l1.partition_mut<4>(), top.partition_mut<1>(), tile::from_host(h, {4, 8}))
        .sync();
    const auto rs = sums.to_host();
    const auto rm = maxs.to_host();
    const auto ra = at.to_host();
    const auto rl = l1.to_host();
    bool ok = true;
    float all = -INFINITY;
    for (int r = 0; r < 4; ++r) {
      float s = 0, m = -INFINITY, a = 0;
      int arg = 0;
      for (int c = 0; c < 8; ++c) {
        const float v = h[r * 8 + c];
        s += v;
        a += std::fabs(v);
        if (v > m) m = v, arg = c;
      }
      all = std::fmax(all, m);
      ok &= (r == 1 ? std::isnan(rs[r]) && std::isnan(rl[r]) : rs[r] == s && rl[r] == a);
      ok &= rm[r] == m && ra[r] == arg;
    }
    expect(ok && top.to_host()[0] == all, "row_stats");
  }
  {
    std::vector<int32_t> h(16);
    for (int i = 0; i < 16; ++i) h[i] = (i * 5) % 7 - 3;
    auto sums = tile::zeros<int32_t>({2, 8});
    auto maxs = tile::zeros<int32_t>({2, 8});
    tile::launch<running>(sums.partition_mut<2, 8>(), maxs.partition_mut<2, 8>(), tile::from_host(h, {2, 8}))
        .sync();
    const auto rs = sums.to_host();
    const auto rm = maxs.to_host();
    bool ok = true;
    for (int r = 0; r < 2; ++r) {
      int32_t s = 0, m = INT32_MIN;
      for (int c = 0; c < 8; ++c) {
        s += h[r * 8 + c];
        m = std::max(m, h[r * 8 + c]);
        ok &= rs[r * 8 + c] == s && rm[r * 8 + c] == m;
      }
    }
    expect(ok, "running");
  }
  std::printf("operation reference (values): %s on %s\n", bad ? "WRONG" : "OK",
              tile::default_device().name().c_str());
  return bad ? 1 : 0;
}
