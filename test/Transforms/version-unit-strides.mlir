// tile-version-unit-strides: a kernel whose loop multiplies tiles loaded straight from shared
// rank-2 views gets a version per non-empty set of those views, larger sets first, in which
// the views are contiguous along their first axis (`tilegpu.unit_stride = 0`); the kernel
// lists them in `tilegpu.versions`, each names the kernel in `tilegpu.version_of`.
// RUN: tilecc-opt %s --tile-version-unit-strides | FileCheck %s

// CHECK: func.func @gemm_unit_stride_0_1(%{{.*}}: !tile.view<?x?xbf16> {tilegpu.unit_stride = 0 : i64}, %{{.*}}: !tile.view<?x?xbf16> {tilegpu.unit_stride = 0 : i64}, %{{.*}}: index) {{.*}}tilegpu.version_of = @gemm
// CHECK: func.func @gemm_unit_stride_0(%{{.*}}: !tile.view<?x?xbf16> {tilegpu.unit_stride = 0 : i64}, %{{.*}}: !tile.view<?x?xbf16>, %{{.*}}: index) {{.*}}tilegpu.version_of = @gemm
// CHECK: func.func @gemm_unit_stride_1(%{{.*}}: !tile.view<?x?xbf16>, %{{.*}}: !tile.view<?x?xbf16> {tilegpu.unit_stride = 0 : i64}, %{{.*}}: index) {{.*}}tilegpu.version_of = @gemm
// CHECK: func.func @gemm(%{{.*}}: !tile.view<?x?xbf16>, %{{.*}}: !tile.view<?x?xbf16>, %{{.*}}: index) {{.*}}tilegpu.versions = [@gemm_unit_stride_0_1, @gemm_unit_stride_0, @gemm_unit_stride_1]
func.func @gemm(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>, %n: index) -> tensor<128x128xf32>
    attributes {tile.kernel = "gemm", tile.entry = "&::gemm"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %init = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x128xf32>) {
    %k = arith.muli %i, %c64 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xbf16> -> tensor<128x64xbf16>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xbf16> -> tensor<64x128xbf16>
    %c = tile.mma %a, %b, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %c : tensor<128x128xf32>
  }
  return %r : tensor<128x128xf32>
}

// f32 (TF32) operands likewise: only B is versioned.
// CHECK: func.func @gemm_tf32_unit_stride_1(%{{.*}}: !tile.view<?x?xf32>, %{{.*}}: !tile.view<?x?xf32> {tilegpu.unit_stride = 0 : i64}, %{{.*}}: index)
// CHECK: func.func @gemm_tf32({{.*}}tilegpu.versions = [@gemm_tf32_unit_stride_1]
func.func @gemm_tf32(%x: !tile.view<?x?xf32>, %y: !tile.view<?x?xf32>, %n: index) -> tensor<128x128xf32>
    attributes {tile.kernel = "gemm_tf32", tile.entry = "&::gemm_tf32"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %init = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x128xf32>) {
    %k = arith.muli %i, %c32 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xf32> -> tensor<128x32xf32>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xf32> -> tensor<32x128xf32>
    %c = tile.mma %a, %b, %acc : tensor<128x32xf32>, tensor<32x128xf32>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %c : tensor<128x128xf32>
  }
  return %r : tensor<128x128xf32>
}

// 8-bit operands: wgmma reads them K-major only, so only B (stored column-major) is versioned.
// CHECK: func.func @gemm_f8_unit_stride_1(%{{.*}}: !tile.view<?x?xf8E4M3FN>, %{{.*}}: !tile.view<?x?xf8E4M3FN> {tilegpu.unit_stride = 0 : i64}, %{{.*}}: index)
// CHECK: func.func @gemm_f8({{.*}}tilegpu.versions = [@gemm_f8_unit_stride_1]
func.func @gemm_f8(%x: !tile.view<?x?xf8E4M3FN>, %y: !tile.view<?x?xf8E4M3FN>, %n: index) -> tensor<128x128xf32>
    attributes {tile.kernel = "gemm_f8", tile.entry = "&::gemm_f8"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %init = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x128xf32>) {
    %k = arith.muli %i, %c128 : index
    %a = tile.load %x[%c0, %k] : !tile.view<?x?xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
    %b = tile.load %y[%k, %c0] : !tile.view<?x?xf8E4M3FN> -> tensor<128x128xf8E4M3FN>
    %c = tile.mma %a, %b, %acc : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %c : tensor<128x128xf32>
  }
  return %r : tensor<128x128xf32>
}

// An mma outside a loop, and operands that are not loads of views: no versions.
// CHECK: func.func @single(
// CHECK-NOT: tilegpu.versions
// CHECK-SAME: {{\{$}}
func.func @single(%x: !tile.view<?x?xbf16>, %y: !tile.view<?x?xbf16>) -> tensor<64x64xf32>
    attributes {tile.kernel = "single", tile.entry = "&::single"} {
  %c0 = arith.constant 0 : index
  %init = arith.constant dense<0.0> : tensor<64x64xf32>
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  %b = tile.load %y[%c0, %c0] : !tile.view<?x?xbf16> -> tensor<64x64xbf16>
  %c = tile.mma %a, %b, %init : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32> -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// Operands of rank 2 loaded from rank-3 views (one head of (heads, seq, d)): the unit stride
// is along the view's second-to-last axis, where the operand's first axis runs.
// CHECK: func.func @heads_unit_stride_1(%{{.*}}: !tile.view<?x?x?xbf16>, %{{.*}}: !tile.view<?x?x?xbf16> {tilegpu.unit_stride = 1 : i64}, %{{.*}}: index)
// CHECK: func.func @heads({{.*}}tilegpu.versions = [@heads_unit_stride_0_1, @heads_unit_stride_0, @heads_unit_stride_1]
func.func @heads(%x: !tile.view<?x?x?xbf16>, %y: !tile.view<?x?x?xbf16>, %n: index) -> tensor<128x128xf32>
    attributes {tile.kernel = "heads", tile.entry = "&::heads"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %init = arith.constant dense<0.0> : tensor<128x128xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<128x128xf32>) {
    %k = arith.muli %i, %c64 : index
    %a = tile.load %x[%c1, %c0, %k] : !tile.view<?x?x?xbf16> -> tensor<128x64xbf16>
    %b = tile.load %y[%c1, %k, %c0] : !tile.view<?x?x?xbf16> -> tensor<64x128xbf16>
    %c = tile.mma %a, %b, %acc : tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32> -> tensor<128x128xf32>
    scf.yield %c : tensor<128x128xf32>
  }
  return %r : tensor<128x128xf32>
}
