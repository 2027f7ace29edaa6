// One layout per shape, whatever the element type, so that elementwise ops never need a
// conversion: the vector is 16 bytes of the widest element type at that shape.
// RUN: tilecc-opt %s --tile-assign-layouts | FileCheck %s

// f16 and f32 at one shape: 4 elements per vector for both; the i1 comparison result shares it.
// CHECK-LABEL: func.func @mixed
// CHECK: arith.extf {{.*}} : tensor<256xf16, #[[L:tilegpu.blocked<sizePerThread = \[4\], threadsPerWarp = \[32\], warpsPerBlock = \[1\], order = \[0\]>]]> to tensor<256xf32, #[[L]]>
// CHECK: arith.cmpf {{.*}} : tensor<256xf32, #[[L]]>
// CHECK: arith.select {{.*}} : tensor<256xi1, #[[L]]>, tensor<256xf32, #[[L]]>
func.func @mixed(%h: tensor<256xf16>, %f: tensor<256xf32>) -> tensor<256xf32> {
  %e = arith.extf %h : tensor<256xf16> to tensor<256xf32>
  %c = arith.cmpf olt, %e, %f : tensor<256xf32>
  %s = arith.select %c, %e, %f : tensor<256xi1>, tensor<256xf32>
  return %s : tensor<256xf32>
}

// f64 alone: 2 elements per vector (128 vectors: 2 warps).
// CHECK-LABEL: func.func @f64
// CHECK: tensor<256xf64, #tilegpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerBlock = [2], order = [0]>>
func.func @f64(%d: tensor<256xf64>) -> tensor<256xf64> {
  %n = arith.negf %d : tensor<256xf64>
  return %n : tensor<256xf64>
}

// i8 alone: 16 elements per vector.
// CHECK-LABEL: func.func @i8
// CHECK: tensor<1024xi8, #tilegpu.blocked<sizePerThread = [16], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>>
func.func @i8(%d: tensor<1024xi8>) -> tensor<1024xi8> {
  %n = arith.addi %d, %d : tensor<1024xi8>
  return %n : tensor<1024xi8>
}
