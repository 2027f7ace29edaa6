// The kernels kernels.tile.cpp defines, launched from Python through module.cpp.
#pragma once
#include <tile/tile.hpp>

/// z = a * x + y, one 256-element piece of z per program (the last one cut).
TILE_KERNEL void saxpy(tile::Tensor<float, 256>& z, float a, const tile::Tensor<float, tile::dyn>& x,
                       const tile::Tensor<float, tile::dyn>& y);

/// Each program's 16 x 16 piece of out: the same piece of in, transposed piece by piece
/// (in is read through whatever strides it has).
TILE_KERNEL void transpose_pieces(tile::Tensor<float, 16, 16>& out,
                                  const tile::Tensor<float, tile::dyn, tile::dyn>& in);
