// A kernel declared for launching from other translation units; defined in scale_kernel.tile.cpp.
#pragma once
#include <tile/tile.hpp>

template <int B>
TILE_KERNEL void scale(tile::Tensor<float, B>& z, const tile::Tensor<float, tile::dyn>& x, float a);
extern template void scale<256>(tile::Tensor<float, 256>&, const tile::Tensor<float, tile::dyn>&,
                                float);
