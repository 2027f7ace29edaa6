// The tile dialect's verifier rejects malformed programs.
// RUN: tilecc-opt %s -split-input-file -verify-diagnostics

func.func @store_to_shared(%x: !tile.view<?xf32>, %t: tensor<128xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{cannot store through a shared view; only this program's exclusive piece is writable}}
  tile.store %t, %x[%c0] : tensor<128xf32>, !tile.view<?xf32>
  return
}

// -----

func.func @store_to_atomic(%x: !tile.view<?xf32, atomic>, %t: tensor<128xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{cannot store through a atomic view}}
  tile.store %t, %x[%c0] : tensor<128xf32>, !tile.view<?xf32, atomic>
  return
}

// -----

func.func @dim_bad_axis(%x: !tile.view<?xf32>) {
  // expected-error @+1 {{axis 1 is out of range for a rank-1 view}}
  %d = tile.dim %x, 1 : !tile.view<?xf32>
  return
}

// -----

func.func @origin_bad_axis(%z: !tile.view<32x64xf32, exclusive>) {
  // expected-error @+1 {{axis 2 is out of range for a rank-2 view}}
  %o = tile.piece_origin %z, 2 : !tile.view<32x64xf32, exclusive>
  return
}

// -----

func.func @axis_too_large() {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint}}
  %b = tile.block_id 4
  return
}

// -----

func.func @load_wrong_rank(%x: !tile.view<?xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{a rank-2 tile cannot move through a rank-1 view}}
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<2x128xf32>
  return
}

// -----

func.func @atomic_of_lower_rank(%x: !tile.view<?x?xf32, atomic>, %t: tensor<128xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{a rank-1 tile cannot move through a rank-2 view}}
  %o = tile.atomic add %t, %x[%c0, %c0] : tensor<128xf32>, !tile.view<?x?xf32, atomic>
  return
}

// -----

func.func @load_wrong_element(%x: !tile.view<?xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{tile element type 'f16' differs from the view's 'f32'}}
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<128xf16>
  return
}

// -----

func.func @load_offset_count(%x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{expected 2 offsets, got 1}}
  %t = tile.load %x[%c0] : !tile.view<?x?xf32> -> tensor<4x128xf32>
  return
}

// -----

func.func @splat_type(%s: f16) {
  // expected-error @+1 {{scalar type 'f16' differs from the tile element type 'f32'}}
  %t = tile.splat %s : f16 -> tensor<128xf32>
  return
}

// -----

func.func @iota_axis() {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %t = tile.iota {axis = 2 : i32} : tensor<4x4xi32>
  return
}
