// RUN: rm -f %t.sarif %t.txt
// RUN: not tilecc check --format=sarif -o %t.sarif %s | count 0
// RUN: FileCheck %s --check-prefix=SARIF < %t.sarif
// RUN: not tilecc check -o %t.txt %s 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=TEXT < %t.txt
// RUN: not tilecc check -o %t.missing-dir/x.sarif %s 2>&1 | FileCheck %s --check-prefix=BAD
// -o writes the report (any format) to a file instead of standard output / error.
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z, int* p) { z.store(z.load()); }
// SARIF: "ruleId": "tile-kernel-param",
// TEXT: output-file.cpp:10:54: error: kernel parameter 'p' has type 'int *'; {{.*}} [tile-kernel-param]
// BAD: tilecc: error: cannot write '{{.*}}x.sarif'
