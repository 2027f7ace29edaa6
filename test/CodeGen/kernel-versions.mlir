// A kernel with versions (tile-version-unit-strides): each version prints as a kernel and a
// launcher with no registration of its own; the kernel's launcher first tries its versions in
// order, each when its views have stride 1 along the axes it was compiled for.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

#L = #tilegpu.blocked<sizePerThread = [4], threadsPerWarp = [32], warpsPerBlock = [1], order = [0]>
// CHECK: static int __tilecc_launch_copy_unit_stride_1(
// CHECK-NOT: GpuKernelRegistration
// CHECK: static int __tilecc_launch_copy(
// CHECK-NEXT: if (a.num_args != 2) return (int)cudaErrorInvalidValue;
// CHECK-NEXT: if (tile_dev::unit_stride(a.args[1], 0)) return __tilecc_launch_copy_unit_stride_1(a, stream);
// CHECK: static tile::detail::GpuKernelRegistration< &::copy > __tilecc_reg_copy{&__tilecc_launch_copy,
// CHECK-NOT: GpuKernelRegistration
func.func @copy_unit_stride_1(%y: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32> {tilegpu.unit_stride = 0 : i64})
    attributes {tile.kernel = "copy", tile.entry = "&::copy", tilegpu.num_warps = 1 : i32,
                tilegpu.version_of = @copy} {
  %c0 = arith.constant 0 : index
  %n = tilegpu.array_dim %x, 0 : !tile.view<?xf32>
  %a = tilegpu.global_load %x[%c0] bounds [%n] {vector = 1 : i32} : !tile.view<?xf32> -> tensor<128xf32, #L>
  %m = tilegpu.array_dim %y, 0 : !tile.view<128xf32, exclusive>
  tilegpu.global_store %a, %y[%c0] bounds [%m] {vector = 1 : i32} : tensor<128xf32, #L>, !tile.view<128xf32, exclusive>
  return
}
func.func @copy(%y: !tile.view<128xf32, exclusive>, %x: !tile.view<?xf32>)
    attributes {tile.kernel = "copy", tile.entry = "&::copy", tilegpu.num_warps = 1 : i32,
                tilegpu.versions = [@copy_unit_stride_1]} {
  %c0 = arith.constant 0 : index
  %n = tilegpu.array_dim %x, 0 : !tile.view<?xf32>
  %a = tilegpu.global_load %x[%c0] bounds [%n] {vector = 1 : i32} : !tile.view<?xf32> -> tensor<128xf32, #L>
  %m = tilegpu.array_dim %y, 0 : !tile.view<128xf32, exclusive>
  tilegpu.global_store %a, %y[%c0] bounds [%m] {vector = 1 : i32} : tensor<128xf32, #L>, !tile.view<128xf32, exclusive>
  return
}
