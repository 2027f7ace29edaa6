// RUN: tilecc check -verify %s
// A destructor declared here but defined elsewhere is code tilecc cannot see.
#include <tile/tile.hpp>

struct Handle {
  ~Handle();
};

TILE_KERNEL void k(tile::Tensor<float, 64>& z) {
  Handle h; // expected-error {{call to 'Handle::~Handle', whose body tilecc cannot see, is not allowed in a tile kernel}}
  z.store(tile::zeros<float, 64>());
}
