// The verifiers of shared-memory ring buffers, async copies and local loads.
// RUN: tilecc-opt %s -split-input-file -verify-diagnostics

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
// expected-error @+1 {{a buffer has one stage or more}}
func.func @no_stages(%b: !tilegpu.buffer<0, tensor<64x64xf16>, #S>) {
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0, 2]>
// expected-error @+1 {{a buffer lays its stages out along their last axis}}
func.func @middle_axis_first(%b: !tilegpu.buffer<2, tensor<4x64x64xf16>, #S>) {
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
// expected-error @+1 {{the swizzled groups of 8 elements do not divide a row}}
func.func @narrow_rows(%b: !tilegpu.buffer<2, tensor<64x4xf16>, #S>) {
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#L = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1], order = [1, 0]>
// expected-error @+1 {{a buffer's stage is a tile of static shape without a layout}}
func.func @stage_with_layout(%b: !tilegpu.buffer<2, tensor<64x64xf16, #L>, #S>) {
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#L = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1], order = [1, 0]>
func.func @copy_other_shape(%x: !tile.view<?x?xf16>, %i: index, %b: !tilegpu.buffer<2, tensor<64x64xf16>, #S>) {
  // expected-error @+1 {{the tile 'tensor<64x32xf16, #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1], order = [1, 0]>>' is not one stage of}}
  tilegpu.async_copy %x[%i, %i] bounds[%i, %i] into %b[%i] {vector = 8 : i32, tile = tensor<64x32xf16, #L>} : !tile.view<?x?xf16>, !tilegpu.buffer<2, tensor<64x64xf16>, #S>
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#L = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1], order = [1, 0]>
func.func @copy_other_element(%x: !tile.view<?x?xbf16>, %i: index, %b: !tilegpu.buffer<2, tensor<64x64xf16>, #S>) {
  // expected-error @+1 {{tile and view element types differ}}
  tilegpu.async_copy %x[%i, %i] bounds[%i, %i] into %b[%i] {vector = 8 : i32, tile = tensor<64x64xf16, #L>} : !tile.view<?x?xbf16>, !tilegpu.buffer<2, tensor<64x64xf16>, #S>
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
func.func @copy_without_layout(%x: !tile.view<?x?xf16>, %i: index, %b: !tilegpu.buffer<2, tensor<64x64xf16>, #S>) {
  // expected-error @+1 {{the tile has no distributed layout}}
  tilegpu.async_copy %x[%i, %i] bounds[%i, %i] into %b[%i] {vector = 8 : i32, tile = tensor<64x64xf16>} : !tile.view<?x?xf16>, !tilegpu.buffer<2, tensor<64x64xf16>, #S>
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
#L = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerBlock = [4, 1], order = [1, 0]>
func.func @local_load_other_shape(%i: index, %b: !tilegpu.buffer<2, tensor<64x64xf16>, #S>) {
  // expected-error @+1 {{is not one stage of}}
  %t = tilegpu.local_load %b[%i] : !tilegpu.buffer<2, tensor<64x64xf16>, #S> -> tensor<64x32xf16, #L>
  return
}

// -----

#S = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]>
func.func @local_load_without_layout(%i: index, %b: !tilegpu.buffer<2, tensor<64x64xf16>, #S>) {
  // expected-error @+1 {{the tile has no distributed layout}}
  %t = tilegpu.local_load %b[%i] : !tilegpu.buffer<2, tensor<64x64xf16>, #S> -> tensor<64x64xf16>
  return
}
