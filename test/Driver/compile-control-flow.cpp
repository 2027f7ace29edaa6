// RUN: tilecc compile %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc -c %t.cu -o %t.o %}
// RUN: %if nvcc %{ %nvcc-link %t.o -L%tile_libdir -ltile_rt -o %t.exe %}
// RUN: %if nvcc %{ %t.exe | FileCheck --check-prefix=OUT %s %}
// Kernels with C++ control flow (early return, counted `for` with `continue`, `while` with
// `break`, `do`/`while`, `?:` with a division) compile to CUDA that nvcc builds for
// sm_90a. The program checks every element against a host reference: on the CPU backend here,
// on the GPU (the generated kernels) where one is present.
#include <cmath>
#include <cstdio>
#include <tile/tile.hpp>
#include <vector>

// Column-wise running max over the rows of x, skipping row `skip`.
template <int B>
TILE_KERNEL void running_max(tile::Tensor<float, 1, B>& z,
                             const tile::Tensor<float, tile::dyn, tile::dyn>& x, int64_t skip) {
  if (tile::block_id(1) * B >= x.shape(1))
    return;
  auto tiles = x.partition<1, B>();
  auto best = tiles.load(0, tile::block_id(1));
  for (int64_t r = 1; r < x.shape(0); ++r) {
    if (r == skip)
      continue;
    best = tile::max(best, tiles.load(r, tile::block_id(1)));
  }
  z.store(best);
}

// Collatz steps of start + block_id, capped, then rounded up to a multiple of 3.
TILE_KERNEL void steps(tile::Tensor<int32_t, 64>& z, int start) {
  int n = start + int(tile::block_id(0));
  int count = 0;
  while (n != 1) {
    n = n % 2 == 0 ? n / 2 : 3 * n + 1;
    if (++count >= 1000)
      break;
  }
  int d = 0;
  do {
    d += 3;
  } while (d < count);
  z.store(tile::full<int32_t, 64>(count * 10000 + d));
}

int main() {
  const long long rows = 37, cols = 300;
  std::vector<float> hx(rows * cols);
  for (long long i = 0; i < rows * cols; ++i)
    hx[i] = std::sin(float(i) * 0.37f) * 100.0f;
  auto x = tile::from_host(hx, {rows, cols});
  auto m = tile::launch<running_max<128>>(tile::zeros<float>({1, cols}).partition<1, 128>(), x,
                                          int64_t(5))
               .sync()
               .unpartition()
               .to_host();
  int bad = 0;
  for (long long j = 0; j < cols; ++j) {
    float want = hx[j];
    for (long long r = 1; r < rows; ++r)
      if (r != 5)
        want = std::fmax(want, hx[r * cols + j]);
    bad += m[j] != want;
  }
  auto s = tile::launch<steps>(tile::zeros<int32_t>({256}).partition<64>(), 27)
               .sync()
               .unpartition()
               .to_host();
  for (int p = 0; p < 4; ++p) {
    int n = 27 + p, count = 0;
    while (n != 1 && count < 1000) {
      n = n % 2 == 0 ? n / 2 : 3 * n + 1;
      ++count;
    }
    int d = 3 * ((count + 2) / 3 > 0 ? (count + 2) / 3 : 1);
    for (int i = 0; i < 64; ++i)
      bad += s[p * 64 + i] != count * 10000 + d;
  }
  std::printf("mismatches: %d\n", bad);
}

// CHECK: __global__ void {{.*}} __tilecc_steps(
// CHECK: while (true) {
// CHECK: break;
// CHECK: while (true) {
// CHECK: __global__ void {{.*}} __tilecc_running_max_128(
// CHECK: if (
// CHECK: } else {
// CHECK: for (int64_t [[I:v[0-9]+]] = 1; [[I]] < {{v[0-9]+}}; [[I]] += 1) {
// OUT: mismatches: 0
