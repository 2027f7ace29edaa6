// An inclusive scan with an init: the tile goes to shared memory, threads scan chunks of each
// line in place, one thread per line scans the chunk totals into carries, and every result
// register applies its chunk's carry, then the init.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#L = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @prefix(%z: !tile.view<256xi32, exclusive>, %x: !tile.view<?xi32>, %init: i32)
    attributes {tile.kernel = "prefix", tile.entry = "&::prefix", tilegpu.num_warps = 1 : i32,
                tilegpu.smem_bytes = 1152 : i64} {
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %t = tilegpu.global_load %x[%c0] bounds [%c256] {vector = 4 : i32} : !tile.view<?xi32> -> tensor<256xi32, #L>
  %s = tile.scan %t init(%init : i32) axis 0 {tilegpu.smem_offset = 0 : i64} : tensor<256xi32, #L> -> tensor<256xi32, #L> {
  ^bb0(%a: i32, %b: i32):
    %c = arith.addi %a, %b : i32
    tile.yield %c : i32
  }
  tilegpu.global_store %s, %z[%c0] bounds [%c256] {vector = 4 : i32} : tensor<256xi32, #L>, !tile.view<256xi32, exclusive>
  return
}

// CHECK: auto [[F:v[0-9]+]] = [&](int32_t& {{v[0-9]+}}, int32_t {{v[0-9]+}}) {
// The tile (1024 bytes at 0) and the chunk carries (at 1024) of a 256-element line cut into
// 32 chunks, one per thread.
// CHECK: using [[P:v[0-9]+]] = tile_dev::ScanPlan<tile_dev::Ix<256>, 0, 32>; __syncthreads();
// CHECK-SAME: int32_t* [[D:v[0-9]+]] = tile_dev::shared_at<int32_t>(0); int32_t* [[K:v[0-9]+]] = tile_dev::shared_at<int32_t>(1024); tile_dev::to_shared([[D]], t0,
// CHECK-NEXT: for (int64_t u_ = threadIdx.x; u_ < [[P]]::lines * [[P]]::chunks; u_ += 32)
// CHECK-SAME: [[F]](a0_, [[D]][q_]); [[D]][q_] = a0_; } } __syncthreads();
// CHECK-NEXT: if ([[P]]::chunks > 1) { for (int64_t l_ = threadIdx.x; l_ < [[P]]::lines; l_ += 32)
// CHECK-SAME: [[K]][l_ * [[P]]::chunks + c_] = a0_; [[F]](a0_, [[D]][[[P]]::at(l_, (c_ + 1) * [[P]]::chunk - 1)]);
// CHECK-NEXT: int32_t [[R:v[0-9]+]][8];
// CHECK-SAME: if (c_ > 0) { int32_t a0_ = [[K]][[[P]]::line_of(q_) * [[P]]::chunks + c_]; [[F]](a0_, [[R]][i_]); [[R]][i_] = a0_; }
// CHECK-SAME: { int32_t c0_ = arg2; [[F]](c0_, [[R]][i_]); [[R]][i_] = c0_; }
