// Global accesses call tile_dev::load/store with the layout's per-thread map, the vector
// width, whether the offset is proven aligned to it, and absolute offsets, starts and bounds
// per axis. Loads from shared views use the read-only path (NC = true); exclusive and atomic
// views do not.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#L = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1], order = [1, 0]>
#H = #tilegpu.blocked<sizePerThread = [8], threadsPerWarp = [32], warpsPerBlock = [4], order = [0]>
func.func @access(%z: !tile.view<32x64xf32, exclusive>, %x: !tile.view<?x?xf32>,
                  %at: !tile.view<?x?xf32, atomic>, %h: !tile.view<?xf16>, %i: index, %j: index)
    attributes {tile.kernel = "access", tile.entry = "&::access", tilegpu.num_warps = 4 : i32} {
  // 32x64 over 4 warps of 2x16 lanes with 4-wide vectors, repeated 4 times down the rows:
  // register bits step 1 and 2 columns then 8 and 16 rows (row-major indices 512, 1024);
  // lanes 4 columns at a time, then a row; warps 2 rows at a time.
  // CHECK: using __tilecc_access_L0 = tile_dev::Linear<tile_dev::Ix<32, 64>, 128, tile_dev::Ix<1, 2, 512, 1024>, tile_dev::Ix<4, 8, 16, 32, 64, 128, 256>>;
  // CHECK-NEXT: static_assert(__tilecc_access_L0::num_threads == 128 && __tilecc_access_L0::elems == 16,
  // CHECK: using __tilecc_access_L1 = tile_dev::Linear<tile_dev::Ix<1024>, 128, tile_dev::Ix<1, 2, 4>, tile_dev::Ix<8, 16, 32, 64, 128, 256, 512>>;
  // CHECK: __global__ void __launch_bounds__(128) __tilecc_access(
  // A block of 128 threads runs one program: no packing.
  // CHECK-NOT: prog_
  // CHECK-SAME: const tile_dev::Thread<__tilecc_access_L0> t0(threadIdx.x); const tile_dev::Thread<__tilecc_access_L1> t1(threadIdx.x);
  %n0 = tilegpu.array_dim %x, 0 : !tile.view<?x?xf32>
  %n1 = tilegpu.array_dim %x, 1 : !tile.view<?x?xf32>
  %p1 = tilegpu.piece_shape %z, 1 : !tile.view<32x64xf32, exclusive>
  // CHECK: const int64_t [[N0:v[0-9]+]] = arg1.shape[0];
  // CHECK-NEXT: const int64_t [[N1:v[0-9]+]] = arg1.shape[1];
  // CHECK-NEXT: const int64_t [[P1:v[0-9]+]] = arg0.piece[1];
  %a = tilegpu.global_load %x[%i, %j] bounds [%n0, %n1] {vector = 4 : i32} : !tile.view<?x?xf32> -> tensor<32x64xf32, #L>
  // CHECK-NEXT: float [[A:v[0-9]+]][16]; tile_dev::load<4, true, false>([[A]], arg1, t0, {arg4, arg5}, {0, 0}, {[[N0]], [[N1]]});
  %b = tilegpu.global_load %z[%i, %j] starts [%j, %i] bounds [%n0, %p1] {vector = 4 : i32} : !tile.view<32x64xf32, exclusive> -> tensor<32x64xf32, #L>
  // CHECK-NEXT: float [[B:v[0-9]+]][16]; tile_dev::load<4, false, false>([[B]], arg0, t0, {arg4, arg5}, {arg5, arg4}, {[[N0]], [[P1]]});
  %c = tilegpu.global_load %at[%i, %j] bounds [%n0, %n1] {vector = 2 : i32} : !tile.view<?x?xf32, atomic> -> tensor<32x64xf32, #L>
  // CHECK-NEXT: float [[C:v[0-9]+]][16]; tile_dev::load<2, false, false>([[C]], arg2, t0,
  %hv = tilegpu.global_load %h[%i] bounds [%n0] {aligned, vector = 8 : i32} : !tile.view<?xf16> -> tensor<1024xf16, #H>
  // CHECK-NEXT: __half {{v[0-9]+}}[8]; tile_dev::load<8, true, true>({{v[0-9]+}}, arg3, t1, {arg4}, {0}, {[[N0]]});
  %s = arith.addf %a, %b : tensor<32x64xf32, #L>
  tilegpu.global_store %s, %z[%i, %j] starts [%i, %j] bounds [%n0, %n1] {aligned, vector = 4 : i32} : tensor<32x64xf32, #L>, !tile.view<32x64xf32, exclusive>
  // CHECK: tile_dev::store<4, true>(arg0, t0, {{v[0-9]+}}, {arg4, arg5}, {arg4, arg5}, {[[N0]], [[N1]]});
  return
}
