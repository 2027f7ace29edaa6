//===- TensorMapStores.cpp - an mma result stored through a tensor map ---------===//
//
// `tile-tensor-map-stores` stores the result of a warp-specialized kernel's mma (its
// epilogue) through the tensor memory accelerator, in chunks of 128 bytes of columns:
//
//   %c = convert_layout %acc : #mma -> #blocked      %v = f(%acc)        (on #mma)
//   %v = f(%c)                                 =>   scf.if %valid {
//   global_store %v, %out[%i, %j]                      tensor_map_store %v, %map[%i, %j] through %stages
//     starts[%i, %j] bounds[min(%i + M, dim 0),      } else {
//                           min(%j + N, dim 1)]        global_store %v, %out[...] (from the fragments)
//                                                     }
//
// The accumulator no longer stages whole through shared memory (a conversion to the
// coalesced layout needs the whole tile: 128 KB for 128 x 256 f32): each chunk goes from
// the fragments into one of two small stages (tilegpu::tensorMapStoreStages) and the
// accelerator writes it out as whole lines while the threads fill the next. The shared
// memory left over lets the operand rings stay live across programs (a persistent
// kernel, tilegpu-persistent-programs, runs next).
//
// A store qualifies when it writes the piece of an exclusive view argument that its tile
// covers (offsets equal to starts; each bound the view's extent, or the smaller of it and
// offset + the tile's extent: a tensor map drops what lies outside the view, the same
// elements), and its tile is an mma accumulator's, directly or through elementwise ops of it
// alone (other operands constants or splats; a cast to the output's type), each used once.
// Where the launch cannot build the map (a view whose rows are not 16-byte aligned, a GPU
// without the unit), the fragments are stored directly.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/TileGPU/SharedScratch.h"
#include "tilecc/Dialect/TileGPU/SharedStaging.h"
#include "tilecc/Transforms/Passes.h"
#include "TensorMaps.h"
#include "VectorAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tilecc {
#define GEN_PASS_DEF_TILETENSORMAPSTORES
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

/// True when `bound` is the extent of `view` along `axis`, or the smaller of it and
/// `start + extent`.
bool coversPiece(Value bound, Value view, unsigned axis, Value start, int64_t extent) {
  auto isDim = [&](Value v) {
    auto dim = v.getDefiningOp<tilegpu::ArrayDimOp>();
    return dim && dim.getView() == view && dim.getAxis() == int64_t(axis);
  };
  auto isEnd = [&](Value v) {
    auto add = v.getDefiningOp<arith::AddIOp>();
    if (!add)
      return false;
    for (auto [x, y] : {std::pair(add.getLhs(), add.getRhs()), {add.getRhs(), add.getLhs()}}) {
      APInt c;
      if (x == start && matchPattern(y, m_ConstantInt(&c)) && c.getSExtValue() == extent)
        return true;
    }
    return false;
  };
  if (isDim(bound))
    return true;
  auto min = bound.getDefiningOp<arith::MinSIOp>();
  return min && ((isEnd(min.getLhs()) && isDim(min.getRhs())) ||
                 (isEnd(min.getRhs()) && isDim(min.getLhs())));
}

/// The ops from an mma layout's conversion to `store`'s value: the conversion first, then
/// elementwise ops of that value alone, each result used once; empty when the value comes
/// otherwise.
SmallVector<Operation *> chainFromFragments(tilegpu::GlobalStoreOp store) {
  SmallVector<Operation *> chain;
  Value v = store.getValue();
  while (true) {
    if (!v.hasOneUse())
      return {};
    Operation *def = v.getDefiningOp();
    if (!def)
      return {};
    if (auto convert = dyn_cast<tilegpu::ConvertLayoutOp>(def)) {
      auto source = cast<RankedTensorType>(convert.getSrc().getType());
      if (!isa_and_nonnull<tilegpu::MmaLayoutAttr>(source.getEncoding()))
        return {};
      chain.push_back(def);
      std::reverse(chain.begin(), chain.end());
      return chain;
    }
    if (!def->hasTrait<OpTrait::Elementwise>() || def->getNumResults() != 1 ||
        !isMemoryEffectFree(def) || def->getBlock() != store->getBlock())
      return {};
    Value next;
    for (Value operand : def->getOperands()) {
      if (matchPattern(operand, m_Constant()) || operand.getDefiningOp<tile::SplatOp>())
        continue;
      if (next)
        return {};
      next = operand;
    }
    if (!next)
      return {};
    chain.push_back(def);
    v = next;
  }
}

RankedTensorType withLayout(RankedTensorType type, Attribute layout) {
  return RankedTensorType::get(type.getShape(), type.getElementType(), layout);
}

struct TensorMapStoresPass : public tilecc::impl::TileTensorMapStoresBase<TensorMapStoresPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.getOps<tilegpu::ProducerOp>().empty())
      return;
    unsigned numWarps = tilegpu::numWarpsOf(func);
    SmallVector<tilegpu::GlobalStoreOp> stores;
    func.walk([&](tilegpu::GlobalStoreOp store) { stores.push_back(store); });
    bool changed = false;
    for (tilegpu::GlobalStoreOp store : stores) {
      SmallVector<Operation *> chain = chainFromFragments(store);
      if (chain.empty() || !qualifies(store))
        continue;
      auto convert = cast<tilegpu::ConvertLayoutOp>(chain.front());
      Attribute fragment = convert.getSrc().getType().getEncoding();
      auto stored = cast<RankedTensorType>(store.getValue().getType());
      std::optional<tilegpu::BufferType> stages =
          tilegpu::tensorMapStoreStages(withLayout(stored, fragment), numWarps);
      if (!stages)
        continue;
      retype(chain, fragment);
      if (failed(rewrite(store, *stages, numWarps)))
        return signalPassFailure();
      changed = true;
    }
    if (!changed)
      return;
    // Constants the chains took fold into the fragment layout.
    RewritePatternSet folding(&getContext());
    tilegpu::ConvertLayoutOp::getCanonicalizationPatterns(folding, &getContext());
    if (failed(applyPatternsAndFoldGreedily(func, std::move(folding))))
      signalPassFailure();
  }

  /// True when `store` writes exactly the piece of a view argument its rank-2 tile covers
  /// (one element thick along the view's leading axes).
  static bool qualifies(tilegpu::GlobalStoreOp store) {
    auto arg = dyn_cast<BlockArgument>(store.getView());
    auto tile = cast<RankedTensorType>(store.getValue().getType());
    unsigned rank = store.getView().getType().getRank();
    if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp()) || tile.getRank() != 2 ||
        store.getStarts().size() != rank || store.getOffsets() != store.getStarts())
      return false;
    unsigned lead = rank - 2;
    for (unsigned axis = 0; axis < rank; ++axis)
      if (!coversPiece(store.getBounds()[axis], store.getView(), axis, store.getOffsets()[axis],
                       axis < lead ? 1 : tile.getDimSize(axis - lead)))
        return false;
    return true;
  }

  /// The chain computes on the fragments: the conversion goes, and the elementwise ops take
  /// the fragment layout (constant operands through conversions that fold).
  static void retype(ArrayRef<Operation *> chain, Attribute fragment) {
    auto convert = cast<tilegpu::ConvertLayoutOp>(chain.front());
    convert.getResult().replaceAllUsesWith(convert.getSrc());
    for (Operation *op : chain.drop_front()) {
      OpBuilder builder(op);
      for (OpOperand &operand : op->getOpOperands())
        if (auto type = dyn_cast<RankedTensorType>(operand.get().getType());
            type && type.getEncoding() != fragment)
          operand.set(builder.create<tilegpu::ConvertLayoutOp>(
              op->getLoc(), withLayout(type, fragment), operand.get()));
      auto result = cast<RankedTensorType>(op->getResult(0).getType());
      op->getResult(0).setType(withLayout(result, fragment));
    }
    convert.erase();
  }

  /// The map of the store's view for `stages`, made once per view at the top of the function
  /// (after the maps made before).
  LogicalResult rewrite(tilegpu::GlobalStoreOp store, tilegpu::BufferType stages,
                        unsigned numWarps) {
    tilegpu::TensorMapOp map = tensorMapOf(getOperation(), store.getView(), stages);
    OpBuilder b(store);
    Location loc = store.getLoc();
    Value buffer = b.create<tilegpu::AllocBufferOp>(loc, stages);
    auto choice = b.create<scf::IfOp>(loc, map.getValid(), /*withElseRegion=*/true);
    b.setInsertionPointToStart(choice.thenBlock());
    b.create<tilegpu::TensorMapStoreOp>(loc, store.getValue(), map.getMap(), store.getOffsets(),
                                        buffer);
    store->moveBefore(choice.elseBlock()->getTerminator());
    // The fragments' runs set the fallback's accesses.
    return vectorizeAccess(store, numWarps);
  }
};

} // namespace
