//===- WarpgroupMma.cpp - mma operands multiplied straight from their rings ---------===//
//
// `tile-warpgroup-mma` runs after tile-pipeline-mma-operands. Where both operands of a
// `tilegpu.mma` are read from ring stages that wgmma can address (tilegpu::warpgroupReadable),
// or B is and A is a 16-bit tile in registers (an accumulator cast for the next mma: its
// registers are wgmma's A fragments), and a barrier earlier in the same block publishes the
// stages (or a wait on the stage's `full` barrier in a warp-specialized ring, which the fence
// then follows), the reads and the mma become one `tilegpu.warpgroup_mma` of the stages (and
// the registers), issued as soon as they are known,
// and a `tilegpu.warpgroup_wait` where the mma was, so that what the step does between them
// (the copies of later steps) overlaps the tensor cores' work:
//
//   async_wait {pending = D-1}; barrier             async_wait {pending = D-1}
//   %a = local_load %ra[%s]                         fence_async_shared; barrier
//   %b = local_load %rb[%s]                    =>   %p = warpgroup_mma %ra[%s], %rb[%s], %c'
//   ... copies of step i + D ...                    ... copies of step i + D ...
//   %r = mma %a, %b, %c                             %r = warpgroup_wait %p {pending = 0}
//
// (D the pipeliner's copy distance: the copies never write the stage being read.)
//
// Where the pipeliner left a step's stages alone for a step more (kMmaInFlightAttrName on
// the loop), the wait keeps that one group in flight (`pending = 1`): the mma of step i runs
// while step i + 1 waits for its copies and issues its own, and a wait of 0 after the loop
// ends the last one (the accumulator also enters the loop through a wait of 0). A group
// with A in registers is always waited for at once (`pending = 0`): ptxas (CUDA 13.0) lets
// other values take the registers of an A still in flight; and where it multiplies a
// loop-invariant A from registers and another product of the same instruction shape follows
// in the loop, it even gives the second product's A the registers of the first's, which the
// next step still needs (attention's Q and P with the head dimension equal to the key
// block). The pipeliner therefore puts such an A in a buffer (a one-stage ring) instead.
//
// The accumulator moves to the layout of the program's W warps stacked along M
// (`#tilegpu.mma<warpsPerBlock = [W, 1]>`, warpgroup g holding rows 64g .. 64g+63 of every
// 16W), the wgmma accumulator fragment; the loops around it carry it so (MmaCarry.h) and the
// conversion folding removes the round trips.
//
//===----------------------------------------------------------------------===//
#include "MmaCarry.h"
#include "tilecc/Dialect/TileGPU/SharedScratch.h"
#include "tilecc/Dialect/TileGPU/SharedStaging.h"
#include "tilecc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tilecc {
#define GEN_PASS_DEF_TILEWARPGROUPMMA
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

/// The op before `op` in its block that publishes the stages: a barrier after the program's
/// own copies, or the wait on a full stage of a warp-specialized ring; null if none.
Operation *publisherBefore(Operation *op) {
  for (Operation *p = op->getPrevNode(); p; p = p->getPrevNode())
    if (isa<tilegpu::BarrierOp, tilegpu::BarrierWaitOp>(p))
      return p;
  return nullptr;
}

/// The ring read `v` is, when wgmma can read its stage in place as operand `operand`.
tilegpu::LocalLoadOp ringRead(Value v, unsigned operand) {
  auto load = v.getDefiningOp<tilegpu::LocalLoadOp>();
  if (!load || !load->hasOneUse() ||
      !tilegpu::warpgroupReadable(load.getBuffer().getType(), operand))
    return {};
  return load;
}

/// The axis along which the stages of `ring` store their rows.
unsigned fastAxis(tilegpu::LocalLoadOp ring) {
  return tilegpu::columnMajor(ring.getBuffer().getType()) ? 0 : 1;
}

/// Rewrites `op` (see the file comment); returns false when it stays an mma.sync.
bool rewrite(tilegpu::MmaOp op, unsigned numWarps) {
  tilegpu::LocalLoadOp a = ringRead(op.getA(), 0), b = ringRead(op.getB(), 1);
  RankedTensorType acc = op.getAcc().getType();
  if (!b)
    return false;
  RankedTensorType bTile = b.getBuffer().getType().getTile();
  if (a ? !tilegpu::warpgroupMultiplies(a.getBuffer().getType().getTile(), fastAxis(a), bTile,
                                        fastAxis(b), acc, numWarps)
        : !tilegpu::warpgroupMultipliesFromRegisters(op.getA().getType(), bTile, fastAxis(b),
                                                     acc, numWarps))
    return false;
  // A loop-invariant A stays out of registers the group reads (see the file comment).
  auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
  if (!a && (!loop || !variesInLoop(loop, op.getA())))
    return false;
  Operation *publisher = publisherBefore(b);
  if (!publisher || publisher->getBlock() != op->getBlock() ||
      (a && publisherBefore(a) != publisher))
    return false;

  // The copies' writes reach the async proxy: fenced by the threads that waited for them,
  // before the barrier that publishes them, or by every reader after the wait on a stage
  // other threads filled.
  OpBuilder builder(op);
  Location loc = op.getLoc();
  Operation *issueAfter = publisher;
  if (isa<tilegpu::BarrierWaitOp>(publisher)) {
    // One fence after the wait serves every mma of the step.
    issueAfter = publisher->getNextNode();
    if (!isa<tilegpu::FenceAsyncSharedOp>(issueAfter)) {
      builder.setInsertionPointAfter(publisher);
      issueAfter = builder.create<tilegpu::FenceAsyncSharedOp>(loc);
    }
  } else if (!isa_and_nonnull<tilegpu::FenceAsyncSharedOp>(publisher->getPrevNode())) {
    builder.setInsertionPoint(publisher);
    builder.create<tilegpu::FenceAsyncSharedOp>(loc);
  }

  // Issue as soon as the stages are known, wait where the mma was.
  Value aFirst = a ? Value(a.getStage()) : Value(op.getA());
  for (Value v : SmallVector<Value>{aFirst, b.getStage(), op.getAcc()})
    if (Operation *def = v.getDefiningOp(); def && def->getBlock() == op->getBlock() &&
                                            issueAfter->isBeforeInBlock(def))
      issueAfter = def;
  builder.setInsertionPointAfter(issueAfter);
  auto layout = tilegpu::MmaLayoutAttr::get(op.getContext(), {numWarps, 1u});
  auto fragments = RankedTensorType::get(acc.getShape(), acc.getElementType(), layout);
  Value c = builder.create<tilegpu::ConvertLayoutOp>(loc, fragments, op.getAcc());
  Value product = builder.create<tilegpu::WarpgroupMmaOp>(
      loc, fragments, a ? Value(a.getBuffer()) : Value(op.getA()),
      a ? Value(a.getStage()) : Value(), b.getBuffer(), b.getStage(), c);
  // Where the ring leaves the stage alone for a step more, the group may stay in flight
  // until the next step's wait: the loop's results are waited for after it.
  // A group that reads A from registers is waited for at once: ptxas (CUDA 13.0) does not
  // keep the registers of an A still in flight from being reused.
  bool inFlight = a && loop && loop->hasAttr(tilegpu::kMmaInFlightAttrName) && onlyCarried(op);
  builder.setInsertionPoint(op);
  Value ready = builder.create<tilegpu::WarpgroupWaitOp>(loc, fragments, product, inFlight ? 1 : 0);
  op.replaceAllUsesWith(builder.create<tilegpu::ConvertLayoutOp>(loc, acc, ready).getResult());
  if (inFlight) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    builder.setInsertionPointAfter(loop);
    for (OpOperand &operand : yield->getOpOperands()) {
      auto convert = operand.get().getDefiningOp<tilegpu::ConvertLayoutOp>();
      if (!convert || convert.getSrc() != ready)
        continue;
      // After the loop: result -> fragments -> wait 0 -> the carried type.
      Value result = loop.getResult(operand.getOperandNumber());
      auto toFragments = builder.create<tilegpu::ConvertLayoutOp>(loc, fragments, result);
      Value done = builder.create<tilegpu::WarpgroupWaitOp>(loc, fragments, toFragments, 0);
      auto back = builder.create<tilegpu::ConvertLayoutOp>(loc, result.getType(), done);
      result.replaceAllUsesExcept(back, toFragments);
    }
  }
  op.erase();
  if (a)
    a.erase();
  b.erase();
  return true;
}

struct WarpgroupMmaPass : public tilecc::impl::TileWarpgroupMmaBase<WarpgroupMmaPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    unsigned numWarps = unsigned(tilegpu::numWarpsOf(func));
    SmallVector<tilegpu::MmaOp> mmas;
    func.walk([&](tilegpu::MmaOp op) { mmas.push_back(op); });
    bool changed = false;
    for (tilegpu::MmaOp op : mmas)
      changed |= rewrite(op, numWarps);
    if (!changed)
      return;
    func.walk([&](scf::ForOp loop) { carryInMmaLayout(loop); }); // inner loops first
    RewritePatternSet patterns(&getContext());
    tilegpu::ConvertLayoutOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsAndFoldGreedily(func, std::move(patterns))))
      return signalPassFailure();
    func.walk([&](scf::ForOp loop) { readyBeforeLoop(loop); });
  }

  /// An accumulator a loop carries while one group stays in flight enters the loop through a
  /// wait of 0: its registers are then defined by no other instruction while groups run (else
  /// ptxas serializes every wgmma of the loop, C7515).
  static void readyBeforeLoop(scf::ForOp loop) {
    if (!loop->hasAttr(tilegpu::kMmaInFlightAttrName))
      return;
    OpBuilder builder(loop);
    for (auto [arg, init] : llvm::zip(loop.getRegionIterArgs(), loop.getInitArgsMutable())) {
      if (!arg.hasOneUse() || !isa<tilegpu::WarpgroupMmaOp>(*arg.getUsers().begin()))
        continue;
      init.set(builder.create<tilegpu::WarpgroupWaitOp>(loop.getLoc(), arg.getType(), init.get(),
                                                        0));
    }
  }
};

} // namespace
