// #tilegpu.linear prints and parses back unchanged, as a tile's layout and as a slice's parent.
// RUN: tilecc-opt %s | tilecc-opt | FileCheck %s

#Lin = #tilegpu.linear<register = [[0, 16], [0, 32]], lane = [[0, 0], [0, 1], [0, 2], [0, 4], [0, 8]], warp = [[0, 0], [0, 0]]>

// CHECK-LABEL: func.func @linear
// CHECK-SAME: tensor<1x64xf32, #tilegpu.linear<register = {{\[}}[0, 16], [0, 32]], lane = {{\[}}[0, 0], [0, 1], [0, 2], [0, 4], [0, 8]], warp = {{\[}}[0, 0], [0, 0]]>>
// CHECK-SAME: tensor<1xf32, #tilegpu.slice<dim = 1, parent = #tilegpu.linear<
func.func @linear(%t: tensor<1x64xf32, #Lin>, %s: tensor<1xf32, #tilegpu.slice<dim = 1, parent = #Lin>>) {
  return
}
