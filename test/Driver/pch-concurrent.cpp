// RUN: rm -rf %t && mkdir -p %t
// Processes that start together with an empty cache (as in `ninja -j`) all succeed with the
// same output; one builds the precompiled header while the others wait for it.
// RUN: tilecc compile --no-pch %s -o - >%t/none.cu
// RUN: sh -c 'for i in 1 2 3; do env TILECC_CACHE_DIR=%t/cache tilecc compile -v %s -o - >%t/out$i.cu 2>%t/out$i.err & done; wait'
// RUN: diff %t/out1.cu %t/none.cu
// RUN: diff %t/out2.cu %t/none.cu
// RUN: diff %t/out3.cu %t/none.cu
// RUN: cat %t/out1.err %t/out2.err %t/out3.err | FileCheck %s
// RUN: ls %t/cache | FileCheck %s --check-prefix=FILES
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, 128>& z) { z.store(z.load() * 3.0f); }

// CHECK-COUNT-3: precompiled header: {{built|reused}}
// FILES: {{^[0-9a-f]+-[0-9a-f]+\.pch$}}
// FILES-NEXT: {{^[0-9a-f]+\.manifest$}}
// FILES-NOT: {{.}}
