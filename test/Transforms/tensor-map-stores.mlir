// tile-tensor-map-stores: in a warp-specialized kernel, an mma result stored to the piece of
// an exclusive view is stored from its fragments: through a map of the view (made once at
// the top of the function) and two stages of 128-byte column chunks where the launch built
// the map, else directly (the store's vector taken again from the fragment layout). An
// elementwise chain of the result alone (a cast) moves onto the fragments. Stores of other
// tiles, of more than the piece, of a result used twice, or in kernels without producer
// warps stay as they are.
// RUN: tilecc-opt %s --split-input-file --tile-tensor-map-stores | FileCheck %s

#MMA = #tilegpu.mma<warpsPerBlock = [8, 1]>
#BL = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 2], order = [1, 0]>

// CHECK-LABEL: func.func @epilogue
// CHECK: %[[MAP:.*]], %[[VALID:.*]] = tilegpu.tensor_map %arg0 : <128x256xf32, exclusive> -> <tensor<128x32xf32>, <vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>>
// CHECK: tilegpu.producer
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[STAGES:.*]] = tilegpu.alloc_buffer : <2, tensor<128x32xf32>, <vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>>
// CHECK-NEXT: scf.if %[[VALID]] {
// CHECK-NEXT: tilegpu.tensor_map_store %arg1, %[[MAP]][%[[I:.*]], %[[J:.*]]] through %[[STAGES]] : tensor<128x256xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>>
// CHECK-NEXT: } else {
// CHECK-NEXT: tilegpu.global_store %arg1, %arg0[%[[I]], %[[J]]] starts[%[[I]], %[[J]]] bounds[{{.*}}] {aligned, vector = 2 : i32} : tensor<128x256xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>>
// CHECK-NEXT: }
func.func @epilogue(%out: !tile.view<128x256xf32, exclusive>, %acc: tensor<128x256xf32, #MMA>)
    attributes {tilegpu.num_warps = 8 : i32} {
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %bars = tilegpu.alloc_barriers {arrivals = 4 : i32} : !tilegpu.barriers<1>
  tilegpu.producer attributes {warps = 4 : i32} {
    %b0 = arith.constant 0 : index
    tilegpu.barrier_arrive %bars[%b0] : !tilegpu.barriers<1>
  }
  %c = tilegpu.convert_layout %acc : tensor<128x256xf32, #MMA> -> tensor<128x256xf32, #BL>
  %bi = tile.block_id 0
  %i = arith.muli %bi, %c128 : index
  %ie = arith.addi %i, %c128 : index
  %m = tilegpu.array_dim %out, 0 : !tile.view<128x256xf32, exclusive>
  %ib = arith.minsi %ie, %m : index
  %bj = tile.block_id 1
  %j = arith.muli %bj, %c256 : index
  %je = arith.addi %j, %c256 : index
  %n = tilegpu.array_dim %out, 1 : !tile.view<128x256xf32, exclusive>
  %jb = arith.minsi %je, %n : index
  tilegpu.global_store %c, %out[%i, %j] starts[%i, %j] bounds[%ib, %jb] {aligned, vector = 4 : i32} : tensor<128x256xf32, #BL>, !tile.view<128x256xf32, exclusive>
  return
}

// -----

#MMA = #tilegpu.mma<warpsPerBlock = [8, 1]>
#BL = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerBlock = [4, 2], order = [1, 0]>

// A cast to bf16 goes onto the fragments; chunks of 64 bf16 columns. Bounds that are the
// view's extents cover the piece too.
// CHECK-LABEL: func.func @cast_chain
// CHECK: tilegpu.tensor_map %arg0 : <?x?xbf16, exclusive> -> <tensor<128x64xbf16>, <vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>>
// CHECK: %[[T:.*]] = arith.truncf %arg1 : tensor<128x256xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>> to tensor<128x256xbf16, #tilegpu.mma<warpsPerBlock = [8, 1]>>
// CHECK: tilegpu.tensor_map_store %[[T]]
// CHECK: tilegpu.global_store %[[T]]
func.func @cast_chain(%out: !tile.view<?x?xbf16, exclusive>, %acc: tensor<128x256xf32, #MMA>,
                      %i: index, %j: index) attributes {tilegpu.num_warps = 8 : i32} {
  %bars = tilegpu.alloc_barriers {arrivals = 4 : i32} : !tilegpu.barriers<1>
  tilegpu.producer attributes {warps = 4 : i32} {
    %b0 = arith.constant 0 : index
    tilegpu.barrier_arrive %bars[%b0] : !tilegpu.barriers<1>
  }
  %c = tilegpu.convert_layout %acc : tensor<128x256xf32, #MMA> -> tensor<128x256xf32, #BL>
  %t = arith.truncf %c : tensor<128x256xf32, #BL> to tensor<128x256xbf16, #BL>
  %m = tilegpu.array_dim %out, 0 : !tile.view<?x?xbf16, exclusive>
  %n = tilegpu.array_dim %out, 1 : !tile.view<?x?xbf16, exclusive>
  tilegpu.global_store %t, %out[%i, %j] starts[%i, %j] bounds[%m, %n] {vector = 8 : i32} : tensor<128x256xbf16, #BL>, !tile.view<?x?xbf16, exclusive>
  return
}

// -----

#MMA = #tilegpu.mma<warpsPerBlock = [8, 1]>
#BL = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 2], order = [1, 0]>

// A bound that cuts the piece (here a row bound of its own) is not what a map drops.
// CHECK-LABEL: func.func @other_bounds
// CHECK-NOT: tensor_map
// CHECK: tilegpu.convert_layout
// CHECK: tilegpu.global_store
func.func @other_bounds(%out: !tile.view<?x?xf32, exclusive>, %acc: tensor<128x256xf32, #MMA>,
                        %i: index, %j: index, %rows: index) attributes {tilegpu.num_warps = 8 : i32} {
  %bars = tilegpu.alloc_barriers {arrivals = 4 : i32} : !tilegpu.barriers<1>
  tilegpu.producer attributes {warps = 4 : i32} {
    %b0 = arith.constant 0 : index
    tilegpu.barrier_arrive %bars[%b0] : !tilegpu.barriers<1>
  }
  %c = tilegpu.convert_layout %acc : tensor<128x256xf32, #MMA> -> tensor<128x256xf32, #BL>
  %n = tilegpu.array_dim %out, 1 : !tile.view<?x?xf32, exclusive>
  tilegpu.global_store %c, %out[%i, %j] starts[%i, %j] bounds[%rows, %n] {vector = 4 : i32} : tensor<128x256xf32, #BL>, !tile.view<?x?xf32, exclusive>
  return
}

// -----

#MMA = #tilegpu.mma<warpsPerBlock = [8, 1]>
#BL = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 2], order = [1, 0]>

// The converted result has another use.
// CHECK-LABEL: func.func @used_twice
// CHECK-NOT: tensor_map
// CHECK: tilegpu.convert_layout
func.func @used_twice(%out: !tile.view<?x?xf32, exclusive>, %acc: tensor<128x256xf32, #MMA>,
                      %i: index, %j: index) -> tensor<128x256xf32, #BL> attributes {tilegpu.num_warps = 8 : i32} {
  %bars = tilegpu.alloc_barriers {arrivals = 4 : i32} : !tilegpu.barriers<1>
  tilegpu.producer attributes {warps = 4 : i32} {
    %b0 = arith.constant 0 : index
    tilegpu.barrier_arrive %bars[%b0] : !tilegpu.barriers<1>
  }
  %c = tilegpu.convert_layout %acc : tensor<128x256xf32, #MMA> -> tensor<128x256xf32, #BL>
  %m = tilegpu.array_dim %out, 0 : !tile.view<?x?xf32, exclusive>
  %n = tilegpu.array_dim %out, 1 : !tile.view<?x?xf32, exclusive>
  tilegpu.global_store %c, %out[%i, %j] starts[%i, %j] bounds[%m, %n] {vector = 4 : i32} : tensor<128x256xf32, #BL>, !tile.view<?x?xf32, exclusive>
  return %c : tensor<128x256xf32, #BL>
}

// -----

#MMA = #tilegpu.mma<warpsPerBlock = [8, 1]>
#BL = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 2], order = [1, 0]>

// Without producer warps the program's threads have no barrier of their own.
// CHECK-LABEL: func.func @no_producer
// CHECK-NOT: tensor_map
// CHECK: tilegpu.convert_layout
func.func @no_producer(%out: !tile.view<?x?xf32, exclusive>, %acc: tensor<128x256xf32, #MMA>,
                       %i: index, %j: index) attributes {tilegpu.num_warps = 8 : i32} {
  %c = tilegpu.convert_layout %acc : tensor<128x256xf32, #MMA> -> tensor<128x256xf32, #BL>
  %m = tilegpu.array_dim %out, 0 : !tile.view<?x?xf32, exclusive>
  %n = tilegpu.array_dim %out, 1 : !tile.view<?x?xf32, exclusive>
  tilegpu.global_store %c, %out[%i, %j] starts[%i, %j] bounds[%m, %n] {vector = 4 : i32} : tensor<128x256xf32, #BL>, !tile.view<?x?xf32, exclusive>
  return
}

// -----

#BL = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [4, 2], order = [1, 0]>
#BL2 = #tilegpu.blocked<sizePerThread = [4, 1], threadsPerWarp = [32, 1], warpsPerBlock = [2, 4], order = [0, 1]>

// A tile that is no mma result.
// CHECK-LABEL: func.func @not_an_mma_result
// CHECK-NOT: tensor_map
// CHECK: tilegpu.global_store
func.func @not_an_mma_result(%out: !tile.view<?x?xf32, exclusive>, %x: tensor<128x256xf32, #BL2>,
                             %i: index, %j: index) attributes {tilegpu.num_warps = 8 : i32} {
  %bars = tilegpu.alloc_barriers {arrivals = 4 : i32} : !tilegpu.barriers<1>
  tilegpu.producer attributes {warps = 4 : i32} {
    %b0 = arith.constant 0 : index
    tilegpu.barrier_arrive %bars[%b0] : !tilegpu.barriers<1>
  }
  %c = tilegpu.convert_layout %x : tensor<128x256xf32, #BL2> -> tensor<128x256xf32, #BL>
  %m = tilegpu.array_dim %out, 0 : !tile.view<?x?xf32, exclusive>
  %n = tilegpu.array_dim %out, 1 : !tile.view<?x?xf32, exclusive>
  tilegpu.global_store %c, %out[%i, %j] starts[%i, %j] bounds[%m, %n] {vector = 4 : i32} : tensor<128x256xf32, #BL>, !tile.view<?x?xf32, exclusive>
  return
}
