//===- TileOps.cpp - tile dialect op verifiers ---------------------------------===//
#include "tilecc/Dialect/Tile/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tilecc::tile;

static LogicalResult verifyAxis(Operation *op, ViewType view, int32_t axis) {
  if (axis >= static_cast<int32_t>(view.getRank()))
    return op->emitOpError() << "axis " << axis << " is out of range for a rank-"
                             << view.getRank() << " view";
  return success();
}

/// Loads and stores move a tile of the view's element type, of the view's rank or of lower
/// rank (the tile spans the view's last axes; see TileOps.td).
static LogicalResult verifyAccess(Operation *op, ViewType view, RankedTensorType tile,
                                  size_t numOffsets, bool lowerRank = true) {
  if (tile.getElementType() != view.getElementType())
    return op->emitOpError() << "tile element type " << tile.getElementType()
                             << " differs from the view's " << view.getElementType();
  int64_t rank = static_cast<int64_t>(view.getRank());
  if (tile.getRank() < 1 || tile.getRank() > rank || (!lowerRank && tile.getRank() != rank))
    return op->emitOpError() << "a rank-" << tile.getRank() << " tile cannot move through a rank-"
                             << view.getRank() << " view";
  if (numOffsets != view.getRank())
    return op->emitOpError() << "expected " << view.getRank() << " offsets, got " << numOffsets;
  if (!tile.hasStaticShape())
    return op->emitOpError("tile shapes are static");
  return success();
}

LogicalResult DimOp::verify() { return verifyAxis(*this, getView().getType(), getAxis()); }

LogicalResult PieceOriginOp::verify() {
  return verifyAxis(*this, getView().getType(), getAxis());
}

LogicalResult LoadOp::verify() {
  return verifyAccess(*this, getView().getType(), getResult().getType(), getOffsets().size());
}

LogicalResult StoreOp::verify() {
  ViewType view = getView().getType();
  if (!view.isExclusive())
    return emitOpError() << "cannot store through a " << stringifyAccess(view.getAccess())
                         << " view; only this program's exclusive piece is writable";
  return verifyAccess(*this, view, getValue().getType(), getOffsets().size());
}

LogicalResult AtomicOp::verify() {
  ViewType view = getView().getType();
  if (view.getAccess() != Access::Atomic)
    return emitOpError() << "needs an atomic view, not a " << stringifyAccess(view.getAccess())
                         << " one";
  Type element = getElementTypeOrSelf(getValue().getType());
  if (element != view.getElementType())
    return emitOpError() << "updates " << view.getElementType() << " elements with "
                         << element;
  if (auto tile = dyn_cast<RankedTensorType>(getValue().getType())) {
    if (failed(verifyAccess(*this, view, tile, getOffsets().size(), /*lowerRank=*/false)))
      return failure();
  } else if (getOffsets().size() != view.getRank()) {
    return emitOpError() << "expected " << view.getRank() << " offsets, got "
                         << getOffsets().size();
  }
  bool cas = getKind() == AtomicKind::Cas;
  if (cas != bool(getExpected()))
    return emitOpError(cas ? "cas needs an expected value" : "only cas takes an expected value");
  if (cas && getExpected().getType() != getValue().getType())
    return emitOpError("the expected value's type differs from the stored value's");
  AtomicKind kind = getKind();
  if (kind != AtomicKind::Exchange && kind != AtomicKind::Cas && element.isInteger(1))
    return emitOpError() << stringifyAtomicKind(kind) << " is not defined on i1";
  if ((kind == AtomicKind::Umax || kind == AtomicKind::Umin) && !isa<IntegerType>(element))
    return emitOpError() << stringifyAtomicKind(kind) << " needs integer elements";
  return success();
}

LogicalResult SplatOp::verify() {
  if (getScalar().getType() != getResult().getType().getElementType())
    return emitOpError() << "scalar type " << getScalar().getType()
                         << " differs from the tile element type "
                         << getResult().getType().getElementType();
  return success();
}

LogicalResult IotaOp::verify() {
  if (getIotaAxis() >= getResult().getType().getRank())
    return emitOpError() << "axis " << getIotaAxis() << " is out of range for rank "
                         << getResult().getType().getRank();
  return success();
}

namespace {
/// The axis of `result` an iota's counting axis lands on under a broadcast or reshape that
/// keeps it and only adds unit or repeated axes, or nullopt.
std::optional<unsigned> iotaAxisAfter(IotaOp iota, RankedTensorType result, bool isBroadcast) {
  ArrayRef<int64_t> from = iota.getType().getShape(), to = result.getShape();
  unsigned axis = iota.getIotaAxis();
  if (isBroadcast) { // shapes aligned from the right
    unsigned at = unsigned(to.size() - from.size()) + axis;
    return from[axis] == to[at] ? std::optional<unsigned>(at) : std::nullopt;
  }
  // A reshape that keeps the counting axis as the one axis of the same extent, every other
  // axis of the source and the result being 1.
  for (auto [k, extent] : llvm::enumerate(from))
    if (k != axis && extent != 1)
      return std::nullopt;
  std::optional<unsigned> at;
  for (auto [k, extent] : llvm::enumerate(to)) {
    if (extent == 1)
      continue;
    if (at || extent != from[axis])
      return std::nullopt;
    at = unsigned(k);
  }
  return at;
}

template <class ShapeOp>
struct ShapeOfIota : public OpRewritePattern<ShapeOp> {
  using OpRewritePattern<ShapeOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ShapeOp op, PatternRewriter &rewriter) const override {
    auto iota = op.getSource().template getDefiningOp<IotaOp>();
    if (!iota || iota.getType().getNumElements() == 1)
      return failure();
    auto result = cast<RankedTensorType>(op.getType());
    std::optional<unsigned> axis =
        iotaAxisAfter(iota, result, std::is_same_v<ShapeOp, BroadcastOp>);
    if (!axis)
      return failure();
    rewriter.replaceOpWithNewOp<IotaOp>(op, result, rewriter.getI32IntegerAttr(int32_t(*axis)));
    return success();
  }
};
} // namespace

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *ctx) {
  patterns.add<ShapeOfIota<BroadcastOp>>(ctx);
}

namespace {
/// True when `from` is `to` with leading unit axes added: the same elements, row-major, and a
/// tile of shape `to` moving through a view spans the same elements as one of shape `from`.
bool addsLeadingUnitAxes(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  if (to.empty() || from.size() < to.size() || from.take_back(to.size()) != to)
    return false;
  return llvm::all_of(from.drop_back(to.size()), [](int64_t d) { return d == 1; });
}

/// reshape(load) that drops leading unit axes of the loaded tile -> a load of the smaller tile
/// (the load's only use), so that later passes see the operand as it is used: an mma operand
/// loaded from a (heads, seq, d) view is a rank-2 tile the pipeliner can ring.
struct LoadWithoutLeadingUnitAxes : public OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op, PatternRewriter &rewriter) const override {
    auto load = op.getSource().getDefiningOp<LoadOp>();
    if (!load || !load->hasOneUse() ||
        !addsLeadingUnitAxes(load.getType().getShape(), op.getType().getShape()))
      return failure();
    rewriter.replaceOpWithNewOp<LoadOp>(op, op.getType(), load.getView(), load.getOffsets());
    rewriter.eraseOp(load);
    return success();
  }
};

/// store(reshape(x)) that only adds leading unit axes to x -> store(x).
struct StoreWithoutLeadingUnitAxes : public OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreOp op, PatternRewriter &rewriter) const override {
    auto reshape = op.getValue().getDefiningOp<ReshapeOp>();
    if (!reshape || !addsLeadingUnitAxes(reshape.getType().getShape(),
                                         reshape.getSource().getType().getShape()))
      return failure();
    rewriter.modifyOpInPlace(op, [&] { op.getValueMutable().assign(reshape.getSource()); });
    return success();
  }
};
} // namespace

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *ctx) {
  patterns.add<ShapeOfIota<ReshapeOp>, LoadWithoutLeadingUnitAxes>(ctx);
}

void StoreOp::getCanonicalizationPatterns(RewritePatternSet &patterns, MLIRContext *ctx) {
  patterns.add<StoreWithoutLeadingUnitAxes>(ctx);
}


//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

static LogicalResult sameElement(Operation *op, RankedTensorType a, RankedTensorType b) {
  if (a.getElementType() != b.getElementType())
    return op->emitOpError() << "element types differ: " << a.getElementType() << " and "
                             << b.getElementType();
  return success();
}

LogicalResult BroadcastOp::verify() {
  RankedTensorType src = getSource().getType(), dst = getResult().getType();
  if (failed(sameElement(*this, src, dst)))
    return failure();
  if (src.getRank() > dst.getRank())
    return emitOpError() << "cannot broadcast a rank-" << src.getRank() << " tile to rank "
                         << dst.getRank();
  int64_t lead = dst.getRank() - src.getRank();
  for (int64_t k = 0; k < src.getRank(); ++k)
    if (src.getDimSize(k) != 1 && src.getDimSize(k) != dst.getDimSize(lead + k))
      return emitOpError() << "source axis " << k << " has extent " << src.getDimSize(k)
                           << ", neither 1 nor the result's " << dst.getDimSize(lead + k);
  return success();
}

LogicalResult ReshapeOp::verify() {
  RankedTensorType src = getSource().getType(), dst = getResult().getType();
  if (failed(sameElement(*this, src, dst)))
    return failure();
  if (src.getNumElements() != dst.getNumElements())
    return emitOpError() << "a tile of " << src.getNumElements() << " elements cannot take "
                         << "a shape of " << dst.getNumElements() << " elements";
  return success();
}

LogicalResult PermuteOp::verify() {
  RankedTensorType src = getSource().getType(), dst = getResult().getType();
  if (failed(sameElement(*this, src, dst)))
    return failure();
  ArrayRef<int32_t> perm = getPerm();
  if (int64_t(perm.size()) != src.getRank() || dst.getRank() != src.getRank())
    return emitOpError("the permutation, the source and the result must have one rank");
  SmallVector<bool> seen(perm.size(), false);
  for (auto [k, p] : llvm::enumerate(perm)) {
    if (p < 0 || p >= int32_t(perm.size()) || seen[p])
      return emitOpError("perm is not a permutation of the axes");
    seen[p] = true;
    if (dst.getDimSize(k) != src.getDimSize(p))
      return emitOpError() << "result axis " << k << " must have source axis " << p
                           << "'s extent " << src.getDimSize(p);
  }
  return success();
}

LogicalResult CatOp::verify() {
  RankedTensorType lhs = getLhs().getType(), rhs = getRhs().getType(),
                   dst = getResult().getType();
  if (lhs.getShape() != rhs.getShape() || failed(sameElement(*this, lhs, rhs)) ||
      failed(sameElement(*this, lhs, dst)))
    return emitOpError("operands must have one shape and element type with the result");
  if (getAxis() >= lhs.getRank())
    return emitOpError() << "axis " << getAxis() << " is out of range for rank "
                         << lhs.getRank();
  SmallVector<int64_t> shape(lhs.getShape());
  shape[getAxis()] *= 2;
  if (dst.getShape() != ArrayRef<int64_t>(shape))
    return emitOpError("the result must double the operands' extent along the axis");
  return success();
}

LogicalResult ExtractOp::verify() {
  RankedTensorType src = getSource().getType(), dst = getResult().getType();
  if (failed(sameElement(*this, src, dst)))
    return failure();
  if (dst.getRank() != src.getRank() || int64_t(getIndices().size()) != src.getRank())
    return emitOpError("the result and one index per axis must match the source's rank");
  for (int64_t k = 0; k < src.getRank(); ++k)
    if (src.getDimSize(k) % dst.getDimSize(k) != 0)
      return emitOpError() << "result extent " << dst.getDimSize(k) << " does not divide "
                           << "source extent " << src.getDimSize(k) << " on axis " << k;
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and scans
//===----------------------------------------------------------------------===//

/// Operands of one shape, and a combiner taking (accumulated..., next...) element values and
/// yielding one value per operand.
static LogicalResult verifyCombiner(Operation *op, ValueRange operands, ValueRange inits,
                                    int32_t axis, Region &combiner) {
  if (operands.empty())
    return op->emitOpError("needs at least one operand");
  if (!inits.empty() && inits.size() != operands.size())
    return op->emitOpError("needs one init per operand, or none");
  for (auto [init, operand] : llvm::zip(inits, operands))
    if (init.getType() != cast<RankedTensorType>(operand.getType()).getElementType())
      return op->emitOpError() << "init of type " << init.getType()
                               << " differs from its operand's element type";
  auto first = cast<RankedTensorType>(operands[0].getType());
  for (Value v : operands)
    if (cast<RankedTensorType>(v.getType()).getShape() != first.getShape())
      return op->emitOpError("operands must have one shape");
  if (axis >= first.getRank())
    return op->emitOpError() << "axis " << axis << " is out of range for rank "
                             << first.getRank();
  Block &block = combiner.front();
  size_t n = operands.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError() << "the combiner takes " << 2 * n << " arguments, has "
                             << block.getNumArguments();
  for (size_t k = 0; k < 2 * n; ++k) {
    Type element = cast<RankedTensorType>(operands[k % n].getType()).getElementType();
    if (block.getArgument(k).getType() != element)
      return op->emitOpError() << "combiner argument " << k << " must be " << element;
  }
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield || yield.getValues().size() != n)
    return op->emitOpError() << "the combiner must yield " << n << " value(s)";
  for (size_t k = 0; k < n; ++k)
    if (yield.getValues()[k].getType() != block.getArgument(k).getType())
      return op->emitOpError() << "the combiner yields " << yield.getValues()[k].getType()
                               << " for operand " << k;
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyCombiner(*this, getSources(), getInits(), getAxis(), getCombiner())))
    return failure();
  if (getResults().size() != getSources().size())
    return emitOpError("one result per operand");
  for (auto [operand, result] : llvm::zip(getSources(), getResults())) {
    auto type = cast<RankedTensorType>(operand.getType());
    if (type.getRank() == 1) {
      if (result.getType() != type.getElementType())
        return emitOpError() << "reducing a rank-1 tile gives a " << type.getElementType();
      continue;
    }
    SmallVector<int64_t> shape(type.getShape());
    shape.erase(shape.begin() + getAxis());
    auto resultType = dyn_cast<RankedTensorType>(result.getType());
    if (!resultType || resultType.getShape() != ArrayRef<int64_t>(shape) ||
        resultType.getElementType() != type.getElementType())
      return emitOpError() << "result must be the operand's shape without axis " << getAxis();
  }
  return success();
}

LogicalResult ScanOp::verify() {
  if (failed(verifyCombiner(*this, getSources(), getInits(), getAxis(), getCombiner())))
    return failure();
  if (getResults().size() != getSources().size())
    return emitOpError("one result per operand");
  for (auto [operand, result] : llvm::zip(getSources(), getResults())) {
    auto a = cast<RankedTensorType>(operand.getType());
    auto b = cast<RankedTensorType>(result.getType());
    if (a.getShape() != b.getShape() || a.getElementType() != b.getElementType())
      return emitOpError("each result has its operand's shape and element type");
  }
  return success();
}


//===----------------------------------------------------------------------===//
// Matrix multiply-accumulate
//===----------------------------------------------------------------------===//

LogicalResult MmaOp::verify() {
  RankedTensorType a = getA().getType(), b = getB().getType(), acc = getAcc().getType(),
                   result = getResult().getType();
  int64_t rank = a.getRank();
  if ((rank != 2 && rank != 3) || b.getRank() != rank || acc.getRank() != rank)
    return emitOpError("operands must all have rank 2, or all rank 3 (batched)");
  if (acc.getShape() != result.getShape() || acc.getElementType() != result.getElementType())
    return emitOpError("the result has the accumulator's type");
  Type in = a.getElementType(), inB = b.getElementType();
  auto isF8 = [](Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); };
  bool sameWide = inB == in && (in.isF16() || in.isBF16() || in.isF32());
  if (!sameWide && !(isF8(in) && isF8(inB)))
    return emitOpError() << "inputs must both be f16, bf16 or f32, or both f8 (e4m3 or e5m2), "
                            "got "
                         << in << " and " << inB;
  if (!acc.getElementType().isF32())
    return emitOpError() << "the accumulator must be f32, got " << acc.getElementType();
  int64_t batch = rank - 2;
  if (rank == 3 && (a.getDimSize(0) != b.getDimSize(0) || a.getDimSize(0) != acc.getDimSize(0)))
    return emitOpError("operands must have one batch extent");
  int64_t m = a.getDimSize(batch), k = a.getDimSize(batch + 1), n = b.getDimSize(batch + 1);
  if (b.getDimSize(batch) != k)
    return emitOpError() << "inner extents differ: a has " << k << ", b has "
                         << b.getDimSize(batch);
  if (acc.getDimSize(batch) != m || acc.getDimSize(batch + 1) != n)
    return emitOpError() << "the accumulator must be " << m << " x " << n;
  return success();
}

#define GET_OP_CLASSES
#include "tilecc/Dialect/Tile/TileOps.cpp.inc"
