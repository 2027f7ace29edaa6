// RUN: rm -rf %t && mkdir -p %t
// A damaged cache never fails a compile: a precompiled header whose contents are not what was
// built (overwritten, bytes flipped in the middle, which crashed Clang's reader, or
// truncated) or a garbled manifest is rebuilt at once.
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile %s -o - >%t/good.cu
// RUN: python3 -c "import glob, os; p = glob.glob(r'%t/cache/*.pch')[0]; n = os.path.getsize(p); open(p, 'wb').write(b'x' * n)"
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v %s -o - 2>&1 >%t/rebuilt.cu | FileCheck %s --check-prefix=BUILT
// RUN: diff %t/good.cu %t/rebuilt.cu
// RUN: python3 -c "import glob; p = glob.glob(r'%t/cache/*.pch')[0]; d = bytearray(open(p, 'rb').read()); d[len(d)//3:len(d)//3+4096] = bytes(b ^ 0x5a for b in d[len(d)//3:len(d)//3+4096]); open(p, 'wb').write(d)"
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v %s -o - 2>&1 >%t/flipped.cu | FileCheck %s --check-prefix=BUILT
// RUN: diff %t/good.cu %t/flipped.cu
// RUN: python3 -c "import glob; p = glob.glob(r'%t/cache/*.pch')[0]; d = open(p, 'rb').read(); open(p, 'wb').write(d[:1000])"
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v %s -o - 2>&1 >%t/truncated.cu | FileCheck %s --check-prefix=BUILT
// RUN: diff %t/good.cu %t/truncated.cu
// RUN: python3 -c "import glob; open(glob.glob(r'%t/cache/*.manifest')[0], 'w').write('garbage')"
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v %s -o - 2>&1 >%t/manifest.cu | FileCheck %s --check-prefix=BUILT
// RUN: diff %t/good.cu %t/manifest.cu
// RUN: env TILECC_CACHE_DIR=%t/cache tilecc compile -v %s -o - 2>&1 >/dev/null | FileCheck %s --check-prefix=REUSED
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z) { z.store(z.load() + 1.0f); }

// BUILT: precompiled header: built
// REUSED: precompiled header: reused
