// RUN: not tilecc compile %s -o %t.cu 2>&1 | FileCheck %s
// RUN: tilecc compile %s -o %t.cu 2>/dev/null || test $? -eq 1
// Clang's own errors come out clang-style and exit 1.
#include <tile/tile.hpp>

TILE_KERNEL void broken(tile::Tensor<float, 128>& z) {
  z.store(z.load()   // missing semicolon
}
// CHECK: syntax-error.cpp:8:1: error: expected ')'
