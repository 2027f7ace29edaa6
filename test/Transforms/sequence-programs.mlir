// tilegpu-sequence-programs wraps the body of a kernel that would hold a multiprocessor alone
// (one block of 512 threads, 32 + 32 registers of tiles live across the reduction: the
// weights feed the reduction too, so they cannot stream through the final store) in a loop
// over four programs of its block; tile-prefetch-loop-loads then loads the next program's row
// at the top of each step and the loop-invariant row once, before the loop.
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu --canonicalize --tile-vectorize-accesses --tilegpu-sequence-programs | FileCheck %s --check-prefix=SEQ
// RUN: tilecc-opt %s --tile-assign-layouts --convert-tile-to-tilegpu --canonicalize --tile-vectorize-accesses --tilegpu-sequence-programs --tile-prefetch-loop-loads | FileCheck %s --check-prefix=PREFETCH

// SEQ-LABEL: func.func @scale_rows
// SEQ-SAME: tilegpu.programs_in_sequence = 4
// SEQ: %[[BASE:.*]] = tilegpu.program_base
// SEQ-NEXT: %[[COUNT:.*]] = tilegpu.num_programs
// SEQ-NEXT: %[[LEFT:.*]] = arith.subi %[[COUNT]], %[[BASE]] : index
// SEQ: %[[N:.*]] = arith.minsi %[[LEFT]], %{{.*}} : index
// SEQ: scf.for %[[I:.*]] = %{{.*}} to %[[N]] step
// SEQ-NEXT: %[[P:.*]] = arith.addi %[[BASE]], %[[I]] : index
// SEQ-NOT: tile.block_id
// SEQ: tilegpu.program_coord %[[P]], 0
// SEQ: tile.reduce
// SEQ: tilegpu.global_store {{.*}} exclusive>
// SEQ-NEXT: {{^ *}}}
// SEQ-NEXT: return

// PREFETCH-LABEL: func.func @scale_rows
// The weights' row (offset 0) is loaded once, the first program's row before the loop.
// PREFETCH: tilegpu.global_load %arg2
// PREFETCH: tilegpu.global_load %arg1
// PREFETCH: scf.for {{.*}} iter_args(
// PREFETCH-NOT: tilegpu.global_load %arg2
// PREFETCH: tilegpu.global_load %arg1
// PREFETCH: tile.reduce
func.func @scale_rows(%y: !tile.view<1x16384xf32, exclusive>, %x: !tile.view<?x?xf32>, %w: !tile.view<?xf32>)
    attributes {tile.num_warps = 16 : i32} {
  %c0 = arith.constant 0 : index
  %c16384 = arith.constant 16384 : index
  %r = tile.block_id 0
  %c = tile.block_id 1
  %col = arith.muli %c, %c16384 : index
  %t = tile.load %x[%r, %col] : !tile.view<?x?xf32> -> tensor<1x16384xf32>
  %g = tile.load %w[%c0] : !tile.view<?xf32> -> tensor<16384xf32>
  %gt = tile.broadcast %g : tensor<16384xf32> -> tensor<1x16384xf32>
  %tg = arith.mulf %t, %gt : tensor<1x16384xf32>
  %s = tile.reduce %tg axis 1 : tensor<1x16384xf32> -> tensor<1xf32> {
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    tile.yield %sum : f32
  }
  %s2 = tile.reshape %s : tensor<1xf32> -> tensor<1x1xf32>
  %sb = tile.broadcast %s2 : tensor<1x1xf32> -> tensor<1x16384xf32>
  %gb = tile.broadcast %g : tensor<16384xf32> -> tensor<1x16384xf32>
  %p = arith.mulf %t, %sb : tensor<1x16384xf32>
  %o = arith.addf %p, %gb : tensor<1x16384xf32>
  tile.store %o, %y[%c0, %c0] : tensor<1x16384xf32>, !tile.view<1x16384xf32, exclusive>
  return
}

// A short row (one block of 64 threads) is not sequenced.
// SEQ-LABEL: func.func @short_row
// SEQ-NOT: programs_in_sequence
// SEQ-NOT: scf.for
// SEQ: return
func.func @short_row(%y: !tile.view<1x512xf32, exclusive>, %x: !tile.view<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %r = tile.block_id 0
  %t = tile.load %x[%r, %c0] : !tile.view<?x?xf32> -> tensor<1x512xf32>
  tile.store %t, %y[%c0, %c0] : tensor<1x512xf32>, !tile.view<1x512xf32, exclusive>
  return
}
