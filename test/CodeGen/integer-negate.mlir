// Integer negation (`0 - x`, of a scalar or a tile) is emitted as tile_dev::negate, which
// keeps ptxas from miscompiling a negation that feeds a max chain; other subtractions wrap
// around through the unsigned type (C++ signed overflow is undefined, arith's wraps).
// RUN: tilecc-translate --tile-to-cuda --tilecc-no-line %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc %{ %nvcc -include %S/Inputs/negate-entries.h -c %t.cu -o %t.o %}

func.func @negate(%z: !tile.view<64xi32, exclusive>, %x: !tile.view<?xi32>, %s: i32, %f: f32)
    attributes {tile.kernel = "negate", tile.entry = "&::negate"} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %zeros = arith.constant dense<0> : tensor<64xi32>
  %t = tile.load %x[%c0] : !tile.view<?xi32> -> tensor<64xi32>
  // CHECK: = tile_dev::negate(arg2);
  %ns = arith.subi %zero, %s : i32
  // CHECK: = tile_dev::negate(v{{[0-9]+}}[i_]);
  %nt = arith.subi %zeros, %t : tensor<64xi32>
  // CHECK: = int32_t(uint32_t(v{{[0-9]+}}[i_]) - uint32_t(v{{[0-9]+}}[i_]));
  %d = arith.subi %nt, %t : tensor<64xi32>
  %b = tile.splat %ns : i32 -> tensor<64xi32>
  %r = arith.maxsi %d, %b : tensor<64xi32>
  tile.store %r, %z[%c0] : tensor<64xi32>, !tile.view<64xi32, exclusive>
  return
}
