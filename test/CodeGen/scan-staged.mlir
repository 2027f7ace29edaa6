// A scan whose axis the layout does not lay out as registers, then lanes, then warps (down
// the rows of mma accumulator fragments of two warps: lanes, then a register, then warps)
// stages the tile in shared memory: threads scan chunks of each line in place, one thread per
// line scans the chunk totals into carries, and every result register applies its chunk's
// carry. The split (16 lines of 32, four chunks of 8 per line for 64 threads) is the
// compiler's: the generated code holds its numbers, not a second copy of the decision.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#M = #tilegpu.mma<warpsPerBlock = [2, 1]>
func.func @columns(%z: !tile.view<32x16xf32, exclusive>, %x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "columns", tile.entry = "&::columns", tilegpu.num_warps = 2 : i32,
                tilegpu.smem_bytes = 2304 : i64} {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c16 = arith.constant 16 : index
  %t = tilegpu.global_load %x[%c0, %c0] bounds [%c32, %c16] {vector = 1 : i32} : !tile.view<?x?xf32> -> tensor<32x16xf32, #M>
  %s = tile.scan %t axis 0 {tilegpu.smem_offset = 0 : i64} : tensor<32x16xf32, #M> -> tensor<32x16xf32, #M> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maxnumf %a, %b : f32
    tile.yield %c : f32
  }
  tilegpu.global_store %s, %z[%c0, %c0] bounds [%c32, %c16] {vector = 1 : i32} : tensor<32x16xf32, #M>, !tile.view<32x16xf32, exclusive>
  return
}

// CHECK: auto [[F:v[0-9]+]] = [&](float& {{v[0-9]+}}, float {{v[0-9]+}}) {
// The tile (2048 bytes at 0) and the chunk carries (at 2048).
// CHECK: __syncthreads(); float* [[D:v[0-9]+]] = tile_dev::shared_at<float>(0); float* [[K:v[0-9]+]] = tile_dev::shared_at<float>(2048); tile_dev::to_shared([[D]], t0,
// CHECK-NEXT: for (int64_t u_ = threadIdx.x; u_ < 64; u_ += 64) { const int64_t l_ = u_ / 4, c_ = u_ % 4; for (int64_t j_ = c_ * 8 + 1; j_ < (c_ + 1) * 8; ++j_)
// CHECK-SAME: [[F]](a0_, [[D]][q_]); [[D]][q_] = a0_; } } __syncthreads();
// CHECK-NEXT: for (int64_t l_ = threadIdx.x; l_ < 16; l_ += 64)
// CHECK-SAME: [[K]][l_ * 4 + c_] = a0_;
// CHECK-NEXT: float [[R:v[0-9]+]][{{[0-9]+}}];
// CHECK-SAME: const int64_t c_ = t0.coord(i_, 0) / 8; if (c_ > 0) { float a0_ = [[K]][((q_ / 512) * 16 + q_ % 16) * 4 + c_]; [[F]](a0_, [[R]][i_]); [[R]][i_] = a0_; }
// CHECK-NOT: ScanPlan
