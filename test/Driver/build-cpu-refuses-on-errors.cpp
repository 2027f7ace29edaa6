// RUN: rm -f %t.exe
// RUN: not tilecc build --cpu %s -o %t.exe 2>&1 | FileCheck %s
// RUN: not test -e %t.exe
// `tilecc build --cpu` runs the checks `tilecc check` runs and builds nothing when one fails,
// as the GPU build does: the host compiler would accept this program and the CPU backend
// would run the race.
#include <tile/tile.hpp>

TILE_KERNEL void twice(tile::Tensor<float, 16>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(tile::load_tile_like(x, z) * 2.0f);
}

int main() {
  auto a = tile::zeros<float>({64});
  auto p = a.partition_mut<16>();
  auto q = a.partition_mut<16>();
  tile::launch<twice>(std::move(p), a).sync();
}
// CHECK: error: {{.*}}[tile-borrow-conflict]
