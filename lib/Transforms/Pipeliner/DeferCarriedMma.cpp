//===- DeferCarriedMma.cpp - a carried product issued one step late ---------------===//
//
// `tile-defer-carried-mma` lets the tensor cores run while a loop step's warps work on the
// result of a first product, as FlashAttention-3 schedules each warpgroup. In a step
//
//   s    = warpgroup_wait(warpgroup_mma(Q, K[j], 0))      M1, W1: a product of the step
//   ...  work on s (attention's softmax) ...              early: everything else
//   c, a = late(acc, ...)                                 late: M2's operands, see below
//   acc' = warpgroup_wait(warpgroup_mma(a, V[j], c))      M2, W2: the loop's accumulator
//   barrier_arrive empty[j]                               the step's stages go back
//
// the product M2 of step j is issued in step j + 1 right after that step's M1 and waited for
// after its work on s, so that P x V of one step overlaps the softmax of the next:
//
//   if (lb < ub) {
//     early(lb); late(lb, acc0)                                   (W1 waits for 0 groups)
//     for j = lb + step .. ub:                  carries early's values, and c, a, stage of j-1
//       early(j) to M1; M2(j-1); early(j) after M1                (W1 waits for 1 group)
//       W2(j-1); barrier_arrive(j-1); late(j, acc')
//     M2(ub-1); W2; barrier_arrive
//   }
//
// `late` is what only M2 reads: the scaling of the carried accumulator, and the conversions
// and shape changes that bring the other operands to M2's registers (a cast to 16 bits, the
// operand layout, a broadcast); the work they start from stays early. It runs when no group
// is in flight: the registers a later wgmma reads are defined only then (ptxas serializes
// every wgmma of the loop otherwise, C7513). The values are the same
// as the step's own order computes, with the same operations: the products merely start
// earlier. It applies where M2 reads A from registers the step computes, its stages are
// released by barrier_arrive after W2 (a warp-specialized ring: step j-1's stage stays put
// while step j waits for its own) of two stages or more, the loop carries W2's result and
// nothing else reads it, and the ops after W1 have no side effects but those releases (they
// may branch: a mask that tile-uniform-selects tests per block is an scf.if).
//
// Where the program has two or more warpgroups and producer warps fill its rings (nothing
// else makes its warpgroups meet in the loop), they also take turns issuing (FlashAttention-3's
// ping-pong): each issue of M1 and M2 (one issue of both in the loop) is bracketed by
// `tilegpu.turn_wait` and `tilegpu.turn_pass`, so that one warpgroup's products run on the
// tensor cores while the other works on its scores. The last warpgroup passes the first turn
// (`turn_pass once`) and the first takes the last pass back (`turn_wait once`), inside the
// zero-trip guard: every pass is waited for.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/Tile/TileDialect.h"
#include "tilecc/Dialect/TileGPU/SharedStaging.h"
#include "tilecc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace tilecc {
#define GEN_PASS_DEF_TILEDEFERCARRIEDMMA
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

/// The parts of a loop step the schedule moves (see the file comment).
struct Step {
  tilegpu::WarpgroupMmaOp m1, m2;
  tilegpu::WarpgroupWaitOp w1, w2;
  unsigned carried = 0;                    // the iter arg W2's result becomes
  SmallVector<Operation *> releases;       // barrier_arrive after W2
  llvm::SetVector<Operation *> late;       // pure ops only M2 reads, in body order
  llvm::SetVector<Value> crossing;         // what M2 and the releases read from the body
};

/// True when `op`, or an op nested in it, touches a warpgroup product or a barrier.
bool schedulesGroups(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isa<tilegpu::WarpgroupMmaOp, tilegpu::WarpgroupWaitOp, tilegpu::BarrierOp,
                   tilegpu::BarrierWaitOp, tilegpu::BarrierArriveOp>(nested)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

/// True when `op` or an op nested in it reads `arg` or a result of an op in `ops`.
bool readsAny(Operation *op, Value arg, const llvm::SmallPtrSetImpl<Operation *> &ops) {
  return op
      ->walk([&](Operation *nested) {
        for (Value v : nested->getOperands())
          if (v == arg || (v.getDefiningOp() && ops.contains(v.getDefiningOp())))
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// The step of `loop` when the schedule applies to it.
std::optional<Step> matchStep(scf::ForOp loop) {
  if (loop->hasAttr(tilegpu::kMmaInFlightAttrName) || loop.getNumResults() == 0)
    return std::nullopt;
  Block *body = loop.getBody();
  Step step;
  SmallVector<tilegpu::WarpgroupMmaOp> mmas;
  SmallVector<tilegpu::WarpgroupWaitOp> waits;
  for (Operation &op : body->without_terminator()) {
    if (auto mma = dyn_cast<tilegpu::WarpgroupMmaOp>(op))
      mmas.push_back(mma);
    else if (auto wait = dyn_cast<tilegpu::WarpgroupWaitOp>(op))
      waits.push_back(wait);
    else if (op.getNumRegions() && schedulesGroups(&op))
      return std::nullopt;
  }
  if (mmas.size() != 2 || waits.size() != 2)
    return std::nullopt;
  step.m1 = mmas[0], step.m2 = mmas[1], step.w1 = waits[0], step.w2 = waits[1];
  for (auto [mma, wait] : {std::pair(step.m1, step.w1), std::pair(step.m2, step.w2)})
    if (!mma->hasOneUse() || wait.getAcc() != mma.getResult() || wait.getPending() != 0)
      return std::nullopt;
  if (!step.w1->isBeforeInBlock(step.m2) || !step.m2.aInRegisters() ||
      step.m2.getB().getType().getStages() < 2)
    return std::nullopt;

  // W2's result is only carried to the next step.
  if (!step.w2->hasOneUse() || !isa<scf::YieldOp>(*step.w2->getUsers().begin()))
    return std::nullopt;
  step.carried = step.w2->getUses().begin()->getOperandNumber();
  BlockArgument acc = loop.getRegionIterArg(step.carried);
  if (auto steps = loop->getAttrOfType<IntegerAttr>(tilegpu::kRingStepsAttrName);
      steps && steps.getInt() == int64_t(step.carried))
    return std::nullopt;

  // After W1: ops without side effects (a mask's scf.if from tile-uniform-selects among
  // them), M2, W2 and the releases of the stages after W2.
  for (Operation *op = step.w1->getNextNode(); op != body->getTerminator();
       op = op->getNextNode()) {
    if (op == step.m2 || op == step.w2 || (isMemoryEffectFree(op) && !schedulesGroups(op)))
      continue;
    if (!isa<tilegpu::BarrierArriveOp>(op) || !step.w2->isBeforeInBlock(op))
      return std::nullopt;
    step.releases.push_back(op);
  }
  if (step.releases.empty())
    return std::nullopt;

  // late: what M2 reads and only it: the carried accumulator's scaling, and the conversions
  // and shape changes that bring the other operands to M2's registers (a cast to 16 bits,
  // the operand layout, a broadcast). The work they start from stays early, under M2.
  llvm::SmallPtrSet<Operation *, 16> fromAcc;
  for (Operation &op : body->without_terminator()) {
    if (readsAny(&op, acc, fromAcc))
      fromAcc.insert(&op);
  }
  auto onlyFeedsM2 = [&](Operation *op) {
    for (Operation *user : op->getUsers()) {
      Operation *inBody = body->findAncestorOpInBlock(*user);
      if (inBody != step.m2 && !step.late.contains(inBody))
        return false;
    }
    return !op->use_empty();
  };
  auto registersOnly = [&](Operation *op) {
    return fromAcc.contains(op) ||
           isa<arith::TruncFOp, tilegpu::ConvertLayoutOp, tile::ReshapeOp, tile::BroadcastOp,
               arith::ConstantOp>(op);
  };
  SmallVector<Operation *> late;
  for (Operation *op = step.m2->getPrevNode(); op && op != step.w1; op = op->getPrevNode())
    if (isPure(op) && registersOnly(op) && onlyFeedsM2(op)) {
      step.late.insert(op);
      late.push_back(op);
    }
  step.late = llvm::SetVector<Operation *>(late.rbegin(), late.rend());

  // M2 reads registers the step computes, and the carried accumulator reaches nothing else.
  Operation *aDef = step.m2.getA().getDefiningOp();
  if (!aDef || aDef->getBlock() != body)
    return std::nullopt;
  for (Operation *user : acc.getUsers()) {
    Operation *inBody = body->findAncestorOpInBlock(*user);
    if (inBody != step.m2 && !step.late.contains(inBody))
      return std::nullopt;
  }
  // Nothing else depends on what moves.
  llvm::SmallPtrSet<Operation *, 16> moved(step.late.begin(), step.late.end());
  moved.insert(step.m2);
  moved.insert(step.w2);
  for (Operation &op : body->without_terminator()) {
    if (moved.contains(&op) || llvm::is_contained(step.releases, &op))
      continue;
    if (readsAny(&op, acc, moved))
      return std::nullopt;
  }

  // What M2 and the releases read from the step: carried from one step to the next.
  auto cross = [&](Operation *op) {
    for (Value v : op->getOperands()) {
      if (v == step.m2.getResult())
        continue;
      Operation *def = v.getDefiningOp();
      bool inStep = def ? def->getBlock() == body : cast<BlockArgument>(v).getOwner() == body;
      if (inStep)
        step.crossing.insert(v);
    }
  };
  cross(step.m2);
  for (Operation *release : step.releases)
    cross(release);
  return step;
}

/// Rewrites `loop` by the schedule of the file comment.
void defer(scf::ForOp loop, const Step &step, bool turns) {
  Location loc = loop.getLoc();
  Block *body = loop.getBody();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  OpBuilder b(loop);
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(), stride = loop.getStep();
  Value any = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, lb, ub);
  auto guard = b.create<scf::IfOp>(loc, loop.getResultTypes(), any, /*withElseRegion=*/true);
  OpBuilder::atBlockEnd(&guard.getElseRegion().front())
      .create<scf::YieldOp>(loc, loop.getInitArgs());

  b.setInsertionPointToStart(&guard.getThenRegion().front());
  // The warpgroups' turns to issue: the last passes the first turn to the first warpgroup.
  auto waitTurn = [&] {
    if (turns)
      b.create<tilegpu::TurnWaitOp>(loc, /*once=*/false);
  };
  auto passTurn = [&] {
    if (turns)
      b.create<tilegpu::TurnPassOp>(loc, /*once=*/false);
  };
  if (turns)
    b.create<tilegpu::TurnPassOp>(loc, /*once=*/true);
  // `passAfterM1`: the step issues nothing more in its turn.
  auto cloneEarly = [&](IRMapping &map, Operation *from, Operation *to, int w1Pending,
                        bool passAfterM1) {
    for (Operation *op = from; op != to; op = op->getNextNode()) {
      if (op == step.m2 || op == step.w2 || step.late.contains(op) ||
          llvm::is_contained(step.releases, op))
        continue;
      if (op == step.m1)
        waitTurn();
      Operation *copy = b.clone(*op, map);
      if (op == step.m1 && passAfterM1)
        passTurn();
      if (op == step.w1)
        cast<tilegpu::WarpgroupWaitOp>(copy).setPending(uint32_t(w1Pending));
    }
  };
  auto cloneLate = [&](IRMapping &map) {
    for (Operation *op : step.late)
      b.clone(*op, map);
  };
  // Issues M2 and waits for it, then releases its stages: the previous step's.
  auto finishPrevious = [&](IRMapping &map, bool issue) -> Value {
    if (issue) {
      waitTurn();
      b.clone(*step.m2, map);
      passTurn();
    }
    Value done = b.clone(*step.w2, map)->getResult(0);
    for (Operation *release : step.releases)
      b.clone(*release, map);
    return done;
  };

  // Prologue: the first step up to M2.
  IRMapping first;
  first.map(loop.getInductionVar(), lb);
  first.map(loop.getRegionIterArgs(), loop.getInitArgs());
  cloneEarly(first, &body->front(), body->getTerminator(), 0, /*passAfterM1=*/true);
  cloneLate(first);

  // The loop from the second step: the early values, then what crosses from step to step.
  SmallVector<Value> inits;
  SmallVector<unsigned> earlyArgs;
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
    if (i != step.carried) {
      earlyArgs.push_back(i);
      inits.push_back(first.lookupOrDefault(yield.getOperand(i)));
    }
  for (Value v : step.crossing)
    inits.push_back(first.lookupOrDefault(v));
  Value second = b.create<arith::AddIOp>(loc, lb, stride);
  auto kernel = b.create<scf::ForOp>(loc, second, ub, stride, inits);
  kernel->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  if (auto steps = loop->getAttrOfType<IntegerAttr>(tilegpu::kRingStepsAttrName))
    kernel->setAttr(tilegpu::kRingStepsAttrName,
                    b.getI32IntegerAttr(steps.getInt() - (steps.getInt() > step.carried)));
  {
    OpBuilder::InsertionGuard keep(b);
    b.setInsertionPointToStart(kernel.getBody());
    IRMapping now, previous;
    now.map(loop.getInductionVar(), kernel.getInductionVar());
    for (auto [k, i] : llvm::enumerate(earlyArgs))
      now.map(loop.getRegionIterArg(i), kernel.getRegionIterArg(k));
    for (auto [k, v] : llvm::enumerate(step.crossing))
      previous.map(v, kernel.getRegionIterArg(earlyArgs.size() + k));
    cloneEarly(now, &body->front(), step.m1->getNextNode(), 1, /*passAfterM1=*/false);
    b.clone(*step.m2, previous);
    passTurn();
    cloneEarly(now, step.m1->getNextNode(), body->getTerminator(), 1, /*passAfterM1=*/false);
    Value acc = finishPrevious(previous, /*issue=*/false);
    now.map(loop.getRegionIterArg(step.carried), acc);
    cloneLate(now);
    SmallVector<Value> next;
    for (unsigned i : earlyArgs)
      next.push_back(now.lookupOrDefault(yield.getOperand(i)));
    for (Value v : step.crossing)
      next.push_back(now.lookupOrDefault(v));
    b.create<scf::YieldOp>(loc, next);
  }

  // Epilogue: the last step's M2.
  IRMapping last;
  for (auto [k, v] : llvm::enumerate(step.crossing))
    last.map(v, kernel.getResult(earlyArgs.size() + k));
  Value acc = finishPrevious(last, /*issue=*/true);
  SmallVector<Value> results(loop.getNumResults());
  for (auto [k, i] : llvm::enumerate(earlyArgs))
    results[i] = kernel.getResult(k);
  results[step.carried] = acc;
  if (turns) // the first warpgroup takes the last warpgroup's last pass
    b.create<tilegpu::TurnWaitOp>(loc, /*once=*/true);
  b.create<scf::YieldOp>(loc, results);

  loop.replaceAllUsesWith(guard.getResults());
  loop.erase();
}

struct DeferCarriedMmaPass
    : public tilecc::impl::TileDeferCarriedMmaBase<DeferCarriedMmaPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
    // Warpgroups take turns where the program has two or more and its loop meets nothing else
    // of theirs (producer warps fill the rings).
    unsigned numWarps = tilegpu::numWarpsOf(func);
    bool turns = numWarps >= 8 && numWarps % 4 == 0 && !func.getOps<tilegpu::ProducerOp>().empty();
    for (scf::ForOp loop : loops)
      if (std::optional<Step> step = matchStep(loop))
        defer(loop, *step, turns);
  }
};

} // namespace
