// RUN: tilecc check %s
// RUN: tilecc build --cpu %s -o %t.exe
// RUN: %t.exe | FileCheck %s
// RUN: tilecc compile %s --emit=tile-ir -o - | FileCheck %s --check-prefix=IR
// The free forms of the view members (tile::partition, tile::partition_mut, tile::load,
// tile::store) in a kernel whose views have dependent types: no `.template` needed, and they
// compile to what the members compile to.
#include <cstdio>
#include <tile/tile.hpp>

template <class T, int B, int K>
TILE_KERNEL void row_sums(tile::Tensor<T, B>& z, const tile::Tensor<T, tile::dyn, tile::dyn>& x) {
  auto xt = tile::partition<B, K>(x);
  tile::Tile<T, B> acc = tile::zeros<T, B>();
  for (int64_t k = 0; k < tile::num_tiles(xt, 1); ++k)
    acc = acc + tile::sum<1>(tile::load(xt, tile::block_id(0), k));
  auto zt = tile::partition_mut<B>(z);
  tile::store(zt, acc, 0);
}

template <class T, int B>
TILE_KERNEL void scale(tile::Tensor<T, B>& z, const tile::Tensor<T, tile::dyn>& x) {
  tile::store(z, tile::load(tile::partition<B>(x), tile::block_id(0)) * T(3) + tile::load(z));
}

int main() {
  auto x = tile::arange<int32_t>(6 * 40).reshape({6, 40});
  auto sums = tile::launch<row_sums<int32_t, 4, 16>>(tile::zeros<int32_t>({6}).partition<4>(), x)
                  .sync()
                  .unpartition();
  std::vector<int32_t> h = sums.to_host();
  auto y = tile::arange<int32_t>(10);
  auto tripled = tile::launch<scale<int32_t, 8>>(tile::full<int32_t>({10}, 1).partition<8>(), y)
                     .sync()
                     .unpartition();
  std::vector<int32_t> t = tripled.to_host();
  std::printf("%d %d %d; %d %d\n", h[0], h[1], h[5], t[1], t[9]);
}
// Row r sums 40r .. 40r+39: 1600r + 780.
// CHECK: 780 2380 8780; 4 28

// IR: tile.load
// IR: tile.store
