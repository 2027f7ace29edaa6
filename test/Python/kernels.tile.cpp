#include "kernels.hpp"

TILE_KERNEL void saxpy(tile::Tensor<float, 256>& z, float a, const tile::Tensor<float, tile::dyn>& x,
                       const tile::Tensor<float, tile::dyn>& y) {
  z.store(a * tile::load_tile_like(x, z) + tile::load_tile_like(y, z));
}

TILE_KERNEL void transpose_pieces(tile::Tensor<float, 16, 16>& out,
                                  const tile::Tensor<float, tile::dyn, tile::dyn>& in) {
  out.store(tile::transpose(tile::load_tile_like(in, out)));
}
