// scf.for: loop-carried values are mutable locals declared before the loop; a yield that
// permutes them goes through temporaries so the update is simultaneous.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#L = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @loops(%z: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32>, %n: index, %s: f32)
    attributes {tile.kernel = "loops", tile.entry = "&::loops", tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant dense<0.0> : tensor<128xf32, #L>
  %sp = tile.splat %s : f32 -> tensor<128xf32, #L>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %init, %b = %sp, %k = %c0)
      -> (tensor<128xf32, #L>, tensor<128xf32, #L>, index) {
    %t = tilegpu.global_load %x[%k] bounds [%n] {vector = 4 : i32} : !tile.view<?xf32> -> tensor<128xf32, #L>
    %sum = arith.addf %a, %t : tensor<128xf32, #L>
    %k2 = arith.addi %k, %c1 : index
    scf.yield %b, %sum, %k2 : tensor<128xf32, #L>, tensor<128xf32, #L>, index
  }
  tilegpu.global_store %r#0, %z[%c0] bounds [%n] {vector = 4 : i32} : tensor<128xf32, #L>, !tile.view<128xf32, exclusive>
  return
}

// CHECK: float [[A:v[0-9]+]][4]; _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[A]][i_] = 0.0f;
// CHECK-NEXT: float [[B:v[0-9]+]][4]; _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[B]][i_] = arg3;
// CHECK-NEXT: int64_t [[K:v[0-9]+]] = 0;
// CHECK-NEXT: for (int64_t [[I:v[0-9]+]] = 0; [[I]] < arg2; [[I]] += 1) {
// CHECK-NEXT: float [[T:v[0-9]+]][4]; tile_dev::load<4, true, false>([[T]], arg1, t0, {[[K]]}, {0}, {arg2});
// CHECK-NEXT: float [[SUM:v[0-9]+]][4]; _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[SUM]][i_] = [[A]][i_] + [[T]][i_];
// CHECK-NEXT: const int64_t [[K2:v[0-9]+]] = [[K]] + 1;
// CHECK-NEXT: float [[Y0:v[0-9]+]][4]; _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[Y0]][i_] = [[B]][i_];
// CHECK-NEXT: float [[Y1:v[0-9]+]][4]; _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[Y1]][i_] = [[SUM]][i_];
// CHECK-NEXT: int64_t [[Y2:v[0-9]+]] = [[K2]];
// CHECK-NEXT: _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[A]][i_] = [[Y0]][i_];
// CHECK-NEXT: _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[B]][i_] = [[Y1]][i_];
// CHECK-NEXT: [[K]] = [[Y2]];
// CHECK-NEXT: }
// The loop's first result is the first carried local.
// CHECK-NEXT: tile_dev::store<4, false>(arg0, t0, [[A]], {0}, {0}, {arg2});
