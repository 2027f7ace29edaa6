//===- TensorMapCopies.cpp - a producer's rings filled through tensor maps -------===//
//
// `tile-tensor-map-copies` gives the copy loop of a `tilegpu.producer` (the loop
// tile-pipeline-mma-operands builds: wait for a free stage, async copies into it, arrive on
// its `full` barrier as they land) a second form that the tensor memory accelerator runs:
//
//   %map, %valid = tilegpu.tensor_map %view      (one per view and stage layout, at the top)
//   producer:
//     if (all maps valid)
//       for steps i: wait empty[s]; barrier_expect full[s] {bytes}   (every thread arrives,
//                    the first thread expects the bytes of all the copies)
//                    tensor_map_copy %map[offsets] into stage s arrive full[s]   (each copy)
//     else
//       the loop as it was
//
// A copy qualifies when it reads a view argument of the kernel within the view's own shape
// (no starts, bounds the view's extents: the tensor map zero-fills outside the same box) into
// stages a tensor map can write (tilegpu::tensorMapBox). The `full` barrier keeps its
// arrivals (one per producer thread), so both forms share it. Where a launch cannot build a
// map (a view that is not contiguous along its last axis, a base or stride that is not a
// multiple of 16 bytes, a GPU without the unit), the async copies run. A copy that rounds
// floats to TF32 goes through a map that rounds (`tf32`).
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/TileGPU/SharedScratch.h"
#include "tilecc/Dialect/TileGPU/SharedStaging.h"
#include "tilecc/Transforms/Passes.h"
#include "../TensorMaps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace tilecc {
#define GEN_PASS_DEF_TILETENSORMAPCOPIES
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

/// The copies of a producer loop that may all go through tensor maps, and the arrival on
/// `full` that ends its step; empty when one of them may not.
struct CopyStep {
  SmallVector<tilegpu::AsyncCopyOp> copies;
  tilegpu::AsyncCopyArriveOp arrive;
};

std::optional<CopyStep> copyStep(scf::ForOp loop) {
  CopyStep step;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (auto copy = dyn_cast<tilegpu::AsyncCopyOp>(op)) {
      if (!copiesThroughTensorMap(copy.getView(), copy.getStarts(), copy.getBounds(),
                                  copy.getBuffer().getType()))
        return std::nullopt;
      step.copies.push_back(copy);
    } else if (auto arrive = dyn_cast<tilegpu::AsyncCopyArriveOp>(op)) {
      if (step.arrive)
        return std::nullopt;
      step.arrive = arrive;
    } else if (!isa<tilegpu::BarrierWaitOp>(op) && !isMemoryEffectFree(&op)) {
      return std::nullopt;
    }
  }
  if (step.copies.empty() || !step.arrive ||
      step.arrive->getNextNode() != loop.getBody()->getTerminator())
    return std::nullopt;
  return step;
}

struct TensorMapCopiesPass
    : public tilecc::impl::TileTensorMapCopiesBase<TensorMapCopiesPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<scf::ForOp> loops;
    func.walk([&](tilegpu::ProducerOp producer) {
      for (auto loop : producer.getBody().front().getOps<scf::ForOp>())
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops)
      if (std::optional<CopyStep> step = copyStep(loop))
        rewrite(loop, *step);
  }

  /// The map of `copy`'s view for its stages, made once per view and layout at the top of
  /// the function.
  void rewrite(scf::ForOp loop, CopyStep step) {
    SmallVector<tilegpu::TensorMapOp> maps;
    for (tilegpu::AsyncCopyOp copy : step.copies)
      maps.push_back(tensorMapOf(getOperation(), copy.getView(), copy.getBuffer().getType(),
                                 copy.getRoundTf32()));

    OpBuilder b(loop);
    Location loc = loop.getLoc();
    llvm::SetVector<Value> valids;
    for (tilegpu::TensorMapOp map : maps)
      valids.insert(map.getValid());
    Value valid = valids.front();
    for (Value next : valids.getArrayRef().drop_front())
      valid = b.create<arith::AndIOp>(loc, valid, next);
    auto choice = b.create<scf::IfOp>(loc, valid, /*withElseRegion=*/true);

    // The tensor-map form, in the then-branch; the loop as it was in the else-branch.
    b.setInsertionPointToStart(choice.thenBlock());
    IRMapping mapping;
    b.clone(*loop, mapping);
    loop->moveBefore(choice.elseBlock()->getTerminator());

    int64_t bytes = 0;
    for (tilegpu::AsyncCopyOp copy : step.copies) {
      RankedTensorType tile = copy.getBuffer().getType().getTile();
      bytes += tile.getNumElements() * tilegpu::elementBytes(tile.getElementType());
    }
    auto arrive = cast<tilegpu::AsyncCopyArriveOp>(mapping.lookup(step.arrive.getOperation()));
    b.setInsertionPoint(mapping.lookup(step.copies.front().getOperation()));
    b.create<tilegpu::BarrierExpectOp>(arrive.getLoc(), arrive.getBarriers(), arrive.getIndex(),
                                       bytes);
    for (auto [copy, map] : llvm::zip(step.copies, maps)) {
      auto cloned = cast<tilegpu::AsyncCopyOp>(mapping.lookup(copy.getOperation()));
      b.setInsertionPoint(cloned);
      b.create<tilegpu::TensorMapCopyOp>(cloned.getLoc(), map.getMap(), cloned.getOffsets(),
                                         cloned.getBuffer(), cloned.getStage(),
                                         arrive.getBarriers(), arrive.getIndex());
      SmallVector<Value> bounds(cloned.getBounds());
      cloned.erase();
      for (Value bound : bounds) // the view's extents, which the map holds
        if (bound.use_empty())
          bound.getDefiningOp()->erase();
    }
    arrive.erase();
  }
};

} // namespace
