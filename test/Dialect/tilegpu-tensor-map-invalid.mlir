// The verifiers of tensor maps and of the copies through them.
// RUN: tilecc-opt %s -split-input-file -verify-diagnostics

#S = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>
// A 128-byte row swizzled in groups of 8 bytes: not a swizzle the hardware writes.
// expected-error @+1 {{a tensor map cannot write tiles}}
func.func @swizzle_of_8_bytes(%m: !tilegpu.tensor_map<tensor<64x64xbf16>, #S>) {
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]>
// expected-error @+1 {{a tensor map cannot write tiles}}
func.func @rows_longer_than_a_box(%m: !tilegpu.tensor_map<tensor<8x512xbf16>, #S>) {
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
func.func @not_an_argument(%v: !tile.view<?x?xbf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%w = %v) -> (!tile.view<?x?xbf16>) {
    // expected-error @+1 {{describes a view argument of the kernel}}
    %m, %ok = tilegpu.tensor_map %w : !tile.view<?x?xbf16> -> !tilegpu.tensor_map<tensor<64x64xbf16>, #S>
    scf.yield %w : !tile.view<?x?xbf16>
  }
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
func.func @element_type(%v: !tile.view<?x?xf16>) {
  // expected-error @+1 {{the map's tiles 'tensor<64x64xbf16>' are not tiles of}}
  %m, %ok = tilegpu.tensor_map %v : !tile.view<?x?xf16> -> !tilegpu.tensor_map<tensor<64x64xbf16>, #S>
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
func.func @outside_producer(%v: !tile.view<?x?xbf16>, %i: index) {
  %m, %ok = tilegpu.tensor_map %v : !tile.view<?x?xbf16> -> !tilegpu.tensor_map<tensor<64x64xbf16>, #S>
  %r = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<64x64xbf16>, #S>
  %bars = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<2>
  // expected-error @+1 {{must be in a tilegpu.producer region}}
  tilegpu.tensor_map_copy %m[%i, %i] into %r[%i] arrive %bars[%i] : !tilegpu.tensor_map<tensor<64x64xbf16>, #S>, !tilegpu.buffer<2, tensor<64x64xbf16>, #S>, !tilegpu.barriers<2>
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#T = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0]>
func.func @other_layout(%v: !tile.view<?x?xbf16>, %i: index) attributes {tilegpu.num_warps = 4 : i32} {
  %m, %ok = tilegpu.tensor_map %v : !tile.view<?x?xbf16> -> !tilegpu.tensor_map<tensor<64x64xbf16>, #S>
  %r = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<64x64xbf16>, #T>
  %bars = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<2>
  tilegpu.producer attributes {warps = 4 : i32} {
    // expected-error @+1 {{the map writes tiles}}
    tilegpu.tensor_map_copy %m[%i, %i] into %r[%i] arrive %bars[%i] : !tilegpu.tensor_map<tensor<64x64xbf16>, #S>, !tilegpu.buffer<2, tensor<64x64xbf16>, #T>, !tilegpu.barriers<2>
  }
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
func.func @one_offset(%v: !tile.view<?x?xbf16>, %i: index) attributes {tilegpu.num_warps = 4 : i32} {
  %m, %ok = tilegpu.tensor_map %v : !tile.view<?x?xbf16> -> !tilegpu.tensor_map<tensor<64x64xbf16>, #S>
  %r = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<64x64xbf16>, #S>
  %bars = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<2>
  tilegpu.producer attributes {warps = 4 : i32} {
    // expected-error @+1 {{takes one offset per axis of the map's view (2)}}
    tilegpu.tensor_map_copy %m[%i] into %r[%i] arrive %bars[%i] : !tilegpu.tensor_map<tensor<64x64xbf16>, #S>, !tilegpu.buffer<2, tensor<64x64xbf16>, #S>, !tilegpu.barriers<2>
  }
  return
}

// -----

func.func @expect_outside_producer(%i: index) {
  %bars = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<2>
  // expected-error @+1 {{must be in a tilegpu.producer region}}
  tilegpu.barrier_expect %bars[%i] {bytes = 1024} : !tilegpu.barriers<2>
  return
}

// -----

#MMA = #tilegpu.mma<warpsPerBlock = [8, 1]>
#C = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>
// Without producer warps the program's threads have no named barrier of their own.
func.func @store_without_producer(%acc: tensor<128x256xf32, #MMA>, %m: !tilegpu.tensor_map<tensor<128x32xf32>, #C>,
                                  %b: !tilegpu.buffer<2, tensor<128x32xf32>, #C>, %i: index) attributes {tilegpu.num_warps = 8 : i32} {
  // expected-error @+1 {{needs a kernel with a tilegpu.producer}}
  tilegpu.tensor_map_store %acc, %m[%i, %i] through %b : tensor<128x256xf32, #MMA>, !tilegpu.tensor_map<tensor<128x32xf32>, #C>, !tilegpu.buffer<2, tensor<128x32xf32>, #C>
  return
}

// -----

#MMA = #tilegpu.mma<warpsPerBlock = [8, 1]>
#C = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>
// Two stages, used in turn.
func.func @store_wrong_stages(%acc: tensor<128x256xf32, #MMA>, %m: !tilegpu.tensor_map<tensor<128x32xf32>, #C>,
                              %b: !tilegpu.buffer<3, tensor<128x32xf32>, #C>, %i: index, %bars: !tilegpu.barriers<1>) attributes {tilegpu.num_warps = 8 : i32} {
  tilegpu.producer attributes {warps = 4 : i32} {
    tilegpu.barrier_arrive %bars[%i] : !tilegpu.barriers<1>
  }
  // expected-error @+1 {{stores through '!tilegpu.buffer<2, tensor<128x32xf32>}}
  tilegpu.tensor_map_store %acc, %m[%i, %i] through %b : tensor<128x256xf32, #MMA>, !tilegpu.tensor_map<tensor<128x32xf32>, #C>, !tilegpu.buffer<3, tensor<128x32xf32>, #C>
  return
}

// -----

#L = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerBlock = [8, 1], order = [1, 0]>
#C = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>
// The lanes of a warp span 128 columns: a register's chunk depends on the thread.
func.func @store_lanes_across_chunks(%t: tensor<128x256xf32, #L>, %m: !tilegpu.tensor_map<tensor<128x32xf32>, #C>,
                                     %b: !tilegpu.buffer<2, tensor<128x32xf32>, #C>, %i: index, %bars: !tilegpu.barriers<1>) attributes {tilegpu.num_warps = 8 : i32} {
  tilegpu.producer attributes {warps = 4 : i32} {
    tilegpu.barrier_arrive %bars[%i] : !tilegpu.barriers<1>
  }
  // expected-error @+1 {{cannot store 'tensor<128x256xf32}}
  tilegpu.tensor_map_store %t, %m[%i, %i] through %b : tensor<128x256xf32, #L>, !tilegpu.tensor_map<tensor<128x32xf32>, #C>, !tilegpu.buffer<2, tensor<128x32xf32>, #C>
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
// expected-error @+1 {{only a tensor map of floats rounds to TF32}}
func.func @rounding_map_of_bf16(%m: !tilegpu.tensor_map<tensor<128x64xbf16>, #S, tf32>) {
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#L = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1], order = [1, 0]>
func.func @rounding_copy_of_bf16(%x: !tile.view<?x?xbf16>, %b: !tilegpu.buffer<2, tensor<128x64xbf16>, #S>, %i: index) {
  // expected-error @+1 {{rounds only f32 elements to TF32}}
  tilegpu.async_copy %x[%i, %i] bounds[%i, %i] into %b[%i] {round_tf32, vector = 8 : i32, tile = tensor<128x64xbf16, #L>} : !tile.view<?x?xbf16>, !tilegpu.buffer<2, tensor<128x64xbf16>, #S>
  return
}

// -----

#MMA = #tilegpu.mma<warpsPerBlock = [8, 1]>
#C = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0]>
func.func @store_through_rounding_map(%acc: tensor<128x256xf32, #MMA>, %m: !tilegpu.tensor_map<tensor<128x32xf32>, #C, tf32>,
                                      %b: !tilegpu.buffer<2, tensor<128x32xf32>, #C>, %i: index, %bars: !tilegpu.barriers<1>) attributes {tilegpu.num_warps = 8 : i32} {
  tilegpu.producer attributes {warps = 4 : i32} {
    tilegpu.barrier_arrive %bars[%i] : !tilegpu.barriers<1>
  }
  // expected-error @+1 {{stores through a map that rounds to TF32}}
  tilegpu.tensor_map_store %acc, %m[%i, %i] through %b : tensor<128x256xf32, #MMA>, !tilegpu.tensor_map<tensor<128x32xf32>, #C, tf32>, !tilegpu.buffer<2, tensor<128x32xf32>, #C>
  return
}
