// RUN: tilecc compile %s -I%S/Inputs -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: tilecc compile %s -I%S/Inputs --emit=smem-plan | FileCheck --check-prefix=PLAN %s
// RUN: %if nvcc %{ %nvcc -c %t.cu -I%S/Inputs -o %t.o %}
// RUN: %if nvcc %{ %nvcc-link %t.o -L%tile_libdir -ltile_rt -o %t.exe %}
// RUN: %if nvcc %{ %t.exe | FileCheck --check-prefix=OUT %s %}
// Scans run where their elements are: each thread scans its registers along the axis, the
// lanes along it scan the threads' totals by shuffles, and only the totals of warps and of
// repeats of the pattern along the axis meet in shared memory. The same kernels run on the
// default device and on the CPU backend in one process; integer sums wrap and max picks, so
// every element must agree bit for bit whatever the order of combination.
#include <tile/tile.hpp>

#include "bitwise_checks.h"

using tile::dyn;

// Rows of 256 within a warp's lanes and registers.
template <class T>
TILE_KERNEL void row_sums(tile::Tensor<T, 4, 256>& out, const tile::Tensor<T, dyn, dyn>& x) {
  out.store(tile::cumsum<1>(tile::load_tile_like(x, out)));
}

// Columns of 64 down the rows, which lie in warps and repeats.
template <class T>
TILE_KERNEL void column_sums(tile::Tensor<T, 64, 32>& out, const tile::Tensor<T, dyn, dyn>& x) {
  out.store(tile::cumsum<0>(tile::load_tile_like(x, out)));
}

// A long row: registers, lanes, warps and repeats along one axis; a running maximum from an
// init.
template <class T>
TILE_KERNEL void running_max(tile::Tensor<T, 8192>& out, const tile::Tensor<T, dyn>& x) {
  out.store(tile::scan<0>(tile::load_tile_like(x, out), T(-3),
                          [](T a, T b) { return a < b ? b : a; }));
}

// The patterns are regular expressions so that they do not match these lines, which the
// generated file quotes.
// CHECK-LABEL: {{^}}// row_sums<int>:
// CHECK-NOT: {{__syncthread[s]}}
// CHECK: {{tile_dev::shf[l][(]}}
// CHECK-LABEL: {{^}}// column_sums<int>:
// PLAN-DAG: kernel 'row_sums<int>': {{[0-9]+}} warp(s), 0 bytes of dynamic shared memory
// PLAN-DAG: kernel 'row_sums<signed char>': {{[0-9]+}} warp(s), 0 bytes of dynamic shared memory
// PLAN-DAG: kernel 'column_sums<int>': {{[0-9]+}} warp(s), {{[0-9]+}} bytes of dynamic shared memory

template <class T>
int sums(const char* type) {
  int bad = 0;
  {
    auto hx = randomValues<T>(size_t(37) * 4 * 256, 1);
    auto run = [&](const tile::Device& dev) {
      auto x = tile::from_host(hx, {37 * 4, 256}, dev);
      auto y = tile::zeros<T>({37 * 4, 256}, dev);
      tile::launch<row_sums<T>>(y.template partition_mut<4, 256>(), x).sync();
      return y.to_host();
    };
    bad += compare(type, run(tile::default_device()), run(tile::cpu_device()));
  }
  {
    auto hx = randomValues<T>(size_t(3 * 64) * (32 * 37), 2);
    auto run = [&](const tile::Device& dev) {
      auto x = tile::from_host(hx, {64 * 3, 32 * 37}, dev);
      auto y = tile::zeros<T>({64 * 3, 32 * 37}, dev);
      tile::launch<column_sums<T>>(y.template partition_mut<64, 32>(), x).sync();
      return y.to_host();
    };
    bad += compare(type, run(tile::default_device()), run(tile::cpu_device()));
  }
  return bad;
}

template <class T>
int maxima(const char* type) {
  auto hx = randomValues<T>(size_t(8192) * 5 - 77, 3);
  auto run = [&](const tile::Device& dev) {
    auto x = tile::from_host(hx, {int64_t(hx.size())}, dev);
    auto y = tile::zeros<T>({int64_t(hx.size())}, dev);
    tile::launch<running_max<T>>(y.template partition_mut<8192>(), x).sync();
    return y.to_host();
  };
  return compare(type, run(tile::default_device()), run(tile::cpu_device()));
}

int main() {
  int bad = sums<int>("int") + sums<int8_t>("int8") + sums<uint64_t>("uint64") +
            maxima<float>("float") + maxima<double>("double") + maxima<int16_t>("int16");
  std::printf("scans in registers: %d mismatches on %s\n", bad,
              tile::default_device().name().c_str());
  return bad != 0;
}
// OUT: scans in registers: 0 mismatches
