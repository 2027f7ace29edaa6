// RUN: tilecc compile %s -I%S/Inputs -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: tilecc compile %s -I%S/Inputs --emit=smem-plan | FileCheck --check-prefix=PLAN \
// RUN:   --implicit-check-not=tile.cat --implicit-check-not=tile.extract %s
// RUN: %if nvcc %{ %nvcc -c %t.cu -I%S/Inputs -o %t.o %}
// RUN: %if nvcc %{ %nvcc-link %t.o -L%tile_libdir -ltile_rt -o %t.exe %}
// RUN: %if nvcc %{ %t.exe | FileCheck --check-prefix=OUT %s %}
// A cat whose result repeats its operands' layout along the joined axis, and an extract of a
// sub-tile whose elements the source's threads hold in registers, move nothing between
// threads: the cat picks each register from one operand, the extract chooses among the
// sub-tiles' registers by the run-time index (zeros outside the tile). The same kernels run on
// the default device and on the CPU backend in one process, for element types of one, two,
// four and eight bytes and complex<float>; every element must agree bit for bit.
#include <tile/tile.hpp>

#include "bitwise_checks.h"

using tile::dyn;

// Two halves of a row block, joined along the columns.
template <class T>
TILE_KERNEL void join_columns(tile::Tensor<T, 8, 256>& out, const tile::Tensor<T, dyn, dyn>& x) {
  auto p = x.template partition<8, 128>();
  out.store(tile::cat<1>(p.load(tile::block_id(0), 1), p.load(tile::block_id(0), 0)));
}

// Two row blocks, joined along the rows.
template <class T>
TILE_KERNEL void join_rows(tile::Tensor<T, 32, 64>& out, const tile::Tensor<T, dyn, dyn>& x) {
  auto p = x.template partition<16, 64>();
  out.store(tile::cat<0>(p.load(2 * tile::block_id(0) + 1, 0), p.load(2 * tile::block_id(0), 0)));
}

// Half k of a block of rows, k from -1 to 2 (of two): the rows past the warps' are a repeat
// of their pattern in registers; programs with k out of range read zeros.
template <class T>
TILE_KERNEL void pick(tile::Tensor<T, 4, 256>& out, const tile::Tensor<T, dyn, dyn>& x) {
  auto t = x.template partition<8, 256>().load(tile::block_id(0), 0);
  out.store(tile::extract<4, 256>(t, tile::block_id(0) % 4 - 1, 0));
}

// The patterns are regular expressions so that they do not match these lines, which the
// generated file quotes.
// CHECK-LABEL: {{^}}// join_columns<float>:
// CHECK-NOT: {{__syncthread[s]|tile_dev::shf[l][(]}}
// CHECK-LABEL: {{^}}// join_rows<float>:
// CHECK-NOT: {{__syncthread[s]|tile_dev::shf[l][(]}}
// CHECK-LABEL: {{^}}// pick<float>:
// CHECK-NOT: {{__syncthread[s]|tile_dev::shf[l][(]}}
// CHECK-LABEL: {{^}}// join_columns<tile::f16>:
// PLAN-DAG: kernel 'join_columns<float>': {{[0-9]+}} warp(s), 0 bytes of dynamic shared memory
// PLAN-DAG: kernel 'join_rows<float>': {{[0-9]+}} warp(s), 0 bytes of dynamic shared memory
// PLAN-DAG: kernel 'pick<float>': {{[0-9]+}} warp(s), 0 bytes of dynamic shared memory
// PLAN-DAG: kernel 'pick<tile::complex<float>>': {{[0-9]+}} warp(s), 0 bytes of dynamic shared memory

template <class T>
int check(const char* type) {
  const long long programs = 37;
  int bad = 0;
  {
    auto hx = randomValues<T>(size_t(programs) * 8 * 256, 1);
    auto run = [&](const tile::Device& dev) {
      auto x = tile::from_host(hx, {programs * 8, 256}, dev);
      auto y = tile::zeros<T>({programs * 8, 256}, dev);
      tile::launch<join_columns<T>>(y.template partition_mut<8, 256>(), x).sync();
      return y.to_host();
    };
    bad += compare(type, run(tile::default_device()), run(tile::cpu_device()));
  }
  {
    auto hx = randomValues<T>(size_t(programs) * 32 * 64, 2);
    auto run = [&](const tile::Device& dev) {
      auto x = tile::from_host(hx, {programs * 32, 64}, dev);
      auto y = tile::zeros<T>({programs * 32, 64}, dev);
      tile::launch<join_rows<T>>(y.template partition_mut<32, 64>(), x).sync();
      return y.to_host();
    };
    bad += compare(type, run(tile::default_device()), run(tile::cpu_device()));
  }
  {
    auto hx = randomValues<T>(size_t(programs) * 8 * 256, 3);
    auto run = [&](const tile::Device& dev) {
      auto x = tile::from_host(hx, {programs * 8, 256}, dev);
      auto y = tile::full<T>({programs * 4, 256}, T(1), dev);
      tile::launch<pick<T>>(y.template partition_mut<4, 256>(), x).sync();
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
  std::printf("cat and extract in registers: %d mismatches on %s\n", bad,
              tile::default_device().name().c_str());
  return bad != 0;
}
// OUT: cat and extract in registers: 0 mismatches
