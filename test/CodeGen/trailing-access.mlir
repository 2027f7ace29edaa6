// A tile of lower rank than its view spans the view's last axes: CodeGen takes the rank-2
// view at the tile's leading offsets (tile_dev::trailing, which also checks them against
// their bounds) and moves the tile through it as through a rank-2 view.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#L = #tilegpu.blocked<sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerBlock = [4, 1], order = [1, 0]>
func.func @heads(%o: !tile.view<1x32x64xf32, exclusive>, %x: !tile.view<?x?x?xf32>, %h: index, %i: index)
    attributes {tile.kernel = "heads", tile.entry = "&::heads", tilegpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : index
  %n0 = tilegpu.array_dim %x, 0 : !tile.view<?x?x?xf32>
  %n1 = tilegpu.array_dim %x, 1 : !tile.view<?x?x?xf32>
  %n2 = tilegpu.array_dim %x, 2 : !tile.view<?x?x?xf32>
  // CHECK: const auto [[W:v[0-9]+]] = tile_dev::trailing<2>(arg1, {arg2, arg3, 0}, {0, 0, 0}, {v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}});
  // CHECK-NEXT: float [[A:v[0-9]+]][16]; tile_dev::load<4, true, true>([[A]], [[W]].view, t0, [[W]].off, [[W]].lo, [[W]].hi);
  %a = tilegpu.global_load %x[%h, %i, %c0] bounds [%n0, %n1, %n2] {aligned, vector = 4 : i32} : !tile.view<?x?x?xf32> -> tensor<32x64xf32, #L>
  // CHECK: const auto [[S:v[0-9]+]] = tile_dev::trailing<2>(arg0, {arg2, arg3, 0}, {arg2, arg3, 0}, {v{{[0-9]+}}, v{{[0-9]+}}, v{{[0-9]+}}});
  // CHECK-NEXT: tile_dev::store<4, true>([[S]].view, t0, [[A]], [[S]].off, [[S]].lo, [[S]].hi);
  tilegpu.global_store %a, %o[%h, %i, %c0] starts [%h, %i, %c0] bounds [%n0, %n1, %n2] {aligned, vector = 4 : i32} : tensor<32x64xf32, #L>, !tile.view<1x32x64xf32, exclusive>
  return
}
