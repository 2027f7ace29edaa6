// RUN: tilecc check -verify %s
// A std::vector allocates: reported at the kernel's line that makes it, with the library code
// it reaches as a note.
#include <tile/tile.hpp>
#include <vector>

TILE_KERNEL void k(tile::Tensor<float, 64>& z) {
  std::vector<float> v(4); // expected-error {{call to 'operator delete', whose body tilecc cannot see}} expected-error {{dynamic allocation is not allowed in a tile kernel}}
  z.store(tile::full<float, 64>(v[0]));
  // expected-note@allocator.h:* {{in the library code this reaches}}
  // expected-note@stl_construct.h:* {{in the library code this reaches}}
}
