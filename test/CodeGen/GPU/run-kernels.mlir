// Generated kernels against a CPU reference on a GPU: every output element of every kernel is
// checked, on random inputs, including ragged edges, a misaligned and a strided input (the
// element fallback of the 16-byte path), negative offsets into an exclusive piece, replicated
// layouts and loops. The harness (Inputs/harness.cu) finds the kernels through the registry of
// tile/detail/abi.hpp, as the runtime does.
//
// REQUIRES: nvcc, cuda-gpu
// RUN: tilecc-translate --tile-to-cuda %s -o %t.kernels.cu
// RUN: %nvcc -include %S/Inputs/entries.h %t.kernels.cu %S/Inputs/harness.cu -o %t.exe
// RUN: %t.exe | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all kernels match the reference

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

// z = (x > 0 ? exp(alpha * x) : 0) + n, on 32x64 pieces of a ragged 2-D array.
func.func @axpy2d(%z: !tile.view<32x64xf32, exclusive>, %x: !tile.view<?x?xf32>,
                  %alpha: f32 {tile.cpp_type = "float"}, %n: i32 {tile.cpp_type = "int"})
    attributes {tile.kernel = "axpy2d<32, 64>", tile.entry = "&::axpy2d<32, 64>"} {
  %o0 = tile.piece_origin %z, 0 : !tile.view<32x64xf32, exclusive>
  %o1 = tile.piece_origin %z, 1 : !tile.view<32x64xf32, exclusive>
  %a = tile.load %x[%o0, %o1] : !tile.view<?x?xf32> -> tensor<32x64xf32>
  %s = tile.splat %alpha : f32 -> tensor<32x64xf32>
  %m = arith.mulf %a, %s : tensor<32x64xf32>
  %e = math.exp %m : tensor<32x64xf32>
  %zero = arith.constant dense<0.0> : tensor<32x64xf32>
  %c = arith.cmpf ogt, %a, %zero : tensor<32x64xf32>
  %sel = arith.select %c, %e, %zero : tensor<32x64xi1>, tensor<32x64xf32>
  %nf = arith.sitofp %n : i32 to f32
  %ns = tile.splat %nf : f32 -> tensor<32x64xf32>
  %r = arith.addf %sel, %ns : tensor<32x64xf32>
  %c0 = arith.constant 0 : index
  tile.store %r, %z[%c0, %c0] : tensor<32x64xf32>, !tile.view<32x64xf32, exclusive>
  return
}

// Stores one element before the piece: that element must be dropped, not land in the
// neighbouring piece.
func.func @shift_128(%z: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32>)
    attributes {tile.kernel = "shift<128>", tile.entry = "&::shift<128>"} {
  %o = tile.piece_origin %z, 0 : !tile.view<128xf32, exclusive>
  %a = tile.load %x[%o] : !tile.view<?xf32> -> tensor<128xf32>
  %m1 = arith.constant -1 : index
  tile.store %a, %z[%m1] : tensor<128xf32>, !tile.view<128xf32, exclusive>
  return
}

// A 16-element f64 tile on 8 warps: replicated 16 times; only the owners store.
func.func @small(%z: !tile.view<16xf64, exclusive>, %x: !tile.view<?xf64>)
    attributes {tile.kernel = "small", tile.entry = "&::small", tilegpu.num_warps = 8 : i32} {
  %o = tile.piece_origin %z, 0 : !tile.view<16xf64, exclusive>
  %v = tile.load %x[%o] : !tile.view<?xf64> -> tensor<16xf64>
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 0x7FF0000000000000]> : tensor<16xf64>
  %m = arith.maximumf %v, %cst : tensor<16xf64>
  %c0 = arith.constant 0 : index
  tile.store %m, %z[%c0] : tensor<16xf64>, !tile.view<16xf64, exclusive>
  return
}

// A 4096-element tile: 8 warps, 4 vectors per thread.
func.func @scale_4096(%z: !tile.view<4096xf32, exclusive>, %x: !tile.view<?xf32>)
    attributes {tile.kernel = "scale<4096>", tile.entry = "&::scale<4096>"} {
  %o = tile.piece_origin %z, 0 : !tile.view<4096xf32, exclusive>
  %v = tile.load %x[%o] : !tile.view<?xf32> -> tensor<4096xf32>
  %two = arith.constant dense<2.0> : tensor<4096xf32>
  %m = arith.mulf %v, %two : tensor<4096xf32>
  %c0 = arith.constant 0 : index
  tile.store %m, %z[%c0] : tensor<4096xf32>, !tile.view<4096xf32, exclusive>
  return
}

// Copies a tile of x into z; the harness passes a transposed (column-major) x.
func.func @copy2d(%z: !tile.view<32x64xf32, exclusive>, %x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "copy2d<32, 64>", tile.entry = "&::copy2d<32, 64>"} {
  %o0 = tile.piece_origin %z, 0 : !tile.view<32x64xf32, exclusive>
  %o1 = tile.piece_origin %z, 1 : !tile.view<32x64xf32, exclusive>
  %a = tile.load %x[%o0, %o1] : !tile.view<?x?xf32> -> tensor<32x64xf32>
  %c0 = arith.constant 0 : index
  tile.store %a, %z[%c0, %c0] : tensor<32x64xf32>, !tile.view<32x64xf32, exclusive>
  return
}

// z[i] = sum over k < dim(x)/n of x[k*n + i] + i: a loop with a tile accumulator.
func.func @colsum_128(%z: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32>,
                      %n: i64 {tile.cpp_type = "long"})
    attributes {tile.kernel = "colsum<128>", tile.entry = "&::colsum<128>"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %o = tile.piece_origin %z, 0 : !tile.view<128xf32, exclusive>
  %ni = arith.index_cast %n : i64 to index
  %len = tile.dim %x, 0 : !tile.view<?xf32>
  %rows = arith.divsi %len, %ni : index
  %init = arith.constant dense<0.0> : tensor<128xf32>
  %acc = scf.for %k = %c0 to %rows step %c1 iter_args(%a = %init) -> (tensor<128xf32>) {
    %base = arith.muli %k, %ni : index
    %off = arith.addi %base, %o : index
    %row = tile.load %x[%off] : !tile.view<?xf32> -> tensor<128xf32>
    %next = arith.addf %a, %row : tensor<128xf32>
    scf.yield %next : tensor<128xf32>
  }
  %i = tile.iota : tensor<128xi32>
  %fi = arith.sitofp %i : tensor<128xi32> to tensor<128xf32>
  %r = arith.addf %acc, %fi : tensor<128xf32>
  tile.store %r, %z[%c0] : tensor<128xf32>, !tile.view<128xf32, exclusive>
  return
}

// Integer ops, scf.if on the program id, scf.while on a scalar, and an f16 output.
func.func @ints_256(%z: !tile.view<256xi32, exclusive>, %h: !tile.view<256xf16, exclusive>,
                    %x: !tile.view<?xi32>, %k: i64 {tile.cpp_type = "long"})
    attributes {tile.kernel = "ints<256>", tile.entry = "&::ints<256>"} {
  %c0 = arith.constant 0 : index
  %o = tile.piece_origin %z, 0 : !tile.view<256xi32, exclusive>
  %v = tile.load %x[%o] : !tile.view<?xi32> -> tensor<256xi32>
  %c3 = arith.constant dense<3> : tensor<256xi32>
  %d = arith.divsi %v, %c3 : tensor<256xi32>
  %r = arith.remui %v, %c3 : tensor<256xi32>
  %s = arith.shrui %v, %c3 : tensor<256xi32>
  %mx = arith.maxsi %d, %r : tensor<256xi32>
  %x1 = arith.xori %mx, %s : tensor<256xi32>
  %w = scf.while (%i = %k) : (i64) -> i64 {
    %lim = arith.constant 100 : i64
    %cond = arith.cmpi slt, %i, %lim : i64
    scf.condition(%cond) %i : i64
  } do {
  ^bb0(%i2: i64):
    %two = arith.constant 2 : i64
    %n2 = arith.muli %i2, %two : i64
    scf.yield %n2 : i64
  }
  %w32 = arith.trunci %w : i64 to i32
  %ws = tile.splat %w32 : i32 -> tensor<256xi32>
  %b = tile.block_id 0
  %c2 = arith.constant 2 : index
  %par = arith.remsi %b, %c2 : index
  %even = arith.cmpi eq, %par, %c0 : index
  %t = scf.if %even -> (tensor<256xi32>) {
    %p = arith.addi %x1, %ws : tensor<256xi32>
    scf.yield %p : tensor<256xi32>
  } else {
    %neg = arith.subi %c3, %x1 : tensor<256xi32>
    scf.yield %neg : tensor<256xi32>
  }
  tile.store %t, %z[%c0] : tensor<256xi32>, !tile.view<256xi32, exclusive>
  %hf = arith.sitofp %v : tensor<256xi32> to tensor<256xf16>
  %ha = math.absf %hf : tensor<256xf16>
  %hs = math.sqrt %ha : tensor<256xf16>
  tile.store %hs, %h[%c0] : tensor<256xf16>, !tile.view<256xf16, exclusive>
  return
}

// bf16 math and an i1 mask output (bool elements, 16 per 16-byte vector).
func.func @mask_512(%z: !tile.view<512xbf16, exclusive>, %m: !tile.view<512xi1, exclusive>,
                    %x: !tile.view<?xbf16>)
    attributes {tile.kernel = "mask<512>", tile.entry = "&::mask<512>"} {
  %c0 = arith.constant 0 : index
  %o = tile.piece_origin %z, 0 : !tile.view<512xbf16, exclusive>
  %v = tile.load %x[%o] : !tile.view<?xbf16> -> tensor<512xbf16>
  %zero = arith.constant dense<0.0> : tensor<512xbf16>
  %pos = arith.cmpf ogt, %v, %zero : tensor<512xbf16>
  %two = arith.constant dense<2.0> : tensor<512xbf16>
  %d = arith.mulf %v, %two : tensor<512xbf16>
  %e = math.exp %v : tensor<512xbf16>
  %r = arith.select %pos, %d, %e : tensor<512xi1>, tensor<512xbf16>
  tile.store %r, %z[%c0] : tensor<512xbf16>, !tile.view<512xbf16, exclusive>
  tile.store %pos, %m[%c0] : tensor<512xi1>, !tile.view<512xi1, exclusive>
  return
}
