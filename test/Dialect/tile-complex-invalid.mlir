// The complex part ops are elementwise: parts and complex values have one shape.
// RUN: tilecc-opt %s -split-input-file -verify-diagnostics

func.func @shape(%re: tensor<8xf32>) {
  // expected-error @+1 {{all non-scalar operands/results must have the same shape and base type}}
  %z = tile.make_complex %re, %re : tensor<8xf32> -> tensor<4xcomplex<f32>>
  return
}

// -----

func.func @scalar_part(%z: tensor<8xcomplex<f32>>) {
  // expected-error @+1 {{if an operand is non-scalar, then there must be at least one non-scalar result}}
  %r = tile.real %z : tensor<8xcomplex<f32>> -> f32
  return
}
