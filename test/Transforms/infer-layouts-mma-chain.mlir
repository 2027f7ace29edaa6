// RUN: tilecc-opt --tile-assign-layouts --tile-infer-layouts %s | FileCheck %s
// Attention's chain: the first product, its row maximum, the exponential of the difference
// and its cast to 16 bits stay in the accumulator's registers, and the cast is the second
// mma's A operand in the same registers: the only conversions are of the loaded operands.

func.func @chain(%o: !tile.view<128x64xf32, exclusive>, %q: !tile.view<?x?xbf16>,
                 %k: !tile.view<?x?xbf16>, %v: !tile.view<?x?xbf16>)
    attributes {tile.kernel = "k", tile.entry = "&::k", tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %qt = tile.load %q[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
  %kt = tile.load %k[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  %vt = tile.load %v[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  %s = tile.mma %qt, %kt, %zero : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32> -> tensor<128x64xf32>
  %m = tile.reduce %s axis 1 : tensor<128x64xf32> -> tensor<128xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maxnumf %a, %b : f32
    tile.yield %c : f32
  }
  %r = tile.reshape %m : tensor<128xf32> -> tensor<128x1xf32>
  %b = tile.broadcast %r : tensor<128x1xf32> -> tensor<128x64xf32>
  %d = arith.subf %s, %b : tensor<128x64xf32>
  %e = math.exp %d : tensor<128x64xf32>
  %p = arith.truncf %e : tensor<128x64xf32> to tensor<128x64xbf16>
  %out = tile.mma %p, %vt, %zero : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32> -> tensor<128x64xf32>
  tile.store %out, %o[%c0, %c0] : tensor<128x64xf32>, !tile.view<128x64xf32, exclusive>
  return
}
// CHECK: %[[S:.*]] = tile.mma {{.*}} -> tensor<128x64xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>>
// CHECK-NEXT: tile.reduce %[[S]] axis 1 : tensor<128x64xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>> -> tensor<128xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.mma<warpsPerBlock = [8, 1]>>>
// CHECK: tile.reshape {{.*}} -> tensor<128x1xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>>
// CHECK-NEXT: tile.broadcast {{.*}} -> tensor<128x64xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>>
// CHECK-NEXT: arith.subf {{.*}} : tensor<128x64xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>>
// CHECK-NEXT: math.exp {{.*}} : tensor<128x64xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>>
// CHECK-NEXT: %[[P:.*]] = arith.truncf {{.*}} to tensor<128x64xbf16, #tilegpu.mma<warpsPerBlock = [8, 1]>>
// CHECK-NEXT: %[[A:.*]] = tilegpu.convert_layout %[[P]] : {{.*}} -> tensor<128x64xbf16, #tilegpu.dot_operand<opIdx = 0, parent = #tilegpu.mma<warpsPerBlock = [8, 1]>, kWidth = 2>>
// CHECK-NEXT: tilegpu.convert_layout
// CHECK-NEXT: tile.mma %[[A]]
