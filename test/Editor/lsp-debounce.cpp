// RUN: rm -rf %t && mkdir -p %t && cp %s %t/kernel.tile.cpp
// RUN: echo '[{"directory": "%t", "file": "%t/kernel.tile.cpp", "command": "c++ -std=c++20 -c kernel.tile.cpp"}]' > %t/compile_commands.json
// RUN: %python %S/Inputs/lsp_client.py tilecc lsp --debounce-ms=3000 -- \
// RUN:   open %t/kernel.tile.cpp replace %t/kernel.tile.cpp 12 1.0f 2.0f \
// RUN:   replace %t/kernel.tile.cpp 12 2.0f 3.0f replace %t/kernel.tile.cpp 12 3.0f bad \
// RUN:   wait %t/kernel.tile.cpp | FileCheck %s
// tilecc lsp waits until a buffer has been still for the debounce time: of four versions sent
// in quick succession only the last is checked, and its result is the first one published.
#include <tile/tile.hpp>

TILE_KERNEL void inc(tile::Tensor<float, 128>& z) {
  z.store(z.load() + 1.0f);
}

// CHECK: initialize ok
// CHECK-NEXT: diagnostics kernel.tile.cpp version=4 count=1
// CHECK-NEXT: 12:22-12:25 error clang-diagnostic-error: use of undeclared identifier 'bad'
// CHECK-NEXT: exit 0
