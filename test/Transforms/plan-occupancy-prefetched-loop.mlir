// A kernel whose loop carries a tile loaded a step early is not sized by the register estimate
// (nvcc unpacks the carried tile while the next one arrives, beyond it): it gets the blocks
// that leave each thread 128 registers, here 4 blocks of 4 programs of 32 threads, a bound
// the runs instance of a specialized launch shares (`tilegpu.runs_bounded`). The same loop
// without the prefetch is sized by the estimate: 8 blocks, 64 registers, for the whole
// instance only.
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu --canonicalize --tile-vectorize-accesses --tile-prefetch-loop-loads --tilegpu-plan-shared-memory --tilegpu-plan-occupancy | FileCheck %s
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu --canonicalize --tile-vectorize-accesses --tilegpu-plan-shared-memory --tilegpu-plan-occupancy | FileCheck %s --check-prefix=UNPIPELINED

// CHECK-LABEL: func.func @k_loop
// CHECK-SAME: tilegpu.blocks_per_sm = 4 : i32
// CHECK-SAME: tilegpu.runs_bounded
// CHECK: scf.for {{.*}} iter_args(%{{[^,]*}} = %{{[^,]*}}, %{{[^,]*}} = %{{[^)]*}})
// UNPIPELINED-LABEL: func.func @k_loop
// UNPIPELINED-SAME: tilegpu.blocks_per_sm = 8 : i32
// UNPIPELINED-NOT: tilegpu.runs_bounded
func.func @k_loop(%x: !tile.view<?xf32>, %n: index) -> tensor<128xf32> {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  %r = scf.for %k = %c0 to %n step %c128 iter_args(%acc = %zero) -> (tensor<128xf32>) {
    %t = tile.load %x[%k] : !tile.view<?xf32> -> tensor<128xf32>
    %s = arith.addf %acc, %t : tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  }
  return %r : tensor<128xf32>
}
