// RUN: tilecc check %s 2>&1 | FileCheck %s --implicit-check-not=warning:
// RUN: tilecc check -Wno-tile-scalar-conversion %s 2>&1 | count 0
// RUN: not tilecc check -Werror=tile-scalar-conversion %s 2>&1 | FileCheck %s --check-prefix=ERROR
// A constant scalar operand whose value changes as the tile's element type is reported at the
// scalar, with what it becomes: out of an integer type's range, a fraction dropped, beyond a
// float type's range. Constants that keep their value, and float constants that only round,
// are not reported.
#include <tile/tile.hpp>

TILE_KERNEL void narrowing(tile::Tensor<int8_t, 128>& a, tile::Tensor<int, 128>& b,
                           tile::Tensor<float, 128>& c, tile::Tensor<tile::bf16, 128>& d,
                           tile::Tensor<uint32_t, 128>& e) {
  a.store(a.load() + 300);
  // CHECK: scalar-conversion-warning.cpp:[[@LINE-1]]:22: warning: the scalar 300 is 44 as the tile's element type 'signed char'{{.*}} [tile-scalar-conversion]
  // ERROR: scalar-conversion-warning.cpp:[[@LINE-2]]:22: error: the scalar 300 is 44
  b.store(b.load() * 0.5);
  // CHECK: [[@LINE-1]]:22: warning: the scalar 0.5 is 0 as the tile's element type 'int'
  c.store(tile::min(c.load(), 1e300));
  // CHECK: [[@LINE-1]]:31: warning: the scalar 1e+300 is infinity as the tile's element type 'float'
  d.store(d.load() + 257);
  // CHECK: [[@LINE-1]]:22: warning: the scalar 257 is 256 as the tile's element type
  e.store(tile::where(e.load() > 3u, e.load(), -1));
  // CHECK: [[@LINE-1]]:48: warning: the scalar -1 is 4294967295 as the tile's element type
  b.store(b.load() + 1e10);
  // CHECK: [[@LINE-1]]:22: warning: the scalar 1e+10 is out of its range as the tile's element type 'int'

  // Not reported: the value is kept, or a float constant only rounds.
  a.store(a.load() + 100);
  b.store(b.load() * 2.0);
  c.store(c.load() * 0.1);
  d.store(d.load() * 0.1f);
  e.store(e.load() & 0xFFu);
}
