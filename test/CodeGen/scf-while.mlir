// scf.while: the before region runs first; the condition's forwarded values become the
// results on exit and the after region's arguments otherwise; the after region's yield
// updates the carried locals.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

func.func @doubling(%z: !tile.view<128xi64, exclusive>, %k: i64)
    attributes {tile.kernel = "doubling", tile.entry = "&::doubling", tilegpu.num_warps = 1 : i32} {
  %w:2 = scf.while (%i = %k, %steps = %k) : (i64, i64) -> (i64, i64) {
    %lim = arith.constant 100 : i64
    %cond = arith.cmpi slt, %i, %lim : i64
    scf.condition(%cond) %i, %steps : i64, i64
  } do {
  ^bb0(%i2: i64, %s2: i64):
    %two = arith.constant 2 : i64
    %n2 = arith.muli %i2, %two : i64
    %one = arith.constant 1 : i64
    %s3 = arith.addi %s2, %one : i64
    scf.yield %n2, %s3 : i64, i64
  }
  %t = tile.splat %w#0 : i64 -> tensor<128xi64, #tilegpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>>
  %c0 = arith.constant 0 : index
  %n = arith.index_cast %w#1 : i64 to index
  tilegpu.global_store %t, %z[%c0] bounds [%n] {vector = 2 : i32} : tensor<128xi64, #tilegpu.blocked<sizePerThread = [2], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>>, !tile.view<128xi64, exclusive>
  return
}

// CHECK: int64_t [[I:v[0-9]+]] = arg1;
// CHECK-NEXT: int64_t [[S:v[0-9]+]] = arg1;
// CHECK-NEXT: int64_t [[R0:v[0-9]+]]{};
// CHECK-NEXT: int64_t [[R1:v[0-9]+]]{};
// CHECK-NEXT: while (true) {
// CHECK-NEXT: const bool [[C:v[0-9]+]] = [[I]] < 100;
// CHECK-NEXT: if (![[C]]) {
// CHECK-NEXT: [[R0]] = [[I]];
// CHECK-NEXT: [[R1]] = [[S]];
// CHECK-NEXT: break;
// CHECK-NEXT: }
// CHECK-NEXT: const int64_t [[N2:v[0-9]+]] = int64_t(uint64_t([[I]]) * uint64_t(2));
// CHECK-NEXT: const int64_t [[S3:v[0-9]+]] = int64_t(uint64_t([[S]]) + uint64_t(1));
// CHECK-NEXT: int64_t [[Y0:v[0-9]+]] = [[N2]];
// CHECK-NEXT: int64_t [[Y1:v[0-9]+]] = [[S3]];
// CHECK-NEXT: [[I]] = [[Y0]];
// CHECK-NEXT: [[S]] = [[Y1]];
// CHECK-NEXT: }
// A splat stays a scalar until a store needs the register array.
// CHECK-NEXT: const int64_t [[NI:v[0-9]+]] = int64_t([[R1]]);
// CHECK-NEXT: int64_t [[ARR:v[0-9]+]][4]; _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[ARR]][i_] = [[R0]];
// CHECK-NEXT: tile_dev::store<2, false>(arg0, t0, [[ARR]], {0}, {0}, {[[NI]]});
