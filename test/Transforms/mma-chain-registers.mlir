// A chain of two mmas in a loop (attention's Q K^T, then P V): the B operands come from
// rings, each A from registers (Q loaded once before the loop, P the first product's
// exponential cast to 16 bits, which lies in the registers of the A operand: its conversion
// moves no data). Neither runs as a warpgroup mma from stages (A is not a stage): both stay
// mma.sync fragments reading B from the rings.
// RUN: tilecc-opt %s --tile-assign-layouts --tile-infer-layouts --convert-tile-to-tilegpu --canonicalize --tile-mma-layouts --tile-vectorize-accesses --tile-pipeline-mma-operands --tile-warpgroup-mma | FileCheck %s

// CHECK-LABEL: func.func @chain
// CHECK: tilegpu.alloc_buffer : <4, tensor<64x64xbf16>
// CHECK: tilegpu.alloc_buffer : <4, tensor<64x64xbf16>
// CHECK: scf.for
// CHECK: tilegpu.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x64xbf16, #tilegpu.dot_operand<opIdx = 0, parent = #tilegpu.mma<warpsPerBlock = [8, 1]>, kWidth = 2>>
// CHECK: math.exp
// CHECK: %[[P:.*]] = arith.truncf {{.*}} to tensor<128x64xbf16, #tilegpu.mma<warpsPerBlock = [8, 1]>>
// CHECK-NEXT: %[[A:.*]] = tilegpu.convert_layout %[[P]] : {{.*}} -> tensor<128x64xbf16, #tilegpu.dot_operand<opIdx = 0
// CHECK-NEXT: tilegpu.mma %[[A]]
// CHECK-NOT: warpgroup_mma
func.func @chain(%q: !tile.view<?x?xbf16>, %k: !tile.view<?x?xbf16>, %v: !tile.view<?x?xbf16>,
                 %n: index) -> tensor<128x64xf32> attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %qt = tile.load %q[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x64xf32>) {
    %j = arith.muli %i, %c64 : index
    %kt = tile.load %k[%c0, %j] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %vt = tile.load %v[%j, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
    %s = tile.mma %qt, %kt, %zero : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32> -> tensor<128x64xf32>
    %e = math.exp %s : tensor<128x64xf32>
    %p = arith.truncf %e : tensor<128x64xf32> to tensor<128x64xbf16>
    %o = tile.mma %p, %vt, %acc : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32> -> tensor<128x64xf32>
    scf.yield %o : tensor<128x64xf32>
  }
  return %r : tensor<128x64xf32>
}
