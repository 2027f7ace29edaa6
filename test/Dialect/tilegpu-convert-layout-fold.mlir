// Conversions fold: to the same layout, back to where a value came from, through a chain,
// and of constants and splats (made directly in the wanted layout).
// RUN: tilecc-opt %s --canonicalize | FileCheck %s

#M = #tilegpu.mma<warpsPerBlock = [2, 2]>
#L = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1], order = [1, 0]>
#K = #tilegpu.blocked<sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerBlock = [4, 1], order = [1, 0]>

// CHECK-LABEL: func.func @round_trip
// CHECK-SAME: (%[[X:.*]]: tensor<32x16xf32, #tilegpu.mma
// CHECK-NEXT: return %[[X]]
func.func @round_trip(%x: tensor<32x16xf32, #M>) -> tensor<32x16xf32, #M> {
  %a = tilegpu.convert_layout %x : tensor<32x16xf32, #M> -> tensor<32x16xf32, #L>
  %b = tilegpu.convert_layout %a : tensor<32x16xf32, #L> -> tensor<32x16xf32, #M>
  return %b : tensor<32x16xf32, #M>
}

// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[C:.*]] = tilegpu.convert_layout %arg0 : tensor<32x16xf32, #tilegpu.mma<warpsPerBlock = [2, 2]>> -> tensor<32x16xf32, #tilegpu.blocked<sizePerThread = [1, 1]
// CHECK-NEXT: return %[[C]]
func.func @chain(%x: tensor<32x16xf32, #M>) -> tensor<32x16xf32, #K> {
  %a = tilegpu.convert_layout %x : tensor<32x16xf32, #M> -> tensor<32x16xf32, #L>
  %b = tilegpu.convert_layout %a : tensor<32x16xf32, #L> -> tensor<32x16xf32, #K>
  return %b : tensor<32x16xf32, #K>
}

// CHECK-LABEL: func.func @uniform
// CHECK-DAG: arith.constant dense<2.500000e+00> : tensor<32x16xf32, #tilegpu.mma<warpsPerBlock = [2, 2]>>
// CHECK-DAG: tile.splat %arg0 : f32 -> tensor<32x16xf32, #tilegpu.mma<warpsPerBlock = [2, 2]>>
// CHECK-NOT: convert_layout
func.func @uniform(%s: f32) -> (tensor<32x16xf32, #M>, tensor<32x16xf32, #M>) {
  %c = arith.constant dense<2.5> : tensor<32x16xf32, #L>
  %a = tilegpu.convert_layout %c : tensor<32x16xf32, #L> -> tensor<32x16xf32, #M>
  %t = tile.splat %s : f32 -> tensor<32x16xf32, #L>
  %b = tilegpu.convert_layout %t : tensor<32x16xf32, #L> -> tensor<32x16xf32, #M>
  return %a, %b : tensor<32x16xf32, #M>, tensor<32x16xf32, #M>
}
