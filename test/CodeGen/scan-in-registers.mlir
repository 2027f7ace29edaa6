// An inclusive scan with an init, whose 256 elements lie in a thread's 4 registers, then the
// 32 lanes, then a second repeat of that pattern in registers: each thread scans its
// registers, the lanes scan the threads' totals by shuffles (Hillis-Steele, five steps), each
// takes the total of the lane before it and the whole of the first repeat from the last lane;
// nothing goes through shared memory.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#L = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @prefix(%z: !tile.view<256xi32, exclusive>, %x: !tile.view<?xi32>, %init: i32)
    attributes {tile.kernel = "prefix", tile.entry = "&::prefix", tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %t = tilegpu.global_load %x[%c0] bounds [%c256] {vector = 4 : i32} : !tile.view<?xi32> -> tensor<256xi32, #L>
  %s = tile.scan %t init(%init : i32) axis 0 : tensor<256xi32, #L> -> tensor<256xi32, #L> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    tile.yield %c : i32
  }
  tilegpu.global_store %s, %z[%c0] bounds [%c256] {vector = 4 : i32} : tensor<256xi32, #L>, !tile.view<256xi32, exclusive>
  return
}

// CHECK: auto [[F:v[0-9]+]] = [&](int32_t& {{v[0-9]+}}, int32_t {{v[0-9]+}}) {
// CHECK-NOT: shared_at
// CHECK: int32_t [[R:v[0-9]+]][8]; _Pragma("unroll") for (int i_ = 0; i_ < 8; ++i_) [[R]][i_] = v{{[0-9]+}}[i_];
// The registers of each of the thread's two lines (repeats), in order.
// CHECK-NEXT: for (int q_ = 0; q_ < 2; ++q_) _Pragma("unroll") for (int j_ = 1; j_ < 4; ++j_)
// CHECK-SAME: [[F]](a0_, [[R]][r_]); [[R]][r_] = a0_; }
// CHECK-NEXT: int32_t [[T:v[0-9]+]][2];
// CHECK-NEXT: const int [[LANE:v[0-9]+]] = int(threadIdx.x % 32u); const int [[P:v[0-9]+]] = tile_dev::compress(unsigned([[LANE]]), 31u);
// CHECK-NEXT: ([[P]] - 1) & 31)); {{.*}} = tile_dev::shfl([[T]][q_], from_); if ([[P]] >= 1)
// CHECK-NEXT: ([[P]] - 2) & 31)); {{.*}} if ([[P]] >= 2)
// CHECK-NEXT: ([[P]] - 4) & 31)); {{.*}} if ([[P]] >= 4)
// CHECK-NEXT: ([[P]] - 8) & 31)); {{.*}} if ([[P]] >= 8)
// CHECK-NEXT: ([[P]] - 16) & 31)); {{.*}} if ([[P]] >= 16)
// CHECK-NEXT: int32_t [[X:v[0-9]+]][2];
// CHECK-NEXT: ([[P]] - 1) & 31)); {{.*}} { [[X]][q_] = tile_dev::shfl([[T]][q_], from_); } }
// CHECK-NEXT: { const int from_ = [[LANE]] | 31; {{.*}} { [[T]][q_] = tile_dev::shfl([[T]][q_], from_); } }
// The repeat before this one, then the lanes before this one, then the init.
// CHECK-NEXT: const int before_ = q_ / 1; int32_t c0w_ = [[T]][q_ % 1];
// CHECK-SAME: if ([[P]] > 0) { int32_t b0_ = [[X]][q_]; [[F]](b0_, [[R]][r_]); [[R]][r_] = b0_; }
// CHECK-SAME: if (before_ > 0) { int32_t b0_ = c0w_; [[F]](b0_, [[R]][r_]); [[R]][r_] = b0_; }
// CHECK-SAME: { int32_t c0_ = arg2; [[F]](c0_, [[R]][r_]); [[R]][r_] = c0_; }
// CHECK-NOT: shared_at
