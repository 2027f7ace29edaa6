// A tile value that alone needs more than a thread's 255 registers is an error naming it,
// with the fix; without a requested number of warps the pass first adds warps (up to 32).
// RUN: tilecc-opt %s --tile-assign-layouts -split-input-file -verify-diagnostics

func.func @requested(%x: !tile.view<?x?xf32>) attributes {tile.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{the tile value of type 'tensor<128x128xf32>' needs 512 registers per thread with 1 warps, more than the 255 a thread has; use smaller tiles or more warps (TILE_KERNEL_CONFIG(num_warps = N))}}
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<128x128xf32>
  return
}

// -----

// CHECK-NOT: error
func.func @automatic(%x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<256x256xf32>
  return
}
