// RUN: tilecc compile %s -I%S/Inputs -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc -c %t.cu -I%S/Inputs -o %t.o %}
// RUN: %if nvcc %{ %nvcc-link %t.o -L%tile_libdir -ltile_rt -o %t.exe %}
// RUN: %if nvcc %{ %t.exe | FileCheck --check-prefix=OUT %s %}
// Reshapes and permutes whose elements stay within a warp move by warp shuffles, with no
// shared memory: a thread reads each of its new registers from the lane that holds it, and
// where the register a lane needs depends on the lane, every lane sends each candidate in turn
// and keeps its own. The same kernels run on the default device and on the CPU backend in one
// process, for element types of one, two, four and eight bytes and complex<float>; every
// element must agree bit for bit.
#include <tile/tile.hpp>

#include "bitwise_checks.h"

using tile::dyn;

// A [4 x 2 x 8] tile read as [16 x 4]: the rows of 4 come from other lanes.
template <class T>
TILE_KERNEL void regroup(tile::Tensor<T, 16, 4>& out, const tile::Tensor<T, dyn, dyn, dyn>& x) {
  out.store(tile::reshape<16, 4>(x.template partition<4, 2, 8>().load(tile::block_id(0), 0, 0)));
}

// Blocks of 8 columns swapped with blocks of 4 rows.
template <class T>
TILE_KERNEL void interleave(tile::Tensor<T, 8, 16>& out, const tile::Tensor<T, dyn, dyn>& x) {
  auto t = x.template partition<16, 8>().load(tile::block_id(0), 0);
  out.store(tile::reshape<8, 16>(tile::permute<1, 0, 2>(tile::reshape<4, 4, 8>(t))));
}

// Every column of a [2 x 16] tile copied four times, then viewed as rows of 32.
template <class T>
TILE_KERNEL void spread(tile::Tensor<T, 4, 32>& out, const tile::Tensor<T, dyn, dyn>& x) {
  auto t = x.template partition<2, 16>().load(tile::block_id(0), 0);
  out.store(tile::reshape<4, 32>(tile::permute<1, 0, 2>(tile::broadcast<2, 4, 16>(tile::reshape<2, 1, 16>(t)))));
}

// Four-byte elements regroup in their registers; two-byte ones pair up differently and shuffle.
// (The patterns are regular expressions so that they do not match these lines, which the
// generated file quotes.)
// CHECK-LABEL: {{^}}// regroup<float>:
// CHECK-NOT: {{shared memor[y]|tile_dev::shf[l][(]}}
// CHECK-LABEL: {{^}}// interleave<float>:
// CHECK-NOT: {{shared memor[y]}}
// CHECK: {{tile_dev::shf[l][(]}}
// CHECK-NOT: {{__syncthread[s]}}
// CHECK-LABEL: {{^}}// spread<float>:
// CHECK-LABEL: {{^}}// regroup<tile::f16>:
// CHECK-NOT: {{shared memor[y]}}
// CHECK: {{tile_dev::shf[l][(]}}
// CHECK-LABEL: {{^}}// spread<double>:
// CHECK-NOT: {{shared memor[y]}}
// CHECK: {{tile_dev::shf[l][(]}}
// CHECK-NOT: {{__syncthread[s]}}
// CHECK-LABEL: {{^}}// regroup<signed char>:

template <class T>
int check(const char* type) {
  const long long programs = 37;
  int bad = 0;
  {
    auto hx = randomValues<T>(size_t(programs) * 64, 1);
    auto run = [&](const tile::Device& dev) {
      auto x = tile::from_host(hx, {programs * 4, 2, 8}, dev);
      auto y = tile::zeros<T>({programs * 16, 4}, dev);
      tile::launch<regroup<T>>(y.template partition_mut<16, 4>(), x).sync();
      return y.to_host();
    };
    bad += compare(type, run(tile::default_device()), run(tile::cpu_device()));
  }
  {
    auto hx = randomValues<T>(size_t(programs) * 128, 2);
    auto run = [&](const tile::Device& dev) {
      auto x = tile::from_host(hx, {programs * 16, 8}, dev);
      auto y = tile::zeros<T>({programs * 8, 16}, dev);
      tile::launch<interleave<T>>(y.template partition_mut<8, 16>(), x).sync();
      return y.to_host();
    };
    bad += compare(type, run(tile::default_device()), run(tile::cpu_device()));
  }
  {
    auto hx = randomValues<T>(size_t(programs) * 32, 3);
    auto run = [&](const tile::Device& dev) {
      auto x = tile::from_host(hx, {programs * 2, 16}, dev);
      auto y = tile::zeros<T>({programs * 4, 32}, dev);
      tile::launch<spread<T>>(y.template partition_mut<4, 32>(), x).sync();
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
  std::printf("warp shuffles: %d mismatches on %s\n", bad, tile::default_device().name().c_str());
  return bad != 0;
}
// OUT: warp shuffles: 0 mismatches
