// RUN: cd %S && not tilecc check --format=sarif format-sarif-schema.cpp Inputs/redeclared.cpp no-such-file.cpp > %t.sarif
// RUN: %python %S/Inputs/sarif_required.py %t.sarif | FileCheck %s
// RUN: cd %S && not tilecc check --format=github format-sarif-schema.cpp | FileCheck %s --check-prefix=GITHUB
// The SARIF log has everything the SARIF 2.1.0 schema requires of the objects tilecc writes
// (results with rule indices into the table, related locations, a failed invocation); GitHub
// annotations follow the workflow-command format.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z, const tile::Tensor<float, 128>& x) {
  float* scratch = new float[4];
  z.store(x.load() + scratch[0]);
}

// CHECK: ok
// GITHUB: {{^::error file=format-sarif-schema.cpp,line=[0-9]+,col=[0-9]+,title=tile-[a-z-]+::[^:].*$}}
