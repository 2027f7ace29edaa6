// A kernel with a producer region is not run as a sequence of programs: the producer must
// stay an op of the function body (found by the IR fuzz target, which wrapped it in a loop).
// RUN: tilecc-opt --tilegpu-sequence-programs %S/../Dialect/tilegpu-tensor-map-roundtrip.mlir | FileCheck %s
// CHECK-NOT: tilegpu.programs_in_sequence
// CHECK: tilegpu.producer
