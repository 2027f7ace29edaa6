// RUN: not tilecc compile --emit=tile-ir %s 2>&1 | FileCheck %s
// The GPU records a failed check's message as it was written: it must be a string literal.
#include <tile/tile.hpp>

TILE_KERNEL void debug(tile::Tensor<float, 64>& z, bool strict) {
  tile::check(z.load() > 0.0f, strict ? "strictly positive" : "positive");
}
// CHECK: check-message-not-literal.cpp:6:3: error: tile::check with a message that is not a string literal is not supported in a tile kernel [tile-unsupported]
