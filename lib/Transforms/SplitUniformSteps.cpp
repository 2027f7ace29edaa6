//===- SplitUniformSteps.cpp - a loop's steps without its uniform branches ------===//
//
// `tile-split-uniform-steps` runs an `scf.for` in two parts where its body branches on a
// uniform select's condition (an `scf.if` marked tile::kUniformSelectAttrName by
// tile-uniform-selects) that the body computes from the induction variable and values defined
// outside the loop alone: attention's `col < seq` and causal `col <= row` masks, which hold
// for every key block but the last and the diagonal ones.
//
//   %k = first step from %lb at which some such condition fails (%ub if none):
//          scf.while (%j = %lb) { %j < %ub && all conditions at %j } do { %j + %step }
//   %a = scf.for %iv = %lb to %k     iter_args(init)  { the body, each such if replaced by
//                                                       its then-branch }
//   %r = scf.for %iv = %k  to %ub    iter_args(%a)    { the body as it was }
//
// The steps run in the same order with the same values, so any condition is handled; the
// split pays where the condition holds on a prefix of the steps. The first part has no
// branch, so nothing merges the branch's results: with a warpgroup mma's accumulator
// (attention's scores) behind the branch, ptxas copies every register of the tile into the
// merged value each step, which costs a fifth of attention's throughput on an H100. The scan
// evaluates each condition at the steps the loop itself evaluates it, and a few scalar
// instructions per step.
//
// The pass runs after the pipeliner and tile-defer-carried-mma, on the loops they built: both
// parts keep the loop's attributes (a ring's step count, a multiply in flight), and its
// producer copy loop is left whole.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/Tile/TileDialect.h"
#include "tilecc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace tilecc {
#define GEN_PASS_DEF_TILESPLITUNIFORMSTEPS
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

/// The ops of `loop`'s body that compute `cond` (in no particular order), when they are pure,
/// have no regions and read nothing of the body but the induction variable and each other;
/// else nothing.
std::optional<SmallVector<Operation *>> stepOnlySlice(scf::ForOp loop, Value cond) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work{cond};
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == loop.getInductionVar())
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (loop.getBody() == arg.getOwner())
        return std::nullopt; // a value the loop carries
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!loop.getBody()->findAncestorOpInBlock(*def))
      continue; // defined outside the loop
    if (def->getBlock() != loop.getBody() || def->getNumRegions() != 0 || !isPure(def))
      return std::nullopt;
    if (slice.insert(def))
      llvm::append_range(work, def->getOperands());
  }
  return SmallVector<Operation *>(slice.begin(), slice.end());
}

/// Replaces `branch` with the ops of its then-region.
void inlineThen(scf::IfOp branch) {
  Block *then = branch.thenBlock();
  auto yield = cast<scf::YieldOp>(then->getTerminator());
  branch.replaceAllUsesWith(yield.getOperands());
  yield.erase();
  branch->getBlock()->getOperations().splice(Block::iterator(branch), then->getOperations());
  branch.erase();
}

void split(scf::ForOp loop) {
  SmallVector<scf::IfOp> branches;
  SmallVector<Operation *> slice;
  for (auto branch : loop.getBody()->getOps<scf::IfOp>()) {
    if (!branch->hasAttr(tile::kUniformSelectAttrName))
      continue;
    std::optional<SmallVector<Operation *>> ops = stepOnlySlice(loop, branch.getCondition());
    if (!ops)
      continue;
    branches.push_back(branch);
    llvm::append_range(slice, *ops);
  }
  if (branches.empty())
    return;
  // Every condition's ops once, in the body's order.
  llvm::sort(slice, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  slice.erase(std::unique(slice.begin(), slice.end()), slice.end());

  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value lower = loop.getLowerBound(), upper = loop.getUpperBound(), step = loop.getStep();
  Type indexType = lower.getType();
  // The first step at which some condition fails: evaluated at the steps the loop runs.
  auto scan = b.create<scf::WhileOp>(loc, indexType, lower);
  {
    Block *before = b.createBlock(&scan.getBefore(), {}, indexType, loc);
    Value j = before->getArgument(0);
    Value inRange = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, j, upper);
    auto holds = b.create<scf::IfOp>(
        loc, inRange,
        [&](OpBuilder &inner, Location l) {
          IRMapping mapping;
          mapping.map(loop.getInductionVar(), j);
          for (Operation *op : slice)
            inner.clone(*op, mapping);
          Value all;
          for (scf::IfOp branch : branches) {
            Value c = mapping.lookupOrDefault(branch.getCondition());
            all = all ? inner.create<arith::AndIOp>(l, all, c).getResult() : c;
          }
          inner.create<scf::YieldOp>(l, all);
        },
        [&](OpBuilder &inner, Location l) {
          inner.create<scf::YieldOp>(
              l, inner.create<arith::ConstantIntOp>(l, 0, 1).getResult());
        });
    b.create<scf::ConditionOp>(loc, holds.getResult(0), j);
    Block *after = b.createBlock(&scan.getAfter(), {}, indexType, loc);
    b.create<scf::YieldOp>(loc, b.create<arith::AddIOp>(loc, after->getArgument(0), step)
                                    .getResult());
  }
  b.setInsertionPoint(loop);
  Value first = scan.getResult(0);

  // The steps where every condition holds, the branches folded; then the rest as they were.
  IRMapping cloned;
  auto uniform = cast<scf::ForOp>(b.clone(*loop, cloned));
  uniform.setUpperBound(first);
  for (scf::IfOp branch : branches)
    inlineThen(cast<scf::IfOp>(cloned.lookup(branch.getOperation())));
  // The conditions, and what only the dropped else-branches used, are dead there now.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*uniform.getBody())))
    if (isOpTriviallyDead(&op))
      op.erase();
  loop.setLowerBound(first);
  loop.getInitArgsMutable().assign(uniform.getResults());
}

struct TileSplitUniformStepsPass
    : public tilecc::impl::TileSplitUniformStepsBase<TileSplitUniformStepsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      split(loop);
  }
};

} // namespace
