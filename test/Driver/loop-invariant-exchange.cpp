// RUN: tilecc compile --emit=tilegpu-ir %s | FileCheck %s
// What a loop step computes the same way every step moves before the loop: the transpose of
// the mask tile (an exchange through shared memory) runs once, not at every K step, and the
// loop body is left with its loads, products and reduction.
#include <tile/tile.hpp>

TILE_KERNEL void masked_row_sums(tile::Tensor<float, 64>& y,
                                 const tile::Tensor<float, tile::dyn, tile::dyn>& a,
                                 const tile::Tensor<float, tile::dyn, tile::dyn>& mask) {
  auto pa = a.partition<64, 64>();
  auto m = mask.partition<64, 64>().load(0, 0);
  auto acc = tile::zeros<float, 64>();
  for (int64_t k = 0; k < tile::num_tiles(pa, 1); ++k)
    acc = acc + tile::sum<1>(pa.load(tile::block_id(0), k) * tile::transpose(m));
  y.store(acc);
}

// CHECK-LABEL: func.func @masked_row_sums
// CHECK: tile.permute
// CHECK-NEXT: tilegpu.convert_layout {{.*}}tilegpu.smem_offset
// CHECK: scf.for
// CHECK-NOT: tile.permute
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.reduce
// CHECK: scf.yield
