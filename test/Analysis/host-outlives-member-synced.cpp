// RUN: tilecc check -verify %s
// A member container whose ops all ran before the method returns keeps no loan.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
// expected-no-diagnostics
class Runner {
public:
  void step() {
    Arr scratch = make();
    pending.push_back(tile::launch<inc>(scratch.partition_mut<128>()));
    for (auto& op : pending)
      std::move(op).sync();
    pending.clear();
  }

private:
  std::vector<IncOp> pending;
};
