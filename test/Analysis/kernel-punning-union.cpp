// RUN: tilecc check -verify %s
// A union overlaying a pointer to a shared view with a pointer to a writable one, named or
// anonymous; a union of plain numbers is fine.
#include <cstdint>
#include <tile/tile.hpp>

union Alias {
  const tile::Tensor<float, 64>* in;
  tile::Tensor<float, 64>* out;
};

TILE_KERNEL void forge(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view}}
  Alias a;
  a.in = &x; // expected-error {{the union 'Alias', whose members overlay a view, reaches into the memory of a view}}
  a.out->store(z.load()); // expected-error {{store through the shared view 'x'}}
}

struct Holder {
  union {
    const tile::Tensor<float, 64>* in;
    tile::Tensor<float, 64>* out;
  };
};

TILE_KERNEL void anonymous(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) { // expected-note {{'x' is a shared view}}
  Holder h;
  h.in = &x; // expected-error {{the anonymous union in 'Holder', whose members overlay a view, reaches into the memory of a view}}
  h.out->store(z.load()); // expected-error {{store through}}
}

union Bits {
  float f;
  std::uint32_t u;
};

TILE_KERNEL void numbers(tile::Tensor<float, 64>& z, float s) {
  Bits b;
  b.f = s;
  z.store(tile::full<float, 64>(float(b.u & 1u)));
}
