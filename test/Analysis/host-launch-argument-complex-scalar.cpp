// RUN: tilecc check -verify %s
// A complex value (tile::complex<float>) cannot bind to a real scalar parameter: its imaginary
// part would be lost.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void f() {
  Arr a = make();
  tile::complex<float> w(0.0f, 1.0f);
  tile::launch<scale>(a.partition_mut<128>(), w).sync(); // expected-error {{tile::launch<scale>: argument 2 cannot bind to parameter 's' (float): a complex value would lose its imaginary part in a real parameter; pass tile::real(z)}}
  tile::launch<scale>(a.partition_mut<128>(), tile::real(w)).sync();
}
// expected-note@Inputs/host-kernels.h:* {{the parameter is declared here}}
