// RUN: tilecc check -verify %s
// Members of class templates are checked in their instantiations.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
template <int N>
struct Stage {
  Arr buffer = tile::zeros<float>({N});
  void run() {
    auto op = tile::launch<inc>(buffer.partition_mut<128>()); // expected-note {{'buffer' was lent exclusively here}}
    auto h = buffer.to_host(); // expected-error {{read (to_host) of 'buffer' while the unfinished operation 'op' holds an exclusive loan on it}}
    std::move(op).sync(); // expected-note {{the loan is still needed here}}
  }
};
void f() {
  Stage<256> s;
  s.run();
}
