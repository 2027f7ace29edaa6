// RUN: rm -rf %t && mkdir -p %t/sys %t/elsewhere
// With flags from compile_commands.json, relative include paths are taken from the entry's
// directory (and the cache keeps such PCHs apart per directory); run from anywhere, the output
// is that of a parse without the precompiled header.
// RUN: echo 'constexpr int kLanes = 32;' >%t/sys/lanes.h
// RUN: echo '[{"directory": "%t", "file": "%s", "arguments": ["c++", "-std=c++20", "-isystem", "sys", "-c", "%s"]}]' >%t/compile_commands.json
// RUN: cd %t/elsewhere && env TILECC_CACHE_DIR=%t/cache tilecc compile -v --emit=tile-ir -p %t %s 2>%t/built.err >%t/built.ir
// RUN: cd %t/elsewhere && env TILECC_CACHE_DIR=%t/cache tilecc compile -v --emit=tile-ir -p %t %s 2>%t/reused.err >%t/reused.ir
// RUN: cd %t/elsewhere && tilecc compile --no-pch --emit=tile-ir -p %t %s >%t/none.ir
// RUN: FileCheck %s --check-prefix=BUILT <%t/built.err
// RUN: FileCheck %s --check-prefix=REUSED <%t/reused.err
// RUN: diff %t/built.ir %t/none.ir
// RUN: diff %t/reused.ir %t/none.ir
// RUN: FileCheck %s <%t/none.ir
#include <lanes.h>
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, kLanes>& z) { z.store(z.load()); }

// BUILT: precompiled header: built
// REUSED: precompiled header: reused
// CHECK: !tile.view<32xf32, exclusive>
