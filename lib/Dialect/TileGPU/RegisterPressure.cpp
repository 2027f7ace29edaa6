//===- RegisterPressure.cpp - registers the tile values of a kernel hold at once ---===//
//
// A sweep over the ops in pre-order: each counted value adds its registers where its live
// range starts and removes them where it ends; the peak of the running sum is the estimate.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/TileGPU/RegisterPressure.h"

#include "tilecc/Dialect/Tile/TileDialect.h"
#include "tilecc/Dialect/TileGPU/DataMovement.h"
#include "tilecc/Dialect/TileGPU/SharedScratch.h"

#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace tilecc::tilegpu {
namespace {

bool isGlobalLoad(Operation *op) { return isa<tile::LoadOp, GlobalLoadOp>(op); }

/// An elementwise result whose one use is an elementwise op or a reduction of the same block:
/// nvcc computes it element by element where that user needs it.
bool isFused(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || !(def->hasTrait<OpTrait::Elementwise>() || isa<tile::BroadcastOp>(def)) ||
      !v.hasOneUse())
    return false;
  Operation *user = *v.getUsers().begin();
  if (user->getBlock() != def->getBlock())
    return false;
  if (isa<tile::BroadcastOp>(user)) // its copies of an element are the element
    return isFused(user->getResult(0));
  return user->hasTrait<OpTrait::Elementwise>() || isa<tile::ReduceOp>(user);
}

/// Where a use by `user` happens: at the end of the chain of fused results it starts.
Operation *consumerOf(Operation *user) {
  while (user->getNumResults() == 1 && isFused(user->getResult(0)))
    user = *user->getResult(0).getUsers().begin();
  return user;
}

/// The registers of one vector access of a loaded tile whose every use is an elementwise
/// chain ending in a store, which nvcc can then load, compute and store one access at a time;
/// 0 for other values.
int64_t streamedRegisters(Value v) {
  auto load = v.getDefiningOp<GlobalLoadOp>();
  if (!load || v.use_empty())
    return 0;
  auto stored = [](Operation *end) {
    return isa<GlobalStoreOp>(end) ||
           (end->getNumResults() == 1 && !end->getResult(0).use_empty() &&
            llvm::all_of(end->getResult(0).getUsers(),
                         [](Operation *user) { return isa<GlobalStoreOp>(user); }));
  };
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (!(user->hasTrait<OpTrait::Elementwise>() || isa<tile::BroadcastOp>(user)) ||
        !stored(consumerOf(user)))
      return 0;
  }
  int64_t bytes = elementBytes(cast<RankedTensorType>(v.getType()).getElementType());
  return llvm::divideCeil(int64_t(load.getVector()) * bytes, 4);
}

} // namespace

int64_t peakLiveRegisters(func::FuncOp func, llvm::function_ref<int64_t(Value)> registersOf,
                          LoadIssue issue) {
  llvm::DenseMap<Operation *, int64_t> at;
  int64_t next = 0;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) { at[op] = next++; });
  // The last position inside each op (its own for an op without regions).
  llvm::DenseMap<Operation *, int64_t> end;
  func.walk<WalkOrder::PostOrder>([&](Operation *op) {
    int64_t last = at[op];
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!block.empty())
          last = std::max(last, end[&block.back()]);
    end[op] = last;
  });
  SmallVector<int64_t> delta(next + 2, 0);
  auto live = [&](Value v, int64_t from) {
    // A broadcast's copies of an element are one register.
    Value held = v;
    while (auto broadcast = held.getDefiningOp<tile::BroadcastOp>())
      held = broadcast.getOperand();
    int64_t regs = registersOf(held);
    if (regs == 0 || isFused(v))
      return;
    if (int64_t streamed = issue == LoadIssue::Late ? streamedRegisters(v) : 0)
      regs = std::min(regs, streamed);
    int64_t last = v.use_empty() ? from + 1 : from; // an unused value occupies its def
    for (OpOperand &use : v.getUses()) {
      Operation *user = consumerOf(use.getOwner());
      int64_t until = at[user];
      // A use inside a loop the value is defined outside of lasts the whole loop.
      for (Operation *p = user->getParentOp(); p && p != func; p = p->getParentOp())
        if (isa<LoopLikeOpInterface>(p) && !p->isAncestor(v.getParentBlock()->getParentOp()))
          until = end[p] + 1;
      last = std::max(last, until);
    }
    delta[from] += regs;
    delta[last] -= regs;
  };
  func.walk([&](Operation *op) {
    // Results of an op with regions (a loop's, an if's) exist once its regions have run.
    int64_t from = op->getNumRegions() ? end[op] + 1 : at[op];
    if (isGlobalLoad(op) && issue == LoadIssue::Early)
      from = at[&op->getBlock()->front()];
    for (Value result : op->getResults())
      live(result, from);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          live(arg, at[op]);
  });
  int64_t peak = 0, now = 0;
  for (int64_t d : delta)
    peak = std::max(peak, now += d);
  return peak;
}

int64_t blocksByRegisters(func::FuncOp func, unsigned numWarps, int64_t threads) {
  int64_t live = peakLiveRegisters(
      func, [&](Value v) { return registersOfLayout(v, numWarps); }, LoadIssue::Late);
  return std::max<int64_t>(1, kRegistersPerSM / (threads * (live + kRegisterHeadroom)));
}

int64_t registersOfLayout(Value v, unsigned numWarps) {
  std::optional<LinearLayout> layout = linearLayoutOf(v.getType(), numWarps);
  if (!layout)
    return 0;
  int64_t distinct = 1;
  for (uint64_t basis : layout->getBases(kRegister))
    if (basis != 0)
      distinct *= 2;
  int64_t bytes = elementBytes(cast<RankedTensorType>(v.getType()).getElementType());
  return llvm::divideCeil(distinct * bytes, 4);
}

} // namespace tilecc::tilegpu
