// A tile.mma whose tiles are not whole instruction tiles (M = 8 here) stages both inputs and
// the accumulator in shared memory (float inputs rounded to TF32 on the way), runs
// tile_dev::mma_shared (mma.sync over 16 x 8 output tiles, dealt to the warps, padded with
// zeros), and reads the accumulator back in the result's layout. nvcc builds it for sm_80 and
// sm_90a.
// RUN: tilecc-translate --tile-to-cuda --tilecc-no-line %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc %{ %nvcc-sm80 -include %S/Inputs/mma-entries.h -c %t.cu -o %t.o %}

func.func @mma_f32(%z: !tile.view<8x16xf32, exclusive>, %x: !tile.view<?x?xf32>)
    attributes {tile.kernel = "mma_f32", tile.entry = "&::mma_f32"} {
  %c0 = arith.constant 0 : index
  %a = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<8x8xf32>
  %b = tile.load %x[%c0, %c0] : !tile.view<?x?xf32> -> tensor<8x16xf32>
  %acc = arith.constant dense<1.0> : tensor<8x16xf32>
  %c = tile.mma %a, %b, %acc : tensor<8x8xf32>, tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  tile.store %c, %z[%c0, %c0] : tensor<8x16xf32>, !tile.view<8x16xf32, exclusive>
  return
}

// The kernel's first exchange needs no barrier before its writes.
// CHECK: {{^ *}}float* [[A:v[0-9]+]] = tile_dev::shared_at<float>(0); tile_dev::to_shared_tf32([[A]],
// CHECK-SAME: float* [[B:v[0-9]+]] = tile_dev::shared_at<float>(256); tile_dev::to_shared_tf32([[B]],
// CHECK-SAME: float* [[C:v[0-9]+]] = tile_dev::shared_at<float>(768); tile_dev::to_shared([[C]],
// CHECK-SAME: __syncthreads();
// CHECK-NEXT: tile_dev::mma_shared<float, 1, 8, 16, 8, {{[0-9]+}}>([[A]], [[B]], [[C]], threadIdx.x); __syncthreads();
// CHECK-NEXT: float [[R:v[0-9]+]][{{[0-9]+}}]; {{.*}} [[R]][i_] = [[C]][{{t[0-9]+}}.linear(i_)];
