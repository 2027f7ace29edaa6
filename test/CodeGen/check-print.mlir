// tile.check tests every register and reports through tile_dev::check_failed with the kernel's
// name, the source file's base name and line, and the message; tile.print of a scalar is
// thread 0's, of a tile staged in its planned shared memory. nvcc builds it for sm_90a.
// RUN: tilecc-translate --tile-to-cuda --tilecc-no-line %s -o %t.cu
// RUN: FileCheck %s --input-file=%t.cu
// RUN: %if nvcc %{ %nvcc -include %S/Inputs/check-print-entries.h -c %t.cu -o %t.o %}

func.func @checked(%z: !tile.view<64xf32, exclusive>, %x: !tile.view<?xf32>, %n: i32)
    attributes {tile.kernel = "checked", tile.entry = "&::checked"} {
  %c0 = arith.constant 0 : index
  %t = tile.load %x[%c0] : !tile.view<?xf32> -> tensor<64xf32>
  %zero = arith.constant dense<0.0> : tensor<64xf32>
  %ok = arith.cmpf oge, %t, %zero : tensor<64xf32>
  tile.check %ok, "no negative input" : tensor<64xi1> loc("src/kernels/checked.cpp":12:3)
  tile.print "n", %n {is_unsigned} : i32
  tile.print "t", %t : tensor<64xf32>
  tile.store %t, %z[%c0] : tensor<64xf32>, !tile.view<64xf32, exclusive>
  return
}

// CHECK-LABEL: checked: 1 warp(s), 32 threads per tile program, 256 bytes of shared memory
// CHECK: int64_t bid_[4]; grid.decompose<1>(blockIdx.x, bid_);
// CHECK: { bool [[OK:v[0-9]+]] = true; _Pragma("unroll") for (int i_ = 0; i_ < 4; ++i_) [[OK]] = [[OK]] && {{v[0-9]+}}[i_]; if (![[OK]]) tile_dev::check_failed(grid, bid_, "checked", "checked.cpp", 12, "no negative input"); }
// CHECK: if (threadIdx.x == 0) tile_dev::print_element(tile_dev::program_text(grid, bid_).text, "n", "", arg2, true);
// CHECK: tile_dev::print_tile("t", {{v[0-9]+}}, t0, tile_dev::shared_at<float>(0), tile_dev::program_text(grid, bid_).text, threadIdx.x == 0, false);
