// A reduction along axis 1: each thread combines its registers, the lanes along the axis
// combine by xor shuffles, one lane per warp position writes its partials to the planned
// shared memory (at the index the slice of the operand's layout gives), and every thread
// combines the partials of its result registers. The kernel launches with its dynamic shared
// memory, one tile program per block.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#L = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerBlock = [1, 2], order = [1, 0]>
#R = #tilegpu.blocked<sizePerThread = [1], threadsPerWarp = [32], warpsPerBlock = [2], order = [0]>
func.func @row_max(%z: !tile.view<4xf32, exclusive>, %x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "row_max", tile.entry = "&::row_max", tilegpu.num_warps = 2 : i32,
                tilegpu.smem_bytes = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %t = tilegpu.global_load %x[%c0, %c0] bounds [%c4, %c64] {vector = 4 : i32} : !tile.view<?x?xf32> -> tensor<4x64xf32, #L>
  %m = tile.reduce %t axis 1 {tilegpu.smem_offset = 0 : i64} : tensor<4x64xf32, #L> -> tensor<4xf32, #R> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maxnumf %a, %b : f32
    tile.yield %c : f32
  }
  tilegpu.global_store %m, %z[%c0] bounds [%c4] {vector = 1 : i32} : tensor<4xf32, #R>, !tile.view<4xf32, exclusive>
  return
}

// CHECK: // row_max: 2 warp(s), 64 threads per tile program, 32 bytes of shared memory
// CHECK-NOT: tile programs per CUDA block
// The combiner, accumulating in place.
// CHECK: auto [[F:v[0-9]+]] = [&](float& [[A:v[0-9]+]], float [[B:v[0-9]+]]) {
// CHECK-NEXT: const float [[C:v[0-9]+]] = tile_dev::maxnumf<float>([[A]], [[B]]);
// CHECK-NEXT: const auto [[Y:v[0-9]+]] = [[C]]; [[A]] = [[Y]];
// CHECK-NEXT: };
// Within the thread by the hardware's max, and exactly again where a partial came out zero
// (the hardware may return either of +0 and -0); then across the 8 lanes along the axis.
// CHECK-NEXT: float [[P:v[0-9]+]][1]; _Pragma("unroll") for (int r_ = 0; r_ < 4; ++r_) { const int k_ = tile_dev::compress(r_, 0u);
// CHECK-SAME: if ((r_ & 3) == 0) { [[P]][k_] = [[X:v[0-9]+]][r_]; } else [[P]][k_] = fmaxf([[P]][k_], [[X]][r_]); }
// CHECK-SAME: bool [[Z:v[0-9]+]] = false; _Pragma("unroll") for (int k_ = 0; k_ < 1; ++k_) [[Z]] |= [[P]][k_] == 0.0f; if ([[Z]]) {
// CHECK-SAME: if ((r_ & 3) == 0) { [[P]][k_] = [[X]][r_]; } else [[F]]([[P]][k_], [[X]][r_]); } }
// CHECK-NEXT: [[F]]([[P]][k_], tile_dev::shfl_xor([[P]][k_], 1));
// CHECK-NEXT: [[F]]([[P]][k_], tile_dev::shfl_xor([[P]][k_], 2));
// CHECK-NEXT: [[F]]([[P]][k_], tile_dev::shfl_xor([[P]][k_], 4));
// The eight lanes along the axis hold copies after the shuffles: lane 0 of each writes.
// CHECK-NEXT: __syncthreads(); float* [[S:v[0-9]+]] = tile_dev::shared_at<float>(0);
// CHECK-SAME: if ((threadIdx.x & 7u) == 0) { const int64_t w_ = tile_dev::compress(threadIdx.x / 32u, 1u);
// CHECK-SAME: [[S]][w_ * 4 + t2.linear(k_)] = [[P]][k_];
// CHECK-SAME: __syncthreads();
// CHECK-NEXT: float [[OUT:v[0-9]+]][1];
// CHECK-SAME: const int64_t q_ = t1.linear(i_); [[OUT]][i_] = [[S]][q_]; for (int w_ = 1; w_ < 2; ++w_) [[F]]([[OUT]][i_], [[S]][w_ * 4 + q_]);
// CHECK: tile_dev::store<1, false>(
// CHECK: __tilecc_row_max<<<dim3((unsigned)blocks), dim3(64), 32, (cudaStream_t)stream>>>
// CHECK: {"row_max", "{{.*}}", 64, 32}
