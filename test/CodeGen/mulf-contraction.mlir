// A float product is rounded on its own, as the CPU reference computes it: arith.mulf becomes
// __fmul_rn / __dmul_rn / __hmul_rn, which nvcc never fuses with an add. Only a product marked
// fastmath<contract> is a plain `*` that nvcc may contract into an fma.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

func.func @products(%a: f32, %b: f64, %c: f16, %d: f32)
    attributes {tile.kernel = "products", tile.entry = "&::products", tilegpu.num_warps = 1 : i32} {
  // CHECK: const float [[P:v[0-9]+]] = __fmul_rn(arg0, arg0);
  %p = arith.mulf %a, %a : f32
  // CHECK-NEXT: const float {{v[0-9]+}} = [[P]] + arg3;
  %s = arith.addf %p, %d : f32
  // CHECK-NEXT: const double {{v[0-9]+}} = __dmul_rn(arg1, arg1);
  %q = arith.mulf %b, %b : f64
  // CHECK-NEXT: const __half {{v[0-9]+}} = __hmul_rn(arg2, arg2);
  %r = arith.mulf %c, %c : f16
  // CHECK-NEXT: const float {{v[0-9]+}} = arg0 * arg3;
  %f = arith.mulf %a, %d fastmath<contract> : f32
  return
}
