// bench/attention.tile.cpp - flash attention forward as a user writes it (the kernel of
// examples/attention/attention.tile.cpp, included as it is), timed on the default device:
// bf16 in and out, Q, K, V and O of shape (HEADS, SEQ, D) (K passed with its last two axes
// swapped), causal or not, any SEQ.
//
//   attention HEADS SEQ D causal|full ...   (groups of four)
//
// Before timing, sampled query rows of every head are compared with a double-precision host
// reference. Prints one RESULT line per case and key block (64 and 128 keys per step): the
// median device time of a launch (tile::benchmark: CUDA events, L2 flushed before each run)
// and the TFLOP/s (4 * HEADS * SEQ^2 * D flops, half when causal).
// bench/gpu/attention.sh runs it beside torch's scaled_dot_product_attention.
#define TILE_ATTENTION_NO_MAIN
#include "examples/attention/attention.tile.cpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

template <int D, int BN, bool Causal>
static bool run(long long heads, long long seq) {
  const long long rows = heads * seq;
  std::vector<bf16> hq(size_t(rows * D)), hk(size_t(rows * D)), hv(size_t(rows * D));
  uint32_t seed = 7;
  for (auto* h : {&hq, &hk, &hv})
    for (auto& x : *h) {
      seed = seed * 1664525u + 1013904223u;
      x = bf16(float(int(seed >> 24) - 128) / 128.0f);
    }
  auto q = tile::from_host(hq, {heads, seq, D}), k = tile::from_host(hk, {heads, seq, D});
  auto v = tile::from_host(hv, {heads, seq, D});
  auto o = tile::zeros<bf16>({heads, seq, D});
  const float scale = 1.0f / std::sqrt(float(D));
  // As examples/attention launches it: causal programs heaviest first (tile::reversed).
  auto launch = [&] {
    if constexpr (Causal)
      return tile::launch<attention<D, Causal, BN>>(
          o.partition_mut<1, BM, D>().map(tile::reversed{}), q, k.view().transpose(1, 2), v,
          scale);
    else
      return tile::launch<attention<D, Causal, BN>>(o.partition_mut<1, BM, D>(), q,
                                                    k.view().transpose(1, 2), v, scale);
  };
  launch().sync();
  const std::vector<bf16> ho = o.to_host();
  long long bad = 0, checked = 0;
  std::vector<double> s(static_cast<size_t>(seq)), out(D);
  for (long long h = 0; h < heads; ++h)
    for (long long r = (h * 37) % 61; r < seq; r += 509) {
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
      for (int d = 0; d < D; ++d, ++checked) {
        const double want = out[size_t(d)] / sum, got = float(ho[size_t(qi * D + d)]);
        if (!(std::fabs(got - want) <= 1e-2 + 1e-2 * std::fabs(want)) && ++bad <= 5)
          std::printf("  o[%lld][%d] = %.6g, expected %.6g\n", qi, d, got, want);
      }
    }
  const double sec = tile::benchmark(launch).median_ms / 1e3;
  const double flops = 4.0 * double(heads) * double(seq) * double(seq) * D * (Causal ? 0.5 : 1.0);
  std::printf("RESULT attention heads=%lld seq=%lld d=%d %s (key blocks of %d): %.3f ms %.1f "
              "TFLOP/s, %lld of %lld checked elements wrong\n",
              heads, seq, D, Causal ? "causal" : "full", BN, sec * 1e3, flops / sec / 1e12, bad,
              checked);
  return bad == 0;
}

int main(int argc, char** argv) {
  bool ok = true;
  for (int a = 1; a + 3 < argc; a += 4) {
    const long long heads = std::atoll(argv[a]), seq = std::atoll(argv[a + 1]);
    const int d = std::atoi(argv[a + 2]);
    const bool causal = std::string(argv[a + 3]) == "causal";
    if (heads <= 0 || seq <= 0 || (d != 64 && d != 128)) {
      std::fprintf(stderr, "usage: attention HEADS SEQ D causal|full ...\n");
      return 2;
    }
    if (d == 64)
      ok &= causal ? run<64, 64, true>(heads, seq) && run<64, 128, true>(heads, seq)
                   : run<64, 64, false>(heads, seq) && run<64, 128, false>(heads, seq);
    else
      ok &= causal ? run<128, 64, true>(heads, seq) && run<128, 128, true>(heads, seq)
                   : run<128, 64, false>(heads, seq) && run<128, 128, false>(heads, seq);
  }
  return ok ? 0 : 1;
}
