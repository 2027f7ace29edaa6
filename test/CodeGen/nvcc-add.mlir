// The add kernel's CUDA compiles for sm_80 and sm_90a, and its loads and stores are 16-byte
// vector accesses (4 floats): read-only loads for the shared inputs, plain stores for the
// exclusive output. The scalar accesses are the fallback for misaligned or strided views.
// REQUIRES: nvcc
// RUN: tilecc-translate --tile-to-cuda %s -o %t.cu
// RUN: rm -rf %t.keep && mkdir -p %t.keep
// RUN: %nvcc-sm80 -include %S/Inputs/add-entry.h -c %t.cu -o %t.o -keep -keep-dir %t.keep
// RUN: cat %t.keep/*compute_90a.ptx | FileCheck %s
// RUN: cat %t.keep/*compute_80.ptx | FileCheck %s

// CHECK: .entry {{.*}}__tilecc_add_128
// CHECK-DAG: ld.global.nc.v4.f32
// CHECK-DAG: st.global.v4.f32

func.func @add_128(%z: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32>, %y: !tile.view<?xf32>)
    attributes {tile.kernel = "add<128>", tile.source = "add.tile.cpp:5", tile.entry = "&::add<128>"} {
  %o = tile.piece_origin %z, 0 : !tile.view<128xf32, exclusive>
  %a = tile.load %x[%o] : !tile.view<?xf32> -> tensor<128xf32>
  %b = tile.load %y[%o] : !tile.view<?xf32> -> tensor<128xf32>
  %c = arith.addf %a, %b : tensor<128xf32>
  %c0 = arith.constant 0 : index
  tile.store %c, %z[%c0] : tensor<128xf32>, !tile.view<128xf32, exclusive>
  return
}
