// The axes a reduction of a shape reduces take warps last: an 8 x 1024 bf16 tile summed along
// its rows (a kernel that reduces gives each thread 8 vector accesses: 4 warps) puts its warps
// two rows each (lanes still along the row, 16-byte vectors), so each row sum combines within
// one warp. Without the reduction 8 warps would share the rows.
// RUN: tilecc-opt %s --tile-assign-layouts | FileCheck %s

// CHECK-LABEL: func.func @row_sums
// CHECK-SAME: tilegpu.num_warps = 4 : i32
// CHECK: tile.load {{.*}} -> tensor<8x1024xbf16, #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerBlock = [4, 1], order = [1, 0]>>
func.func @row_sums(%x: !tile.view<?x?xbf16>, %i: index) -> tensor<8xbf16> {
  %a = tile.load %x[%i, %i] : !tile.view<?x?xbf16> -> tensor<8x1024xbf16>
  %s = tile.reduce %a axis 1 : tensor<8x1024xbf16> -> tensor<8xbf16> {
  ^bb0(%u: bf16, %v: bf16):
    %c = arith.addf %u, %v : bf16
    tile.yield %c : bf16
  }
  return %s : tensor<8xbf16>
}

// CHECK-LABEL: func.func @rows_only_loaded
// CHECK: tile.load {{.*}} -> tensor<8x1024xbf16, #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerBlock = [2, 4], order = [1, 0]>>
func.func @rows_only_loaded(%x: !tile.view<?x?xbf16>, %i: index) -> tensor<8x1024xbf16> {
  %a = tile.load %x[%i, %i] : !tile.view<?x?xbf16> -> tensor<8x1024xbf16>
  return %a : tensor<8x1024xbf16>
}
