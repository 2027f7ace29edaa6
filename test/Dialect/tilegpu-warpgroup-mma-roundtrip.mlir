// Blocked shared layouts, warpgroup mma (A from a stage or from registers), its wait and the
// async-proxy fence print as they parse.
// RUN: tilecc-opt %s | tilecc-opt | FileCheck %s

#SA = #tilegpu.shared<vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>
#SB = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 64>
#W = #tilegpu.mma<warpsPerBlock = [8, 1]>
// CHECK-LABEL: func.func @warpgroup
func.func @warpgroup(%a: !tilegpu.buffer<3, tensor<128x32xf16>, #SA>,
                     %b: !tilegpu.buffer<3, tensor<32x128xf16>, #SB>, %s: index,
                     %c: tensor<128x128xf32, #W>) -> tensor<128x128xf32, #W> {
  // CHECK: tilegpu.fence_async_shared
  tilegpu.fence_async_shared
  tilegpu.barrier
  // CHECK: tilegpu.warpgroup_mma %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}} : !tilegpu.buffer<3, tensor<128x32xf16>, <vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]>>, <3, tensor<32x128xf16>, <vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 64>> -> tensor<128x128xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>>
  %p = tilegpu.warpgroup_mma %a[%s], %b[%s], %c : !tilegpu.buffer<3, tensor<128x32xf16>, #SA>, !tilegpu.buffer<3, tensor<32x128xf16>, #SB> -> tensor<128x128xf32, #W>
  // CHECK-NEXT: tilegpu.warpgroup_wait %{{.*}} {pending = 0 : i32} : tensor<128x128xf32, #tilegpu.mma<warpsPerBlock = [8, 1]>>
  %r = tilegpu.warpgroup_wait %p {pending = 0 : i32} : tensor<128x128xf32, #W>
  return %r : tensor<128x128xf32, #W>
}

#P = #tilegpu.dot_operand<opIdx = 0, parent = #W, kWidth = 2>
// CHECK-LABEL: func.func @registers
func.func @registers(%a: tensor<128x32xf16, #P>, %b: !tilegpu.buffer<3, tensor<32x128xf16>, #SB>,
                     %s: index, %c: tensor<128x128xf32, #W>) -> tensor<128x128xf32, #W> {
  // CHECK: tilegpu.warpgroup_mma %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} : tensor<128x32xf16, #tilegpu.dot_operand<opIdx = 0, parent = #tilegpu.mma<warpsPerBlock = [8, 1]>, kWidth = 2>>, <3, tensor<32x128xf16>
  %p = tilegpu.warpgroup_mma %a, %b[%s], %c : tensor<128x32xf16, #P>, !tilegpu.buffer<3, tensor<32x128xf16>, #SB> -> tensor<128x128xf32, #W>
  %r = tilegpu.warpgroup_wait %p {pending = 0 : i32} : tensor<128x128xf32, #W>
  return %r : tensor<128x128xf32, #W>
}

// A stage restaged: in place, rounded to TF32; and from a row-major ring into a column-major
// stage.
#R = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0], block = 32>
#K = #tilegpu.shared<vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]>
// CHECK-LABEL: func.func @restage
func.func @restage(%r: !tilegpu.buffer<3, tensor<32x128xf32>, #R>,
                   %k: !tilegpu.buffer<2, tensor<32x128xf32>, #K>, %s: index, %t: index) {
  // CHECK: tilegpu.restage %{{.*}}[%{{.*}}] into %{{.*}}[%{{.*}}] {round_tf32} : <3, tensor<32x128xf32>, <vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0], block = 32>>, <3, tensor<32x128xf32>
  tilegpu.restage %r[%s] into %r[%s] {round_tf32} : !tilegpu.buffer<3, tensor<32x128xf32>, #R>, !tilegpu.buffer<3, tensor<32x128xf32>, #R>
  // CHECK: tilegpu.restage %{{.*}}[%{{.*}}] into %{{.*}}[%{{.*}}] : <3, tensor<32x128xf32>, {{.*}}>, <2, tensor<32x128xf32>, <vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1]>>
  tilegpu.restage %r[%s] into %k[%t] : !tilegpu.buffer<3, tensor<32x128xf32>, #R>, !tilegpu.buffer<2, tensor<32x128xf32>, #K>
  return
}
