// RUN: cd %S && not tilecc check --format=github format-github.cpp Inputs/redeclared.cpp > %t.txt
// RUN: FileCheck %s --match-full-lines < %t.txt
// --format=github: GitHub Actions workflow commands on standard output, one per diagnostic;
// notes follow the message on lines of their own (%0A).
#include <tile/tile.hpp>

int gain = 2;

TILE_KERNEL void k(tile::Tensor<float, 128>& z) { z.store(z.load() * float(gain)); }

// CHECK: ::error file=format-github.cpp,line=9,col=76,title=tile-kernel-global::tile kernels may not use the variable 'gain' of static storage: it is not const, so every tile program could write it at once
// CHECK-NEXT: ::error file=Inputs/redeclared.cpp,line=4,col=12,title=clang-diagnostic-error::redefinition of 'twice'%0AInputs/redeclared.cpp:3:12: note: previous definition is here
// CHECK-NOT: {{.}}
