// RUN: rm -rf %t && mkdir -p %t && cp %s %t/kernel.tile.cpp
// RUN: echo '[{"directory": "%t", "file": "%t/kernel.tile.cpp", "command": "c++ -std=c++20 -c kernel.tile.cpp"}]' > %t/compile_commands.json
// RUN: %python %S/Inputs/lsp_client.py tilecc lsp --debounce-ms=0 -- \
// RUN:   open %t/kernel.tile.cpp wait %t/kernel.tile.cpp actions %t/kernel.tile.cpp 11 \
// RUN:   apply %t/kernel.tile.cpp 11 1 wait %t/kernel.tile.cpp | FileCheck %s
// tilecc lsp offers the fix-its of a diagnostic's notes as quick fixes: a tensor taken by value
// becomes a reference or a const reference, and applying one clears the error.
#include <tile/tile.hpp>

// A kernel's inputs are tensors lent to it, never copies.
TILE_KERNEL void scale(tile::Tensor<float, 128>& z, tile::Tensor<float, 128> x) {
  z.store(x.load() * 2.0f);
}

// CHECK: diagnostics kernel.tile.cpp version=1 count=1
// CHECK-NEXT: 11:78-11:79 error tile-kernel-param: kernel parameter 'x' has type {{.*}}
// CHECK: actions kernel.tile.cpp:11 count=2
// CHECK-NEXT: take it by reference for exclusive access (the program writes it) [quickfix]
// CHECK-NEXT: 11:77-11:77 "&"
// CHECK-NEXT: or by const reference for shared access (the program only reads it) [quickfix]
// CHECK-NEXT: 11:53-11:53 "const "
// CHECK-NEXT: 11:77-11:77 "&"
// CHECK-NEXT: applied or by const reference for shared access (the program only reads it): TILE_KERNEL void scale(tile::Tensor<float, 128>& z, const tile::Tensor<float, 128>& x) {
// CHECK-NEXT: diagnostics kernel.tile.cpp version=2 count=0
// CHECK-NEXT: exit 0
