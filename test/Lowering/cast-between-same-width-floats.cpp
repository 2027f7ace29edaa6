// RUN: tilecc compile --emit=tile-ir %s | FileCheck %s
// A conversion between two float formats of one width (f16 and bf16, e4m3 and e5m2; a tile
// or a scalar) goes through f32, which holds either exactly: one rounding, as on the CPU.
#include <tile/tile.hpp>

TILE_KERNEL void f16_to_bf16(tile::Tensor<tile::bf16, 16>& y,
                             const tile::Tensor<tile::f16, tile::dyn>& a) {
  y.store(tile::cast<tile::bf16>(a.partition<16>().load(tile::block_id(0))));
}
// CHECK-LABEL: func.func @f16_to_bf16(
// CHECK: %[[W:.*]] = arith.extf {{.*}} : tensor<16xf16> to tensor<16xf32>
// CHECK: arith.truncf %[[W]] : tensor<16xf32> to tensor<16xbf16>

TILE_KERNEL void e4m3_to_e5m2(tile::Tensor<tile::f8e5m2, 16>& y,
                              const tile::Tensor<tile::f8e4m3, tile::dyn>& a) {
  y.store(tile::cast<tile::f8e5m2>(a.partition<16>().load(tile::block_id(0))));
}
// CHECK-LABEL: func.func @e4m3_to_e5m2(
// CHECK: %[[W:.*]] = arith.extf {{.*}} : tensor<16xf8E4M3FN> to tensor<16xf32>
// CHECK: arith.truncf %[[W]] : tensor<16xf32> to tensor<16xf8E5M2>

TILE_KERNEL void f16_scalar_on_bf16(tile::Tensor<tile::bf16, 16>& y,
                                    const tile::Tensor<tile::bf16, tile::dyn>& a) {
  tile::f16 h = tile::f16(2.0f);
  y.store(a.partition<16>().load(tile::block_id(0)) * h);
}
// CHECK-LABEL: func.func @f16_scalar_on_bf16(
// CHECK: %[[W:.*]] = arith.extf {{.*}} : f16 to f32
// CHECK: arith.truncf %[[W]] : f32 to bf16

