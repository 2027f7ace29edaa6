// RUN: tilecc build --cpu %s -o %t.exe
// RUN: %t.exe | FileCheck %s
// A histogram through tile::Atomic passes the checks and runs on the CPU backend: every tile
// program adds its piece's counts into the same bins.
#include <cstdio>
#include <tile/tile.hpp>

template <int B>
TILE_KERNEL void histogram(tile::Tensor<int32_t, B>& x, tile::Atomic<int32_t, 8>& bins) {
  // One-hot counts of the piece's values against bins 0..7 (past the piece's end, -1 matches
  // none), added to the shared bins with one atomic tile update.
  auto v = tile::where(tile::iota<int64_t, B>() < x.shape(0), x.load(), -1);
  auto one_hot = tile::broadcast<8, B>(tile::reshape<1, B>(v)) ==
                 tile::broadcast<8, B>(tile::reshape<8, 1>(tile::iota<int32_t, 8>()));
  bins.atomic_add(tile::sum<1>(tile::cast<int32_t>(one_hot)), 0);
}

int main() {
  std::vector<int32_t> v(1000);
  for (int i = 0; i < 1000; ++i) v[i] = (i * 7) % 5;
  auto x = tile::from_host(v);
  auto bins = tile::zeros<int32_t>({8});
  tile::launch<histogram<64>>(x.partition_mut<64>(), bins).sync();
  std::vector<int32_t> h = bins.to_host();
  std::printf("%d %d %d %d %d\n", h[0], h[1], h[2], h[3], h[4]);
}
// CHECK: 200 200 200 200 200
