// RUN: rm -f %t.cu
// RUN: not tilecc compile -Werror=tile-no-kernels %s -o %t.cu 2>&1 | FileCheck %s
// RUN: not test -e %t.cu
// `tilecc compile` runs the same checks as `tilecc check` and writes nothing when one fails.
int main() { return 0; }
// CHECK: error: no tile kernel is instantiated in this file; nothing to compile for the GPU [tile-no-kernels]
