// examples/attention/attention.tile.cpp - flash attention (forward) in safe tile code.
//
//   attention [HEADS SEQ [causal]]   (defaults: 2 heads x 256; SEQ a multiple of 128)
//
// O = softmax(Q K^T / sqrt(D)) V per head, for head dimensions 64 and 128, bf16 in and out.
// The heads' rows are stacked: Q, V and O are (HEADS * SEQ) x D arrays, K is passed as the
// transpose of one (`k.view().transpose()`, nothing copied). Program i owns 128 query rows of
// one head and walks that head's keys in blocks of 64 with the online softmax: the row maximum
// m and sum l are carried across the loop in f32, the accumulator is rescaled by
// exp(m_old - m_new) each step, and P = exp(S - m) is cast to bf16 for the second mma (on
// sm_90a both products run as warpgroup mma: Q from shared memory, P from registers, K and
// V from rings filled by producer warps, and each block's P x V runs on the tensor cores while
// the next block's softmax is computed).
// A causal program stops at its diagonal block and masks the keys after each query row.
// Every output element is checked against a double-precision host reference.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <tile/tile.hpp>
#include <vector>

using tile::bf16;
using tile::dyn;

constexpr int BM = 128, BN = 64;

template <int D, bool Causal>
TILE_KERNEL void attention(tile::Tensor<bf16, BM, D>& o, const tile::Tensor<bf16, dyn, dyn>& q,
                           const tile::Tensor<bf16, dyn, dyn>& kt,
                           const tile::Tensor<bf16, dyn, dyn>& v, int64_t seq, float scale) {
  const int64_t i = tile::block_id(0);
  const int64_t row0 = i * BM % seq;           // the first query row within its head
  const int64_t first = (i * BM - row0) / BN;  // the head's first key block
  const int64_t blocks = Causal ? (row0 + BM) / BN : seq / BN;
  auto qt = q.partition<BM, D>().load(i, 0);
  auto pk = kt.partition<D, BN>();
  auto pv = v.partition<BN, D>();
  auto m = tile::full<float, BM>(-INFINITY);
  auto l = tile::zeros<float, BM>();
  auto acc = tile::zeros<float, BM, D>();
  for (int64_t j = 0; j < blocks; ++j) {
    auto s = tile::mma(qt, pk.load(0, first + j), tile::zeros<float, BM, BN>()) * scale;
    if (Causal) {
      auto row = tile::broadcast<BM, BN>(tile::reshape<BM, 1>(tile::iota<int64_t, BM>() + row0));
      auto col = tile::broadcast<BM, BN>(tile::iota<int64_t, BN>() + j * BN);
      s = tile::where(col <= row, s, -INFINITY);
    }
    auto m_new = tile::max(m, tile::max<1>(s));
    auto p = tile::exp(s - tile::broadcast<BM, BN>(tile::reshape<BM, 1>(m_new)));
    auto alpha = tile::exp(m - m_new);
    l = l * alpha + tile::sum<1>(p);
    acc = tile::mma(tile::cast<bf16>(p), pv.load(first + j, 0),
                    acc * tile::broadcast<BM, D>(tile::reshape<BM, 1>(alpha)));
    m = m_new;
  }
  o.store(tile::cast<bf16>(acc / tile::broadcast<BM, D>(tile::reshape<BM, 1>(l))));
}

template <int D, bool Causal>
static int run(long long heads, long long seq) {
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  const long long rows = heads * seq;
  std::vector<bf16> hq(size_t(rows * D)), hk(size_t(rows * D)), hv(size_t(rows * D));
  for (auto* h : {&hq, &hk, &hv})
    for (auto& x : *h) x = bf16(dist(rng));
  auto q = tile::from_host(hq, {rows, D}), k = tile::from_host(hk, {rows, D});
  auto v = tile::from_host(hv, {rows, D});
  auto o = tile::zeros<bf16>({rows, D});
  const float scale = 1.0f / std::sqrt(float(D));
  tile::launch<attention<D, Causal>>(o.partition_mut<BM, D>(), q, k.view().transpose(), v, seq,
                                     scale)
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
  if (heads <= 0 || seq <= 0 || seq % BM != 0) {
    std::fprintf(stderr, "usage: attention [HEADS SEQ [causal]]   (SEQ a multiple of %d)\n", BM);
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
