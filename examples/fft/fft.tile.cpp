// examples/fft/fft.tile.cpp - batched complex-to-complex FFTs (f32) in safe tile code.
//
//   fft                          the default set: N = 256 ... 16384, several batch sizes,
//                                forward, inverse and inverse(forward(x))
//   fft BATCH N [inverse]        one case (N one of 256, 512, 1024, 2048, 4096, 16384)
//
// Each tile program owns R whole rows of the output (an exclusive Tensor<complex<float>, R, N>),
// loads its rows once, transforms them in tile values and stores them once. The transform is a
// mixed-radix (Stockham-style) factorization N = F1 * F2 * ... * FK done in registers:
//
//   stage s   the data is a [Fs, C] tile: digit n_s of every sequence runs down the rows, so
//             the radix-Fs DFT is elementwise arithmetic on row slices (tile::extract), written
//             as radix-4 and radix-2 butterflies with constant twiddles (fft_rows_of below),
//             never as a dense Fs x Fs product;
//   twiddle   the outputs are multiplied by W_P^(k_s * m) (P = Fs * ... * FK, m the digits not
//             yet transformed);
//   exchange  permute + reshape bring the next digit down the rows: the one place where data
//             moves between threads (through shared memory), K - 1 times per row (and once
//             more at the load and at the store where a program holds several short rows).
//
// With X[k] = sum_n x[n] W_N^(nk), W_N = exp(-2 pi i / N) (forward) or exp(+2 pi i / N)
// (inverse, unnormalized like cuFFT and FFTW): inverse(forward(x)) = N x.
// The digits are ordered so that the last stage leaves the output in natural order.
//
// Every output element is checked against a double-precision host FFT: the relative norm error
// of each row must be at most 1e-5, and no element may be off by more than 1e-4 of the row's
// RMS (a single wrong element fails even where the norm would hide it).
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <tile/tile.hpp>
#include <vector>

using cf = tile::complex<float>;
using tile::dyn;

namespace fft {

constexpr double kPi = 3.14159265358979323846;

// Compile-time sine and cosine (|x| <= pi) for the constant twiddles inside a butterfly.
constexpr double taylor_sin(double x) {
  double term = x, sum = x;
  for (int k = 1; k < 30; ++k) {
    term *= -x * x / double((2 * k) * (2 * k + 1));
    sum += term;
  }
  return sum;
}
constexpr double taylor_cos(double x) {
  double term = 1, sum = 1;
  for (int k = 1; k < 30; ++k) {
    term *= -x * x / double((2 * k - 1) * (2 * k));
    sum += term;
  }
  return sum;
}

/// a * b with two fused multiply-adds (4 instructions instead of 6).
template <class T>
T cmul(const T& a, const T& b) {
  auto ar = tile::real(a), ai = tile::imag(a), br = tile::real(b), bi = tile::imag(b);
  return tile::make_complex(tile::fma(ar, br, -(ai * bi)), tile::fma(ar, bi, ai * br));
}

/// x * W_4 = x * -i (forward) or x * i (inverse): a swap and a sign, no multiply.
template <bool Inv, class T>
T times_w4(const T& x) {
  if constexpr (Inv)
    return tile::make_complex(-tile::imag(x), tile::real(x));
  else
    return tile::make_complex(tile::imag(x), -tile::real(x));
}

/// x * W_F^E for compile-time F and E: quarter and half turns are swaps and signs, the rest a
/// multiplication by a constant (two multiplies and two fused multiply-adds).
template <int F, int E, bool Inv, class T>
T times_w(const T& x) {
  constexpr int64_t e = E % F;
  if constexpr (e == 0) {
    return x;
  } else if constexpr (4 * e == F) {
    return times_w4<Inv>(x);
  } else if constexpr (2 * e == F) {
    return -x;
  } else if constexpr (4 * e == 3 * F) {
    return -times_w4<Inv>(x);
  } else {
    constexpr double angle = 2 * kPi * double(e > F / 2 ? e - F : e) / double(F);
    constexpr float c = float(taylor_cos(angle));
    constexpr float s = float(Inv ? taylor_sin(angle) : -taylor_sin(angle));
    auto re = tile::real(x), im = tile::imag(x);
    return tile::make_complex(tile::fma(re, c, -(im * s)), tile::fma(re, s, im * c));
  }
}

/// Rows [j * W, (j + 1) * W) of a [F, C] tile.
template <int W, int F, int C>
tile::Tile<cf, W, C> rows(const tile::Tile<cf, F, C>& t, int64_t j) {
  return tile::extract<W, C>(t, j, 0);
}

/// Row b of y (B0 <= b < B0 + L) multiplied by W_F^(b * Q).
template <int F, int Q, int B0, bool Inv, int L, int C>
tile::Tile<cf, L, C> twiddle_rows(const tile::Tile<cf, L, C>& y) {
  if constexpr (L == 1)
    return times_w<F, B0 * Q, Inv>(y);
  else
    return tile::cat<0>(twiddle_rows<F, Q, B0, Inv>(rows<L / 2>(y, 0)),
                        twiddle_rows<F, Q, B0 + L / 2, Inv>(rows<L / 2>(y, 1)));
}

/// Row 4d + c of the result is row d of z_c.
template <int L, int C>
tile::Tile<cf, 4 * L, C> interleave4(const tile::Tile<cf, L, C>& z0, const tile::Tile<cf, L, C>& z1,
                                     const tile::Tile<cf, L, C>& z2,
                                     const tile::Tile<cf, L, C>& z3) {
  if constexpr (L == 1)
    return tile::cat<0>(tile::cat<0>(z0, z1), tile::cat<0>(z2, z3));
  else
    return tile::cat<0>(
        interleave4(rows<L / 2>(z0, 0), rows<L / 2>(z1, 0), rows<L / 2>(z2, 0), rows<L / 2>(z3, 0)),
        interleave4(rows<L / 2>(z0, 1), rows<L / 2>(z1, 1), rows<L / 2>(z2, 1),
                    rows<L / 2>(z3, 1)));
}

/// The DFT of length F down every column of a [F, C] tile, in natural order. Radix 4
/// (decimation in frequency): the four quarters of the rows combine elementwise, each result
/// is twiddled by constants and transformed again; a length of 2 ends the recursion. A thread
/// holding its columns' F elements computes all of it in registers.
template <bool Inv, int F, int C>
tile::Tile<cf, F, C> fft_rows_of(const tile::Tile<cf, F, C>& t) {
  if constexpr (F == 1) {
    return t;
  } else if constexpr (F == 2) {
    auto a = rows<1>(t, 0), b = rows<1>(t, 1);
    return tile::cat<0>(a + b, a - b);
  } else {
    constexpr int64_t Q = F / 4;
    auto x0 = rows<Q>(t, 0), x1 = rows<Q>(t, 1), x2 = rows<Q>(t, 2), x3 = rows<Q>(t, 3);
    auto s02 = x0 + x2, d02 = x0 - x2, s13 = x1 + x3, d13 = times_w4<Inv>(x1 - x3);
    auto z0 = fft_rows_of<Inv>(s02 + s13);
    auto z1 = fft_rows_of<Inv>(twiddle_rows<F, 1, 0, Inv>(d02 + d13));
    auto z2 = fft_rows_of<Inv>(twiddle_rows<F, 2, 0, Inv>(s02 - s13));
    auto z3 = fft_rows_of<Inv>(twiddle_rows<F, 3, 0, Inv>(d02 - d13));
    return interleave4(z0, z1, z2, z3);
  }
}

constexpr int log2_of(int64_t v) {
  int k = 0;
  for (; v > 1; v /= 2) ++k;
  return k;
}

/// w^(2^K) by K squarings. (A loop rather than recursion on K: with a loop of its own a kernel
/// runs one program per block, and the 16384-point kernel must, see README.md.)
template <int K, int C>
tile::Tile<cf, 1, C> pow2(tile::Tile<cf, 1, C> w) {
  for (int i = 0; i < K; ++i) w = cmul(w, w);
  return w;
}

/// Row b of t multiplied by base * w^b (base = 1 when One). Each factor is a product of at most
/// log2(L) + 1 of w, w^2, w^4, ..., so the rounding grows with log2 L, not with L.
template <bool One, int L, int C>
tile::Tile<cf, L, C> times_powers(const tile::Tile<cf, L, C>& t, const tile::Tile<cf, 1, C>& base,
                                  const tile::Tile<cf, 1, C>& w) {
  if constexpr (L == 1) {
    if constexpr (One)
      return t;
    else
      return cmul(t, base);
  } else {
    auto upper = pow2<log2_of(L / 2)>(w);  // w^(L/2)
    if constexpr (!One) upper = cmul(base, upper);
    return tile::cat<0>(times_powers<One>(rows<L / 2>(t, 0), base, w),
                        times_powers<false>(rows<L / 2>(t, 1), upper, w));
  }
}

/// Row k of a [F, C] tile multiplied by W_P^(k * m(c)), m(c) = (c / Low) % (P / F) for column c:
/// the twiddles between stage s (F = Fs) and the next.
///
/// The twiddles are computed in the kernel, not read from a table: a table is one more global
/// load per element, and its tile would arrive in the layout of a load and need an exchange to
/// meet the data, where values computed from coordinates are computed in the registers that
/// need them. Each column needs one sine and cosine (w = W_P^m(c)); row k gets w^k by products,
/// which is cheaper than a sine and cosine per element.
template <int P, int Low, bool Inv, int F, int C>
tile::Tile<cf, F, C> twiddle_stage(const tile::Tile<cf, F, C>& t) {
  if constexpr (P == F) {
    return t;  // the last stage: nothing left to twiddle for
  } else {
    auto c = tile::reshape<1, C>(tile::iota<int32_t, C>());
    auto m = (c / int32_t(Low)) & int32_t(P / F - 1);
    auto angle = tile::cast<float>(m) * float((Inv ? 2.0 : -2.0) * kPi / double(P));
    auto w = tile::make_complex(tile::cos(angle), tile::sin(angle));
    return times_powers<true>(t, w, w);
  }
}

/// [R, N] rows as the first stage's [F1, R * N / F1] tile: digit n1 (the highest) down the rows.
template <int F1, int R, int N>
tile::Tile<cf, F1, R * N / F1> digit_down(const tile::Tile<cf, R, N>& t) {
  if constexpr (R == 1)
    return tile::reshape<F1, N / F1>(t);
  else
    return tile::reshape<F1, R * N / F1>(tile::permute<1, 0, 2>(tile::reshape<R, F1, N / F1>(t)));
}

/// The last stage's [FK, R * N / FK] tile (digit k_K down the rows, columns (r, k_{K-1} ... k_1))
/// as [R, N] rows in natural order.
template <int R, int FK, int C>
tile::Tile<cf, R, FK * C / R> rows_back(const tile::Tile<cf, FK, C>& t) {
  if constexpr (R == 1)
    return tile::reshape<1, FK * C>(t);
  else
    return tile::reshape<R, FK * C / R>(tile::permute<1, 0, 2>(tile::reshape<FK, R, C / R>(t)));
}

/// The exchange between two stages: [Fs, C] with columns (r, n_{s+1}, A, B) -- A the digits
/// after the next, B = (k_{s-1} ... k_1) the ones done -- becomes [Fn, C'] with columns
/// (r, A, k_s, B): the next digit down the rows, the one just transformed joins the done ones.
/// (Axes of extent 1 are left out of the intermediate shapes: each shape's layout follows its
/// fastest axis, and a unit one would change it for nothing.)
template <int R, int Fn, int A, int B, int F, int C>
tile::Tile<cf, Fn, C / Fn * F> next_digit(const tile::Tile<cf, F, C>& t) {
  constexpr int64_t C2 = C / Fn * F;
  static_assert(R == 1 || A == 1 || B == 1, "several rows per program: at most three factors");
  if constexpr (R == 1 && A == 1 && B == 1)
    return tile::transpose(t);
  else if constexpr (R == 1 && B == 1)  // [k, n, A] -> [n, A, k]
    return tile::reshape<Fn, C2>(tile::permute<1, 2, 0>(tile::reshape<F, Fn, A>(t)));
  else if constexpr (R == 1 && A == 1)  // [k, n, B] -> [n, k, B]
    return tile::reshape<Fn, C2>(tile::permute<1, 0, 2>(tile::reshape<F, Fn, B>(t)));
  else if constexpr (R == 1)  // [k, n, A, B] -> [n, A, k, B]
    return tile::reshape<Fn, C2>(tile::permute<1, 2, 0, 3>(tile::reshape<F, Fn, A, B>(t)));
  else if constexpr (A == 1 && B == 1)  // [k, r, n] -> [n, r, k]
    return tile::reshape<Fn, C2>(tile::permute<2, 1, 0>(tile::reshape<F, R, Fn>(t)));
  else if constexpr (B == 1)  // [k, r, n, A] -> [n, r, A, k]
    return tile::reshape<Fn, C2>(tile::permute<2, 1, 3, 0>(tile::reshape<F, R, Fn, A>(t)));
  else  // [k, r, n, B] -> [n, r, k, B]
    return tile::reshape<Fn, C2>(tile::permute<2, 1, 0, 3>(tile::reshape<F, R, Fn, B>(t)));
}

template <int F, int... Rest>
struct Digits {
  static constexpr int64_t first = F;
  static constexpr int64_t after_first = (int64_t{1} * ... * Rest);
};

/// Stages s, s+1, ..., K on a [Fs, C] tile (Low = F1 * ... * F(s-1)); factors F = Fs, Rest...
template <int R, bool Inv, int Low, int F, int... Rest, int C>
auto stages(const tile::Tile<cf, F, C>& a) {
  auto k = fft_rows_of<Inv>(a);
  if constexpr (sizeof...(Rest) == 0) {
    return k;
  } else {
    using Next = Digits<Rest...>;
    auto twiddled = twiddle_stage<F * Next::first * Next::after_first, Low, Inv>(k);
    return stages<R, Inv, Low * F, Rest...>(
        next_digit<R, Next::first, Next::after_first, Low>(twiddled));
  }
}

/// The whole transform of a program's R rows.
template <int R, bool Inv, int... F>
void transform(tile::Tensor<cf, R, (F * ...)>& y, const tile::Tensor<cf, dyn, dyn>& x) {
  y.store(rows_back<R>(
      stages<R, Inv, 1, F...>(digit_down<Digits<F...>::first>(tile::load_tile_like(x, y)))));
}

}  // namespace fft

// One entry per warp count: TILE_KERNEL_CONFIG takes a literal. Each plan below picks the
// warps so that a stage's [Fs, C] tile has C = 2 * threads columns or more (a thread then holds
// whole columns, F elements each, and every butterfly is in its registers).
template <int R, bool Inv, int... F>
TILE_KERNEL TILE_KERNEL_CONFIG(num_warps = 1) void fft_w1(tile::Tensor<cf, R, (F * ...)>& y,
                                                          const tile::Tensor<cf, dyn, dyn>& x) {
  fft::transform<R, Inv, F...>(y, x);
}
template <int R, bool Inv, int... F>
TILE_KERNEL TILE_KERNEL_CONFIG(num_warps = 2) void fft_w2(tile::Tensor<cf, R, (F * ...)>& y,
                                                          const tile::Tensor<cf, dyn, dyn>& x) {
  fft::transform<R, Inv, F...>(y, x);
}
template <int R, bool Inv, int... F>
TILE_KERNEL TILE_KERNEL_CONFIG(num_warps = 4) void fft_w4(tile::Tensor<cf, R, (F * ...)>& y,
                                                          const tile::Tensor<cf, dyn, dyn>& x) {
  fft::transform<R, Inv, F...>(y, x);
}
template <int R, bool Inv, int... F>
TILE_KERNEL TILE_KERNEL_CONFIG(num_warps = 16) void fft_w16(tile::Tensor<cf, R, (F * ...)>& y,
                                                            const tile::Tensor<cf, dyn, dyn>& x) {
  fft::transform<R, Inv, F...>(y, x);
}

/// Rows each program transforms: several for short rows (each stage's tile then has columns for
/// every thread), one from N = 512 on.
template <int N>
inline constexpr int64_t kRows = N == 256 ? 16 : 1;

/// The N-point transform (forward, or inverse with Inv) of the rows of x into `rows`, the
/// output cut into kRows<N> x N pieces (a Partition or PartitionRef), as a lazy op. The plans:
///
///     N      rows  warps  factors            elements per thread   exchanges per row
///     256     16     4    16 x 16                   32                3 (load, 1, store)
///     512      1     1    8 x 8 x 8                 16                2
///     1024     1     1    16 x 16 x 4               32                2
///     2048     1     2    16 x 16 x 8               32                2
///     4096     1     4    16 x 16 x 16              32                2
///     16384    1    16    16 x 16 x 16 x 4          32                3
///
/// A stage of Fs needs N / Fs >= 2 * threads (the 16-byte vectors hold two columns), so one row
/// per program allows 32 threads with factors of 16 from N = 1024 on; shorter rows take more
/// rows per program, whose digit then reaches the rows only through one more exchange at the
/// load and one at the store.
template <int N, bool Inv, class Rows>
auto fft_op(Rows rows, const tile::Array<cf>& x) {
  constexpr int64_t R = kRows<N>;
  if constexpr (N == 256)
    return tile::launch<fft_w4<R, Inv, 16, 16>>(std::move(rows), x);
  else if constexpr (N == 512)
    return tile::launch<fft_w1<R, Inv, 8, 8, 8>>(std::move(rows), x);
  else if constexpr (N == 1024)
    return tile::launch<fft_w1<R, Inv, 16, 16, 4>>(std::move(rows), x);
  else if constexpr (N == 2048)
    return tile::launch<fft_w2<R, Inv, 16, 16, 8>>(std::move(rows), x);
  else if constexpr (N == 4096)
    return tile::launch<fft_w4<R, Inv, 16, 16, 16>>(std::move(rows), x);
  else
    return tile::launch<fft_w16<R, Inv, 16, 16, 16, 4>>(std::move(rows), x);
}

// ---- host side ------------------------------------------------------------------------------

/// In-place radix-2 FFT of one row in double precision (the reference).
inline void reference_fft(std::vector<std::complex<double>>& a, bool inverse) {
  const size_t n = a.size();
  for (size_t i = 1, j = 0; i < n; ++i) {
    size_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) std::swap(a[i], a[j]);
  }
  for (size_t len = 2; len <= n; len <<= 1) {
    const double angle = (inverse ? 2 : -2) * fft::kPi / double(len);
    for (size_t i = 0; i < n; i += len)
      for (size_t k = 0; k < len / 2; ++k) {
        const std::complex<double> w(std::cos(angle * double(k)), std::sin(angle * double(k)));
        const std::complex<double> u = a[i + k], v = a[i + k + len / 2] * w;
        a[i + k] = u + v;
        a[i + k + len / 2] = u - v;
      }
  }
}

// With TILE_FFT_NO_MAIN defined, this file is the FFT's kernels and fft_op alone (what
// bench/fft.tile.cpp includes to time them against cuFFT).
#ifndef TILE_FFT_NO_MAIN

/// The transform of `batch` rows of n points on the default device.
template <int N>
std::vector<cf> run_fft(const std::vector<cf>& host, long long batch, bool inverse) {
  auto x = tile::from_host(host, {batch, N});
  auto y = tile::zeros<cf>({batch, N});
  if (inverse)
    fft_op<N, true>(y.partition_mut<kRows<N>, N>(), x).sync();
  else
    fft_op<N, false>(y.partition_mut<kRows<N>, N>(), x).sync();
  return y.to_host();
}

std::vector<cf> run_fft(const std::vector<cf>& host, long long batch, long long n, bool inverse) {
  switch (n) {
    case 256: return run_fft<256>(host, batch, inverse);
    case 512: return run_fft<512>(host, batch, inverse);
    case 1024: return run_fft<1024>(host, batch, inverse);
    case 2048: return run_fft<2048>(host, batch, inverse);
    case 4096: return run_fft<4096>(host, batch, inverse);
    case 16384: return run_fft<16384>(host, batch, inverse);
  }
  throw tile::Error("fft: no plan for N = " + std::to_string(n));
}

struct Agreement {
  double worst = 0;  // the largest relative norm error of a row
  bool ok = true;
};

/// Compares `got` with `want` row by row: the relative norm error of each row must be at most
/// 1e-5 and each element within 1e-4 of the row's RMS (the first few failures are printed).
Agreement compare_rows(const char* what, const std::vector<cf>& got,
                       const std::vector<std::complex<double>>& want, long long batch,
                       long long n) {
  double worst = 0;
  int bad = 0;
  for (long long r = 0; r < batch; ++r) {
    double err2 = 0, ref2 = 0;
    for (long long k = 0; k < n; ++k) {
      const size_t i = size_t(r * n + k);
      const std::complex<double> g(got[i].real(), got[i].imag());
      err2 += std::norm(g - want[i]);
      ref2 += std::norm(want[i]);
    }
    const double rms = std::sqrt(ref2 / double(n));
    const double rel = std::sqrt(err2 / ref2);
    worst = std::max(worst, rel);
    if (!(rel <= 1e-5) && ++bad <= 5)
      std::printf("  %s row %lld: relative norm error %.3g\n", what, r, rel);
    for (long long k = 0; k < n; ++k) {
      const size_t i = size_t(r * n + k);
      const std::complex<double> g(got[i].real(), got[i].imag());
      if (!(std::abs(g - want[i]) <= 1e-4 * rms) && ++bad <= 5)
        std::printf("  %s [%lld][%lld] = (%.7g, %.7g), expected (%.7g, %.7g)\n", what, r, k,
                    g.real(), g.imag(), want[i].real(), want[i].imag());
    }
  }
  return {worst, bad == 0};
}

/// One case: `batch` random rows of n points, transformed in the given direction and checked
/// against the reference, then transformed back and checked against the input (times n).
int run_case(long long batch, long long n, bool inverse) {
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  const size_t total = size_t(batch * n);
  std::vector<cf> hx(total);
  for (auto& v : hx) v = cf(dist(rng), dist(rng));

  const std::vector<cf> hy = run_fft(hx, batch, n, inverse);
  std::vector<std::complex<double>> want(total), row(static_cast<size_t>(n));
  for (long long r = 0; r < batch; ++r) {
    for (long long k = 0; k < n; ++k) {
      const cf v = hx[size_t(r * n + k)];
      row[size_t(k)] = {v.real(), v.imag()};
    }
    reference_fft(row, inverse);
    std::copy(row.begin(), row.end(), want.begin() + r * n);
  }
  const char* dir = inverse ? "inverse" : "forward";
  const Agreement err = compare_rows(dir, hy, want, batch, n);

  // Back again: the opposite transform of the output is n times the input.
  const std::vector<cf> hz = run_fft(hy, batch, n, !inverse);
  for (size_t i = 0; i < total; ++i)
    want[i] = std::complex<double>(hx[i].real(), hx[i].imag()) * double(n);
  const Agreement round = compare_rows("round trip", hz, want, batch, n);

  const bool ok = err.ok && round.ok;
  std::printf("fft N=%lld batch=%lld %s: row error %.2e, round trip %.2e: %s on %s\n", n, batch,
              dir, err.worst, round.worst, ok ? "OK" : "WRONG",
              tile::default_device().name().c_str());
  return ok ? 0 : 1;
}

int main(int argc, char** argv) {
  try {
    if (argc > 2) {
      const long long batch = std::atoll(argv[1]), n = std::atoll(argv[2]);
      const bool inverse = argc > 3 && std::string(argv[3]) == "inverse";
      if (batch <= 0 || (argc > 3 && !inverse) ||
          (n != 256 && n != 512 && n != 1024 && n != 2048 && n != 4096 && n != 16384)) {
        std::fprintf(stderr,
                     "usage: fft [BATCH N [inverse]]   (N: 256 512 1024 2048 4096 16384)\n");
        return 2;
      }
      return run_case(batch, n, inverse);
    }
    int failed = 0;
    for (long long n : {256, 512, 1024, 2048, 4096, 16384})
      for (long long batch : {1LL, 3LL, 37LL})
        for (bool inverse : {false, true}) failed += run_case(batch, n, inverse);
    return failed ? 1 : 0;
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "fft: %s\n", e.what());
    return 1;
  }
}

#endif  // TILE_FFT_NO_MAIN
