// Shape ops whose result layout keeps every element in its thread copy registers (a cat picks
// each register from one operand; those that keep it in its warp shuffle: warp-shuffle-exchange.mlir
// and Driver/compile-warp-shuffles.cpp); the others stage
// their source in shared memory at its row-major indices and read each result
// register's source element: tile_dev::broadcast_index / cat_index / extract_index (zero
// outside the source). A tile of one repeated scalar stays a scalar under broadcast.
// RUN: tilecc-translate --tile-to-cuda --tilecc-no-line %s | FileCheck %s

func.func @shapes(%z: !tile.view<8x16xf32, exclusive>, %x: !tile.view<?x?xf32>, %k: index, %s: f32)
    attributes {tile.kernel = "shapes", tile.entry = "&::shapes"} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<16x4xf32>
  %p = tile.permute %t [1, 0] : tensor<16x4xf32> -> tensor<4x16xf32>
  %c = tile.cat %p, %p axis 0 : tensor<4x16xf32>, tensor<4x16xf32> -> tensor<8x16xf32>
  %r = tile.reshape %c : tensor<8x16xf32> -> tensor<8x1x16xf32>
  %b = tile.broadcast %r : tensor<8x1x16xf32> -> tensor<2x8x4x16xf32>
  %e = tile.extract %b[%c0, %c0, %k, %c0] : tensor<2x8x4x16xf32> -> tensor<1x8x1x16xf32>
  %f = tile.reshape %e : tensor<1x8x1x16xf32> -> tensor<8x16xf32>
  %one = tile.splat %s : f32 -> tensor<16xf32>
  %g = tile.broadcast %one : tensor<16xf32> -> tensor<8x16xf32>
  %h = arith.addf %f, %g : tensor<8x16xf32>
  tile.store %h, %z[%c0, %c0] : tensor<8x16xf32>, !tile.view<8x16xf32, exclusive>
  return
}

// The permute keeps its elements in place under the operand's layout permuted (register
// renaming); the cat takes that layout repeated along its axis, so each result register is
// one of an operand's (no exchange); the reshape that inserts a unit axis keeps the cat's
// bases (#tilegpu.linear: a register renaming); the broadcast after it repeats elements across
// warps and exchanges through shared memory, reading its source at broadcast_index.
// CHECK: float [[P:v[0-9]+]][4]; {{.*}} [[P]][i_] = {{v[0-9]+}}[tile_dev::span<tile_dev::Ix<1, 2>>(i_)];
// CHECK-NEXT: float [[C:v[0-9]+]][8]; {{.*}} [[C]][i_] = (r_ & 4) ? [[P]][r_ ^ 4] : [[P]][r_]; }
// CHECK-NEXT: float [[R:v[0-9]+]][8]; {{.*}} [[R]][i_] = [[C]][tile_dev::span<tile_dev::Ix<1, 2, 4>>(i_)];
// CHECK-NEXT: tile_dev::to_shared_staged<[[STAGING:tile_dev::Staging<[0-9, ]+>]], 1>({{v[0-9]+}}, {{t[0-9]+}}, [[R]]); __syncthreads();
// CHECK-NEXT: [i_] = {{v[0-9]+}}[[[STAGING]]::offset(tile_dev::broadcast_index<tile_dev::Ix<8, 1, 16>>({{t[0-9]+}}, i_))];
// CHECK-NEXT: {{^ *}}float* {{v[0-9]+}} = tile_dev::shared_at<float>(0);
// CHECK: const int64_t [[IX:v[0-9]+]][4] = {0, 0, arg2, 0};
// CHECK-SAME: const int64_t q_ = tile_dev::extract_index<tile_dev::Ix<2, 8, 4, 16>>({{t[0-9]+}}, i_, [[IX]]); {{v[0-9]+}}[i_] = q_ < 0 ? float{} : {{v[0-9]+}}[q_];
// The broadcast of the splat stays the scalar arg3.
// CHECK: + arg3;

// A cat whose second operand's rows would land in lanes that hold copies of the first's
// stages both operands, one after the other, and reads each result register's element there.
// CHECK-LABEL: __tilecc_staged_cat(
// CHECK: float* [[S:v[0-9]+]] = tile_dev::shared_at<float>(0); tile_dev::to_shared([[S]], {{t[0-9]+}}, {{v[0-9]+}}); tile_dev::to_shared([[S]] + 64, {{t[0-9]+}}, {{v[0-9]+}}); __syncthreads();
// CHECK-NEXT: = [[S]][tile_dev::cat_index<tile_dev::Ix<4, 16>, 0>({{t[0-9]+}}, i_)];
func.func @staged_cat(%z: !tile.view<8x16xf32, exclusive>, %x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "staged_cat", tile.entry = "&::staged_cat"} {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<4x16xf32>
  %b = tile.load %x[%c4, %c0] : !tile.view<?x?xf32> -> tensor<4x16xf32>
  %c = tile.cat %a, %b axis 0 : tensor<4x16xf32>, tensor<4x16xf32> -> tensor<8x16xf32>
  tile.store %c, %z[%c0, %c0] : tensor<8x16xf32>, !tile.view<8x16xf32, exclusive>
  return
}
