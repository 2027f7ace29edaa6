// examples/decode/decode.tile.cpp - one transformer decode step (batch 1) of a Llama-like layer
// in safe tile kernels, chained as one DeviceOp, run with plain launches and as a replayed graph.
//
//   decode [HIDDEN HEADS MLP CONTEXT [START [STEPS]]]   (defaults: 256 4 512 64 47 3)
//   decode --bench [HIDDEN HEADS MLP CONTEXT [CHUNK]]    (defaults: 4096 32 14336 4096)
//
// The layer (head dim D = HIDDEN / HEADS, 64 or 128; weights bf16, activations f32, KV cache bf16):
//
//   xn   = rmsnorm(x) * attn_norm                      rmsnorm          (1024 outputs per program)
//   qkv  = Wqkv xn                                     gemv             (fused Q, K, V projection)
//   q, k = rope(q, k) at position pos; k, v rounded to bf16 and appended to the cache row `pos`
//                                                      rope_append      (one head per program)
//   per head and key chunk of the cache rows [0, pos): the chunk's max score, sum of
//   exp(score - max) and exp-weighted sum of V         attend_chunk     (split along the keys)
//   attn = softmax-combine of the chunks and of the new key/value itself
//                                                      combine_chunks   (one head per program)
//   h    = x + Wo attn                                 gemv_residual
//   hn   = rmsnorm(h) * mlp_norm                       rmsnorm
//   act  = silu(Wg hn) * (Wu hn)                       gemv_silu_gate   (both in one K loop)
//   out  = h + Wd act                                  gemv_residual
//
// Every GEMV is a K loop of tile loads and a row sum of a broadcast product, kRows output rows per
// program, bf16 weights, f32 accumulation. The cache append gets an exclusive slice of the cache,
// the row at `pos` (`k_cache.slice_mut(0, pos, pos + 1)`), while the attention reads the rows
// before it (`k_cache.slice(0, 0, pos)`): the two views are disjoint, so both fit in one op;
// the current position's own key and value reach the combine through `kv_new`.
//
// Check mode: random weights, a random cache prefix of START positions and random inputs (fixed
// seed); STEPS consecutive positions START, START + 1, ... are decoded (a) with plain launches
// (`sync()`) and (b) each position as a captured graph replayed kReplays times, on a second cache.
// Each step's appended cache row is compared with the reference's rounding of the same k and v
// (equal, or one bf16 step apart); then every output element with a double-precision host
// reference of the same layer that attends over the kernel's cache rows (bf16, like the device's):
// |got - want| <= 1e-4 * |want| + 1e-4 * rms(want) (observed: a few 1e-6 of the rms, f32 sums in
// another order). The rows outside the appended ones stay untouched. The graph's outputs and
// caches must equal the plain run's bit for bit.
//
// Bench mode (bench/gpu/decode.sh): kBenchLayers layers (each its own weights, a copy of one random
// set, and its own cache) decoding position CONTEXT - 1, CHUNK keys per attention program
// (default: at most 16 chunks per head). Layer 0's output is checked against the host reference
// first; then it prints `RESULT decode_layer_bf16 plain|graph <us per layer>` (the layers chained
// as one op, layer l reading layer l - 1's output: built and sync()ed per sample, or captured
// once and replayed; median of kSamples, divided by the layers), for each kernel
// `KERNEL <name> <us> us <GB/s> GB/s` (a graph of kBenchLayers launches, one per layer, so each
// reads its own weights and cache from memory; each input counted once, each output once) and
// `COPY <GB/s> GB/s` (tile::ops::copy of 2^28 floats: the copy ceiling).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <tile/array_ops.hpp>
#include <tile/tile.hpp>
#include <tuple>
#include <vector>

using tile::bf16;
using tile::dyn;

using Vector = tile::Tensor<float, dyn>;
using Matrix = tile::Tensor<float, dyn, dyn>;
using Weights16 = tile::Tensor<bf16, dyn>;
using Matrix16 = tile::Tensor<bf16, dyn, dyn>;

constexpr int kRows = 8;        // GEMV output rows per program
constexpr int kCols = 1024;     // GEMV K step
constexpr int kNorm = 1024;     // RMSNorm outputs per program
constexpr int kChunkTile = 16;  // combine: chunk partials merged per step
constexpr float kEps = 1e-5f;
constexpr double kRopeTheta = 500000.0;

// ---- the kernels ------------------------------------------------------------------------

/// Rows [i * BM, i * BM + BM) of w times x: a K loop of bf16 weight tiles and f32 vector tiles.
template <int BM, int BK>
tile::Tile<float, BM> gemv_rows(const Matrix16& w, const Vector& x, int64_t i) {
  auto pw = w.partition<BM, BK>();
  auto px = x.partition<BK>();
  auto acc = tile::zeros<float, BM>();
  for (int64_t k = 0; k < tile::num_tiles(pw, 1); ++k)
    acc = acc + tile::sum<1>(tile::cast<float>(pw.load(i, k)) * tile::broadcast<BM, BK>(px.load(k)));
  return acc;
}

/// y = x / rms(x) * w. Every program sums the squares of all of x, then scales its own piece.
template <int B>
TILE_KERNEL void rmsnorm(tile::Tensor<float, B>& y, const Vector& x, const Weights16& w, float eps) {
  auto px = x.partition<B>();
  auto squares = tile::zeros<float, B>();
  for (int64_t k = 0; k < tile::num_tiles(px, 0); ++k) {
    auto t = px.load(k);
    squares = squares + t * t;
  }
  auto inv_rms = tile::rsqrt(tile::sum<1>(tile::reshape<1, B>(squares)) / float(x.shape(0)) + eps);
  y.store(tile::load_tile_like(x, y) * tile::broadcast<B>(inv_rms) *
          tile::cast<float>(tile::load_tile_like(w, y)));
}

/// y = W x.
template <int BM, int BK>
TILE_KERNEL void gemv(tile::Tensor<float, BM>& y, const Matrix16& w, const Vector& x) {
  y.store(gemv_rows<BM, BK>(w, x, tile::block_id(0)));
}

/// y = r + W x (a residual add in the epilogue).
template <int BM, int BK>
TILE_KERNEL void gemv_residual(tile::Tensor<float, BM>& y, const Matrix16& w, const Vector& x,
                               const Vector& r) {
  y.store(tile::load_tile_like(r, y) + gemv_rows<BM, BK>(w, x, tile::block_id(0)));
}

/// y = silu(Wg x) * (Wu x): both products in one K loop, which loads each tile of x once.
template <int BM, int BK>
TILE_KERNEL void gemv_silu_gate(tile::Tensor<float, BM>& y, const Matrix16& wg, const Matrix16& wu,
                                const Vector& x) {
  const int64_t i = tile::block_id(0);
  auto pg = wg.partition<BM, BK>();
  auto pu = wu.partition<BM, BK>();
  auto px = x.partition<BK>();
  auto gate = tile::zeros<float, BM>();
  auto up = tile::zeros<float, BM>();
  for (int64_t k = 0; k < tile::num_tiles(pg, 1); ++k) {
    auto xk = tile::broadcast<BM, BK>(px.load(k));
    gate = gate + tile::sum<1>(tile::cast<float>(pg.load(i, k)) * xk);
    up = up + tile::sum<1>(tile::cast<float>(pu.load(i, k)) * xk);
  }
  y.store(gate / (1.0f + tile::exp(-gate)) * up);
}

/// Rotates the pairs (x1[i], x2[i]) of a head (the rotate-half form) by the angles of c, s.
template <int D>
tile::Tile<float, D> rotate_half(const tile::Tile<float, D / 2>& x1, const tile::Tile<float, D / 2>& x2,
                                 const tile::Tile<float, D / 2>& c, const tile::Tile<float, D / 2>& s) {
  return tile::cat<0>(x1 * c - x2 * s, x2 * c + x1 * s);
}

/// Program (0, h): RoPE on head h of q and k at position `pos`; k and v (rounded to bf16) go to
/// this program's piece of the cache row and of kv_new (row 0 k, row 1 v).
/// qkv holds q (heads * D), then k, then v.
template <int D>
TILE_KERNEL void rope_append(tile::Tensor<float, 1, D>& q_out, tile::Tensor<bf16, 1, D>& k_row,
                             tile::Tensor<bf16, 1, D>& v_row, tile::Tensor<bf16, 2, D>& kv_new,
                             const Vector& qkv, const Matrix& cos, const Matrix& sin, int64_t pos) {
  const int64_t h = tile::block_id(1);
  const int64_t heads = tile::num_blocks(1);
  auto halves = qkv.partition<D / 2>();  // head h of q is halves 2h and 2h + 1
  auto c = tile::reshape<D / 2>(cos.partition<1, D / 2>().load(pos, 0));
  auto s = tile::reshape<D / 2>(sin.partition<1, D / 2>().load(pos, 0));
  auto q = rotate_half<D>(halves.load(2 * h), halves.load(2 * h + 1), c, s);
  auto k = tile::cast<bf16>(tile::reshape<1, D>(
      rotate_half<D>(halves.load(2 * (heads + h)), halves.load(2 * (heads + h) + 1), c, s)));
  auto v = tile::cast<bf16>(tile::reshape<1, D>(qkv.partition<D>().load(2 * heads + h)));
  q_out.store(tile::reshape<1, D>(q));
  k_row.store(k);
  v_row.store(v);
  kv_new.store(tile::cat<0>(k, v));
}

/// Program (h, c): head h against the cached keys [c * chunk, c * chunk + chunk) that exist
/// (k and v hold the rows before the current position). Leaves the chunk's maximum score m, the
/// sum l of exp(score - m) and sum of exp(score - m) * v (all zero weight, m = -inf, for an
/// empty chunk). chunk is a multiple of BN.
template <int D, int BN>
TILE_KERNEL void attend_chunk(tile::Tensor<float, 1, 1>& m_out, tile::Tensor<float, 1, 1>& l_out,
                              tile::Tensor<float, 1, D>& o_out, const Matrix& q, const Matrix16& k,
                              const Matrix16& v, int64_t chunk, float scale) {
  const int64_t h = tile::block_id(0);
  const int64_t first = tile::block_id(1) * chunk / BN;  // the chunk's first key block
  const int64_t keys = k.shape(0);
  int64_t blocks = (keys - first * BN + BN - 1) / BN;
  if (blocks > chunk / BN) blocks = chunk / BN;
  auto qh = tile::broadcast<BN, D>(q.partition<1, D>().load(0, h) * scale);
  auto pk = k.partition<BN, D>();
  auto pv = v.partition<BN, D>();
  auto m = tile::full<float, 1>(-INFINITY);
  auto l = tile::zeros<float, 1>();
  auto acc = tile::zeros<float, 1, D>();
  for (int64_t j = 0; j < blocks; ++j) {
    const int64_t b = first + j;
    auto s = tile::reshape<1, BN>(tile::sum<1>(tile::cast<float>(pk.load(b, h)) * qh));
    auto key = tile::broadcast<1, BN>(tile::iota<int64_t, BN>() + b * BN);
    s = tile::where(key < keys, s, -INFINITY);
    auto m_new = tile::max(m, tile::max<1>(s));
    auto p = tile::exp(s - tile::broadcast<1, BN>(m_new));
    auto alpha = tile::exp(m - m_new);
    l = l * alpha + tile::sum<1>(p);
    auto pv_sum =
        tile::sum<0>(tile::broadcast<BN, D>(tile::reshape<BN, 1>(p)) * tile::cast<float>(pv.load(b, h)));
    acc = acc * tile::broadcast<1, D>(alpha) + tile::reshape<1, D>(pv_sum);
    m = m_new;
  }
  m_out.store(tile::reshape<1, 1>(m));
  l_out.store(tile::reshape<1, 1>(l));
  o_out.store(acc);
}

/// Program h: softmax attention output of head h from its `chunks` partials (m, l: heads x
/// chunks; o: heads x chunks * D) and the current position's own key and value (kv_new).
template <int D, int CB>
TILE_KERNEL void combine_chunks(tile::Tensor<float, D>& out, const Matrix& m, const Matrix& l,
                                const Matrix& o, const Matrix& q, const Matrix16& kv_new, int64_t chunks,
                                float scale) {
  const int64_t h = tile::block_id(0);
  auto pn = kv_new.partition<1, D>();
  // The new key and value start the merge: weight exp(score - score) = 1.
  auto mm = tile::sum<1>(q.partition<1, D>().load(0, h) * tile::cast<float>(pn.load(0, h))) * scale;
  auto ll = tile::ones<float, 1>();
  auto acc = tile::cast<float>(pn.load(1, h));
  auto pm = m.partition<1, CB>();
  auto pl = l.partition<1, CB>();
  auto po = o.partition<1, CB * D>();
  for (int64_t t = 0; t * CB < chunks; ++t) {
    auto index = tile::broadcast<1, CB>(tile::iota<int64_t, CB>() + t * CB);
    auto mt = tile::where(index < chunks, pm.load(h, t), -INFINITY);
    auto m_new = tile::max(mm, tile::max<1>(mt));
    auto w = tile::exp(mt - tile::broadcast<1, CB>(m_new));
    auto alpha = tile::exp(mm - m_new);
    ll = ll * alpha + tile::sum<1>(w * pl.load(h, t));
    auto weighted =
        tile::sum<0>(tile::broadcast<CB, D>(tile::reshape<CB, 1>(w)) * tile::reshape<CB, D>(po.load(h, t)));
    acc = acc * tile::broadcast<1, D>(alpha) + tile::reshape<1, D>(weighted);
    mm = m_new;
  }
  out.store(tile::reshape<D>(acc / tile::broadcast<1, D>(ll)));
}

// ---- the layer on the host ----------------------------------------------------------------

namespace {

struct Config {
  int64_t hidden = 256, heads = 4, mlp = 512, context = 64;
  int64_t head_dim() const { return hidden / heads; }
};

/// Keys per attention program: a multiple of the key block bn, at most `chunks` per head.
int64_t chunk_keys(const Config& c, int64_t bn, int64_t chunks) {
  const int64_t per_chunk = (c.context + chunks - 1) / chunks;
  return (per_chunk + bn - 1) / bn * bn;
}

/// Chunks per head that give each of the device's multiprocessors about two attention programs:
/// one wave of programs, each with the longest key loop that still fills the device (more,
/// shorter programs end in a partial second wave and leave more partials to combine).
int64_t chunks_to_fill(const Config& c, const tile::Device& device) {
  const int64_t programs = 2 * int64_t(device.multiprocessors());
  return std::max<int64_t>(1, (programs + c.heads - 1) / c.heads);
}
int64_t num_chunks(const Config& c, int64_t chunk) { return (c.context + chunk - 1) / chunk; }

/// The key block of the attention kernel for a head dimension.
template <int D>
constexpr int key_block() {
  return D == 64 ? 16 : 64;
}

/// One layer's weights as the host generates them.
struct HostLayer {
  std::vector<bf16> attn_norm, wqkv, wo, mlp_norm, wg, wu, wd;
  std::vector<float> cos, sin;  // context x D/2: the rotation angles of every position
};

/// The same on the device.
struct Layer {
  tile::Array<bf16> attn_norm, wqkv, wo, mlp_norm, wg, wu, wd;
  tile::Array<float> cos, sin;
};

/// The KV cache of one layer: context x hidden, position-major (row p holds every head's k).
struct Cache {
  tile::Array<bf16> k, v;
};

/// What one decode step reads and writes besides weights and cache: the input x and every
/// intermediate vector. Each is written once per step, then read.
struct Acts {
  tile::Array<float> x, xn, qkv, q, m, l, o, attn, h, hn, act, out;
  tile::Array<bf16> kv_new;
};

/// A counter-based generator (splitmix64): the same numbers on every machine.
struct Random {
  uint64_t state;
  float uniform(float lo, float hi) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return lo + (hi - lo) * static_cast<float>(z >> 40) * 0x1p-24f;
  }
  std::vector<bf16> bf16s(int64_t n, float lo, float hi) {
    std::vector<bf16> v(static_cast<size_t>(n));
    for (auto& e : v) e = bf16(uniform(lo, hi));
    return v;
  }
  std::vector<float> floats(int64_t n, float lo, float hi) {
    std::vector<float> v(static_cast<size_t>(n));
    for (auto& e : v) e = uniform(lo, hi);
    return v;
  }
};

HostLayer random_layer(const Config& c, Random& rng) {
  const int64_t H = c.hidden, M = c.mlp, D = c.head_dim();
  HostLayer L;
  // Weights uniform in +-sqrt(3 / K): every output of a product has about the input's scale.
  const float sh = std::sqrt(3.0f / float(H)), sm = std::sqrt(3.0f / float(M));
  L.attn_norm = rng.bf16s(H, 0.5f, 1.5f);
  L.wqkv = rng.bf16s(3 * H * H, -sh, sh);
  L.wo = rng.bf16s(H * H, -sh, sh);
  L.mlp_norm = rng.bf16s(H, 0.5f, 1.5f);
  L.wg = rng.bf16s(M * H, -sh, sh);
  L.wu = rng.bf16s(M * H, -sh, sh);
  L.wd = rng.bf16s(H * M, -sm, sm);
  L.cos.resize(static_cast<size_t>(c.context * D / 2));
  L.sin.resize(L.cos.size());
  for (int64_t p = 0; p < c.context; ++p)
    for (int64_t i = 0; i < D / 2; ++i) {
      const double angle = double(p) * std::pow(kRopeTheta, -2.0 * double(i) / double(D));
      L.cos[static_cast<size_t>(p * D / 2 + i)] = static_cast<float>(std::cos(angle));
      L.sin[static_cast<size_t>(p * D / 2 + i)] = static_cast<float>(std::sin(angle));
    }
  return L;
}

Layer upload(const HostLayer& L, const Config& c) {
  const int64_t H = c.hidden, M = c.mlp, D = c.head_dim();
  return Layer{tile::from_host(L.attn_norm, {H}),
               tile::from_host(L.wqkv, {3 * H, H}),
               tile::from_host(L.wo, {H, H}),
               tile::from_host(L.mlp_norm, {H}),
               tile::from_host(L.wg, {M, H}),
               tile::from_host(L.wu, {M, H}),
               tile::from_host(L.wd, {H, M}),
               tile::from_host(L.cos, {c.context, D / 2}),
               tile::from_host(L.sin, {c.context, D / 2})};
}

/// Activations filled with NaN, so that an element a kernel fails to write shows.
Acts make_acts(const Config& c, int64_t chunks) {
  const int64_t H = c.hidden, M = c.mlp, NH = c.heads, D = c.head_dim();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto f = [&](tile::Shape s) { return tile::full<float>(s, nan); };
  return Acts{f({H}),
              f({H}),
              f({3 * H}),
              f({1, H}),
              f({NH, chunks}),
              f({NH, chunks}),
              f({NH, chunks * D}),
              f({H}),
              f({H}),
              f({H}),
              f({M}),
              f({H}),
              tile::full<bf16>({2, H}, bf16(nan))};
}

/// One decode step of one layer at position `pos` as one lazy op: x is the layer's input, the
/// activations `a` receive every intermediate and the output (a.out). The op takes each output
/// array out of `a` (a partition owns it while the kernel writes it) and puts it back for the
/// kernels that read it; it holds the cache row `pos` exclusively and the rows before it shared.
template <int D>
auto layer_op(const Layer& w, Cache& cache, Acts& a, const tile::Array<float>& x, int64_t pos,
              int64_t chunk) {
  const float scale = 1.0f / std::sqrt(float(D));
  const int64_t chunks = (pos + chunk - 1) / chunk;  // chunks holding cached keys
  return tile::launch<rmsnorm<kNorm>>(std::move(a.xn).partition<kNorm>(), x, w.attn_norm, kEps)
      .then([&w, &a](auto xn) {
        a.xn = std::move(xn).unpartition();
        return tile::launch<gemv<kRows, kCols>>(std::move(a.qkv).partition<kRows>(), w.wqkv, a.xn);
      })
      .then([&w, &cache, &a, pos](auto qkv) {
        a.qkv = std::move(qkv).unpartition();
        return tile::launch<rope_append<D>>(std::move(a.q).partition<1, D>(),
                                            cache.k.slice_mut(0, pos, pos + 1).partition<1, D>(),
                                            cache.v.slice_mut(0, pos, pos + 1).partition<1, D>(),
                                            std::move(a.kv_new).partition<2, D>(), a.qkv, w.cos, w.sin, pos);
      })
      .then([&cache, &a, pos, chunk, scale](auto q_kv) {
        auto& [q, kv_new] = q_kv;
        a.q = std::move(q).unpartition();
        a.kv_new = std::move(kv_new).unpartition();
        return tile::launch<attend_chunk<D, key_block<D>()>>(
            std::move(a.m).partition<1, 1>(), std::move(a.l).partition<1, 1>(),
            std::move(a.o).partition<1, D>(), a.q, cache.k.slice(0, 0, pos), cache.v.slice(0, 0, pos), chunk,
            scale);
      })
      .then([&a, chunks, scale](auto mlo) {
        auto& [m, l, o] = mlo;
        a.m = std::move(m).unpartition();
        a.l = std::move(l).unpartition();
        a.o = std::move(o).unpartition();
        return tile::launch<combine_chunks<D, kChunkTile>>(std::move(a.attn).partition<D>(), a.m, a.l, a.o,
                                                           a.q, a.kv_new, chunks, scale);
      })
      .then([&w, &a, &x](auto attn) {
        a.attn = std::move(attn).unpartition();
        return tile::launch<gemv_residual<kRows, kCols>>(std::move(a.h).partition<kRows>(), w.wo, a.attn, x);
      })
      .then([&w, &a](auto h) {
        a.h = std::move(h).unpartition();
        return tile::launch<rmsnorm<kNorm>>(std::move(a.hn).partition<kNorm>(), a.h, w.mlp_norm, kEps);
      })
      .then([&w, &a](auto hn) {
        a.hn = std::move(hn).unpartition();
        return tile::launch<gemv_silu_gate<kRows, kCols>>(std::move(a.act).partition<kRows>(), w.wg, w.wu,
                                                          a.hn);
      })
      .then([&w, &a](auto act) {
        a.act = std::move(act).unpartition();
        return tile::launch<gemv_residual<kRows, kCols>>(std::move(a.out).partition<kRows>(), w.wd, a.act,
                                                         a.h);
      })
      .then([&a](auto out) { a.out = std::move(out).unpartition(); });
}

// ---- the host reference -------------------------------------------------------------------

double to_double(bf16 x) { return double(float(x)); }

std::vector<double> matvec(const std::vector<bf16>& w, const std::vector<double>& x, int64_t rows) {
  const auto cols = static_cast<int64_t>(x.size());
  std::vector<double> y(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    const bf16* row = &w[static_cast<size_t>(r * cols)];
    double s = 0;
    for (int64_t k = 0; k < cols; ++k) s += to_double(row[k]) * x[static_cast<size_t>(k)];
    y[static_cast<size_t>(r)] = s;
  }
  return y;
}

std::vector<double> rmsnorm_ref(const std::vector<double>& x, const std::vector<bf16>& w) {
  double ss = 0;
  for (double v : x) ss += v * v;
  const double inv = 1.0 / std::sqrt(ss / double(x.size()) + double(kEps));
  std::vector<double> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = x[i] * inv * to_double(w[i]);
  return y;
}

/// The cache as the reference keeps it: context x hidden bf16, like the device's.
struct HostCache {
  std::vector<bf16> k, v;
};

/// The first half of a decode step in double: the projections and RoPE. Writes k and v, rounded
/// to bf16, into the cache row `pos`; returns q.
std::vector<double> reference_qkv(const HostLayer& L, HostCache& cache, const Config& c,
                                  const std::vector<float>& x_in, int64_t pos) {
  const int64_t H = c.hidden, NH = c.heads, D = c.head_dim();
  std::vector<double> x(x_in.begin(), x_in.end());
  const auto qkv = matvec(L.wqkv, rmsnorm_ref(x, L.attn_norm), 3 * H);
  std::vector<double> q(static_cast<size_t>(H));
  for (int64_t h = 0; h < NH; ++h)
    for (int64_t i = 0; i < D / 2; ++i) {
      const double cs = L.cos[static_cast<size_t>(pos * D / 2 + i)];
      const double sn = L.sin[static_cast<size_t>(pos * D / 2 + i)];
      for (int64_t part = 0; part < 2; ++part) {  // q, then k
        const int64_t base = part * H + h * D;
        const double x1 = qkv[static_cast<size_t>(base + i)], x2 = qkv[static_cast<size_t>(base + i + D / 2)];
        const double r1 = x1 * cs - x2 * sn, r2 = x2 * cs + x1 * sn;
        if (part == 0) {
          q[static_cast<size_t>(h * D + i)] = r1;
          q[static_cast<size_t>(h * D + i + D / 2)] = r2;
        } else {
          cache.k[static_cast<size_t>(pos * H + h * D + i)] = bf16(float(r1));
          cache.k[static_cast<size_t>(pos * H + h * D + i + D / 2)] = bf16(float(r2));
        }
      }
    }
  for (int64_t j = 0; j < H; ++j)
    cache.v[static_cast<size_t>(pos * H + j)] = bf16(float(qkv[static_cast<size_t>(2 * H + j)]));
  return q;
}

/// The second half: attention of q over the cache rows [0, pos], the output projection and
/// residual, the MLP and residual. Returns the layer's output.
std::vector<double> reference_attend_mlp(const HostLayer& L, const HostCache& cache, const Config& c,
                                         const std::vector<float>& x_in, const std::vector<double>& q,
                                         int64_t pos) {
  const int64_t H = c.hidden, NH = c.heads, D = c.head_dim();
  std::vector<double> x(x_in.begin(), x_in.end());
  std::vector<double> attn(static_cast<size_t>(H), 0.0), s(static_cast<size_t>(pos + 1));
  const double scale = 1.0 / std::sqrt(double(D));
  for (int64_t h = 0; h < NH; ++h) {
    double mx = -INFINITY, sum = 0;
    for (int64_t p = 0; p <= pos; ++p) {
      double dot = 0;
      for (int64_t d = 0; d < D; ++d)
        dot += q[static_cast<size_t>(h * D + d)] * to_double(cache.k[static_cast<size_t>(p * H + h * D + d)]);
      s[static_cast<size_t>(p)] = dot * scale;
      mx = std::max(mx, dot * scale);
    }
    for (int64_t p = 0; p <= pos; ++p) {
      const double e = std::exp(s[static_cast<size_t>(p)] - mx);
      sum += e;
      for (int64_t d = 0; d < D; ++d)
        attn[static_cast<size_t>(h * D + d)] +=
            e * to_double(cache.v[static_cast<size_t>(p * H + h * D + d)]);
    }
    for (int64_t d = 0; d < D; ++d) attn[static_cast<size_t>(h * D + d)] /= sum;
  }
  auto hres = matvec(L.wo, attn, H);
  for (int64_t j = 0; j < H; ++j) hres[static_cast<size_t>(j)] += x[static_cast<size_t>(j)];
  const auto hn = rmsnorm_ref(hres, L.mlp_norm);
  const auto gate = matvec(L.wg, hn, c.mlp), up = matvec(L.wu, hn, c.mlp);
  std::vector<double> act(static_cast<size_t>(c.mlp));
  for (size_t i = 0; i < act.size(); ++i) act[i] = gate[i] / (1.0 + std::exp(-gate[i])) * up[i];
  auto out = matvec(L.wd, act, H);
  for (int64_t j = 0; j < H; ++j) out[static_cast<size_t>(j)] += hres[static_cast<size_t>(j)];
  return out;
}

// ---- checks -------------------------------------------------------------------------------

/// |got - want| <= 1e-4 * |want| + 1e-4 * rms(want) for every element: f32 sums of bf16 products
/// in another order (and the GPU's exp and rsqrt) stay far below.
bool check_close(const std::string& what, const std::vector<float>& got, const std::vector<double>& want) {
  double ms = 0;
  for (double w : want) ms += w * w;
  const double rms = std::sqrt(ms / double(std::max<size_t>(want.size(), 1)));
  double worst = 0;
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    const double err = std::fabs(double(got[i]) - want[i]);
    const double tol = 1e-4 * std::fabs(want[i]) + 1e-4 * rms;
    if (!(err <= tol) && ++bad <= 5)
      std::printf("  %s[%zu] = %.7g, expected %.7g\n", what.c_str(), i, double(got[i]), want[i]);
    if (!(err <= worst)) worst = err;
  }
  std::printf("%s %s: %zu elements, max |error| %.2e (%.2e of rms %.3g), %zu outside tolerance\n",
              bad ? "FAIL" : "ok  ", what.c_str(), want.size(), worst, worst / rms, rms, bad);
  return bad == 0;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool check(bool ok, const std::string& what) {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what.c_str());
  return ok;
}

/// The cache row the kernel appended against the reference's rounding of the same k or v:
/// equal, or within one bf16 step (2^-7 relative) plus 1e-5. The f32 value the kernel rounds
/// differs from the reference's by about 1e-7 of the inputs (values of about 1), so the roundings
/// may land one step apart, or further for a value near zero left by cancellation.
bool check_row(const std::string& what, const bf16* got, const bf16* want, int64_t n) {
  int64_t apart = 0, bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (got[i].bits == want[i].bits) continue;
    const double g = to_double(got[i]), w = to_double(want[i]);
    if (std::fabs(g - w) <= 0x1p-7 * std::fabs(w) + 1e-5)
      ++apart;
    else if (++bad <= 5)
      std::printf("  %s[%lld] = %.7g, expected %.7g\n", what.c_str(), (long long)i, g, w);
  }
  std::printf("%s %s: %lld elements, %lld rounded to the neighbouring bf16 value, %lld wrong\n",
              bad ? "FAIL" : "ok  ", what.c_str(), (long long)n, (long long)apart, (long long)bad);
  return bad == 0;
}

/// The cache rows outside [start, end) are as they were.
bool check_unchanged(const std::string& what, const std::vector<bf16>& got, const std::vector<bf16>& before,
                     int64_t hidden, int64_t start, int64_t end) {
  const auto b = static_cast<size_t>(start * hidden), e = static_cast<size_t>(end * hidden);
  const bool ok = got.size() == before.size() &&
                  std::memcmp(got.data(), before.data(), b * sizeof(bf16)) == 0 &&
                  std::memcmp(got.data() + e, before.data() + e, (got.size() - e) * sizeof(bf16)) == 0;
  return check(ok, what + ": the rows outside [" + std::to_string(start) + ", " + std::to_string(end) +
                       ") are unchanged");
}

/// After a step at `pos`: the rows the kernel appended to `device` against the reference's
/// (check_row); then the reference takes the kernel's rows, so that a k or v rounded the other
/// way does not count against the rest of the layer.
bool check_and_take_rows(const std::string& what, const Cache& device, HostCache& ref, int64_t pos,
                         int64_t hidden) {
  const auto row = static_cast<long>(pos * hidden);
  const auto k = device.k.to_host(), v = device.v.to_host();
  bool ok = check_row(what + " K cache row", &k[size_t(row)], &ref.k[size_t(row)], hidden);
  ok &= check_row(what + " V cache row", &v[size_t(row)], &ref.v[size_t(row)], hidden);
  std::copy(k.begin() + row, k.begin() + row + hidden, ref.k.begin() + row);
  std::copy(v.begin() + row, v.begin() + row + hidden, ref.v.begin() + row);
  return ok;
}

constexpr int kReplays = 3;

template <int D>
int run_checks(const Config& c, int64_t start, int64_t steps) {
  const int64_t H = c.hidden;
  // 16 chunks per head whatever the device, so that the default positions cross a chunk boundary.
  const int64_t chunk = chunk_keys(c, key_block<D>(), 16), chunks = num_chunks(c, chunk);
  Random rng{20261205};
  const HostLayer host = random_layer(c, rng);
  const Layer layer = upload(host, c);
  // The cache prefix [0, start) as if a prompt had been decoded; the rest zero.
  HostCache ref_cache{std::vector<bf16>(static_cast<size_t>(c.context * H), bf16(0.0f)),
                      std::vector<bf16>(static_cast<size_t>(c.context * H), bf16(0.0f))};
  for (int64_t i = 0; i < start * H; ++i) {
    ref_cache.k[static_cast<size_t>(i)] = bf16(rng.uniform(-2.0f, 2.0f));
    ref_cache.v[static_cast<size_t>(i)] = bf16(rng.uniform(-2.0f, 2.0f));
  }
  const HostCache initial = ref_cache;
  std::vector<std::vector<float>> inputs;
  for (int64_t t = 0; t < steps; ++t) inputs.push_back(rng.floats(H, -2.0f, 2.0f));

  std::printf(
      "decode: hidden %lld, %lld heads of %d, MLP %lld, context %lld (%lld chunks of %lld "
      "keys), positions %lld..%lld on %s\n",
      (long long)H, (long long)c.heads, D, (long long)c.mlp, (long long)c.context, (long long)chunks,
      (long long)chunk, (long long)start, (long long)(start + steps - 1),
      tile::default_device().name().c_str());
  bool ok = true;

  // (a) plain launches, one step after the other on one cache.
  Cache plain{tile::from_host(initial.k, {c.context, H}), tile::from_host(initial.v, {c.context, H})};
  std::vector<std::vector<float>> plain_out;
  for (int64_t t = 0; t < steps; ++t) {
    const int64_t pos = start + t;
    Acts a = make_acts(c, chunks);
    a.x = tile::from_host(inputs[static_cast<size_t>(t)], {H});
    layer_op<D>(layer, plain, a, a.x, pos, chunk).sync();
    plain_out.push_back(a.out.to_host());
    const std::string step = "plain step " + std::to_string(t) + " (pos " + std::to_string(pos) + ")";
    const auto q = reference_qkv(host, ref_cache, c, inputs[static_cast<size_t>(t)], pos);
    ok &= check_and_take_rows(step, plain, ref_cache, pos, H);
    const auto want = reference_attend_mlp(host, ref_cache, c, inputs[static_cast<size_t>(t)], q, pos);
    ok &= check_close(step + " output", plain_out.back(), want);
  }
  const auto plain_k = plain.k.to_host(), plain_v = plain.v.to_host();
  ok &= check_unchanged("plain K cache", plain_k, initial.k, H, start, start + steps);
  ok &= check_unchanged("plain V cache", plain_v, initial.v, H, start, start + steps);

  // (b) each step captured as a graph and replayed, on a second cache.
  Cache replayed{tile::from_host(initial.k, {c.context, H}), tile::from_host(initial.v, {c.context, H})};
  for (int64_t t = 0; t < steps; ++t) {
    const int64_t pos = start + t;
    Acts a = make_acts(c, chunks);
    a.x = tile::from_host(inputs[static_cast<size_t>(t)], {H});
    auto graph = layer_op<D>(layer, replayed, a, a.x, pos, chunk).graph();
    for (int r = 0; r < kReplays; ++r) graph.sync();
    std::move(graph).get();
    const auto out = a.out.to_host();
    ok &= check(same_bits(out, plain_out[static_cast<size_t>(t)]),
                "graph step " + std::to_string(t) + " (pos " + std::to_string(pos) + ", " +
                    std::to_string(kReplays) + " replays): output equals the plain run's bit for bit");
  }
  ok &= check(same_bits(replayed.k.to_host(), plain_k) && same_bits(replayed.v.to_host(), plain_v),
              "graph: K and V caches equal the plain run's bit for bit");
  std::printf("decode: %s\n", ok ? "all checks passed" : "FAILED");
  return ok ? 0 : 1;
}

// ---- bench mode ---------------------------------------------------------------------------

constexpr int kBenchLayers = 8;  // layers chained per timed op (each its own weights and cache)
constexpr int kSamples = 20;     // timed runs; the median counts

template <class F>
double median_seconds(F&& run) {
  run();  // warm-up
  std::vector<double> t;
  for (int s = 0; s < kSamples; ++s) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// kBenchLayers layers decoding position `pos`: layer l reads layer l - 1's output.
struct Model {
  Config config;
  int64_t pos = 0, chunk = 0, chunks = 0;
  std::vector<Layer> layers;
  std::vector<Cache> caches;
  std::vector<Acts> acts;
  const tile::Array<float>& input(int l) const {
    return l == 0 ? acts[0].x : acts[static_cast<size_t>(l - 1)].out;
  }
};

/// Layers l, l + 1, ..., l + N - 1 as one op.
template <int N, int D>
auto layer_chain(Model& m, int l) {
  auto op = layer_op<D>(m.layers[static_cast<size_t>(l)], m.caches[static_cast<size_t>(l)],
                        m.acts[static_cast<size_t>(l)], m.input(int(l)), m.pos, m.chunk);
  if constexpr (N == 1)
    return op;
  else
    return std::move(op).then([&m, l] { return layer_chain<N - 1, D>(m, l + 1); });
}

/// make(l) for l = first, ..., first + N - 1 as one op (each launch writes its outputs through
/// partition_mut, so the op has none).
template <int N, class Make>
auto kernel_chain(const Make& make, int first = 0) {
  if constexpr (N == 1)
    return make(first);
  else
    return make(first).then([&make, first] { return kernel_chain<N - 1>(make, first + 1); });
}

/// Seconds per launch of make(l): a graph of one launch per layer, replayed and waited for (the
/// replay's start and the wait count, spread over the layers).
template <class Make>
double time_kernel(const Make& make) {
  auto graph = kernel_chain<kBenchLayers>(make).graph();
  const double s = median_seconds([&] { graph.sync(); }) / kBenchLayers;
  std::move(graph).get();
  return s;
}

template <int D>
int run_bench(const Config& c, int64_t chunk) {
  constexpr int BN = key_block<D>();
  const int64_t H = c.hidden, M = c.mlp, NH = c.heads;
  Model m;
  m.config = c;
  m.pos = c.context - 1;
  m.chunk = chunk ? chunk : chunk_keys(c, BN, chunks_to_fill(c, tile::default_device()));
  m.chunks = num_chunks(c, m.chunk);
  const int64_t active = (m.pos + m.chunk - 1) / m.chunk;
  const float scale = 1.0f / std::sqrt(float(D));
  std::printf("device %s\n", tile::default_device().name().c_str());
  std::printf(
      "decode bench: hidden %lld, %lld heads of %d, MLP %lld, position %lld of context %lld "
      "(%lld chunks of %lld keys), %d layers\n",
      (long long)H, (long long)NH, D, (long long)M, (long long)m.pos, (long long)c.context,
      (long long)m.chunks, (long long)m.chunk, kBenchLayers);
  std::fflush(stdout);
  Random rng{20261206};
  const HostLayer host = random_layer(c, rng);
  HostCache cache{rng.bf16s(c.context * H, -2.0f, 2.0f), rng.bf16s(c.context * H, -2.0f, 2.0f)};
  const std::vector<float> x = rng.floats(H, -2.0f, 2.0f);
  for (int l = 0; l < kBenchLayers; ++l) {
    m.layers.push_back(upload(host, c));
    m.caches.push_back(
        Cache{tile::from_host(cache.k, {c.context, H}), tile::from_host(cache.v, {c.context, H})});
    m.acts.push_back(make_acts(c, m.chunks));
  }
  m.acts[0].x = tile::from_host(x, {H});

  // Layer 0 against the host reference before anything is timed (as in the check mode: the
  // appended row against the reference's, then the output with the kernel's row).
  layer_op<D>(m.layers[0], m.caches[0], m.acts[0], m.acts[0].x, m.pos, m.chunk).sync();
  const auto q = reference_qkv(host, cache, c, x, m.pos);
  bool ok = check_and_take_rows("layer 0", m.caches[0], cache, m.pos, H);
  ok &= check_close("layer 0 output", m.acts[0].out.to_host(),
                    reference_attend_mlp(host, cache, c, x, q, m.pos));
  std::fflush(stdout);

  const double plain = median_seconds([&] { layer_chain<kBenchLayers, D>(m, 0).sync(); }) / kBenchLayers;
  std::printf("RESULT decode_layer_bf16 plain %.2f us\n", plain * 1e6);
  {
    auto graph = layer_chain<kBenchLayers, D>(m, 0).graph();
    const double replay = median_seconds([&] { graph.sync(); }) / kBenchLayers;
    std::move(graph).get();
    std::printf("RESULT decode_layer_bf16 graph %.2f us\n", replay * 1e6);
  }
  std::fflush(stdout);

  auto report = [](const char* name, auto make, double bytes) {
    const double seconds = time_kernel(make);
    std::printf("KERNEL %s %.2f us %.1f GB/s\n", name, seconds * 1e6, bytes / seconds / 1e9);
    std::fflush(stdout);
  };
  const double f4 = 4.0, b2 = 2.0, dh = double(H), dm = double(M);
  report("rmsnorm", [&](size_t l) {
           return tile::launch<rmsnorm<kNorm>>(m.acts[l].xn.partition_mut<kNorm>(), m.input(int(l)),
                                               m.layers[l].attn_norm, kEps);
         },
         (f4 + b2 + f4) * dh);
  report("gemv_qkv", [&](size_t l) {
           return tile::launch<gemv<kRows, kCols>>(m.acts[l].qkv.partition_mut<kRows>(), m.layers[l].wqkv,
                                                   m.acts[l].xn);
         },
         b2 * 3 * dh * dh + f4 * dh + f4 * 3 * dh);
  report("rope_append", [&](size_t l) {
           return tile::launch<rope_append<D>>(m.acts[l].q.partition_mut<1, D>(),
                                               m.caches[l].k.slice_mut(0, m.pos, m.pos + 1).partition<1, D>(),
                                               m.caches[l].v.slice_mut(0, m.pos, m.pos + 1).partition<1, D>(),
                                               m.acts[l].kv_new.partition_mut<2, D>(), m.acts[l].qkv,
                                               m.layers[l].cos, m.layers[l].sin, m.pos);
         },
         f4 * 3 * dh + f4 * D + f4 * dh + b2 * 4 * dh);
  report("attend_chunk", [&](size_t l) {
           return tile::launch<attend_chunk<D, BN>>(
               m.acts[l].m.partition_mut<1, 1>(), m.acts[l].l.partition_mut<1, 1>(),
               m.acts[l].o.partition_mut<1, D>(), m.acts[l].q, m.caches[l].k.slice(0, 0, m.pos),
               m.caches[l].v.slice(0, 0, m.pos), m.chunk, scale);
         },
         b2 * 2 * double(m.pos) * dh + f4 * dh + f4 * double(NH * m.chunks * (D + 2)));
  report("combine_chunks", [&](size_t l) {
           return tile::launch<combine_chunks<D, kChunkTile>>(m.acts[l].attn.partition_mut<D>(), m.acts[l].m,
                                                              m.acts[l].l, m.acts[l].o, m.acts[l].q,
                                                              m.acts[l].kv_new, active, scale);
         },
         f4 * double(NH * active * (D + 2)) + f4 * dh + b2 * 2 * dh + f4 * dh);
  report("gemv_o_residual", [&](size_t l) {
           return tile::launch<gemv_residual<kRows, kCols>>(m.acts[l].h.partition_mut<kRows>(),
                                                            m.layers[l].wo, m.acts[l].attn, m.input(int(l)));
         },
         b2 * dh * dh + 3 * f4 * dh);
  report("rmsnorm_mlp", [&](size_t l) {
           return tile::launch<rmsnorm<kNorm>>(m.acts[l].hn.partition_mut<kNorm>(), m.acts[l].h,
                                               m.layers[l].mlp_norm, kEps);
         },
         (f4 + b2 + f4) * dh);
  report("gemv_gate_up_silu", [&](size_t l) {
           return tile::launch<gemv_silu_gate<kRows, kCols>>(m.acts[l].act.partition_mut<kRows>(),
                                                             m.layers[l].wg, m.layers[l].wu, m.acts[l].hn);
         },
         b2 * 2 * dm * dh + f4 * dh + f4 * dm);
  report("gemv_down_residual", [&](size_t l) {
           return tile::launch<gemv_residual<kRows, kCols>>(m.acts[l].out.partition_mut<kRows>(),
                                                            m.layers[l].wd, m.acts[l].act, m.acts[l].h);
         },
         b2 * dh * dm + f4 * dm + 2 * f4 * dh);

  // The copy ceiling: a device-to-device copy (2^28 floats on a GPU).
  const int64_t n = tile::default_device().is_gpu() ? int64_t(1) << 28 : int64_t(1) << 20;
  auto src = tile::zeros<float>({n});
  auto dst = tile::zeros<float>({n});
  const double copy = median_seconds([&] { tile::ops::copy(src, dst).sync(); });
  std::printf("COPY %.1f GB/s\n", 2.0 * 4.0 * double(n) / copy / 1e9);
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    if (argc > 1 && std::string(argv[1]) == "--bench") {
      Config c{4096, 32, 14336, 4096};
      if (argc > 5)
        c = Config{std::atoll(argv[2]), std::atoll(argv[3]), std::atoll(argv[4]), std::atoll(argv[5])};
      const int64_t chunk = argc > 6 ? std::atoll(argv[6]) : 0;
      const int64_t bn =
          c.hidden > 0 && c.heads > 0 && c.hidden / c.heads == 64 ? key_block<64>() : key_block<128>();
      if (c.hidden <= 0 || c.heads <= 0 || c.hidden % c.heads != 0 ||
          (c.head_dim() != 64 && c.head_dim() != 128) || c.mlp <= 0 || c.context < 2 || chunk < 0 ||
          chunk % bn != 0) {
        std::fprintf(stderr,
                     "usage: decode --bench [HIDDEN HEADS MLP CONTEXT [CHUNK]]\n"
                     "  HIDDEN / HEADS is 64 or 128; CHUNK (keys per attention program) a multiple "
                     "of %d for head dim 64, %d for 128\n",
                     key_block<64>(), key_block<128>());
        return 2;
      }
      return c.head_dim() == 64 ? run_bench<64>(c, chunk) : run_bench<128>(c, chunk);
    }
    Config c;
    int64_t start = 47, steps = 3;
    if (argc > 4) {
      c = Config{std::atoll(argv[1]), std::atoll(argv[2]), std::atoll(argv[3]), std::atoll(argv[4])};
      start = argc > 5 ? std::atoll(argv[5]) : c.context / 2;
      steps = argc > 6 ? std::atoll(argv[6]) : 3;
    }
    const bool valid = c.hidden > 0 && c.heads > 0 && c.hidden % c.heads == 0 &&
                       (c.head_dim() == 64 || c.head_dim() == 128) && c.mlp > 0 && c.context > 0 &&
                       start >= 0 && steps >= 1 && start + steps <= c.context;
    if (!valid) {
      std::fprintf(stderr,
                   "usage: decode [HIDDEN HEADS MLP CONTEXT [START [STEPS]]]\n"
                   "  HIDDEN / HEADS is 64 or 128; START + STEPS <= CONTEXT\n");
      return 2;
    }
    return c.head_dim() == 64 ? run_checks<64>(c, start, steps) : run_checks<128>(c, start, steps);
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "decode: %s\n", e.what());
    return 1;
  }
}
