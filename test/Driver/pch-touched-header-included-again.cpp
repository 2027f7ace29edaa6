// RUN: rm -rf %t && mkdir -p %t/sys
// A header of the precompiled block that the file includes again later is skipped by its
// `#pragma once`, also when the header was touched since the PCH was built (a fresh checkout
// gives every file a new modification time, the contents staying the same).
// RUN: printf '#pragma once\nstruct Once { int n; };\n' >%t/sys/once.h
// RUN: printf '#pragma once\n#include <once.h>\n' >%t/sys/again.h
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v --emit=tile-ir -isystem %t/sys %s 2>&1 | FileCheck %s --check-prefix=BUILT
// RUN: touch -d '2001-02-03 04:05' %t/sys/once.h
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v --emit=tile-ir -isystem %t/sys %s 2>&1 | FileCheck %s --check-prefix=REUSED
#include <once.h>
#include <tile/tile.hpp>

#include <again.h>

TILE_KERNEL void k(tile::Tensor<float, 128>& z) { z.store(z.load() + float(sizeof(Once))); }

// BUILT: precompiled header: built
// BUILT-NOT: error
// REUSED: precompiled header: reused
// REUSED-NOT: error
