// RUN: tilecc compile --emit=smem-plan %s | FileCheck %s
// Row kernels written the plain way keep their tiles in registers: a reduction's result is a
// slice of its operand's layout, broadcasting it back along the reduced axis moves nothing,
// and a reshape and a permute whose layouts keep every element in its thread need no
// staging. The only shared memory left is the reductions' cross-warp partials (none when a
// row fits one warp).
#include <tile/tile.hpp>

template <int N>
TILE_KERNEL void softmax(tile::Tensor<float, 1, N>& y, const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  auto t = tile::load_tile_like(x, y);
  auto e = tile::exp(t - tile::broadcast<1, N>(tile::reshape<1, 1>(tile::max<1>(t))));
  y.store(e / tile::broadcast<1, N>(tile::reshape<1, 1>(tile::sum<1>(e))));
}

template <int N>
TILE_KERNEL void rmsnorm(tile::Tensor<tile::bf16, 1, N>& y,
                         const tile::Tensor<tile::bf16, tile::dyn, tile::dyn>& x,
                         const tile::Tensor<tile::bf16, tile::dyn>& w) {
  auto t = tile::cast<float>(tile::load_tile_like(x, y));
  auto r = tile::rsqrt(tile::sum<1>(t * t) / float(N) + 1e-5f);
  y.store(tile::cast<tile::bf16>(t * tile::broadcast<1, N>(tile::reshape<1, 1>(r)) *
                                 tile::broadcast<1, N>(tile::cast<float>(w.partition<N>().load(0)))));
}

// Splitting heads: rows of 4 heads x 32 reshaped to [rows, heads, 32] and permuted to
// [heads, rows, 32]; the last axis stays contiguous, so the store takes the permuted layout.
TILE_KERNEL void split_heads(tile::Tensor<float, 4, 2, 32>& y,
                             const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  auto t = tile::reshape<2, 4, 32>(x.partition<2, 128>().load(tile::block_id(1), 0));
  y.store(tile::permute<1, 0, 2>(t) * 2.0f);
}

void launch_all(tile::Array<float>& y, tile::Array<float>& x, tile::Array<tile::bf16>& yb,
                tile::Array<tile::bf16>& xb, tile::Array<tile::bf16>& w) {
  tile::launch<softmax<1024>>(y.partition_mut<1, 1024>(), x).sync();
  tile::launch<softmax<4096>>(y.partition_mut<1, 4096>(), x).sync();
  tile::launch<rmsnorm<8192>>(yb.partition_mut<1, 8192>(), xb, w).sync();
  auto heads = tile::empty<float>({4, 8, 32});
  tile::launch<split_heads>(heads.partition_mut<4, 2, 32>(), x).sync();
}

// CHECK: kernel 'split_heads': {{[0-9]+}} warp(s), 0 bytes of dynamic shared memory
// CHECK-NEXT: kernel 'softmax<1024>': 1 warp(s), 0 bytes of dynamic shared memory
// CHECK-NEXT: kernel 'softmax<4096>': 4 warp(s), 32 bytes of dynamic shared memory
// CHECK-NEXT: [     0,     16)  tile.reduce   tensor<1x4096xf32> axis 1
// CHECK-NEXT: [    16,     32)  tile.reduce   tensor<1x4096xf32> axis 1
// CHECK-NEXT: kernel 'rmsnorm<8192>': {{[0-9]+}} warp(s), {{[0-9]+}} bytes of dynamic shared memory
// CHECK-NEXT: tile.reduce   tensor<1x8192xf32> axis 1
// CHECK-NOT: tile.
