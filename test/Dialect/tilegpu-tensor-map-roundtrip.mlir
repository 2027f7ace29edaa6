// Tensor-memory-accelerator copies in the tilegpu dialect: a view's tensor map, the producer's
// expectation of the bytes and its copies through the map, and a store through a map in
// chunks, and a map that rounds floats to TF32, print and parse back unchanged.
// RUN: tilecc-opt %s | tilecc-opt | FileCheck %s

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#B = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 64>
// CHECK-LABEL: func.func @ring
// CHECK: %[[MA:.*]], %{{.*}} = tilegpu.tensor_map %arg0 : <?x?xbf16> -> <tensor<128x64xbf16>, <vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>>
// CHECK: %[[MB:.*]], %{{.*}} = tilegpu.tensor_map %arg1 : <?x?xbf16> -> <tensor<64x128xbf16>, <vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 64>>
// CHECK: tilegpu.barrier_expect %[[FULL:.*]][%{{.*}}] {bytes = 32768 : i64} : <4>
// CHECK: tilegpu.tensor_map_copy %[[MA]][%{{.*}}, %{{.*}}] into %{{.*}}[%{{.*}}] arrive %[[FULL]][%{{.*}}] : <tensor<128x64xbf16>, {{.*}}>, <4, tensor<128x64xbf16>, {{.*}}>, <4>
// CHECK: tilegpu.tensor_map_copy %[[MB]]
func.func @ring(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>, %n: index) attributes {tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %ma, %va = tilegpu.tensor_map %x : !tile.view<?x?xbf16> -> !tilegpu.tensor_map<tensor<128x64xbf16>, #S>
  %mb, %vb = tilegpu.tensor_map %y : !tile.view<?x?xbf16> -> !tilegpu.tensor_map<tensor<64x128xbf16>, #B>
  %ra = tilegpu.alloc_buffer : !tilegpu.buffer<4, tensor<128x64xbf16>, #S>
  %rb = tilegpu.alloc_buffer : !tilegpu.buffer<4, tensor<64x128xbf16>, #B>
  %full = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<4>
  %empty = tilegpu.alloc_barriers {arrivals = 4 : i32} : !tilegpu.barriers<4>
  tilegpu.producer attributes {warps = 4 : i32} {
    scf.for %i = %c0 to %n step %c1 {
      %s = arith.remui %i, %c4 : index
      tilegpu.barrier_wait %empty[%s], %c1 : !tilegpu.barriers<4>
      tilegpu.barrier_expect %full[%s] {bytes = 32768} : !tilegpu.barriers<4>
      tilegpu.tensor_map_copy %ma[%c0, %i] into %ra[%s] arrive %full[%s] : !tilegpu.tensor_map<tensor<128x64xbf16>, #S>, !tilegpu.buffer<4, tensor<128x64xbf16>, #S>, !tilegpu.barriers<4>
      tilegpu.tensor_map_copy %mb[%i, %c0] into %rb[%s] arrive %full[%s] : !tilegpu.tensor_map<tensor<64x128xbf16>, #B>, !tilegpu.buffer<4, tensor<64x128xbf16>, #B>, !tilegpu.barriers<4>
    }
  }
  return
}

#MMA = #tilegpu.mma<warpsPerBlock = [8, 1]>
#C = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>
// CHECK-LABEL: func.func @store_in_chunks
// CHECK: tilegpu.tensor_map_store %arg1, %{{.*}}[%arg2, %arg3] through %{{.*}} : tensor<128x256xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>>, <tensor<128x32xf32>, {{.*}}>, <2, tensor<128x32xf32>, {{.*}}>
func.func @store_in_chunks(%out: !tile.view<?x?xf32, exclusive>, %acc: tensor<128x256xf32, #MMA>,
                           %i: index, %j: index) attributes {tilegpu.num_warps = 8 : i32} {
  %map, %valid = tilegpu.tensor_map %out : !tile.view<?x?xf32, exclusive> -> !tilegpu.tensor_map<tensor<128x32xf32>, #C>
  %bars = tilegpu.alloc_barriers {arrivals = 4 : i32} : !tilegpu.barriers<1>
  tilegpu.producer attributes {warps = 4 : i32} {
    tilegpu.barrier_arrive %bars[%i] : !tilegpu.barriers<1>
  }
  %stages = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<128x32xf32>, #C>
  scf.if %valid {
    tilegpu.tensor_map_store %acc, %map[%i, %j] through %stages : tensor<128x256xf32, #MMA>, !tilegpu.tensor_map<tensor<128x32xf32>, #C>, !tilegpu.buffer<2, tensor<128x32xf32>, #C>
  }
  return
}

// A map that rounds floats to TF32 as it copies.
#F = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>
// CHECK-LABEL: func.func @rounding
// CHECK: tilegpu.tensor_map %arg0 : <?x?xf32> -> <tensor<128x32xf32>, <vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>, tf32>
func.func @rounding(%x: !tile.view<?x?xf32>) -> i1 {
  %map, %valid = tilegpu.tensor_map %x : !tile.view<?x?xf32> -> !tilegpu.tensor_map<tensor<128x32xf32>, #F, tf32>
  return %valid : i1
}
