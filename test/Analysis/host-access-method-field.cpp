// RUN: tilecc check -verify %s
// In a method, a field of *this is a place of its own.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
class Model {
public:
  void step();
  void report() const;

private:
  Arr weights = make();
  Arr bias = make();
};
void Model::step() {
  auto op = tile::launch<copy>(weights.partition_mut<128>(), bias); // expected-note 2 {{'weights' was lent exclusively here}}
  print(bias);
  print(weights); // expected-error {{read (passed to 'print') of 'weights' while the unfinished operation 'op' holds an exclusive loan on it}}
  report(); // expected-error {{read ('report') of '*this' while the unfinished operation 'op' holds an exclusive loan on it}}
  std::move(op).sync(); // expected-note 2 {{the loan is still needed here}}
}
