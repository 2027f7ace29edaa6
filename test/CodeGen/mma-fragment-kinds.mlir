// A 16 x 16 accumulator and a 16 x 16 A operand in one warp place their elements alike (the
// same linear layout), yet are different fragments: each keeps its own `_frag` type, so the
// ldmatrix read and mma_frag see an operand and an accumulator, and the kernel builds.
// RUN: tilecc-translate --tile-to-cuda --tilecc-no-line %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc %{ %nvcc-sm80 -include %S/Inputs/mma-fragment-kinds-entries.h -c %t.cu -o %t.o %}

// CHECK-DAG: using [[ACC:__tilecc_small_mma_L[0-9]+_frag]] = tile_dev::MmaAcc<tile_dev::Ix<16, 16>, 1, 1, 1>;
// CHECK-DAG: using [[A:__tilecc_small_mma_L[0-9]+_frag]] = tile_dev::MmaOperand<tile_dev::Ix<16, 16>, 0, 2, 1, 1, 1>;
// CHECK-DAG: using [[B:__tilecc_small_mma_L[0-9]+_frag]] = tile_dev::MmaOperand<tile_dev::Ix<16, 16>, 1, 2, 1, 1, 1>;
// CHECK: tile_dev::ldmatrix_operand<[[A]], tile_dev::Staging<{{[0-9, ]+}}>>(
// CHECK: tile_dev::mma_frag<[[A]], [[B]], [[ACC]]>(
func.func @small_mma(%z: !tile.view<16x16xf32, exclusive>, %x: !tile.view<?x?xf16>,
                     %y: !tile.view<?x?xf16>)
    attributes {tile.kernel = "small_mma", tile.entry = "&::small_mma", tile.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : index
  %acc = arith.constant dense<0.0> : tensor<16x16xf32>
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %b = tile.load %y[%c0, %c0] : !tile.view<?x?xf16> -> tensor<16x16xf16>
  %c = tile.mma %a, %b, %acc : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32> -> tensor<16x16xf32>
  tile.store %c, %z[%c0, %c0] : tensor<16x16xf32>, !tile.view<16x16xf32, exclusive>
  return
}
