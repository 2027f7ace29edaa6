//===- LoopLoads.cpp - global loads of a loop that may be issued for a later step -===//
#include "LoopLoads.h"

#include "tilecc/Dialect/TileGPU/SharedScratch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tilecc;

std::optional<llvm::SetVector<Operation *>>
pipeliner::indexSlice(scf::ForOp loop, ValueRange values, bool &usesIv) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work(values.begin(), values.end());
  usesIv = false;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == loop.getInductionVar()) {
      usesIv = true;
      continue;
    }
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner()->getParentOp()->isAncestor(loop) &&
          arg.getOwner()->getParentOp() != loop)
        continue; // defined outside the loop
      return std::nullopt; // a carried value
    }
    Operation *def = v.getDefiningOp();
    if (!loop->isAncestor(def))
      continue;
    if (def->getBlock() != loop.getBody() || !isPure(def) || def->getNumRegions() > 0)
      return std::nullopt;
    if (slice.insert(def))
      llvm::append_range(work, def->getOperands());
  }
  // Program order, so that clones see their operands first.
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return llvm::SetVector<Operation *>(ordered.begin(), ordered.end());
}

tilegpu::GlobalLoadOp pipeliner::cloneLoadAt(OpBuilder &b, tilegpu::GlobalLoadOp load,
                                             const llvm::SetVector<Operation *> &slice,
                                             Value oldIv, Value iv, Value last) {
  IRMapping map;
  map.map(oldIv, iv);
  for (Operation *op : slice)
    b.clone(*op, map);
  auto copy = cast<tilegpu::GlobalLoadOp>(b.clone(*load, map));
  if (!last)
    return copy;
  Location loc = load.getLoc();
  Value valid = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, iv, last);
  Value empty = copy.getStarts().empty()
                    ? b.create<arith::ConstantIndexOp>(loc, 0).getResult()
                    : copy.getStarts()[0];
  Value bound = b.create<arith::SelectOp>(loc, valid, copy.getBounds()[0], empty);
  copy.getBoundsMutable()[0].set(bound);
  copy->moveAfter(bound.getDefiningOp());
  return copy;
}

int64_t pipeliner::tileBytes(tilegpu::GlobalLoadOp load) {
  RankedTensorType type = load.getType();
  return type.getNumElements() * tilegpu::elementBytes(type.getElementType());
}

bool pipeliner::readsSharedArgument(tilegpu::GlobalLoadOp load) {
  auto view = dyn_cast<BlockArgument>(load.getView());
  return view && isa<func::FuncOp>(view.getOwner()->getParentOp()) &&
         cast<tile::ViewType>(load.getView().getType()).getAccess() == tile::Access::Shared;
}

void pipeliner::eraseUnusedSlices(const llvm::SetVector<Operation *> &slices) {
  SmallVector<Operation *> dead(slices.begin(), slices.end());
  llvm::sort(dead, [](Operation *a, Operation *b) { return b->isBeforeInBlock(a); });
  for (Operation *op : dead)
    if (op->use_empty())
      op->erase();
}
