//===- PrefetchLoads.cpp - issue the next K step's loads before this step's mma -----===//
//
// `tile-prefetch-loads` software-pipelines the global loads of mma K loops by one step: a
// `tilegpu.global_load` at the top level of an `scf.for` body that runs an mma, reading a
// view no program writes (a shared input) at coordinates computed from the induction variable
// and values defined outside the loop only, is
//
//  * issued once before the loop for the first iteration,
//  * issued at the top of the body for the next iteration (induction variable + step), its
//    result carried to the next iteration, so the loads are in flight while this step's
//    conversions and mma run,
//  * and the body's original load is replaced by the carried value.
//
// The last iteration loads one step past the loop's end: the load's bounds still mask every
// element outside the array (it reads zeros there), so the extra load is safe and cheap.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace tilecc {
#define GEN_PASS_DEF_TILEPREFETCHLOADS
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

/// The pure ops of `loop`'s body that `load` depends on, in order, or nullopt when it also
/// depends on a carried value, an op with effects or regions, or a nested block.
std::optional<llvm::SetVector<Operation *>> sliceOf(tilegpu::GlobalLoadOp load,
                                                   scf::ForOp loop) {
  llvm::SetVector<Operation *> slice;
  Block *body = loop.getBody();
  std::function<bool(Value)> visit = [&](Value v) -> bool {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return arg.getOwner() != body || arg == loop.getInductionVar();
    Operation *def = v.getDefiningOp();
    if (!loop->isProperAncestor(def))
      return true;
    if (def->getBlock() != body || def->getNumRegions() != 0 || !isMemoryEffectFree(def))
      return false;
    if (slice.contains(def))
      return true;
    for (Value operand : def->getOperands())
      if (!visit(operand))
        return false;
    slice.insert(def);
    return true;
  };
  for (Value operand : load->getOperands())
    if (!visit(operand))
      return std::nullopt;
  return slice;
}

/// A copy of `load` (and of the slice it depends on) at the builder's point, reading at `iv`
/// where it read at the induction variables `inductionVars` (the loop's, before and after it
/// is rebuilt with more results).
Value cloneLoad(OpBuilder &builder, tilegpu::GlobalLoadOp load,
                const llvm::SetVector<Operation *> &slice, ValueRange inductionVars, Value iv) {
  IRMapping map;
  for (Value v : inductionVars)
    map.map(v, iv);
  for (Operation *op : slice)
    builder.clone(*op, map);
  return builder.clone(*load, map)->getResult(0);
}

bool runsMma(scf::ForOp loop) {
  for (Operation &op : *loop.getBody())
    if (isa<tilegpu::MmaOp, tile::MmaOp>(op))
      return true;
  return false;
}

void prefetch(scf::ForOp loop) {
  struct Candidate {
    tilegpu::GlobalLoadOp load;
    llvm::SetVector<Operation *> slice;
  };
  SmallVector<Candidate> candidates;
  for (Operation &op : *loop.getBody()) {
    auto load = dyn_cast<tilegpu::GlobalLoadOp>(op);
    if (!load || load.getView().getType().getAccess() != tile::Access::Shared)
      continue;
    if (std::optional<llvm::SetVector<Operation *>> slice = sliceOf(load, loop))
      candidates.push_back({load, std::move(*slice)});
  }
  if (candidates.empty())
    return;

  OpBuilder before(loop);
  SmallVector<Value> first;
  for (Candidate &c : candidates)
    first.push_back(cloneLoad(before, c.load, c.slice, {loop.getInductionVar()},
                              loop.getLowerBound()));

  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  auto yields = [&](OpBuilder &, Location loc, ArrayRef<BlockArgument> carried) {
    Block *body = carried.front().getOwner();
    auto newLoop = cast<scf::ForOp>(body->getParentOp());
    OpBuilder top = OpBuilder::atBlockBegin(body);
    Value next = top.create<arith::AddIOp>(loc, newLoop.getInductionVar(), newLoop.getStep());
    SmallVector<Value> nextLoads;
    for (auto [c, value] : llvm::zip(candidates, carried)) {
      nextLoads.push_back(cloneLoad(
          top, c.load, c.slice, {loop.getInductionVar(), newLoop.getInductionVar()}, next));
      c.load.getResult().replaceAllUsesWith(value);
    }
    return nextLoads;
  };
  FailureOr<LoopLikeOpInterface> replaced =
      loop.replaceWithAdditionalYields(rewriter, first, /*replaceInitOperandUsesInLoop=*/false,
                                       yields);
  if (failed(replaced))
    return;
  for (Candidate &c : candidates)
    c.load.erase();
}

struct TilePrefetchLoadsPass
    : public tilecc::impl::TilePrefetchLoadsBase<TilePrefetchLoadsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (runsMma(loop))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      prefetch(loop);
  }
};

} // namespace
