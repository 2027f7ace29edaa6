// RUN: tilecc check -verify %s
// RUN: not tilecc check --format=sarif %s | FileCheck %s --check-prefix=SARIF
// RUN: not tilecc check %s 2>&1 | FileCheck %s --check-prefix=TEXT
// An error that arises inside the tile library's headers (here the static_assert that every
// tile dimension is a power of two) is reported at the user's line that instantiated it, with a
// note on where the library reports it: the line editors underline, CI annotates and the
// terminal shows first.
#include <tile/tile.hpp>

TILE_KERNEL void odd(tile::Tensor<float, 128>& z) {
  auto t = tile::zeros<float, 100>(); // expected-error {{tile::Tile: every dimension must be a power of two}}
  z.store(z.load() + 1.0f);
}
// expected-note@tile/tile_value.hpp:* {{the tile library reports it here}}
// expected-note@tile/tile_value.hpp:* {{in instantiation of template class 'tile::Tile<float, 100>' requested here}}

// SARIF: "text": "static assertion failed {{.*}}tile::Tile: every dimension must be a power of two"
// SARIF: "uri": "file://{{.*}}library-error-at-user-line.cpp"
// SARIF-NEXT: },
// SARIF-NEXT: "region": {
// SARIF-NEXT: "startLine": 11,
// SARIF: "text": "the tile library reports it here"
// SARIF: "uri": "file://{{.*}}tile/tile_value.hpp"

// TEXT: library-error-at-user-line.cpp:11:18: error: static assertion failed {{.*}}tile::Tile: every dimension must be a power of two
// TEXT-NEXT: 11 | auto t = tile::zeros<float, 100>();
// TEXT: tile/tile_value.hpp:{{[0-9]+}}:{{[0-9]+}}: note: the tile library reports it here
