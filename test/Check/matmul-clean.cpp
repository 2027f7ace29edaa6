// RUN: tilecc check -verify %s
// RUN: tilecc check %s 2>&1 | count 0
// expected-no-diagnostics
// Kernels using tile::mma and tile::matmul (tile/matmul.hpp) check clean: a K-loop carrying a
// float accumulator, f16 / bf16 / float (TF32) inputs, and batched rank-3 tiles.
#include <tile/tile.hpp>

template <int BM, int BN, int BK>
TILE_KERNEL void gemm(tile::Tensor<float, BM, BN>& c, const tile::Tensor<tile::f16, tile::dyn, tile::dyn>& a,
                      const tile::Tensor<tile::f16, tile::dyn, tile::dyn>& b) {
  auto a_tiles = a.partition<BM, BK>();
  auto b_tiles = b.partition<BK, BN>();
  tile::Tile<float, BM, BN> acc;  // zeros
  for (int64_t k = 0; k < tile::num_tiles(a_tiles, 1); ++k)
    acc = tile::mma(a_tiles.load(tile::block_id(0), k), b_tiles.load(k, tile::block_id(1)), acc);
  c.store(acc);
}
template void gemm<64, 32, 16>(tile::Tensor<float, 64, 32>&,
                               const tile::Tensor<tile::f16, tile::dyn, tile::dyn>&,
                               const tile::Tensor<tile::f16, tile::dyn, tile::dyn>&);

TILE_KERNEL void products(tile::Tensor<float, 16, 32>& half_out, tile::Tensor<float, 16, 32>& tf32_out,
                          tile::Tensor<tile::bf16, 16, 32>& rounded, tile::Tensor<float, 4, 16, 16>& batched,
                          const tile::Tensor<tile::bf16, 16, 64>& x,
                          const tile::Tensor<tile::bf16, 64, 32>& w, const tile::Tensor<float, 16, 8>& p,
                          const tile::Tensor<float, 8, 32>& q, const tile::Tensor<tile::f16, 4, 16, 8>& s,
                          const tile::Tensor<tile::f16, 4, 8, 16>& t, float scale) {
  auto xw = tile::matmul(x.load(), w.load());
  half_out.store(xw * scale);
  tf32_out.store(tile::mma(p.load(), q.load(), xw));
  rounded.store(tile::cast<tile::bf16>(tile::matmul(x.load(), w.load()) + 1.0f));
  auto st = tile::matmul(s.load(), t.load());
  batched.store(tile::mma(s.load(), t.load(), st));
}
