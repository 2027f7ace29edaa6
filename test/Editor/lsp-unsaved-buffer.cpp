// RUN: rm -rf %t && mkdir -p %t && cp %s %t/kernel.tile.cpp
// RUN: echo '[{"directory": "%t", "file": "%t/kernel.tile.cpp", "command": "c++ -std=c++20 -c kernel.tile.cpp"}]' > %t/compile_commands.json
// RUN: %python %S/Inputs/lsp_client.py tilecc lsp --debounce-ms=0 -- \
// RUN:   open %t/kernel.tile.cpp wait %t/kernel.tile.cpp \
// RUN:   replace %t/kernel.tile.cpp 11 1.0f offset wait %t/kernel.tile.cpp \
// RUN:   replace %t/kernel.tile.cpp 11 offset 2.0f wait %t/kernel.tile.cpp | FileCheck %s
// tilecc lsp checks the buffer as edited, not the file on disk: an edit that is never saved
// brings an error (Clang's own, with its flag as the code) and the next one takes it away.
#include <tile/tile.hpp>

TILE_KERNEL void inc(tile::Tensor<float, 128>& z) { z.store(z.load() + 1.0f); }

// CHECK: diagnostics kernel.tile.cpp version=1 count=0
// CHECK-NEXT: diagnostics kernel.tile.cpp version=2 count=1
// CHECK-NEXT:   11:72-11:78 error clang-diagnostic-error: use of undeclared identifier 'offset'
// CHECK-NEXT: diagnostics kernel.tile.cpp version=3 count=0
// CHECK-NEXT: exit 0
