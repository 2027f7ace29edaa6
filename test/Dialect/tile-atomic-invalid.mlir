// The verifier of tile.atomic.
// RUN: tilecc-opt %s -split-input-file -verify-diagnostics

func.func @not_atomic(%x: !tile.view<?xi32>, %t: tensor<64xi32>, %i: index) {
  // expected-error @+1 {{needs an atomic view, not a shared one}}
  %a = tile.atomic add %t, %x[%i] : tensor<64xi32>, !tile.view<?xi32>
  return
}

// -----

func.func @element_type(%x: !tile.view<?xi32, atomic>, %t: tensor<64xf32>, %i: index) {
  // expected-error @+1 {{updates 'i32' elements with 'f32'}}
  %a = tile.atomic add %t, %x[%i] : tensor<64xf32>, !tile.view<?xi32, atomic>
  return
}

// -----

func.func @offsets(%x: !tile.view<?x?xi32, atomic>, %s: i32, %i: index) {
  // expected-error @+1 {{expected 2 offsets, got 1}}
  %a = tile.atomic add %s, %x[%i] : i32, !tile.view<?x?xi32, atomic>
  return
}

// -----

func.func @cas_expected(%x: !tile.view<?xi32, atomic>, %s: i32, %i: index) {
  // expected-error @+1 {{cas needs an expected value}}
  %a = tile.atomic cas %s, %x[%i] : i32, !tile.view<?xi32, atomic>
  return
}

// -----

func.func @add_expected(%x: !tile.view<?xi32, atomic>, %s: i32, %i: index) {
  // expected-error @+1 {{only cas takes an expected value}}
  %a = tile.atomic add %s, %x[%i] expected %s : i32 : i32, !tile.view<?xi32, atomic>
  return
}

// -----

func.func @bool_add(%x: !tile.view<?xi1, atomic>, %s: i1, %i: index) {
  // expected-error @+1 {{add is not defined on i1}}
  %a = tile.atomic add %s, %x[%i] : i1, !tile.view<?xi1, atomic>
  return
}

// -----

func.func @umax_float(%x: !tile.view<?xf32, atomic>, %s: f32, %i: index) {
  // expected-error @+1 {{umax needs integer elements}}
  %a = tile.atomic umax %s, %x[%i] : f32, !tile.view<?xf32, atomic>
  return
}
