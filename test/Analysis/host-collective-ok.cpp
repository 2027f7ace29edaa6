// RUN: tilecc check -verify %s
// expected-no-diagnostics
// Reading a collective's inputs while it is pending is fine (both are shared), and its arrays
// are free again once it has run.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
void read_inputs_while_gathered(const tile::Communicator& comm, std::vector<Arr>& in,
                                std::vector<Arr>& out) {
  auto gather = tile::ops::all_gather(comm, in, out);
  auto v = in[1].to_host();
  std::move(gather).sync();
  auto w = out[1].to_host();
}

void reduce_then_write(const tile::Communicator& comm, std::vector<Arr>& grads) {
  tile::ops::all_reduce(comm, grads).sync();
  tile::launch<inc>(grads[0].partition_mut<128>()).sync();
}
