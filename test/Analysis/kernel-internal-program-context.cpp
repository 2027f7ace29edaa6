// RUN: tilecc check -verify %s
// The running program's coordinates live in the library's internals; a kernel that rewrites them
// forges its block id.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64>& z) {
  tile::detail::current_program.id[0] = 0; // expected-error {{'tile::detail::current_program' is internal to the tile library}}
  z.store(tile::zeros<float, 64>());
}
