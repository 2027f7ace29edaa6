// #line directives map each statement to its op's source position: consecutive ops of one
// source line share an output line, a jump emits a directive, code inlined from a device
// function maps to the callee, and --tilecc-no-line turns them off.
// RUN: tilecc-translate --tilegpu-to-cuda %s | FileCheck %s
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s --check-prefix=NOLINE

func.func @lines(%z: !tile.view<?xi32, exclusive>, %a: i32, %b: i32)
    attributes {tile.kernel = "lines", tile.entry = "&::lines", tilegpu.num_warps = 1 : i32, tilegpu.programs_per_block = 4 : i32} {
  %x = arith.addi %a, %b : i32 loc("k.tile.cpp":11:3)
  %y = arith.muli %x, %b : i32 loc("k.tile.cpp":11:9)
  %w = arith.subi %y, %a : i32 loc("k.tile.cpp":12:3)
  %v = arith.xori %w, %a : i32 loc(callsite("helpers.hpp":40:10 at "k.tile.cpp":20:5))
  %u = arith.ori %v, %a : i32 loc("k.tile.cpp":3:1)
  return loc("k.tile.cpp":30:1)
} loc("k.tile.cpp":10:1)

// CHECK: #line 10 "k.tile.cpp"
// CHECK-NEXT: __global__ void __launch_bounds__(128) __tilecc_lines(
// Line 11 follows line 10 in the output too: no directive needed.
// CHECK-NEXT: const int32_t [[X:v[0-9]+]] = int32_t(uint32_t(arg1) + uint32_t(arg2)); const int32_t {{v[0-9]+}} = int32_t(uint32_t([[X]]) * uint32_t(arg2));
// CHECK-NEXT: const int32_t {{v[0-9]+}} = int32_t(uint32_t({{v[0-9]+}}) - uint32_t(arg1));
// CHECK-NEXT: #line 40 "helpers.hpp"
// CHECK-NEXT: const int32_t {{v[0-9]+}} = {{v[0-9]+}} ^ arg1;
// CHECK-NEXT: #line 3 "k.tile.cpp"
// CHECK-NEXT: const int32_t {{v[0-9]+}} = {{v[0-9]+}} | arg1;
// CHECK-NEXT: }

// NOLINE-NOT: #line
