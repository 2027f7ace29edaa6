// RUN: tilecc --explain | FileCheck %s
// --explain without an id lists every rule: id, default severity, summary.
// CHECK: tilecc's rules (tilecc --explain ID for one of them):
// CHECK: tile-kernel-param error A kernel parameter has a type that a tile kernel cannot take.
// CHECK: tile-unused-op warning An operation is created but never executed.
// CHECK: tile-no-kernels warning
