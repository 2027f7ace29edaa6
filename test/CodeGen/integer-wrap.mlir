// Integer +, - and * wrap around as arith's do: on i8..i64 they are computed on the unsigned
// type (C++ signed overflow is undefined, and nvcc folds `x + x > 0` into `x > 0`); index
// arithmetic, which never overflows, stays signed.
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s

func.func @wrap(%z: !tile.view<?xi32, exclusive>, %a: i32, %b: i64, %c: i8, %i: index)
    attributes {tile.kernel = "wrap", tile.entry = "&::wrap", tilegpu.num_warps = 1 : i32} {
  // CHECK: const int32_t [[S:v[0-9]+]] = int32_t(uint32_t(arg1) + uint32_t(arg1));
  %s = arith.addi %a, %a : i32
  // CHECK-NEXT: const int64_t {{v[0-9]+}} = int64_t(uint64_t(arg2) * uint64_t(arg2));
  %p = arith.muli %b, %b : i64
  // CHECK-NEXT: const int8_t {{v[0-9]+}} = int8_t(uint8_t(arg3) - uint8_t(arg3));
  %d = arith.subi %c, %c : i8
  // CHECK-NEXT: const int64_t {{v[0-9]+}} = arg4 + arg4;
  %j = arith.addi %i, %i : index
  return
}
