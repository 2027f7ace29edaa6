// REQUIRES: clangd
// RUN: rm -rf %t && mkdir -p %t/db && cp %s %t/kernel.tile.cpp
// RUN: echo '[{"directory": "%t", "file": "%t/other.cu", "command": "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DUSED=1 -isystem=/usr/local/cuda/include --generate-code=arch=compute_90,code=[compute_90,sm_90] -Xcompiler=-fPIC -std=c++17 -x cu -c %t/other.cu -o other.o"}]' > %t/db/compile_commands.json
// RUN: %python %S/Inputs/lsp_client.py %clangd --compile-commands-dir=%t/db -- \
// RUN:   open %t/kernel.tile.cpp wait %t/kernel.tile.cpp | FileCheck %s --check-prefix=BARE
// RUN: sed 's|@TILE_INCLUDE_DIR@|%tile_include|' %S/../../editors/clangd/tile.clangd > %t/.clangd
// RUN: %python %S/Inputs/lsp_client.py %clangd --compile-commands-dir=%t/db -- \
// RUN:   open %t/kernel.tile.cpp wait %t/kernel.tile.cpp | FileCheck %s
// clangd-19 itself, over JSON-RPC. A kernel file has no compile_commands.json entry of its own,
// so clangd borrows the nvcc command of a CUDA neighbour: without tilecc's settings that gives
// false errors; with editors/clangd/tile.clangd as the project's .clangd there are none, and the
// neighbour's definitions still apply.
#include <tile/tile.hpp>

static_assert(USED == 1);

template <int M, int N>
TILE_KERNEL void softmax(tile::Tensor<float, M, N>& out, const tile::Tensor<float, M, N>& in) {
  auto t = in.load();
  auto e = tile::exp(t - tile::broadcast<M, N>(tile::reshape<M, 1>(tile::max<1>(t))));
  out.store(e / tile::broadcast<M, N>(tile::reshape<M, 1>(tile::sum<1>(e))));
}

// BARE: diagnostics kernel.tile.cpp version=1
// BARE-NEXT: error drv_unknown_argument: Unknown argument: '-forward-unknown-to-host-compiler'
// BARE: 13:10-13:25 error pp_file_not_found: 'tile/tile.hpp' file not found
// CHECK: diagnostics kernel.tile.cpp version=1 count=0
// CHECK-NEXT: exit 0
