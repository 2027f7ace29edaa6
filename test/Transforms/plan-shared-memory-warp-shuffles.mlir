// A conversion whose elements stay within each warp is done by warp shuffles and gets no
// shared memory; one whose elements cross warps is staged. The kernel needs only the bytes of
// the second.
// RUN: tilecc-opt %s --tilegpu-plan-shared-memory | FileCheck %s

#rows = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerBlock = [2, 1], order = [1, 0]>
#lanes = #tilegpu.blocked<sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerBlock = [2, 1], order = [1, 0]>
#cols = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerBlock = [1, 2], order = [1, 0]>

// CHECK-LABEL: func.func @convert
// 16 x 32 f32 staged once: 2048 bytes.
// CHECK-SAME: tilegpu.smem_bytes = 2048
func.func @convert(%t: tensor<16x32xf32, #rows>) -> tensor<16x32xf32, #cols>
    attributes {tilegpu.num_warps = 2 : i32} {
  // CHECK: tilegpu.convert_layout %{{.*}} : tensor<16x32xf32, #{{.*}}> -> tensor<16x32xf32,
  %a = tilegpu.convert_layout %t : tensor<16x32xf32, #rows> -> tensor<16x32xf32, #lanes>
  // The staged one writes rows of 8 floats per thread and reads 4 from another warp's rows:
  // groups of 4 swizzled over 2 phases keep both in distinct banks with 16-byte accesses.
  // CHECK: tilegpu.convert_layout %{{.*}} {tilegpu.smem_offset = 0 : i64, tilegpu.staging = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 2, order = [1, 0]>}
  %b = tilegpu.convert_layout %a : tensor<16x32xf32, #lanes> -> tensor<16x32xf32, #cols>
  return %b : tensor<16x32xf32, #cols>
}
