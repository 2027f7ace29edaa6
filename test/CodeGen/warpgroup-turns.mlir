// The program's warpgroups take turns issuing warpgroup mma: CodeGen prints the turns for the
// program's number of warpgroups (named barriers 2 + w, tile_dev::turn_wait/turn_pass).
// RUN: tilecc-translate --tilegpu-to-cuda --tilecc-no-line %s | FileCheck %s
// (A program of one warpgroup cannot take turns: CodeGen/errors.mlir.)

// CHECK-LABEL: __tilecc_turns(
// CHECK: tile_dev::turn_pass<2, true>();
// CHECK-NEXT: tile_dev::turn_wait<2>();
// CHECK-NEXT: tile_dev::turn_pass<2>();
// CHECK-NEXT: tile_dev::turn_wait<2, true>();
func.func @turns() attributes {tile.kernel = "turns", tile.entry = "&::turns", tilegpu.num_warps = 8 : i32} {
  tilegpu.turn_pass once
  tilegpu.turn_wait
  tilegpu.turn_pass
  tilegpu.turn_wait once
  return
}

