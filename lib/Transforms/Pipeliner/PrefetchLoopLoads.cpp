//===- PrefetchLoopLoads.cpp - issue a loop's next global loads one step early ----===//
//
// `tile-prefetch-loop-loads` software-pipelines the global loads of an `scf.for` by one
// iteration, in registers: a load whose tile does not depend on what the loop computes is
// issued for step k + 1 at the top of step k and carried to it as a loop value, so that its
// memory latency overlaps step k's arithmetic and reductions instead of following them (a
// GEMV's K loop, a GEMM's operand tiles). A load qualifies when
//
//  * it is in the loop's body (not nested deeper) and reads a shared view, read-only for the
//    whole kernel, so that reading it one step early returns the same values;
//  * its offsets, starts and bounds are computed in the body by pure ops from the induction
//    variable and values defined outside the loop.
//
// A load whose index arithmetic does not involve the induction variable moves before the
// loop instead (made once). The first step's load moves before the loop. A load for a step the loop does not run (the
// one after the last, or the first of an empty loop) has its bounds emptied (its first bound
// set to its first start), so it reads nothing and the loop moves no extra bytes; this keeps a
// tile `whole` (tile-specialize-launch) whole. Each prefetched tile is live across the whole
// loop, so loads are prefetched only while the kernel's register estimate (RegisterPressure.h)
// with their tiles stays within kMostLiveRegisters: the tiles with the most bytes first (a
// GEMV's weight tile before the vector tile that every program reads from the cache).
//
//===----------------------------------------------------------------------===//
#include "LoopLoads.h"
#include "tilecc/Transforms/Passes.h"

#include "tilecc/Dialect/TileGPU/RegisterPressure.h"
#include "tilecc/Dialect/TileGPU/SharedScratch.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

namespace tilecc {
#define GEN_PASS_DEF_TILEPREFETCHLOOPLOADS
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;
using namespace tilecc::pipeliner;

namespace {

constexpr int64_t kMostLiveRegisters = 128;

struct PrefetchLoopLoadsPass
    : public tilecc::impl::TilePrefetchLoopLoadsBase<PrefetchLoopLoadsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    unsigned numWarps = tilegpu::numWarpsOf(func);
    auto registers = [&](Value v) { return tilegpu::registersOfLayout(v, numWarps); };
    int64_t live = tilegpu::peakLiveRegisters(func, registers);

    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops) {
      struct Candidate {
        tilegpu::GlobalLoadOp load;
        llvm::SetVector<Operation *> slice;
      };
      SmallVector<Candidate> candidates, invariant;
      for (auto load : loop.getBody()->getOps<tilegpu::GlobalLoadOp>()) {
        if (!readsSharedArgument(load))
          continue;
        bool usesIv = false;
        std::optional<llvm::SetVector<Operation *>> slice =
            indexSlice(loop, load->getOperands().drop_front(), usesIv);
        if (!slice)
          continue;
        if (!usesIv) {
          invariant.push_back({load, std::move(*slice)});
          continue;
        }
        candidates.push_back({load, std::move(*slice)});
      }
      // A load every step repeats is made once, before the loop, with its index arithmetic
      // (slices may share ops: they move once, in program order).
      llvm::SetVector<Operation *> hoisted;
      for (Candidate &c : invariant) {
        hoisted.insert(c.slice.begin(), c.slice.end());
        hoisted.insert(c.load);
      }
      SmallVector<Operation *> ordered(hoisted.begin(), hoisted.end());
      llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
      for (Operation *op : ordered)
        op->moveBefore(loop);
      llvm::stable_sort(candidates, [](const Candidate &a, const Candidate &b) {
        return tileBytes(a.load) > tileBytes(b.load);
      });
      llvm::erase_if(candidates, [&](Candidate &c) {
        int64_t extra = registers(c.load.getResult());
        if (live + extra > kMostLiveRegisters)
          return true;
        live += extra;
        return false;
      });
      if (candidates.empty())
        continue;

      // The first step's tiles, before the loop.
      rewriter.setInsertionPoint(loop);
      SmallVector<Value> firsts;
      for (Candidate &c : candidates)
        firsts.push_back(cloneLoadAt(rewriter, c.load, c.slice, loop.getInductionVar(),
                                     loop.getLowerBound(), loop.getUpperBound())
                             .getResult());
      // Each step issues the next step's tiles first and uses the ones carried in.
      Value step = loop.getStep(), last = loop.getUpperBound();
      auto next = [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument>) {
        Block *body = candidates.front().load->getBlock();
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(body);
        Value iv = body->getArgument(0);
        Value following = b.create<arith::AddIOp>(loc, iv, step);
        SmallVector<Value> tiles;
        for (Candidate &c : candidates) // the slice reads the new loop's induction variable
          tiles.push_back(cloneLoadAt(b, c.load, c.slice, iv, following, last).getResult());
        return tiles;
      };
      FailureOr<LoopLikeOpInterface> replaced = loop.replaceWithAdditionalYields(
          rewriter, firsts, /*replaceInitOperandUsesInLoop=*/false, next);
      if (failed(replaced)) {
        signalPassFailure();
        return;
      }
      auto pipelined = cast<scf::ForOp>(replaced->getOperation());
      unsigned first = pipelined.getNumRegionIterArgs() - candidates.size();
      llvm::SetVector<Operation *> sliceOps;
      for (auto [k, c] : llvm::enumerate(candidates)) {
        c.load.replaceAllUsesWith(pipelined.getRegionIterArgs()[first + k]);
        c.load.erase();
        sliceOps.insert(c.slice.begin(), c.slice.end());
      }
      eraseUnusedSlices(sliceOps); // the index arithmetic only the moved loads used
    }
  }
};

} // namespace
