// tile-infer-layouts on tiles that have no layouts yet (tile-assign-layouts not run) leaves
// them alone instead of crashing (found by the IR fuzz target).
// RUN: tilecc-opt --tile-infer-layouts %S/infer-layouts-mma-chain.mlir | FileCheck %s
// CHECK: tile.mma
