// Layout conversions stage their tile in shared memory: a conversion to 16-bit mma operands
// pads each row by 8 elements (read back with ldmatrix), others stage the tile as it is. The
// two operand conversions of one loop body are live together; the accumulator's conversion
// after the loop reuses their bytes.
// RUN: tilecc-opt %s --tile-assign-layouts --tile-mma-layouts --tilegpu-plan-shared-memory | FileCheck %s

// CHECK-LABEL: func.func @gemm
// 128 x (32 + 8) f16 = 10240 bytes for a, 32 x (128 + 8) f16 = 8704 for b; the 128 x 128 f32
// result takes 65536.
// CHECK-SAME: tilegpu.smem_bytes = 65536
func.func @gemm(%x: !tile.view<?x?xf16>, %y: !tile.view<?x?xf16>, %n: index) -> tensor<128x128xf32>
    attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x128xf32>) {
    %a = tile.load %x[%c0, %i] : !tile.view<?x?xf16> -> tensor<128x32xf16>
    %b = tile.load %y[%i, %c0] : !tile.view<?x?xf16> -> tensor<32x128xf16>
    // CHECK: tilegpu.convert_layout {{.*}} {tilegpu.smem_offset = 0 : i64, tilegpu.staging = {{.*}}, tilegpu.staging_pad = 8 : i64} {{.*}} kWidth = 2
    // CHECK: tilegpu.convert_layout {{.*}} {tilegpu.smem_offset = 10240 : i64, tilegpu.staging = {{.*}}, tilegpu.staging_pad = 8 : i64} {{.*}} kWidth = 2
    %c = tile.mma %a, %b, %acc : tensor<128x32xf16>, tensor<32x128xf16>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %c : tensor<128x128xf32>
  }
  // CHECK: tilegpu.convert_layout {{.*}} {tilegpu.smem_offset = 0 : i64, tilegpu.staging = #tilegpu.shared<{{.*}}>} : tensor<128x128xf32, #tilegpu.mma
  return %r : tensor<128x128xf32>
}
