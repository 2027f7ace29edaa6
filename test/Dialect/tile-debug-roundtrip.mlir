// tile.check and tile.print print and parse back unchanged.
// RUN: tilecc-opt %s | tilecc-opt | FileCheck %s

// CHECK-LABEL: func.func @debug
func.func @debug(%c: i1, %t: tensor<4xi1>, %n: i32) {
  // CHECK: tile.check %{{.*}}, "scalar" : i1
  tile.check %c, "scalar" : i1
  // CHECK: tile.check %{{.*}}, "every element" : tensor<4xi1>
  tile.check %t, "every element" : tensor<4xi1>
  // CHECK: tile.print "n", %{{.*}} {is_unsigned} : i32
  tile.print "n", %n {is_unsigned} : i32
  return
}
