// The K loop's operand tiles are copied into shared-memory rings by four producer warps after
// the program's eight (tile-pipeline-mma-operands: a warp-specialized ring), through tensor
// maps where the launch built them (tile-tensor-map-copies), else with cp.async, and
// multiplied from their swizzled stages by the program's warpgroups (tile-warpgroup-mma:
// wgmma on sm_90a, ldmatrix and mma.sync elsewhere); B's 256-byte rows
// are stored in blocks of 64 elements. A `full` barrier per stage publishes its copies, an
// `empty` one frees it a step after its mma; the producer gives registers to the program's
// warps (setmaxnreg) and the program's barriers leave the producer out; the kernel is
// persistent (tilegpu-persistent-programs). The loop-carried
// accumulator stays in the layout of the 8 warps stacked along M across iterations, and only
// the final result is stored from it, after the last warpgroup mma (each step leaves one in
// flight) is waited for. A batched TF32 mma (m16n8k8) stays on fragments in
// registers (mma_frag). Both build with nvcc for sm_80 and sm_90a.
// RUN: tilecc-translate --tile-to-cuda --tilecc-no-line %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc %{ %nvcc-sm80 -include %S/Inputs/mma-fragment-entries.h -c %t.cu -o %t.o %}

// CHECK: using [[ACC:__tilecc_gemm_f16_L[0-9]+_frag]] = tile_dev::MmaAcc<tile_dev::Ix<128, 128>, 8, 1, 8>;
// CHECK-NOT: MmaOperand
// CHECK: __global__ void __launch_bounds__(384, 1) __tilecc_gemm_f16(
// CHECK: __half* const [[RA:v[0-9]+]] = tile_dev::shared_at<__half>(
// CHECK: __half* const [[RB:v[0-9]+]] = tile_dev::shared_at<__half>(
// CHECK: uint64_t* const [[FULL:v[0-9]+]] = tile_dev::shared_at<uint64_t>({{[0-9]+}}); tile_dev::init_barriers<[[STAGES:[0-9]]], 128u>([[FULL]]);
// CHECK: uint64_t* const [[EMPTY:v[0-9]+]] = tile_dev::shared_at<uint64_t>({{[0-9]+}}); tile_dev::init_barriers<[[STAGES]], 8u>([[EMPTY]]);
// Persistent: each block runs the programs gridDim.x apart from its own, the ring's step
// counter running on from one program to the next (in the producer and in the program).
// CHECK-NEXT: const int64_t [[FIRST:v[0-9]+]] = int64_t(blockIdx.x);
// CHECK-NEXT: const int64_t [[COUNT:v[0-9]+]] = grid.size();
// CHECK-NEXT: const int64_t [[STRIDE:v[0-9]+]] = int64_t(gridDim.x);
// CHECK-NEXT: if (threadIdx.x >= 256u) {
// CHECK-NEXT: tile_dev::set_registers<false, [[PRODUCER:[0-9]+]]>();
// CHECK-NEXT: const unsigned [[P:v[0-9]+]] = threadIdx.x - 256u;
// Where the launch built a tensor map of both views, the producer's first thread copies each
// stage with the tensor memory accelerator, and the stage's `full` barrier expects its bytes.
// CHECK-NEXT: const bool [[VALID:v[0-9]+]] = tile_dev::usable(map0_) & tile_dev::usable(map1_);
// CHECK-NEXT: if ([[VALID]]) {
// CHECK-NEXT: int64_t [[TSTEPS:v[0-9]+]] = 0;
// CHECK-NEXT: for (int64_t [[TPROG:v[0-9]+]] = [[FIRST]]; [[TPROG]] < [[COUNT]]; [[TPROG]] += [[STRIDE]]) {
// CHECK-NEXT: int64_t {{v[0-9]+}} = [[TSTEPS]];
// CHECK-NEXT: for (
// CHECK: tile_dev::barrier_wait([[EMPTY]] + [[TS:v[0-9]+]], {{v[0-9]+}});
// CHECK-NEXT: tile_dev::barrier_expect<16384>([[FULL]] + [[TS]], [[P]]);
// CHECK-NEXT: tile_dev::tensor_map_copy<128, 32, 1>(([[RA]] + [[TS]] * 4096), map0_, {0, {{v[0-9]+}}}, [[FULL]] + [[TS]], [[P]]);
// CHECK-NEXT: tile_dev::tensor_map_copy<32, 64, 2>(([[RB]] + [[TS]] * 4096), map1_, {{[{]}}{{v[0-9]+}}, 0}, [[FULL]] + [[TS]], [[P]]);
// CHECK-NEXT: {{v[0-9]+}} = {{v[0-9]+}};
// CHECK-NEXT: }
// CHECK-NEXT: [[TSTEPS]] = {{v[0-9]+}};
// CHECK-NEXT: }
// Elsewhere every producer thread copies with cp.async.
// CHECK-NEXT: } else {
// CHECK-NEXT: int64_t {{v[0-9]+}} = 0;
// CHECK-NEXT: for ({{.*}} += [[STRIDE]]) {
// CHECK-NEXT: int64_t {{v[0-9]+}} = {{v[0-9]+}};
// CHECK-NEXT: for (
// CHECK: tile_dev::barrier_wait([[EMPTY]] + [[PS:v[0-9]+]], {{v[0-9]+}});
// Each producer thread copies for program threads p and p + 128.
// CHECK: for (unsigned p_ = 0; p_ < 2u; ++p_) tile_dev::async_copy<8, tile_dev::Staging<32, 0, 8, 2, 4>, {{true|false}}>(([[RA]] + [[PS]] * 4096), arg1, tile_dev::Thread<{{.*}}>([[P]] + p_ * 128u),
// CHECK: for (unsigned p_ = 0; p_ < 2u; ++p_) tile_dev::async_copy<8, tile_dev::Staging<128, 0, 8, 1, 8, 64, 32>, {{true|false}}{{(, tile_dev::fit_runs\(Fit_\))?}}>(([[RB]] + [[PS]] * 4096), arg2,
// CHECK-NEXT: tile_dev::async_copy_arrive([[FULL]] + [[PS]]);
// CHECK-NEXT: {{v[0-9]+}} = {{v[0-9]+}};
// CHECK-NEXT: }
// CHECK-NEXT: {{v[0-9]+}} = {{v[0-9]+}};
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return;
// CHECK-NEXT: }
// CHECK-NEXT: tile_dev::set_registers<true, [[PROGRAM:[0-9]+]]>();
// CHECK-NEXT: int64_t [[STEPS:v[0-9]+]] = 0;
// CHECK-NEXT: for (int64_t [[PROG:v[0-9]+]] = [[FIRST]]; [[PROG]] < [[COUNT]]; [[PROG]] += [[STRIDE]]) {
// The accumulator enters the loop through a wait of 0 (no other instruction defines its
// registers while groups are in flight).
// CHECK: float [[Z:v[0-9]+]][64]; {{.*}}= 0.0f;
// CHECK-NEXT: tile_dev::warpgroup_wait<0>([[Z]]);
// CHECK-NEXT: float [[C:v[0-9]+]][64]; {{.*}} = [[Z]][i_];
// CHECK-NEXT: int64_t {{v[0-9]+}} = [[STEPS]];
// CHECK-NEXT: for (
// CHECK: tile_dev::barrier_wait([[FULL]] + [[S:v[0-9]+]], {{v[0-9]+}});
// CHECK-NEXT: tile_dev::fence_async_shared();
// The carried accumulator is multiplied in place: nothing else writes its registers while
// a group is in flight.
// CHECK-NEXT: tile_dev::warpgroup_mma<[[ACC]], tile_dev::Staging<32, 0, 8, 2, 4>, tile_dev::Staging<128, 0, 8, 1, 8, 64, 32>>([[C]], ([[RA]] + [[S]] * 4096), ([[RB]] + [[S]] * 4096), threadIdx.x);
// CHECK-NEXT: tile_dev::warpgroup_wait<1>([[C]]);
// CHECK: if (
// CHECK: tile_dev::barrier_arrive([[EMPTY]] + {{v[0-9]+}});
// CHECK-NEXT: }
// CHECK-NEXT: {{v[0-9]+}} = {{v[0-9]+}};
// CHECK-NEXT: }
// CHECK-NEXT: tile_dev::warpgroup_wait<0>([[C]]);
// The result is stored from the fragments through the output's tensor map, in 32-column
// chunks of two 16 KB stages (tile-tensor-map-stores), or directly where there is no map.
// CHECK: float* const [[STAGES:v[0-9]+]] = tile_dev::shared_at<float>(
// CHECK-NEXT: if (tile_dev::usable([[OUT:map[0-9]_]])) {
// CHECK-NEXT: tile_dev::tensor_map_store<tile_dev::Staging<32, 0, 4, 1, 8>, 256>([[C]], t{{[0-9]+}}, [[STAGES]], [[OUT]], {{[{]}}{{v[0-9]+}}, {{v[0-9]+}}});
// CHECK-NEXT: } else {
// CHECK-NEXT: tile_dev::store<2, true, Fit_>(arg0, t{{[0-9]+}}, [[C]],
// CHECK-NOT: __syncthreads
// CHECK: const int64_t blocks = tile_dev::smin<int64_t>(programs, tile_dev::multiprocessors() * 1);
// CHECK: [[OUT]] = tile_dev::tensor_map<128, 32, 128>(a.args[0]);
// CHECK: <<<dim3((unsigned)blocks), dim3(384),
func.func @gemm_f16(%z: !tile.view<128x128xf32, exclusive>, %x: !tile.view<?x?xf16>,
                    %y: !tile.view<?x?xf16>, %n: index)
    attributes {tile.kernel = "gemm_f16", tile.entry = "&::gemm_f16"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x128xf32>) {
    %a = tile.load %x[%c0, %i] : !tile.view<?x?xf16> -> tensor<128x32xf16>
    %b = tile.load %y[%i, %c0] : !tile.view<?x?xf16> -> tensor<32x128xf16>
    %c = tile.mma %a, %b, %acc : tensor<128x32xf16>, tensor<32x128xf16>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %c : tensor<128x128xf32>
  }
  tile.store %r, %z[%c0, %c0] : tensor<128x128xf32>, !tile.view<128x128xf32, exclusive>
  return
}

// CHECK: using {{.*}} = tile_dev::MmaAcc<tile_dev::Ix<2, 32, 16>, [[WM:[0-9]+]], [[WN:[0-9]+]], [[W:[0-9]+]]>;
// CHECK: using {{.*}} = tile_dev::MmaOperand<tile_dev::Ix<2, 32, 8>, 0, 1, [[WM]], [[WN]], [[W]]>;
// CHECK: tile_dev::mma_frag<
func.func @bmm_f32(%z: !tile.view<2x32x16xf32, exclusive>, %x: !tile.view<?x?x?xf32>)
    attributes {tile.kernel = "bmm_f32", tile.entry = "&::bmm_f32"} {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0, %c0] : !tile.view<?x?x?xf32> -> tensor<2x32x8xf32>
  %b = tile.load %x[%c0, %c0, %c0] : !tile.view<?x?x?xf32> -> tensor<2x8x16xf32>
  %acc = arith.constant dense<1.0> : tensor<2x32x16xf32>
  %c = tile.mma %a, %b, %acc : tensor<2x32x8xf32>, tensor<2x8x16xf32>, tensor<2x32x16xf32> -> tensor<2x32x16xf32>
  tile.store %c, %z[%c0, %c0, %c0] : tensor<2x32x16xf32>, !tile.view<2x32x16xf32, exclusive>
  return
}
