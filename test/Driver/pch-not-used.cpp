// RUN: rm -rf %t && mkdir -p %t
// The precompiled header stands for the #include lines a file's code starts with, up to
// <tile/tile.hpp>, and only when nothing else precedes them: here a macro definition does.
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v %s -o %t/a.cu 2>&1 | FileCheck %s --check-prefix=CODE
// Headers of the project's own before <tile/tile.hpp> keep a file from using one (here found
// with -I, and beside the file).
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v --emit=tile-ir -I %S/Inputs -DTILE_B=32 %S/include-and-define-flags.cpp 2>&1 | FileCheck %s --check-prefix=USER
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc check -v %S/Inputs/scale_kernel.tile.cpp 2>&1 | FileCheck %s --check-prefix=BESIDE
// So do flags that include files before the source.
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v %s -o %t/b.cu -- -include cstdio 2>&1 | FileCheck %s --check-prefix=INCLUDE
// RUN: not ls %t/cache/*.pch
#define TILE_EXAMPLE_VALUE 2.0f
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z) { z.store(z.load() * TILE_EXAMPLE_VALUE); }

// CODE: precompiled header: not used: the file's code does not start with #include lines ending with #include <tile/tile.hpp>
// USER: precompiled header: not used: #include "block_size.h" before <tile/tile.hpp> is not a system header
// BESIDE: precompiled header: not used: the file's code does not start with #include lines ending with #include <tile/tile.hpp>
// INCLUDE: precompiled header: not used: the flags include or remap files
