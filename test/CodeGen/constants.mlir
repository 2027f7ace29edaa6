// Constants: exact literals for f32/f64 and integers, bit patterns where C++ has no literal
// (inf, NaN, f16, bf16), splat tiles as scalars, and a row-major table for other dense tiles.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#L = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
#S = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @constants(%z: !tile.view<128xf32, exclusive>, %zi: !tile.view<8xi32, exclusive>,
                     %x: f32, %h: f16, %bf: bf16, %i: i32, %l: i64, %d: f64)
    attributes {tile.kernel = "constants", tile.entry = "&::constants", tilegpu.num_warps = 1 : i32} {
  %c1 = arith.constant 0.1 : f32
  %c2 = arith.constant -0.0 : f32
  %c3 = arith.constant 0x7F800000 : f32
  %c4 = arith.constant 0x7FC00000 : f32
  %c5 = arith.constant 1.0e+30 : f32
  %a1 = arith.addf %x, %c1 : f32
  %a2 = arith.addf %a1, %c2 : f32
  %a3 = arith.addf %a2, %c3 : f32
  %a4 = arith.addf %a3, %c4 : f32
  %a5 = arith.addf %a4, %c5 : f32
  // CHECK: const float [[A1:v[0-9]+]] = arg2 + 0.100000001f;
  // CHECK-NEXT: const float [[A2:v[0-9]+]] = [[A1]] + (-0.0f);
  // CHECK-NEXT: const float [[A3:v[0-9]+]] = [[A2]] + tile_dev::from_bits<float>(0x7F800000u);
  // CHECK-NEXT: const float [[A4:v[0-9]+]] = [[A3]] + tile_dev::from_bits<float>(0x7FC00000u);
  // CHECK-NEXT: const float {{v[0-9]+}} = [[A4]] + 1.00000002e+30f;
  %hc = arith.constant 1.5 : f16
  %ha = arith.mulf %h, %hc : f16
  %bc = arith.constant 2.0 : bf16
  %ba = arith.mulf %bf, %bc : bf16
  %dc = arith.constant 0.1 : f64
  %da = arith.mulf %d, %dc : f64
  // CHECK-NEXT: const __half {{v[0-9]+}} = __hmul_rn(arg3, tile_dev::from_bits<__half>(0x3E00u));
  // CHECK-NEXT: const __nv_bfloat16 {{v[0-9]+}} = __hmul_rn(arg4, tile_dev::from_bits<__nv_bfloat16>(0x4000u));
  // CHECK-NEXT: const double {{v[0-9]+}} = __dmul_rn(arg7, 0.10000000000000001);
  %imin = arith.constant -2147483648 : i32
  %i1 = arith.xori %i, %imin : i32
  %lmin = arith.constant -9223372036854775808 : i64
  %l1 = arith.xori %l, %lmin : i64
  %lbig = arith.constant 5000000000 : i64
  %l2 = arith.addi %l1, %lbig : i64
  %t = arith.constant true
  %f = arith.constant false
  %b = arith.xori %t, %f : i1
  // CHECK-NEXT: const int32_t {{v[0-9]+}} = arg5 ^ (-2147483647 - 1);
  // CHECK-NEXT: const int64_t [[L1:v[0-9]+]] = arg6 ^ INT64_MIN;
  // CHECK-NEXT: const int64_t {{v[0-9]+}} = int64_t(uint64_t([[L1]]) + uint64_t(5000000000));
  // CHECK-NEXT: const bool {{v[0-9]+}} = true ^ false;

  // Splat tiles stay scalars; an elementwise op on splats only is computed once.
  %s1 = arith.constant dense<2.5> : tensor<128xf32, #L>
  %s2 = arith.constant dense<-1.0> : tensor<128xf32, #L>
  %s3 = arith.mulf %s1, %s2 : tensor<128xf32, #L>
  // CHECK-NEXT: const float [[S3:v[0-9]+]] = __fmul_rn(2.5f, (-1.0f));
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  tilegpu.global_store %s3, %z[%c0] bounds [%c128] {vector = 4 : i32} : tensor<128xf32, #L>, !tile.view<128xf32, exclusive>
  // CHECK-NEXT: float [[M:v[0-9]+]][4]; _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[M]][i_] = [[S3]];
  // CHECK-NEXT: tile_dev::store<4, false>(arg0, t0, [[M]], {0}, {0}, {128});

  // Distinct elements: a table indexed by each register's position in the tile (8 elements
  // over 32 lanes: replicated).
  %tab = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, -8]> : tensor<8xi32, #S>
  %c8 = arith.constant 8 : index
  tilegpu.global_store %tab, %zi[%c0] bounds [%c8] {vector = 4 : i32} : tensor<8xi32, #S>, !tile.view<8xi32, exclusive>
  // CHECK-NEXT: const int32_t [[TAB:v[0-9]+]]_c[] = {1, 2, 3, 4, 5, 6, 7, (-8)}; int32_t [[TAB]][4]; _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[TAB]][i_] = [[TAB]]_c[t1.linear(i_)];
  // CHECK-NEXT: tile_dev::store<4, false>(arg1, t1, [[TAB]], {0}, {0}, {8});
  return
}
