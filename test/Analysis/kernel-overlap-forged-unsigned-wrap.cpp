// RUN: tilecc check -verify %s
// A forged index: 0xffffffff + 1 is 0 in 32-bit unsigned arithmetic, not 2^32.
#include <cstdint>
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
  auto p = z.partition_mut<64>(); // expected-note {{'p' is created here}}
  auto q = z.partition_mut<64>(); // expected-note {{'q' is created here}}
  std::uint32_t big = 0xffffffffu;
  p.store(tile::zeros<float, 64>(), 0); // expected-note {{the access through 'p' that it may overlap}}
  q.store(tile::ones<float, 64>(), big + 1u); // expected-error {{views 'p' and 'q' of this program's piece may overlap}}
}
