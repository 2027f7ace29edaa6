//===- VectorizeAccesses.cpp - size and prove the vector accesses of global memory -===//
//
// `tile-vectorize-accesses` decides, for every `tilegpu.global_load`/`global_store`, how many
// elements a thread moves with one access and whether their alignment is proven:
//
//  * `vector`: the leading registers of a thread that hold consecutive elements along one
//    axis (the layout's fastest axis), at most 16 bytes, and at most the largest power of two
//    that divides where every run starts: the fast coordinate of each other register bit and
//    of each lane and warp bit. Every run then starts at a multiple of `vector` within the tile.
//  * `aligned`: the access's offset along that axis is provably a multiple of `vector`
//    (knownDivisor of the index arithmetic: a piece's origin block_id * tile, a loop over
//    whole tiles, constants). Together with a view whose fastest axis has stride 1 and whose
//    rows are aligned (a fact of the arguments, taken once per launch), every vector access of
//    a tile inside its bounds is then aligned, and the generated code tests nothing per
//    element. Without `aligned` it tests the offset once per access.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Transforms/Passes.h"
#include "VectorAccess.h"

#include "tilecc/Dialect/TileGPU/DataMovement.h"
#include "tilecc/Dialect/TileGPU/Divisibility.h"
#include "tilecc/Dialect/TileGPU/SharedScratch.h"

#include "llvm/ADT/bit.h"

namespace tilecc {
#define GEN_PASS_DEF_TILEVECTORIZEACCESSES
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

/// The fast coordinate's lowest set bit of a basis (0 for a basis off the axis: no limit).
int64_t alignmentOf(const LinearLayout &layout, uint64_t basis, size_t axis) {
  int64_t c = layout.outCoords(basis)[axis];
  return c == 0 ? 0 : int64_t(1) << llvm::countr_zero(uint64_t(c));
}

struct Access {
  int64_t vector = 1;
  size_t axis = 0;
};

/// The widest access every thread's runs of `tile` allow.
Access accessOf(const LinearLayout &layout, Type element) {
  Access access;
  std::optional<unsigned> axis = tilegpu::vectorAxis(layout);
  if (!axis)
    return access;
  int64_t run = tilegpu::vectorRun(layout);
  ArrayRef<uint64_t> regs = layout.getBases(kRegister);
  access.axis = *axis;
  int64_t vector = std::min<int64_t>(
      run, std::max<int64_t>(1, 16 / tilegpu::elementBytes(element)));
  auto limit = [&](uint64_t basis) {
    if (int64_t a = alignmentOf(layout, basis, access.axis))
      vector = std::min(vector, a);
  };
  for (uint64_t basis : regs.drop_front(llvm::countr_zero(uint64_t(run))))
    limit(basis);
  for (StringRef dim : {kLane, kWarp})
    for (uint64_t basis : layout.getBases(dim))
      limit(basis);
  access.vector = vector;
  return access;
}

} // namespace

LogicalResult tilecc::vectorizeAccess(Operation *op, unsigned numWarps) {
  auto load = dyn_cast<tilegpu::GlobalLoadOp>(op);
  auto store = dyn_cast<tilegpu::GlobalStoreOp>(op);
  if (!load && !store)
    return success();
  auto tile = cast<RankedTensorType>(load ? load.getType() : store.getValue().getType());
  std::optional<LinearLayout> layout = tilegpu::linearLayoutOf(tile, numWarps);
  if (!layout)
    return op->emitOpError("moves a tile without a layout; run tile-assign-layouts first");
  Access access = accessOf(*layout, tile.getElementType());
  OperandRange offsets = load ? load.getOffsets() : store.getOffsets();
  unsigned lead = tilegpu::leadingAxes(load ? load.getView() : store.getView(), tile.getRank());
  bool aligned = access.vector == 1 ||
                 tilegpu::knownDivisor(offsets[lead + access.axis]) % access.vector == 0;
  Builder b(op->getContext());
  op->setAttr("vector", b.getI32IntegerAttr(int32_t(access.vector)));
  if (aligned)
    op->setAttr("aligned", b.getUnitAttr());
  else
    op->removeAttr("aligned");
  return success();
}

namespace {

struct VectorizeAccessesPass
    : public tilecc::impl::TileVectorizeAccessesBase<VectorizeAccessesPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    unsigned numWarps = tilegpu::numWarpsOf(func);
    WalkResult result = func.walk([&](Operation *op) {
      return failed(vectorizeAccess(op, numWarps)) ? WalkResult::interrupt()
                                                    : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
