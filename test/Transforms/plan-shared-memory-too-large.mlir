// A kernel whose shared memory exceeds the target's limit fails to compile, naming the tile
// value with the largest buffer.
// RUN: tilecc-opt %s --tile-assign-layouts --tilegpu-plan-shared-memory=max-bytes=4096 -verify-diagnostics

func.func @too_large(%t: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+2 {{the kernel needs 16384 bytes of shared memory, more than the 4096 a block may use on this target; the largest buffer (16384 bytes) stages the tile value of type 'tensor<64x64xf32>' here}}
  // expected-note @+1 {{use smaller tiles}}
  %p = tile.permute %t [1, 0] : tensor<64x64xf32> -> tensor<64x64xf32>
  return %p : tensor<64x64xf32>
}
