// Shape ops whose result layout keeps every element in its thread copy registers, those that
// keep it in its warp shuffle; the others stage their source in shared memory at its row-major indices and read each result
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
// renaming); cat takes the anchor layout, reached through shared memory (as the kernel's first
// exchange, without a barrier before its writes).
// CHECK: float [[P:v[0-9]+]][4]; {{.*}} [[P]][i_] = {{v[0-9]+}}[tile_dev::span<tile_dev::Ix<1, 2>>(i_)];
// CHECK-NEXT: {{^ *}}float* [[S1:v[0-9]+]] = tile_dev::shared_at<float>(0); tile_dev::to_shared([[S1]], {{t[0-9]+}}, [[P]]); __syncthreads(); float {{v[0-9]+}}[4]; tile_dev::from_shared(
// CHECK: tile_dev::to_shared([[S2:v[0-9]+]] + 64,
// CHECK-NEXT: = [[S2]][tile_dev::cat_index<tile_dev::Ix<4, 16>, 0>({{t[0-9]+}}, i_)];
// Inserting a unit axis renames registers; repeating it reads the copies from other lanes of
// the warp (warp shuffles, no shared memory).
// CHECK-NEXT: [i_] = {{v[0-9]+}}[tile_dev::span<tile_dev::Ix<1, 2>>(i_)];
// CHECK-NEXT: tile_dev::shfl({{v[0-9]+}}[r_], from_);
// CHECK-NEXT: {{^ *}}float* {{v[0-9]+}} = tile_dev::shared_at<float>(0);
// CHECK: const int64_t [[IX:v[0-9]+]][4] = {0, 0, arg2, 0};
// CHECK-SAME: const int64_t q_ = tile_dev::extract_index<tile_dev::Ix<2, 8, 4, 16>>({{t[0-9]+}}, i_, [[IX]]); {{v[0-9]+}}[i_] = q_ < 0 ? float{} : {{v[0-9]+}}[q_];
// The broadcast of the splat stays the scalar arg3.
// CHECK: + arg3;
