// RUN: tilecc compile --emit=smem-plan %S/../../examples/fft/fft.tile.cpp > %t
// RUN: grep -A3 "'fft_w4<1, false, 16, 16, 16>'" %t | FileCheck %s
// RUN: grep -A3 "'fft_w4<1, true, 16, 16, 16>'" %t | FileCheck %s
// The FFT example's 4096-point rows (factors 16 x 16 x 16, one row per program, 4 warps),
// forward and inverse, keep every butterfly in registers: each stage's radix-16 DFT runs down
// the rows of a [16, 256] tile whose 16 rows every thread holds, so its row slices (extract)
// and joins (cat) move nothing. The only data that crosses threads is the two exchanges between
// the three stages (a permute, then a reshape to the next stage's [16, 256]), each staged once
// through one buffer of the whole row (32 KB, both at offset 0): two shared-memory exchanges
// per row, none at the load or the store, whose layouts the first and last stages take as
// they are.

// CHECK: {{^}}kernel 'fft_w4<1, {{false|true}}, 16, 16, 16>': 4 warp(s), 32768 bytes of dynamic shared memory
// CHECK-NEXT: {{^}}  [     0,  32768)  tile.reshape  tensor<16x16x16xcomplex<f32>>
// CHECK-NEXT: {{^}}  [     0,  32768)  tile.reshape  tensor<16x16x16xcomplex<f32>>
// CHECK-NOT: {{^}}  [
