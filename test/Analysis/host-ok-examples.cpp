// RUN: tilecc check -verify %s
// The examples' patterns are accepted.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
void addExample() {
  auto x = tile::ones<float>({1000});
  auto y = tile::ones<float>({1000});
  auto z = tile::zeros<float>({1000});
  auto op = tile::launch<add>(std::move(z).partition<128>(), x, y);
  auto z2 = std::move(op).sync().unpartition();
  std::vector<float> host = z2.to_host();
}
void chained() {
  auto x = tile::ones<float>({1000});
  auto out = tile::zeros<float>({1000});
  auto result = tile::launch<copy>(std::move(out).partition<128>(), x).sync().unpartition();
  std::vector<float> h = tile::launch<copy>(tile::zeros<float>({1000}).partition<128>(), x).sync().unpartition().to_host();
  print(result);
}
void inPlace() {
  auto z = tile::zeros<float>({1000});
  auto op = tile::launch<scale>(z.partition_mut<128>(), 2.0f);
  std::move(op).sync();
  auto h = z.to_host();
}
