// RUN: tilecc compile %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc -c %t.cu -o %t.o %}
// RUN: %if nvcc %{ %nvcc-link %t.o -L%tile_libdir -ltile_rt -o %t.exe %}
// RUN: %if nvcc %{ %t.exe | FileCheck --check-prefix=OUT %s %}
// A nested `partition_mut` of the program's own piece: each 64 x 64 piece is stored as two
// 32 x 64 halves (the second clipped at the array's edge), and the program's edge piece never
// reaches into the next program's rows. Checked against a host reference, on the GPU where
// there is one.
#include <cstdio>
#include <tile/tile.hpp>
#include <vector>

TILE_KERNEL void halves(tile::Tensor<float, 64, 64>& z,
                        const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  auto sub = z.partition_mut<32, 64>();
  auto src = x.partition<32, 64>();
  for (int64_t i = 0; i < 2; ++i)
    sub.store(src.load(tile::block_id(0) * 2 + i, tile::block_id(1)) * float(i + 2), i, 0);
}

// CHECK: tile_dev::store<

int main() {
  const long long rows = 100, cols = 70;
  std::vector<float> hx(rows * cols);
  for (long long i = 0; i < rows * cols; ++i)
    hx[i] = float(i % 97) - 40.0f;
  auto x = tile::from_host(hx, {rows, cols});
  auto z = tile::full<float>({rows, cols}, -1.0f);
  tile::launch<halves>(z.partition_mut<64, 64>(), x).sync();
  const std::vector<float> hz = z.to_host();
  int bad = 0;
  for (long long r = 0; r < rows; ++r)
    for (long long c = 0; c < cols; ++c)
      bad += hz[r * cols + c] != hx[r * cols + c] * float((r % 64) / 32 + 2);
  std::printf("nested partitions: %d mismatches on %s\n", bad,
              tile::default_device().name().c_str());
  return bad != 0;
}
// OUT: nested partitions: 0 mismatches
