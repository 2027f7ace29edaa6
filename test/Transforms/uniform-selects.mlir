// tile-uniform-selects: a tile select whose condition compares tiles built from iotas and
// splats branches on scalar bounds: the true value where the condition holds for every
// element, the false value where it holds for none, the select (condition computed in the
// branch) otherwise. Every bound checks that computing it did not wrap.
// RUN: tilecc-opt %s --tile-uniform-selects --canonicalize | FileCheck %s

// A causal mask `col <= row` with col = j * 64 + iota, row = row0 + iota.
// CHECK-LABEL: func.func @causal_mask
// CHECK-DAG:  %[[C63:.*]] = arith.constant 63 : i64
// CHECK:      %[[COL0:.*]] = arith.muli %arg2, %{{.*}} : i64
// CHECK:      %[[COLHI:.*]] = arith.addi %[[COL0]], %[[C63]] : i64
// CHECK:      %[[ROWHI:.*]] = arith.addi %arg1, %[[C63]] : i64
// CHECK-DAG:  %[[BELOW:.*]] = arith.cmpi sle, %[[COLHI]], %arg1 : i64
// CHECK-DAG:  %[[ABOVE:.*]] = arith.cmpi sgt, %[[COL0]], %[[ROWHI]] : i64
// CHECK:      %[[ALL:.*]] = arith.andi %{{.*}}, %[[BELOW]] : i1
// CHECK:      %[[NONE:.*]] = arith.andi %{{.*}}, %[[ABOVE]] : i1
// CHECK:      %[[R:.*]] = scf.if %[[ALL]] -> (tensor<64x64xf32>) {
// CHECK-NEXT:   scf.yield %arg0
// CHECK-NEXT: } else {
// CHECK-NEXT:   %[[INNER:.*]] = scf.if %[[NONE]] -> (tensor<64x64xf32>) {
// CHECK-NEXT:     scf.yield %{{.*}} : tensor<64x64xf32>
// CHECK-NEXT:   } else {
// CHECK:          tile.iota
// CHECK:          %[[MASK:.*]] = arith.cmpi sle, %{{.*}}, %{{.*}} : tensor<64x64xi64>
// CHECK-NEXT:     %[[SEL:.*]] = arith.select %[[MASK]], %arg0, %{{.*}}
// CHECK-NEXT:     scf.yield %[[SEL]]
// CHECK:      } {tile.uniform_select}
// CHECK-NEXT: return %[[R]]
func.func @causal_mask(%s: tensor<64x64xf32>, %row0: i64, %j: i64) -> tensor<64x64xf32> {
  %c64 = arith.constant 64 : i64
  %ninf = arith.constant 0xFF800000 : f32
  %ri = tile.iota : tensor<64xi64>
  %rs = tile.splat %row0 : i64 -> tensor<64xi64>
  %r = arith.addi %ri, %rs : tensor<64xi64>
  %r2 = tile.reshape %r : tensor<64xi64> -> tensor<64x1xi64>
  %row = tile.broadcast %r2 : tensor<64x1xi64> -> tensor<64x64xi64>
  %ci = tile.iota : tensor<64xi64>
  %c0 = arith.muli %j, %c64 : i64
  %cs = tile.splat %c0 : i64 -> tensor<64xi64>
  %c = arith.addi %ci, %cs : tensor<64xi64>
  %col = tile.broadcast %c : tensor<64xi64> -> tensor<64x64xi64>
  %keep = arith.cmpi sle, %col, %row : tensor<64x64xi64>
  %minus = tile.splat %ninf : f32 -> tensor<64x64xf32>
  %masked = arith.select %keep, %s, %minus : tensor<64x64xi1>, tensor<64x64xf32>
  return %masked : tensor<64x64xf32>
}

// The bound of row0 + 63 checks for signed overflow: a row0 near the maximum takes the
// element-wise branch.
// CHECK-LABEL: func.func @bound_checks_wrapping
// CHECK:      %[[HI:.*]] = arith.addi %arg1, %c31_i32 : i32
// CHECK:      %[[X:.*]] = arith.xori %[[HI]], %c31_i32 : i32
// CHECK:      %[[Y:.*]] = arith.xori %arg1, %[[HI]] : i32
// CHECK:      %[[BOTH:.*]] = arith.andi %[[X]], %[[Y]] : i32
// CHECK:      %[[OK:.*]] = arith.cmpi sge, %[[BOTH]], %c0_i32 : i32
// CHECK:      %[[LT:.*]] = arith.cmpi slt, %[[HI]], %arg2 : i32
// CHECK:      %[[ALL:.*]] = arith.andi %[[OK]], %[[LT]] : i1
// CHECK:      scf.if %[[ALL]]
func.func @bound_checks_wrapping(%x: tensor<32xf32>, %base: i32, %n: i32) -> tensor<32xf32> {
  %zero = arith.constant dense<0.0> : tensor<32xf32>
  %i = tile.iota : tensor<32xi32>
  %b = tile.splat %base : i32 -> tensor<32xi32>
  %idx = arith.addi %i, %b : tensor<32xi32>
  %ns = tile.splat %n : i32 -> tensor<32xi32>
  %in = arith.cmpi slt, %idx, %ns : tensor<32xi32>
  %r = arith.select %in, %x, %zero : tensor<32xi1>, tensor<32xf32>
  return %r : tensor<32xf32>
}

// A condition known for the whole tile at compile time needs no branch.
// CHECK-LABEL: func.func @constant_condition
// CHECK-NOT:  arith.select
// CHECK-NOT:  scf.if
// CHECK:      return %arg0
func.func @constant_condition(%x: tensor<32xf32>, %y: tensor<32xf32>) -> tensor<32xf32> {
  %i = tile.iota : tensor<32xi32>
  %c = arith.constant dense<40> : tensor<32xi32>
  %in = arith.cmpi slt, %i, %c : tensor<32xi32>
  %r = arith.select %in, %x, %y : tensor<32xi1>, tensor<32xf32>
  return %r : tensor<32xf32>
}

// A condition on loaded data is not uniform: the select stays.
// CHECK-LABEL: func.func @data_condition
// CHECK-NOT:  scf.if
// CHECK:      arith.select
func.func @data_condition(%x: tensor<32xf32>, %y: tensor<32xf32>, %k: tensor<32xi32>) -> tensor<32xf32> {
  %i = tile.iota : tensor<32xi32>
  %in = arith.cmpi slt, %i, %k : tensor<32xi32>
  %r = arith.select %in, %x, %y : tensor<32xi1>, tensor<32xf32>
  return %r : tensor<32xf32>
}

// And, or and not combine: `!(i < a) && i < b` holds everywhere when a <= 0 and 31 < b.
// CHECK-LABEL: func.func @combined_conditions
// CHECK:      scf.if
// CHECK:      scf.if
// CHECK:      arith.xori %{{.*}}, %{{.*}} : tensor<32xi1>
// CHECK:      arith.select
func.func @combined_conditions(%x: tensor<32xf32>, %y: tensor<32xf32>, %a: i32, %b: i32) -> tensor<32xf32> {
  %true = arith.constant dense<true> : tensor<32xi1>
  %i = tile.iota : tensor<32xi32>
  %as = tile.splat %a : i32 -> tensor<32xi32>
  %bs = tile.splat %b : i32 -> tensor<32xi32>
  %lo = arith.cmpi slt, %i, %as : tensor<32xi32>
  %notlo = arith.xori %lo, %true : tensor<32xi1>
  %hi = arith.cmpi slt, %i, %bs : tensor<32xi32>
  %in = arith.andi %notlo, %hi : tensor<32xi1>
  %r = arith.select %in, %x, %y : tensor<32xi1>, tensor<32xf32>
  return %r : tensor<32xf32>
}
