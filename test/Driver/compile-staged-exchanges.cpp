// RUN: tilecc compile %s -I%S/Inputs -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc -c %t.cu -I%S/Inputs -o %t.o %}
// RUN: %if nvcc %{ %nvcc-link %t.o -L%tile_libdir -ltile_rt -o %t.exe %}
// RUN: %if nvcc %{ %t.exe | FileCheck --check-prefix=OUT %s %}
// Permutes and reshapes whose elements cross warps stage through shared memory, laid out as
// the compiler chose to keep the writes and the reads free of bank conflicts: a transpose
// swizzles single elements (its reads run down the columns), wider writes and reads swizzle
// groups. The same kernels run on the default device and on the CPU backend in one process,
// for element types of one, two, four and eight bytes and complex<float>; every element must
// agree bit for bit.
#include <tile/tile.hpp>

#include "bitwise_checks.h"

using tile::dyn;

// A 64 x 64 transpose over 8 warps.
template <class T>
TILE_KERNEL TILE_KERNEL_CONFIG(num_warps = 8) void flip(tile::Tensor<T, 64, 64>& out,
                                                       const tile::Tensor<T, dyn, dyn>& x) {
  out.store(tile::transpose(x.template partition<64, 64>().load(tile::block_id(1), tile::block_id(0))));
}

// Rows of 128 regrouped as 32 x 64, then transposed, over 4 warps.
template <class T>
TILE_KERNEL TILE_KERNEL_CONFIG(num_warps = 4) void regroup(tile::Tensor<T, 64, 32>& out,
                                                          const tile::Tensor<T, dyn, dyn>& x) {
  auto t = x.template partition<16, 128>().load(tile::block_id(0), 0);
  out.store(tile::transpose(tile::reshape<32, 64>(t)));
}

// The axes of an 8 x 16 x 32 tile rotated, over 4 warps.
template <class T>
TILE_KERNEL TILE_KERNEL_CONFIG(num_warps = 4) void rotate(tile::Tensor<T, 32, 8, 16>& out,
                                                         const tile::Tensor<T, dyn, dyn, dyn>& x) {
  auto t = x.template partition<8, 16, 32>().load(tile::block_id(0), 0, 0);
  out.store(tile::permute<2, 0, 1>(t));
}

// (The patterns are regular expressions so that they do not match these lines, which the
// generated file quotes.)
// CHECK-LABEL: {{^}}// flip<float>:
// CHECK: {{tile_dev::to_shared_staged<tile_dev::Staging<64, 0, 1, 1, 3[2]>}}
// CHECK-LABEL: {{^}}// regroup<float>:
// CHECK: {{tile_dev::Staging<}}
// CHECK-LABEL: {{^}}// rotate<float>:
// CHECK: {{tile_dev::Staging<}}

template <class T>
int check(const char* type) {
  const long long tiles = 5;
  int bad = 0;
  {
    auto hx = randomValues<T>(size_t(tiles * 64) * 128, 1);
    auto run = [&](const tile::Device& dev) {
      auto x = tile::from_host(hx, {tiles * 64, 128}, dev);
      auto y = tile::zeros<T>({128, tiles * 64}, dev);
      tile::launch<flip<T>>(y.template partition_mut<64, 64>(), x).sync();
      return y.to_host();
    };
    bad += compare(type, run(tile::default_device()), run(tile::cpu_device()));
  }
  {
    auto hx = randomValues<T>(size_t(tiles) * 16 * 128, 2);
    auto run = [&](const tile::Device& dev) {
      auto x = tile::from_host(hx, {tiles * 16, 128}, dev);
      auto y = tile::zeros<T>({tiles * 64, 32}, dev);
      tile::launch<regroup<T>>(y.template partition_mut<64, 32>(), x).sync();
      return y.to_host();
    };
    bad += compare(type, run(tile::default_device()), run(tile::cpu_device()));
  }
  {
    auto hx = randomValues<T>(size_t(tiles) * 8 * 16 * 32, 3);
    auto run = [&](const tile::Device& dev) {
      auto x = tile::from_host(hx, {tiles * 8, 16, 32}, dev);
      auto y = tile::zeros<T>({tiles * 32, 8, 16}, dev);
      tile::launch<rotate<T>>(y.template partition_mut<32, 8, 16>(), x).sync();
      return y.to_host();
    };
    bad += compare(type, run(tile::default_device()), run(tile::cpu_device()));
  }
  return bad;
}

int main() {
  int bad = check<float>("float") + check<tile::f16>("f16") + check<tile::bf16>("bf16") +
            check<double>("double") + check<int8_t>("int8") + check<int64_t>("int64") +
            check<tile::complex<float>>("complex<float>");
  std::printf("staged exchanges: %d mismatches on %s\n", bad,
              tile::default_device().name().c_str());
  return bad != 0;
}
// OUT: staged exchanges: 0 mismatches
