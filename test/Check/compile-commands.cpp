// RUN: rm -rf %t && mkdir -p %t
// RUN: echo '[{"directory": "%t", "file": "%s", "arguments": ["c++", "-std=c++20", "-I%S/../Driver/Inputs", "-DTILE_B=8", "-c", "%s"]}]' > %t/compile_commands.json
// RUN: not tilecc check -p %t %s 2>&1 | FileCheck %s
// RUN: not tilecc check %s 2>&1 | FileCheck %s --check-prefix=NO-DB
// RUN: not tilecc check -p %t/nowhere %s 2>&1 | FileCheck %s --check-prefix=BAD-DB
// RUN: tilecc check -p %t/nowhere %s 2>/dev/null || test $? -eq 2
// -p reads the file's flags (here -I and -D) from compile_commands.json; a missing database is a
// tool failure.
#include "block_size.h"
#include <tile/tile.hpp>

#if TILE_B == 8
TILE_KERNEL void k(tile::Tensor<float, kBlock>& z) { throw 1; }
#endif
// CHECK: compile-commands.cpp:13:54: error: exceptions are not allowed in a tile kernel [tile-kernel-exception]
// NO-DB: fatal error: 'block_size.h' file not found
// BAD-DB: tilecc: error: {{.*}}compile-commands.cpp: {{.*}}database
