// RUN: rm -rf %t && mkdir -p %t/inc/tile
// Where there is no usable cache directory, files are parsed without a precompiled header.
// RUN: touch %t/not-a-directory
// RUN: env TILECC_CACHE_DIR=%t/not-a-directory/cache tilecc compile -v %s -o - 2>%t/nodir.err >%t/nodir.cu
// RUN: FileCheck %s --check-prefix=NODIR <%t/nodir.err
// RUN: tilecc compile --no-pch %s -o - >%t/none.cu
// RUN: diff %t/nodir.cu %t/none.cu
// A header that reports anything under the given flags is not precompiled (so that nothing it
// reports goes missing), and the cache remembers it until the header changes. Here a
// tile/tile.hpp of the project's own warns, then includes the real one.
// RUN: printf '#warning "a warning in a header"\n#include_next <tile/tile.hpp>\n' >%t/inc/tile/tile.hpp
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v -I %t/inc %s -o - 2>%t/warn1.err >%t/warn1.cu
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v -I %t/inc %s -o - 2>%t/warn2.err >%t/warn2.cu
// RUN: FileCheck %s --check-prefix=WARN <%t/warn1.err
// RUN: FileCheck %s --check-prefix=WARN <%t/warn2.err
// RUN: diff %t/warn1.cu %t/none.cu
// RUN: not ls %t/cache/*.pch
// RUN: FileCheck %s --check-prefix=MANIFEST <%t/cache/*.manifest
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z) { z.store(z.load() + 1.0f); }

// NODIR: precompiled header: not used: cannot create the cache directory '{{.*}}not-a-directory{{[/\\]}}cache'
// WARN: precompiled header: not used: the header does not precompile silently with these flags: {{.*}}tile.hpp:1:2: warning: "a warning in a header"
// WARN: tile.hpp:1:2: warning: "a warning in a header" [-W#warnings]
// MANIFEST: usable no
// MANIFEST-NEXT: reason the header does not precompile silently
