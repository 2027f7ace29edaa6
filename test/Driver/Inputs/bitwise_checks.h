// Host helpers of the driver tests that run kernels on the default device and on the CPU
// backend and compare the results bit for bit: random inputs of every element type, and the
// comparison.
#ifndef TILECC_TEST_BITWISE_CHECKS_H
#define TILECC_TEST_BITWISE_CHECKS_H

#include <cstdio>
#include <cstring>
#include <random>
#include <tile/tile.hpp>
#include <type_traits>
#include <vector>

/// `n` values of T from `seed`: any bits for integers; finite values for floating types (NaN
/// payloads need not survive a round trip bit for bit).
template <class T>
std::vector<T> randomValues(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<T> v(n);
  for (auto& e : v) {
    unsigned char bytes[sizeof(T)];
    for (auto& b : bytes) b = static_cast<unsigned char>(rng());
    if constexpr (std::is_floating_point_v<T>) e = T(std::uniform_real_distribution<double>(-4, 4)(rng));
    else if constexpr (std::is_same_v<T, tile::complex<float>>) e = T(float(rng() % 1000) / 7.f, -float(rng() % 100));
    else if constexpr (std::is_integral_v<T>) std::memcpy(&e, bytes, sizeof(T));
    else e = T(float(int(rng() % 2001) - 1000) / 64.f);
  }
  return v;
}

/// The number of elements whose bytes differ; prints it under `what` when there are any.
template <class T>
int compare(const char* what, const std::vector<T>& a, const std::vector<T>& b) {
  int bad = 0;
  for (size_t i = 0; i < a.size(); ++i) bad += std::memcmp(&a[i], &b[i], sizeof(T)) != 0;
  if (bad) std::printf("%s: %d of %zu elements differ\n", what, bad, a.size());
  return bad;
}

#endif
