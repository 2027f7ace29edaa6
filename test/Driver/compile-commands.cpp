// RUN: rm -rf %t && mkdir -p %t
// RUN: echo '[{"directory": "%t", "file": "%s", "arguments": ["c++", "-std=c++20", "-I%S/Inputs", "-DTILE_B=8", "-c", "%s"]}]' > %t/compile_commands.json
// RUN: tilecc compile --emit=tile-ir -p %t %s | FileCheck %s
// -p reads the file's flags from compile_commands.json.
#include "block_size.h"
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, kBlock>& z) { z.store(z.load()); }
// CHECK: !tile.view<16xf32, exclusive>
