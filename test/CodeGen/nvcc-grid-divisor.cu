// tile_dev::Divisor divides every program number below 2^31 exactly, as a multiply and a
// shift, for divisors of every size; make_grid uses it for grids of fewer than 2^31
// programs without a program map. Host-only: runs with or without a GPU.
// REQUIRES: nvcc
// RUN: %nvcc %s -o %t && %t | FileCheck %s
#include <device/tile_device.cuh>

#include <cstdio>
#include <vector>

int main() {
  std::vector<uint32_t> divisors;
  for (uint32_t d = 1; d <= 4096; ++d) divisors.push_back(d);
  for (int l = 12; l <= 31; ++l)
    for (int64_t e = -3; e <= 3; ++e) divisors.push_back(uint32_t((int64_t(1) << l) + e));
  divisors.push_back(0x7fffffffu);
  std::vector<uint32_t> numbers;
  for (uint32_t n = 0; n <= 70000; ++n) numbers.push_back(n);
  for (int l = 17; l <= 31; ++l)
    for (int64_t e = -5; e <= 5; ++e)
      if ((int64_t(1) << l) + e < (int64_t(1) << 31)) numbers.push_back(uint32_t((int64_t(1) << l) + e));
  int64_t wrong = 0, tried = 0;
  for (uint32_t d : divisors) {
    const tile_dev::Divisor div = tile_dev::Divisor::of(d);
    for (uint32_t n : numbers) {
      ++tried;
      wrong += div.quotient(n) != n / d;
    }
    // Multiples of d and their neighbours, where a rounding error would show first.
    for (uint64_t q = 1; q * d < (uint64_t(1) << 31); q = q * 3 + 1)
      for (int64_t e = -1; e <= 1; ++e) {
        const int64_t n = int64_t(q * d) + e;
        if (n < 0 || n >= (int64_t(1) << 31)) continue;
        ++tried;
        wrong += div.quotient(uint32_t(n)) != uint32_t(n) / d;
      }
  }
  // CHECK: wrong quotients: 0
  std::printf("wrong quotients: %lld of %lld\n", (long long)wrong, (long long)tried);

  tile::detail::LaunchArgs a{};
  a.grid_rank = 2;
  a.grid[0] = 65536;
  a.grid[1] = 3;
  const tile_dev::Grid g = tile_dev::make_grid(a);
  // CHECK-NEXT: narrow 1: 3 2 2
  std::printf("narrow %d: %u %u %u\n", int(g.narrow), g.divisor[1].d,
              g.divisor[1].quotient(7), g.divisor[0].quotient(131073));
  a.grid[0] = int64_t(1) << 30;
  a.grid[1] = 4;
  // CHECK-NEXT: 2^32 programs narrow: 0
  std::printf("2^32 programs narrow: %d\n", int(tile_dev::make_grid(a).narrow));
}
