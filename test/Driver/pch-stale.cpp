// RUN: rm -rf %t && mkdir -p %t/sys
// The cache is keyed by the contents of every header the precompiled header read: a header
// that changes gets a new one (replacing the old), one that is only touched does not.
// RUN: echo 'constexpr int scale() { return 2; }' >%t/sys/scale.h
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v --emit=tile-ir -isystem %t/sys %s 2>&1 | FileCheck %s --check-prefixes=BUILT,TWO
// RUN: touch %t/sys/scale.h
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v --emit=tile-ir -isystem %t/sys %s 2>&1 | FileCheck %s --check-prefixes=REUSED,TWO
// RUN: echo 'constexpr int scale() { return 4; }' >%t/sys/scale.h
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v --emit=tile-ir -isystem %t/sys %s 2>&1 | FileCheck %s --check-prefixes=BUILT,FOUR
// RUN: ls %t/cache | FileCheck %s --check-prefix=FILES
// Other flags (here a define) get a precompiled header of their own.
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v --emit=tile-ir -isystem %t/sys -DOTHER %s 2>&1 | FileCheck %s --check-prefixes=BUILT,FOUR
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v --emit=tile-ir -isystem %t/sys %s 2>&1 | FileCheck %s --check-prefixes=REUSED,FOUR
#include <scale.h>
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 64 * scale()>& z) { z.store(z.load()); }

// BUILT: precompiled header: built
// REUSED: precompiled header: reused
// TWO: !tile.view<128xf32, exclusive>
// FOUR: !tile.view<256xf32, exclusive>
// FILES: {{^[0-9a-f]+-[0-9a-f]+\.pch$}}
// FILES-NEXT: {{^[0-9a-f]+\.manifest$}}
// FILES-NOT: {{.}}
