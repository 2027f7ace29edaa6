// scf.if: results are locals declared before the branch and assigned by each yield.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#L = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @branch(%z: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32>, %n: index)
    attributes {tile.kernel = "branch", tile.entry = "&::branch", tilegpu.num_warps = 1 : i32, tilegpu.programs_per_block = 4 : i32} {
  %c0 = arith.constant 0 : index
  %b = tile.block_id 0
  %even = arith.cmpi eq, %b, %c0 : index
  %t = tilegpu.global_load %x[%c0] bounds [%n] {vector = 4 : i32} : !tile.view<?xf32> -> tensor<128xf32, #L>
  %r:2 = scf.if %even -> (tensor<128xf32, #L>, index) {
    %d = arith.addf %t, %t : tensor<128xf32, #L>
    scf.yield %d, %n : tensor<128xf32, #L>, index
  } else {
    %one = arith.constant dense<1.0> : tensor<128xf32, #L>
    scf.yield %one, %c0 : tensor<128xf32, #L>, index
  }
  scf.if %even {
    tilegpu.global_store %r#0, %z[%c0] bounds [%r#1] {vector = 4 : i32} : tensor<128xf32, #L>, !tile.view<128xf32, exclusive>
  }
  return
}

// CHECK: int64_t bid_[4]; grid.decompose<1>(prog_, bid_);
// CHECK: const int64_t [[B:v[0-9]+]] = bid_[0];
// CHECK-NEXT: const bool [[EVEN:v[0-9]+]] = [[B]] == 0;
// CHECK-NEXT: float [[T:v[0-9]+]][4]; tile_dev::load<4, true, false>([[T]], arg1, t0, {0}, {0}, {arg2});
// CHECK-NEXT: float [[R0:v[0-9]+]][4];
// CHECK-NEXT: int64_t [[R1:v[0-9]+]]{};
// CHECK-NEXT: if ([[EVEN]]) {
// CHECK-NEXT: float [[D:v[0-9]+]][4]; _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[D]][i_] = [[T]][i_] + [[T]][i_];
// CHECK-NEXT: _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[R0]][i_] = [[D]][i_];
// CHECK-NEXT: [[R1]] = arg2;
// CHECK-NEXT: } else {
// CHECK-NEXT: _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[R0]][i_] = 1.0f;
// CHECK-NEXT: [[R1]] = 0;
// CHECK-NEXT: }
// CHECK-NEXT: if ([[EVEN]]) {
// CHECK-NEXT: tile_dev::store<4, false>(arg0, t0, [[R0]], {0}, {0}, {[[R1]]});
// CHECK-NEXT: }
