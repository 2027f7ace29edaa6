// RUN: tilecc check -verify %s
// An uninstantiated template says nothing.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
template <class T>
void never(tile::Array<T>& a) {
  auto op = tile::launch<inc>(a.template partition_mut<128>());
  print(a);
  std::move(op).sync();
}
