// RUN: tilecc build --cpu %s -o %t.exe
// RUN: %t.exe | FileCheck %s
// A histogram through tile::Atomic passes the checks and runs on the CPU backend: every tile
// program adds its piece's counts into the same bins.
#include <cstdio>
#include <tile/tile.hpp>

template <int B>
TILE_KERNEL void histogram(tile::Tensor<int32_t, B>& x, tile::Atomic<int32_t, tile::dyn>& bins) {
  // bins.shape(0) counters; program p adds a one at each of its values.
  const auto t = x.load();
  for (int64_t i = 0; i < x.shape(0); ++i)
    bins.atomic_add(1, t(i));
}

int main() {
  std::vector<int32_t> v(1000);
  for (int i = 0; i < 1000; ++i) v[i] = (i * 7) % 5;
  auto x = tile::from_host(v);
  auto bins = tile::zeros<int32_t>({5});
  tile::launch<histogram<64>>(x.partition_mut<64>(), bins).sync();
  std::vector<int32_t> h = bins.to_host();
  std::printf("%d %d %d %d %d\n", h[0], h[1], h[2], h[3], h[4]);
}
// CHECK: 200 200 200 200 200
