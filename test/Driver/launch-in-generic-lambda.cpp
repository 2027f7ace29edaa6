// RUN: tilecc compile %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// A kernel template launched only from inside a generic lambda is found through the lambda's
// instantiated call operators, once per instantiation the program makes.
#include <tile/tile.hpp>

template <int N>
TILE_KERNEL void scale(tile::Tensor<float, N>& y, const tile::Tensor<float, tile::dyn>& x) {
  y.store(tile::load_tile_like(x, y) * 2.0f);
}

int main() {
  auto x = tile::zeros<float>({1024});
  auto y = tile::zeros<float>({1024});
  auto run = [&](auto width) {
    constexpr int n = decltype(width)::value;
    tile::launch<scale<n>>(y.partition_mut<n>(), x).sync();
  };
  run(std::integral_constant<int, 128>{});
  run(std::integral_constant<int, 256>{});
}
// CHECK-DAG: __global__ {{.*}} __tilecc_scale_128(
// CHECK-DAG: __global__ {{.*}} __tilecc_scale_256(
