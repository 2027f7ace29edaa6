// RUN: rm -rf %t && mkdir -p %t
// A compile_commands.json entry whose directory does not exist is an error that names it
// (Clang's tool aborted when it could not change into it).
// RUN: echo '[{"directory": "%t/gone", "file": "%s", "arguments": ["clang++", "-std=c++20", "-c", "%s"]}]' > %t/compile_commands.json
// RUN: not tilecc check -p %t %s 2>&1 | FileCheck %s
// RUN: not tilecc compile -p=%t %s -o %t/out.cu 2>&1 | FileCheck %s
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 16>& z) { z.store(z.load()); }
// CHECK: tilecc: error: {{.*}}compile_commands.json: the command for '{{.*}}compile-commands-missing-directory.cpp' runs in '{{.*}}gone', which is not a directory
// CHECK-NOT: LLVM ERROR
