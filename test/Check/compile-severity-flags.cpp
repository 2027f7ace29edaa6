// RUN: tilecc compile --emit=tile-ir -o %t.mlir %s 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: tilecc compile --emit=tile-ir -o %t.mlir -Wno-tile-no-kernels %s 2>&1 | count 0
// RUN: tilecc compile --emit=tile-ir -o %t.mlir -Wno-tile-no-kernels -Wtile-no-kernels %s 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: not tilecc compile --emit=tile-ir -o %t.mlir -Werror=tile-no-kernels %s 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: not tilecc compile --emit=tile-ir -o %t.mlir -Werror %s 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: tilecc compile --emit=tile-ir -o %t.mlir -Werror -Wno-error=tile-no-kernels %s 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: tilecc compile --emit=tile-ir -o %t.mlir -Werror -Wno-tile-no-kernels %s 2>&1 | count 0
// `tilecc compile` takes the same -W flags as check: -W<id> enables a rule, -Wno-<id> disables
// it, -Werror=<id> (or -Werror for every warning) makes it an error, -Wno-error=<id> keeps it a
// warning; later flags win. `tile-no-kernels` is the warning compile gives for a file without
// kernels.
int main() { return 0; }
// DEFAULT: compile-severity-flags.cpp:1:1: warning: no tile kernel is instantiated in this file; nothing to compile for the GPU [tile-no-kernels]
// ERROR: compile-severity-flags.cpp:1:1: error: no tile kernel is instantiated in this file; nothing to compile for the GPU [tile-no-kernels]
