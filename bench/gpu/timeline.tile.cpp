// Ordering follows the data, seen on the GPU's timeline:
//   (a) two independent ops issued with async(), both reading the same input x and writing
//       outputs of their own, run at the same time: together they take clearly less than twice
//       one of them (target: < 1.5x a single op);
//   (b) two dependent ops (the second reads what the first writes, chained with then() into
//       one async execution) never overlap: together they take about twice one of them
//       (target: >= 1.9x), and the second's result proves that it read the first's.
// Each op is a kernel of kPrograms tile programs (too few to fill the GPU) that iterates a
// dependent recurrence `iters` times; `iters` is calibrated so that one op takes >= 2 ms.
// Times are wall-clock around issue and get(), the best of kRepeats. Prints one verdict line
// and exits non-zero on a failure. On the CPU backend (no GPU) ops run when issued, so only the
// results are checked.
// Usage: timeline [min_single_ms = 2]
#include <tile/tile.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int kBlock = 128;
constexpr int64_t kPrograms = 32;
constexpr int64_t kElements = kBlock * kPrograms;
constexpr int kRepeats = 5;

// z = the fixed point of acc -> acc / 2 + x (2x), reached by `iters` dependent steps from x.
template <int B>
TILE_KERNEL void spin(tile::Tensor<float, B>& z, const tile::Tensor<float, tile::dyn>& x, int64_t iters) {
  auto v = tile::load_tile_like(x, z);
  auto acc = v;
  for (int64_t i = 0; i < iters; ++i) acc = acc * 0.5f + v;
  z.store(acc);
}

using Piece = tile::Partition<float, kBlock>;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Elements of `got` that are not `factor` times x (relative error above 1e-5).
int64_t wrong(const std::vector<float>& got, const std::vector<float>& x, float factor) {
  int64_t bad = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float want = factor * x[i];
    bad += !(std::fabs(got[i] - want) <= 1e-5f * std::fabs(want) + 1e-6f);
  }
  return bad;
}

int main(int argc, char** argv) {
  const double min_single = (argc > 1 ? std::atof(argv[1]) : 2.0) * 1e-3;
  try {
    const tile::Device& device = tile::default_device();
    std::vector<float> hx(kElements);
    for (int64_t i = 0; i < kElements; ++i) hx[static_cast<std::size_t>(i)] = 1.0f + static_cast<float>(i % 97);
    const auto x = tile::from_host(hx, {kElements});

    auto single = [&](int64_t iters) {
      auto out = tile::zeros<float>({kElements});
      const auto t0 = std::chrono::steady_clock::now();
      auto p = tile::launch<spin<kBlock>>(std::move(out).partition<kBlock>(), x, iters).async();
      auto r = std::move(p).get();
      return std::make_pair(seconds_since(t0), std::move(r).unpartition());
    };

    // Calibrate: one op takes at least min_single (on a GPU).
    int64_t iters = 1 << 12;
    (void)single(iters);  // warm up: module load, side streams, events
    if (device.is_gpu())
      while (single(iters).first < min_single && iters < (int64_t(1) << 30)) iters *= 2;

    double t_single = 1e30, t_pair = 1e30, t_chain = 1e30;
    int64_t bad = 0;
    for (int rep = 0; rep < kRepeats; ++rep) {
      auto [t, r] = single(iters);
      t_single = std::min(t_single, t);
      bad += wrong(r.to_host(), hx, 2.0f);

      // (a) independent: both read x, each writes its own output.
      auto o1 = tile::zeros<float>({kElements});
      auto o2 = tile::zeros<float>({kElements});
      auto t0 = std::chrono::steady_clock::now();
      auto f1 = tile::launch<spin<kBlock>>(std::move(o1).partition<kBlock>(), x, iters).async();
      auto f2 = tile::launch<spin<kBlock>>(std::move(o2).partition<kBlock>(), x, iters).async();
      auto r1 = std::move(f1).get().unpartition();
      auto r2 = std::move(f2).get().unpartition();
      t_pair = std::min(t_pair, seconds_since(t0));
      bad += wrong(r1.to_host(), hx, 2.0f) + wrong(r2.to_host(), hx, 2.0f);

      // (b) dependent: the second reads the first's output y (moved into it) and gives 2y = 4x.
      auto y = tile::zeros<float>({kElements});
      auto w = tile::zeros<float>({kElements});
      t0 = std::chrono::steady_clock::now();
      auto chain = tile::launch<spin<kBlock>>(std::move(y).partition<kBlock>(), x, iters)
                       .then([&](Piece p) {
                         return tile::launch<spin<kBlock>>(std::move(w).partition<kBlock>(),
                                                           std::move(p).unpartition(), iters);
                       })
                       .async();
      auto rw = std::move(chain).get().unpartition();
      t_chain = std::min(t_chain, seconds_since(t0));
      bad += wrong(rw.to_host(), hx, 4.0f);
    }

    const double overlap = t_pair / t_single, serial = t_chain / t_single;
    std::printf("timeline on %s: %lld iterations, %lld programs per op\n", device.name().c_str(),
                static_cast<long long>(iters), static_cast<long long>(kPrograms));
    std::printf("single op %.3f ms, two independent ops %.3f ms (%.2fx), two dependent ops %.3f ms (%.2fx)\n",
                t_single * 1e3, t_pair * 1e3, overlap, t_chain * 1e3, serial);
    if (!device.is_gpu()) {
      std::printf("timeline: %s: %lld wrong elements (CPU backend: ops run when issued, overlap not measured)\n",
                  bad ? "FAIL" : "PASS", static_cast<long long>(bad));
      return bad ? 1 : 0;
    }
    const bool ok = bad == 0 && overlap < 1.5 && serial >= 1.9;
    std::printf("timeline: %s: independent %.2fx (target < 1.5), dependent %.2fx (target >= 1.9), %lld wrong "
                "elements\n",
                ok ? "PASS" : "FAIL", overlap, serial, static_cast<long long>(bad));
    return ok ? 0 : 1;
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "timeline: %s\n", e.what());
    return 1;
  }
}
