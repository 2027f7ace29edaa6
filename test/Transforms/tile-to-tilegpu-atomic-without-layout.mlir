// An atomic update of a tile without a layout is refused like a load or store without one,
// not turned into a tilegpu.global_atomic that does not verify (found by the IR fuzz target).
// RUN: not tilecc-opt --convert-tile-to-tilegpu %S/plan-shared-memory-atomic.mlir 2>&1 | FileCheck %s
// CHECK: error: 'tile.atomic' op moves a tile without a layout; run tile-assign-layouts first
