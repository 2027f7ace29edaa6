// tile.atomic becomes tile_dev::atomic_tile (owners update their registers' elements) or, for a
// scalar, tile_dev::atomic_element called by thread 0. Old values reach the other threads
// through the planned shared memory: share_owned for a replicated tile, a staged scalar for a
// scalar update. nvcc builds it for sm_90a.
// RUN: tilecc-translate --tile-to-cuda --tilecc-no-line %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc %{ %nvcc -include %S/Inputs/atomic-entries.h -c %t.cu -o %t.o %}

func.func @count_small(%z: !tile.view<4xi16, exclusive>, %h: !tile.view<4xi16, atomic>)
    attributes {tile.kernel = "count_small", tile.entry = "&::count_small"} {
  %c0 = arith.constant 0 : index
  %one = arith.constant dense<1> : tensor<4xi16>
  %o = tile.atomic add %one, %h[%c0] : tensor<4xi16>, !tile.view<4xi16, atomic>
  tile.store %o, %z[%c0] : tensor<4xi16>, !tile.view<4xi16, exclusive>
  return
}

// CHECK-LABEL: count_small: 1 warp(s), 32 threads per tile program, 16 bytes of shared memory
// CHECK: int16_t [[OLD:v[0-9]+]][4]; tile_dev::atomic_tile<tile_dev::Rmw::add>([[OLD]], arg1, t0, {{v[0-9]+}}, {{v[0-9]+}}, {0}, {{{v[0-9]+}}}); tile_dev::share_owned([[OLD]], t0, tile_dev::shared_at<int16_t>(0));
// CHECK: tile_dev::store<{{[0-9]+}}, true, Fit_>(arg0, t0, [[OLD]],

func.func @ticket(%z: !tile.view<1xi64, exclusive>, %h: !tile.view<2xi64, atomic>, %n: i64)
    attributes {tile.kernel = "ticket", tile.entry = "&::ticket"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %unused = tile.atomic max %n, %h[%c1] : i64, !tile.view<2xi64, atomic>
  %o = tile.atomic add %n, %h[%c0] : i64, !tile.view<2xi64, atomic>
  %t = tile.splat %o : i64 -> tensor<1xi64>
  tile.store %t, %z[%c0] : tensor<1xi64>, !tile.view<1xi64, exclusive>
  return
}

// CHECK-LABEL: ticket: 1 warp(s), 32 threads per tile program, 16 bytes of shared memory
// An unused result: thread 0 updates, nothing is staged.
// CHECK: if (threadIdx.x == 0) (void)tile_dev::atomic_element<tile_dev::Rmw::max>(arg1, {1}, {{{v[0-9]+}}}, arg2, arg2);
// CHECK: int64_t [[T:v[0-9]+]]{}; if (threadIdx.x == 0) [[T]] = tile_dev::atomic_element<tile_dev::Rmw::add>(arg1, {0}, {{{v[0-9]+}}}, arg2, arg2); __syncthreads(); if (threadIdx.x == 0) *tile_dev::shared_at<int64_t>(0) = [[T]]; __syncthreads(); [[T]] = *tile_dev::shared_at<int64_t>(0);
