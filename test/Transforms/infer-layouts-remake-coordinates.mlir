// RUN: tilecc-opt --tile-assign-layouts --tile-infer-layouts %s | FileCheck %s
// A causal mask compares row and column indices made from iotas and scalars alone: the select
// stays in the accumulator's layout, and the indices are computed again there (the column
// iota in the slice of the layout along the rows it is broadcast over, the row iota in the
// slice along the columns), so no conversion moves data.

func.func @causal(%o: !tile.view<128x64xf32, exclusive>, %q: !tile.view<?x?xbf16>,
                  %k: !tile.view<?x?xbf16>, %row0: i64)
    attributes {tile.kernel = "k", tile.entry = "&::k", tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %ninf = arith.constant dense<0xFF800000> : tensor<128x64xf32>
  %qt = tile.load %q[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
  %kt = tile.load %k[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  %s = tile.mma %qt, %kt, %zero : tensor<128x64xbf16>, tensor<64x64xbf16>, tensor<128x64xf32> -> tensor<128x64xf32>
  %ri = tile.iota : tensor<128xi64>
  %r0 = tile.splat %row0 : i64 -> tensor<128xi64>
  %rs = arith.addi %ri, %r0 : tensor<128xi64>
  %rr = tile.reshape %rs : tensor<128xi64> -> tensor<128x1xi64>
  %row = tile.broadcast %rr : tensor<128x1xi64> -> tensor<128x64xi64>
  %ci = tile.iota : tensor<64xi64>
  %col = tile.broadcast %ci : tensor<64xi64> -> tensor<128x64xi64>
  %keep = arith.cmpi sle, %col, %row : tensor<128x64xi64>
  %m = arith.select %keep, %s, %ninf : tensor<128x64xi1>, tensor<128x64xf32>
  tile.store %m, %o[%c0, %c0] : tensor<128x64xf32>, !tile.view<128x64xf32, exclusive>
  return
}
// CHECK: %[[S:.*]] = tile.mma {{.*}} -> tensor<128x64xf32, #[[M:tilegpu.mma<warpsPerBlock = \[8, 1\]>]]>
// CHECK-DAG: tile.iota : tensor<128xi64, #tilegpu.slice<dim = 1, parent = #[[M]]>>
// CHECK-DAG: tile.iota : tensor<64xi64, #tilegpu.slice<dim = 0, parent = #[[M]]>>
// CHECK: %[[KEEP:.*]] = arith.cmpi sle, {{.*}} : tensor<128x64xi64, #[[M]]>
// CHECK-NEXT: arith.select %[[KEEP]], %[[S]], {{.*}} : tensor<128x64xi1, #[[M]]>, tensor<128x64xf32, #[[M]]>
