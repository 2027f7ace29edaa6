// RUN: tilecc check -verify %s
// The patterns of examples/: load_tile_like, block_id-indexed tiled views, a whole-piece store.
// expected-no-diagnostics
#include <tile/tile.hpp>

template <int B>
TILE_KERNEL void add(tile::Tensor<float, B>& z, const tile::Tensor<float, tile::dyn>& x,
                     const tile::Tensor<float, tile::dyn>& y) {
  auto tx = tile::load_tile_like(x, z);
  auto ty = tile::load_tile_like(y, z);
  z.store(tx + ty);
}

template <int BM, int BN>
TILE_KERNEL void relu_mul_add(tile::Tensor<float, BM, BN>& c, const tile::Tensor<float, tile::dyn, tile::dyn>& a,
                              const tile::Tensor<float, tile::dyn, tile::dyn>& b) {
  auto ta = tile::load_tile_like(a, c);
  auto tb = b.template partition<BM, BN>().load(tile::block_id(0), tile::block_id(1));
  c.store(tile::max(ta, 0.0f) * tb + 1.0f);
}

TILE_KERNEL void saxpy(tile::Tensor<float, 256>& y, const tile::Tensor<float, tile::dyn>& x, float a) {
  auto rows = y.partition_mut<64>();
  auto in = x.partition<64>();
  const int64_t base = tile::block_id() * 4;
  for (int64_t i = 0; i < 4; ++i)
    rows.store(in.load(base + i) * a + rows.load(i), i);
}

template void add<128>(tile::Tensor<float, 128>&, const tile::Tensor<float, tile::dyn>&,
                       const tile::Tensor<float, tile::dyn>&);
template void relu_mul_add<32, 64>(tile::Tensor<float, 32, 64>&, const tile::Tensor<float, tile::dyn, tile::dyn>&,
                                   const tile::Tensor<float, tile::dyn, tile::dyn>&);
