// examples/attention/attention.tile.cpp - flash attention (forward) in safe tile code.
//
//   attention [HEADS SEQ [causal]]   (defaults: 2 heads x 256; any SEQ)
//
// O = softmax(Q K^T / sqrt(D)) V per head, for head dimensions 64 and 128, bf16 in and out.
// Q, K, V and O are (HEADS, SEQ, D) arrays; K is passed as a view with its last two axes
// swapped (`k.view().transpose(1, 2)`, (HEADS, D, SEQ), nothing copied). Program (h, i) owns
// query rows 128 i .. 128 i + 127 of head h, a (1, 128, D) piece of O, and walks the head's
// keys in blocks of BN (128 unless the instance says otherwise) with the online softmax: the row
// maximum m and sum l are carried across the loop in f32 (in base 2, see below), the
// accumulator is rescaled by 2^(m_old - m_new) each step, and P = 2^(c S - m) is cast to bf16
// for the second mma. Each tile is loaded as (1, rows, cols)
// and reshaped to (rows, cols) (the reshape folds into the load: on sm_90a both products run
// as warpgroup mma, Q from shared memory, P from registers, K and V from rings that producer
// warps fill through 3-D tensor maps, and each block's P x V runs on the tensor cores while
// the next block's softmax is computed).
// SEQ need not be a multiple of the blocks: loads past the sequence read zeros, the keys
// there are masked (`col < seq`), and the rows of O past it are not stored. A causal program
// stops at its diagonal block and also masks the keys after each query row.
// Every output element is checked against a double-precision host reference.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <tile/tile.hpp>
#include <vector>

using tile::bf16;
using tile::dyn;

constexpr int BM = 128;

// The softmax runs in base 2, as FlashAttention and Triton's tutorial write it: with
// c = scale * log2(e), exp(scale * s - max) = 2^(c * s - m), where m is the row maximum of
// c * s (the maximum of s times c, since c > 0). c * s - m is one fma, and 2^x one instruction
// of the special function unit: the fewer operations per score, the more of the tensor cores'
// time the softmax hides behind.
template <int D, bool Causal, int BN = 128>
TILE_KERNEL void attention(tile::Tensor<bf16, 1, BM, D>& o,
                           const tile::Tensor<bf16, dyn, dyn, dyn>& q,
                           const tile::Tensor<bf16, dyn, dyn, dyn>& kt,
                           const tile::Tensor<bf16, dyn, dyn, dyn>& v, float scale) {
  const int64_t h = tile::block_id(0), i = tile::block_id(1);
  const int64_t seq = q.shape(1);
  const int64_t row0 = i * BM;  // the program's first query row
  const int64_t keys = Causal ? std::min(row0 + BM, seq) : seq;
  const int64_t blocks = (keys + BN - 1) / BN;
  const float c = scale * 1.4426950408889634f;
  auto qt = tile::reshape<BM, D>(q.partition<1, BM, D>().load(h, i, 0));
  auto pk = kt.partition<1, D, BN>();
  auto pv = v.partition<1, BN, D>();
  auto m = tile::full<float, BM>(-INFINITY);
  auto l = tile::zeros<float, BM>();
  auto acc = tile::zeros<float, BM, D>();
  for (int64_t j = 0; j < blocks; ++j) {
    auto s = tile::mma(qt, tile::reshape<D, BN>(pk.load(h, 0, j)), tile::zeros<float, BM, BN>());
    // Keys past the sequence and, when causal, after each query row. The compiler tests the
    // condition per block first (tile-uniform-selects): only the last block and the diagonal
    // ones compute it element by element.
    auto row = tile::broadcast<BM, BN>(tile::reshape<BM, 1>(tile::iota<int64_t, BM>() + row0));
    auto col = tile::broadcast<BM, BN>(tile::iota<int64_t, BN>() + j * BN);
    s = tile::where(Causal ? col < seq && col <= row : col < seq, s, -INFINITY);
    auto m_new = tile::max(m, tile::max<1>(s) * c);
    auto p = tile::exp2(tile::fma(s, c, -tile::broadcast<BM, BN>(tile::reshape<BM, 1>(m_new))));
    auto alpha = tile::exp2(m - m_new);
    l = l * alpha + tile::sum<1>(p);
    acc = tile::mma(tile::cast<bf16>(p), tile::reshape<BN, D>(pv.load(h, j, 0)),
                    acc * tile::broadcast<BM, D>(tile::reshape<BM, 1>(alpha)));
    m = m_new;
  }
  auto out = acc / tile::broadcast<BM, D>(tile::reshape<BM, 1>(l));
  o.store(tile::reshape<1, BM, D>(tile::cast<bf16>(out)));
}

// With TILE_ATTENTION_NO_MAIN defined, this file is the kernel alone (what
// bench/attention.tile.cpp includes to time it beside torch's SDPA).
#ifndef TILE_ATTENTION_NO_MAIN

template <int D, bool Causal>
static int run(long long heads, long long seq) {
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  const long long rows = heads * seq;
  std::vector<bf16> hq(size_t(rows * D)), hk(size_t(rows * D)), hv(size_t(rows * D));
  for (auto* h : {&hq, &hk, &hv})
    for (auto& x : *h) x = bf16(dist(rng));
  auto q = tile::from_host(hq, {heads, seq, D}), k = tile::from_host(hk, {heads, seq, D});
  auto v = tile::from_host(hv, {heads, seq, D});
  auto o = tile::zeros<bf16>({heads, seq, D});
  const float scale = 1.0f / std::sqrt(float(D));
  // Causal programs do unequal work (program i walks i + 1 key blocks of its head): they run
  // heaviest first (tile::reversed), so that the light ones fill in at the end.
  if constexpr (Causal)
    tile::launch<attention<D, Causal>>(o.partition_mut<1, BM, D>().map(tile::reversed{}), q,
                                       k.view().transpose(1, 2), v, scale)
        .sync();
  else
    tile::launch<attention<D, Causal>>(o.partition_mut<1, BM, D>(), q, k.view().transpose(1, 2),
                                       v, scale)
        .sync();
  const std::vector<bf16> ho = o.to_host();
  int bad = 0;
  std::vector<double> s(static_cast<size_t>(seq)), out(D);
  for (long long h = 0; h < heads; ++h)
    for (long long r = 0; r < seq; ++r) {
      const long long qi = h * seq + r, keys = Causal ? r + 1 : seq;
      double mx = -INFINITY, sum = 0;
      for (long long c = 0; c < keys; ++c) {
        double dot = 0;
        for (int d = 0; d < D; ++d)
          dot += double(float(hq[size_t(qi * D + d)])) * float(hk[size_t((h * seq + c) * D + d)]);
        s[size_t(c)] = dot * scale;
        mx = std::max(mx, s[size_t(c)]);
      }
      std::fill(out.begin(), out.end(), 0.0);
      for (long long c = 0; c < keys; ++c) {
        const double p = std::exp(s[size_t(c)] - mx);
        sum += p;
        for (int d = 0; d < D; ++d) out[size_t(d)] += p * float(hv[size_t((h * seq + c) * D + d)]);
      }
      for (int d = 0; d < D; ++d) {
        // P and O are rounded to bf16 (2^-8 relative each): well within 2e-2 of values <= 1.
        const double want = out[size_t(d)] / sum, got = float(ho[size_t(qi * D + d)]);
        if (!(std::fabs(got - want) <= 1e-2 + 1e-2 * std::fabs(want)) && ++bad <= 10)
          std::printf("attention d=%d%s: o[%lld][%d] = %.6g, expected %.6g\n", D,
                      Causal ? " causal" : "", qi, d, got, want);
      }
    }
  std::printf("attention d=%d%s: %lld heads x %lld %s on %s\n", D, Causal ? " causal" : "",
              heads, seq, bad ? "WRONG" : "OK", tile::default_device().name().c_str());
  return bad ? 1 : 0;
}

int main(int argc, char** argv) {
  const long long heads = argc > 2 ? std::atoll(argv[1]) : 2;
  const long long seq = argc > 2 ? std::atoll(argv[2]) : 256;
  const bool causal = argc > 3 && std::string(argv[3]) == "causal";
  if (heads <= 0 || seq <= 0) {
    std::fprintf(stderr, "usage: attention [HEADS SEQ [causal]]\n");
    return 2;
  }
  try {
    if (argc > 3)
      return causal ? run<64, true>(heads, seq) | run<128, true>(heads, seq)
                    : run<64, false>(heads, seq) | run<128, false>(heads, seq);
    return run<64, false>(heads, seq) | run<128, false>(heads, seq) | run<64, true>(heads, seq) |
           run<128, true>(heads, seq);
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "attention: %s\n", e.what());
    return 1;
  }
}

#endif  // TILE_ATTENTION_NO_MAIN
