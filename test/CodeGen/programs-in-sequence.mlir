// A kernel whose blocks run their programs in turn (tilegpu.programs_in_sequence): the
// launcher starts one block per four programs, the block's first program is blockIdx.x * 4,
// and program coordinates come from the grid for the loop's current program.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#L = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [8], order = [0]>
func.func @rows(%y: !tile.view<1024xf32, exclusive>, %x: !tile.view<?xf32>)
    attributes {tile.kernel = "rows", tile.entry = "&::rows", tilegpu.num_warps = 8 : i32,
                tilegpu.programs_in_sequence = 4 : i32} {
  // CHECK: // each CUDA block runs 4 tile programs in turn
  // CHECK: __global__ void __launch_bounds__(256) __tilecc_rows(
  // CHECK-NOT: bid_
  // CHECK: const int64_t [[BASE:v[0-9]+]] = int64_t(blockIdx.x) * 4;
  // CHECK-NEXT: const int64_t [[COUNT:v[0-9]+]] = grid.size();
  %base = tilegpu.program_base
  %count = tilegpu.num_programs
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c1024 = arith.constant 1024 : index
  %left = arith.subi %count, %base : index
  %n = arith.minsi %left, %c4 : index
  scf.for %i = %c0 to %n step %c1 {
    %p = arith.addi %base, %i : index
    // CHECK: const int64_t [[ROW:v[0-9]+]] = grid.coord<1>([[P:v[0-9]+]], 0);
    %r = tilegpu.program_coord %p, 0
    %o = arith.muli %r, %c1024 : index
    %nx = tilegpu.array_dim %x, 0 : !tile.view<?xf32>
    %t = tilegpu.global_load %x[%o] bounds [%nx] {vector = 4 : i32} : !tile.view<?xf32> -> tensor<1024xf32, #L>
    %ny = tilegpu.array_dim %y, 0 : !tile.view<1024xf32, exclusive>
    tilegpu.global_store %t, %y[%o] bounds [%ny] {vector = 4 : i32} : tensor<1024xf32, #L>, !tile.view<1024xf32, exclusive>
  }
  return
}
// CHECK: static int __tilecc_launch_rows(
// CHECK: const int64_t blocks = (programs + 3) / 4;
