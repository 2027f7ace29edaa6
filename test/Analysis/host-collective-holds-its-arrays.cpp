// RUN: tilecc check -verify %s
// A collective borrows the arrays of every rank until it has run: the container of the arrays
// it writes exclusively, the container of those it only reads shared.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void write_while_reduced(const tile::Communicator& comm, std::vector<Arr>& grads) {
  auto reduce = tile::ops::all_reduce(comm, grads); // expected-note {{'grads' was lent exclusively here}}
  tile::launch<inc>(grads[0].partition_mut<128>()).sync(); // expected-error {{write ('operator[]') of 'grads' while the unfinished operation 'reduce' holds an exclusive loan on it}}
  std::move(reduce).sync(); // expected-note {{the loan is still needed here}}
}

void read_output_while_gathered(const tile::Communicator& comm, std::vector<Arr>& in,
                                std::vector<Arr>& out) {
  auto gather = tile::ops::all_gather(comm, in, out); // expected-note {{'out' was lent exclusively here}}
  auto v = out[1].to_host(); // expected-error {{read ('operator[]') of 'out' while the unfinished operation 'gather' holds an exclusive loan on it}}
  std::move(gather).sync(); // expected-note {{the loan is still needed here}}
}
