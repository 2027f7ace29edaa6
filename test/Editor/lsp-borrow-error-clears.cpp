// RUN: rm -rf %t && mkdir -p %t && cp %s %t/kernel.tile.cpp
// RUN: echo '[{"directory": "%t", "file": "%t/kernel.tile.cpp", "command": "c++ -std=c++20 -c kernel.tile.cpp"}]' > %t/compile_commands.json
// RUN: %python %S/Inputs/lsp_client.py tilecc lsp -- \
// RUN:   open %t/kernel.tile.cpp wait %t/kernel.tile.cpp \
// RUN:   replace %t/kernel.tile.cpp 19 a.partition_mut c.partition_mut \
// RUN:   wait %t/kernel.tile.cpp | FileCheck %s
// tilecc lsp: a borrow error appears on its line after didOpen, with the rule id, a link to the
// rule's explanation and the notes as related information; an edit that fixes it clears it.
#include <tile/tile.hpp>

TILE_KERNEL void inc(tile::Tensor<float, 128>& z) { z.store(z.load() + 1.0f); }
TILE_KERNEL void copy(tile::Tensor<float, 128>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(tile::load_tile_like(x, z));
}

void f() {
  auto a = tile::zeros<float>({1000});
  auto b = tile::zeros<float>({1000}), c = tile::zeros<float>({1000});
  auto first = tile::launch<inc>(a.partition_mut<128>());
  auto second = tile::launch<copy>(b.partition_mut<128>(), a);
  std::move(first).sync();
  std::move(second).sync();
}

// CHECK: initialize ok
// CHECK-NEXT: diagnostics kernel.tile.cpp version=1 count=1
// CHECK-NEXT:   20:60-20:61 error tile-borrow-conflict: 'a' is lent shared while the unfinished operation 'first' holds an exclusive loan on it
// CHECK-NEXT:     href https://{{.*}}/docs/rules/tile-borrow-conflict.md
// CHECK-NEXT:     related kernel.tile.cpp 19:{{[0-9]+}}-19:{{[0-9]+}}: 'a' was lent exclusively here
// CHECK-NEXT:     related kernel.tile.cpp 21:{{[0-9]+}}-21:{{[0-9]+}}: the loan is still needed here
// CHECK-NEXT: diagnostics kernel.tile.cpp version=2 count=0
// CHECK-NEXT: exit 0
