// scf.while results nobody reads (a loop counter, a break flag) get no local, so nvcc has no
// set-but-unused variable to warn about; the used result is assigned on exit.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

func.func @count(%z: !tile.view<128xi64, exclusive>, %k: i64)
    attributes {tile.kernel = "count", tile.entry = "&::count", tilegpu.num_warps = 1 : i32} {
  %zero = arith.constant 0 : i64
  %w:2 = scf.while (%i = %zero, %acc = %k) : (i64, i64) -> (i64, i64) {
    %lim = arith.constant 10 : i64
    %cond = arith.cmpi slt, %i, %lim : i64
    scf.condition(%cond) %i, %acc : i64, i64
  } do {
  ^bb0(%i2: i64, %a2: i64):
    %one = arith.constant 1 : i64
    %n = arith.addi %i2, %one : i64
    %a3 = arith.addi %a2, %i2 : i64
    scf.yield %n, %a3 : i64, i64
  }
  %t = tile.splat %w#1 : i64 -> tensor<128xi64, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>>
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  tilegpu.global_store %t, %z[%c0] bounds [%c128] {vector = 2 : i32} : tensor<128xi64, #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>>, !tile.view<128xi64, exclusive>
  return
}

// CHECK: int64_t [[I:v[0-9]+]] = 0;
// CHECK-NEXT: int64_t [[A:v[0-9]+]] = arg1;
// CHECK-NEXT: int64_t [[R:v[0-9]+]]{};
// CHECK-NEXT: while (true) {
// CHECK-NEXT: const bool [[C:v[0-9]+]] = [[I]] < 10;
// CHECK-NEXT: if (![[C]]) {
// CHECK-NEXT: [[R]] = [[A]];
// CHECK-NEXT: break;
// CHECK-NEXT: }
