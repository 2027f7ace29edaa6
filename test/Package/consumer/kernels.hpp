// The kernels kernels.tile.cpp defines, as plain C++ declarations other files launch.
#pragma once
#include <tile/tile.hpp>

/// out = in * s + kExtra, one 256-element piece per program.
TILE_KERNEL void scale_rows(tile::Tensor<float, 256>& out, const tile::Tensor<float, tile::dyn>& in,
                            float s);
