// RUN: tilecc compile --emit=tile-ir -I %S/Inputs -DTILE_B=32 %s | FileCheck %s
// RUN: tilecc compile --emit=tile-ir %s -- -I%S/Inputs -DTILE_B=16 | FileCheck %s --check-prefix=EXTRA
// -I/-D reach the front end, and so do flags after `--`.
#include "block_size.h"
#include <tile/tile.hpp>

TILE_KERNEL void k(tile::Tensor<float, kBlock>& z) { z.store(z.load()); }
// CHECK: !tile.view<64xf32, exclusive>
// EXTRA: !tile.view<32xf32, exclusive>
