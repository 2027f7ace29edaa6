// Elementwise ops on tiles: one unrolled loop per op over the thread's registers, with the
// C++ spelling of each arith/math op (unsigned views for unsigned ops, helpers where C++ has
// no operator, NaN-aware predicates).
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#L = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
func.func @ew(%z: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32>, %xi: !tile.view<?xi32>, %n: index)
    attributes {tile.kernel = "ew", tile.entry = "&::ew", tilegpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : index
  // CHECK: float [[A:v[0-9]+]][4]; tile_dev::load<4, true, false>([[A]], arg1, t0, {0}, {0}, {arg3});
  %a = tilegpu.global_load %x[%c0] bounds [%n] {vector = 4 : i32} : !tile.view<?xf32> -> tensor<128xf32, #L>
  // CHECK-NEXT: int32_t [[I:v[0-9]+]][4]; tile_dev::load<4, true, false>([[I]], arg2, t0, {0}, {0}, {arg3});
  %i = tilegpu.global_load %xi[%c0] bounds [%n] {vector = 4 : i32} : !tile.view<?xi32> -> tensor<128xi32, #L>

  // CHECK-NEXT: float [[F1:v[0-9]+]][4]; _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[F1]][i_] = [[A]][i_] / [[A]][i_];
  %f1 = arith.divf %a, %a : tensor<128xf32, #L>
  // CHECK-NEXT: [[F2:v[0-9]+]][i_] = tile_dev::fmod([[F1]][i_], [[A]][i_]);
  %f2 = arith.remf %f1, %a : tensor<128xf32, #L>
  // CHECK-NEXT: [[F3:v[0-9]+]][i_] = -[[F2]][i_];
  %f3 = arith.negf %f2 : tensor<128xf32, #L>
  // CHECK-NEXT: [[F4:v[0-9]+]][i_] = tile_dev::maximumf<float>([[F3]][i_], [[A]][i_]);
  %f4 = arith.maximumf %f3, %a : tensor<128xf32, #L>
  // CHECK-NEXT: [[F5:v[0-9]+]][i_] = tile_dev::minnumf<float>([[F4]][i_], [[A]][i_]);
  %f5 = arith.minnumf %f4, %a : tensor<128xf32, #L>
  // CHECK-NEXT: [[F6:v[0-9]+]][i_] = tile_dev::rsqrt([[F5]][i_]);
  %f6 = math.rsqrt %f5 : tensor<128xf32, #L>
  // CHECK-NEXT: [[F7:v[0-9]+]][i_] = tile_dev::fabs([[F6]][i_]);
  %f7 = math.absf %f6 : tensor<128xf32, #L>
  // CHECK-NEXT: [[F8:v[0-9]+]][i_] = tile_dev::pow([[F7]][i_], [[A]][i_]);
  %f8 = math.powf %f7, %a : tensor<128xf32, #L>
  // CHECK-NEXT: [[F9:v[0-9]+]][i_] = tile_dev::fma([[F8]][i_], [[A]][i_], [[F7]][i_]);
  %f9 = math.fma %f8, %a, %f7 : tensor<128xf32, #L>
  // CHECK-NEXT: [[F10:v[0-9]+]][i_] = tile_dev::tanh([[F9]][i_]);
  %f10 = math.tanh %f9 : tensor<128xf32, #L>

  // CHECK-NEXT: [[U1:v[0-9]+]][i_] = int32_t(uint32_t([[I]][i_]) >> uint32_t([[I]][i_]));
  %u1 = arith.shrui %i, %i : tensor<128xi32, #L>
  // CHECK-NEXT: [[U2:v[0-9]+]][i_] = [[U1]][i_] >> [[I]][i_];
  %u2 = arith.shrsi %u1, %i : tensor<128xi32, #L>
  // CHECK-NEXT: [[U3:v[0-9]+]][i_] = tile_dev::umax<int32_t>([[U2]][i_], [[I]][i_]);
  %u3 = arith.maxui %u2, %i : tensor<128xi32, #L>
  // CHECK-NEXT: [[U4:v[0-9]+]][i_] = tile_dev::floordiv<int32_t>([[U3]][i_], [[I]][i_]);
  %u4 = arith.floordivsi %u3, %i : tensor<128xi32, #L>
  // CHECK-NEXT: [[U5:v[0-9]+]][i_] = tile_dev::iabs<int32_t>([[U4]][i_]);
  %u5 = math.absi %u4 : tensor<128xi32, #L>

  // CHECK-NEXT: bool [[C1:v[0-9]+]][4]; _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[C1]][i_] = !([[F10]][i_] >= [[A]][i_]);
  %c1 = arith.cmpf ult, %f10, %a : tensor<128xf32, #L>
  // CHECK-NEXT: [[C2:v[0-9]+]][i_] = ([[F10]][i_] < [[A]][i_] || [[F10]][i_] > [[A]][i_]);
  %c2 = arith.cmpf one, %f10, %a : tensor<128xf32, #L>
  // CHECK-NEXT: [[C3:v[0-9]+]][i_] = (tile_dev::isnan_([[F10]][i_]) || tile_dev::isnan_([[A]][i_]));
  %c3 = arith.cmpf uno, %f10, %a : tensor<128xf32, #L>
  // CHECK-NEXT: [[C4:v[0-9]+]][i_] = uint32_t([[U5]][i_]) >= uint32_t([[I]][i_]);
  %c4 = arith.cmpi uge, %u5, %i : tensor<128xi32, #L>
  // i1 arithmetic wraps modulo 2: addition is exclusive or.
  // CHECK-NEXT: [[C5:v[0-9]+]][i_] = [[C1]][i_] != [[C2]][i_];
  %c5 = arith.addi %c1, %c2 : tensor<128xi1, #L>
  // CHECK-NEXT: [[C6:v[0-9]+]][i_] = [[C5]][i_] | [[C3]][i_];
  %c6 = arith.ori %c5, %c3 : tensor<128xi1, #L>
  // CHECK-NEXT: [[C7:v[0-9]+]][i_] = [[C6]][i_] & [[C4]][i_];
  %c7 = arith.andi %c6, %c4 : tensor<128xi1, #L>

  // CHECK-NEXT: [[G1:v[0-9]+]][i_] = tile_dev::cvt<float>([[U5]][i_]);
  %g1 = arith.sitofp %u5 : tensor<128xi32, #L> to tensor<128xf32, #L>
  // CHECK-NEXT: [[G2:v[0-9]+]][i_] = int32_t(tile_dev::cvt<uint32_t>([[G1]][i_]));
  %g2 = arith.fptoui %g1 : tensor<128xf32, #L> to tensor<128xi32, #L>
  // An i1 true sign-extends to -1 and zero-extends to 1.
  // CHECK-NEXT: int32_t [[G3:v[0-9]+]][4]; _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[G3]][i_] = int32_t((-int([[C7]][i_])));
  %g3 = arith.extsi %c7 : tensor<128xi1, #L> to tensor<128xi32, #L>
  // CHECK-NEXT: [[G4:v[0-9]+]][i_] = int32_t(int([[C7]][i_]));
  %g4 = arith.extui %c7 : tensor<128xi1, #L> to tensor<128xi32, #L>
  // CHECK-NEXT: [[G5:v[0-9]+]][i_] = tile_dev::bit_cast<float>([[G2]][i_]);
  %g5 = arith.bitcast %g2 : tensor<128xi32, #L> to tensor<128xf32, #L>
  // CHECK-NEXT: [[G6:v[0-9]+]][i_] = bool(([[G4]][i_]) & 1);
  %g6 = arith.trunci %g4 : tensor<128xi32, #L> to tensor<128xi1, #L>
  // CHECK-NEXT: [[S:v[0-9]+]][i_] = [[G6]][i_] ? [[G5]][i_] : [[A]][i_];
  %s = arith.select %g6, %g5, %a : tensor<128xi1, #L>, tensor<128xf32, #L>
  %g7 = arith.addi %g3, %g4 : tensor<128xi32, #L>
  tilegpu.global_store %s, %z[%c0] bounds [%n] {vector = 4 : i32} : tensor<128xf32, #L>, !tile.view<128xf32, exclusive>
  return
}
