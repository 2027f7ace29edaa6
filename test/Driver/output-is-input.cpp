// An output that names the input is refused before anything is written (exit 2): the source
// stays as it was, for compile and for check's report.
// RUN: cp %s %t.cpp
// RUN: not tilecc compile %t.cpp -o %t.cpp 2>&1 | FileCheck %s
// RUN: tilecc compile %t.cpp -o %t.cpp 2>/dev/null || test $? -eq 2
// RUN: not tilecc check %t.cpp -o %t.cpp 2>&1 | FileCheck %s
// RUN: cmp %s %t.cpp
// CHECK: tilecc: error: the output '{{.*}}output-is-input.cpp.tmp.cpp' is the input file
#include <tile/tile.hpp>

TILE_KERNEL void copy(tile::Tensor<float, 16>& y, const tile::Tensor<float, tile::dyn>& x) {
  y.store(x.partition<16>().load(tile::block_id(0)));
}
