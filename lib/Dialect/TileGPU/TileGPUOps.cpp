//===- TileGPUOps.cpp - tilegpu dialect op verifiers ---------------------------===//
#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"
#include "tilecc/Dialect/TileGPU/SharedStaging.h"
#include "tilecc/Dialect/TileGPU/SharedScratch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::tilegpu;

/// Global accesses move a laid-out tile with one offset and one bound per axis of the view. A
/// tile of lower rank than the view spans its last axes (tilegpu::leadingAxes).
static LogicalResult verifyGlobalAccess(Operation *op, tile::ViewType view,
                                        RankedTensorType value, size_t numOffsets,
                                        size_t numStarts, size_t numBounds,
                                        bool lowerRank = true) {
  if (value.getElementType() != view.getElementType())
    return op->emitOpError("tile and view element types differ");
  int64_t rank = int64_t(view.getRank());
  if (value.getRank() < 1 || value.getRank() > rank || (!lowerRank && value.getRank() != rank))
    return op->emitOpError("a rank-") << value.getRank() << " tile cannot move through a rank-"
                                      << rank << " view";
  if (numOffsets != view.getRank() || numBounds != view.getRank())
    return op->emitOpError("expected one offset and one bound per axis of the view");
  if (numStarts != 0 && numStarts != view.getRank())
    return op->emitOpError("expected no starts or one start per axis of the view");
  if (!llvm::isa_and_nonnull<LayoutEncodingAttrInterface>(value.getEncoding()) ||
      llvm::isa<SharedLayoutAttr>(value.getEncoding()))
    return op->emitOpError("the tile has no distributed layout; run layout assignment first");
  return success();
}

LogicalResult GlobalLoadOp::verify() {
  return verifyGlobalAccess(*this, getView().getType(), getResult().getType(),
                            getOffsets().size(), getStarts().size(), getBounds().size());
}

LogicalResult GlobalStoreOp::verify() {
  if (!getView().getType().isExclusive())
    return emitOpError("cannot store through a view that is not exclusive");
  return verifyGlobalAccess(*this, getView().getType(), getValue().getType(),
                            getOffsets().size(), getStarts().size(), getBounds().size());
}

LogicalResult GlobalAtomicOp::verify() {
  tile::ViewType view = getView().getType();
  if (view.getAccess() != tile::Access::Atomic)
    return emitOpError("updates a view that is not atomic");
  if (bool(getExpected()) != (getKind() == tile::AtomicKind::Cas))
    return emitOpError("takes an expected value exactly when it is a cas");
  if (auto tile = dyn_cast<RankedTensorType>(getValue().getType()))
    return verifyGlobalAccess(*this, view, tile, getOffsets().size(), 0, getBounds().size(),
                              /*lowerRank=*/false);
  if (getValue().getType() != view.getElementType() || getOffsets().size() != view.getRank() ||
      getBounds().size() != view.getRank())
    return emitOpError("expected an element of the view's type, and one offset and one bound "
                       "per axis");
  return success();
}

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// A tile moved into or out of a buffer's stage has the stage's shape and element type.
static LogicalResult verifyStageTile(Operation *op, BufferType buffer, RankedTensorType tile) {
  if (tile.getShape() != buffer.getTile().getShape() ||
      tile.getElementType() != buffer.getTile().getElementType())
    return op->emitOpError("the tile ") << tile << " is not one stage of " << buffer;
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  auto tile = cast<RankedTensorType>(getTile());
  if (failed(verifyGlobalAccess(*this, getView().getType(), tile, getOffsets().size(),
                                getStarts().size(), getBounds().size())) ||
      failed(verifyStageTile(*this, getBuffer().getType(), tile)))
    return failure();
  if (tile.getNumElements() % getVector() != 0)
    return emitOpError("the vector width does not divide the tile");
  if (getRoundTf32() && !tile.getElementType().isF32())
    return emitOpError("rounds only f32 elements to TF32");
  return success();
}

LogicalResult LocalLoadOp::verify() {
  if (!llvm::isa_and_nonnull<LayoutEncodingAttrInterface>(getResult().getType().getEncoding()) ||
      llvm::isa<SharedLayoutAttr>(getResult().getType().getEncoding()))
    return emitOpError("the tile has no distributed layout");
  return verifyStageTile(*this, getBuffer().getType(), getResult().getType());
}

LogicalResult RestageOp::verify() {
  BufferType src = getSrc().getType(), dst = getDst().getType();
  RankedTensorType from = src.getTile(), to = dst.getTile();
  if (from.getShape() != to.getShape() || from.getElementType() != to.getElementType())
    return emitOpError("restages a tile into a buffer of another tile type");
  if (from.getRank() != 2 || from.getDimSize(0) % 4 != 0 || from.getDimSize(1) % 4 != 0)
    return emitOpError("restages rank-2 tiles of whole 4 x 4 blocks");
  if (getRoundTf32() && !from.getElementType().isF32())
    return emitOpError("rounds only f32 elements to TF32");
  if (src.getLayout() != dst.getLayout() && columnMajor(src) == columnMajor(dst))
    return emitOpError("restages between one layout, or a row-major and a column-major one");
  int64_t bytes = elementBytes(from.getElementType());
  for (BufferType buffer : {src, dst})
    if (buffer.getLayout().getVec() * bytes != 16)
      return emitOpError("restages stages stored in 16-byte groups (the ring layout)");
  return success();
}

//===----------------------------------------------------------------------===//
// convert_layout
//===----------------------------------------------------------------------===//

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto prior = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    if (prior.getSrc().getType() == getType())
      return prior.getSrc();
    getSrcMutable().assign(prior.getSrc());
    return getResult();
  }
  return {};
}

namespace {
/// A constant, a splat of a scalar or an iota is made directly in the wanted layout.
struct ConvertOfUniform : public OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op, PatternRewriter &rewriter) const override {
    Operation *def = op.getSrc().getDefiningOp();
    if (!def)
      return failure();
    if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
      auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
      if (!dense)
        return failure();
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, dense.reshape(op.getType()));
      return success();
    }
    if (auto splat = dyn_cast<tile::SplatOp>(def)) {
      rewriter.replaceOpWithNewOp<tile::SplatOp>(op, op.getType(), splat.getScalar());
      return success();
    }
    if (auto iota = dyn_cast<tile::IotaOp>(def)) {
      rewriter.replaceOpWithNewOp<tile::IotaOp>(op, op.getType(), iota.getAxisAttr());
      return success();
    }
    return failure();
  }
};
} // namespace

void ConvertLayoutOp::getCanonicalizationPatterns(RewritePatternSet &patterns,
                                                  MLIRContext *context) {
  patterns.add<ConvertOfUniform>(context);
}

//===----------------------------------------------------------------------===//
// mma
//===----------------------------------------------------------------------===//

LogicalResult MmaOp::verify() {
  RankedTensorType a = getA().getType(), b = getB().getType(), acc = getAcc().getType();
  auto parent = dyn_cast_or_null<MmaLayoutAttr>(acc.getEncoding());
  auto la = dyn_cast_or_null<DotOperandLayoutAttr>(a.getEncoding());
  auto lb = dyn_cast_or_null<DotOperandLayoutAttr>(b.getEncoding());
  if (!parent || !la || !lb)
    return emitOpError("expects dot operand layouts on a and b and an mma layout on the "
                       "accumulator");
  if (la.getOpIdx() != 0 || lb.getOpIdx() != 1 || la.getParent() != parent ||
      lb.getParent() != parent)
    return emitOpError("operand layouts must be opIdx 0 and 1 of the accumulator's layout");
  int64_t rank = acc.getRank();
  if ((rank != 2 && rank != 3) || a.getRank() != rank || b.getRank() != rank ||
      parent.getRank() != rank)
    return emitOpError("operands must all have rank 2, or all rank 3 (batched)");
  int64_t r = rank - 2;
  if (a.getDimSize(r + 1) != b.getDimSize(r) || a.getDimSize(r) != acc.getDimSize(r) ||
      b.getDimSize(r + 1) != acc.getDimSize(r + 1) ||
      (rank == 3 && (a.getDimSize(0) != acc.getDimSize(0) || b.getDimSize(0) != acc.getDimSize(0))))
    return emitOpError("operand shapes do not multiply to the accumulator's");
  if (!acc.getElementType().isF32())
    return emitOpError("the accumulator must be f32");
  Type in = a.getElementType();
  unsigned kWidth = mmaKWidth(in);
  if (la.getKWidth() != kWidth || lb.getKWidth() != kWidth)
    return emitOpError() << "kWidth must be " << kWidth << " for " << in << " inputs";
  if (!parent.fits(acc.getShape()) || !la.fits(a.getShape()) || !lb.fits(b.getShape()))
    return emitOpError("a tile is not a whole number of instruction tiles per warp");
  return success();
}

RankedTensorType WarpgroupMmaOp::getATile() {
  if (auto buffer = dyn_cast<BufferType>(getA().getType()))
    return buffer.getTile();
  return cast<RankedTensorType>(getA().getType());
}

LogicalResult WarpgroupMmaOp::verify() {
  RankedTensorType a = getATile(), b = getB().getType().getTile();
  RankedTensorType acc = getAcc().getType();
  auto layout = dyn_cast_or_null<MmaLayoutAttr>(acc.getEncoding());
  if (!layout || layout.getRank() != 2 || layout.getWarpsPerBlock()[1] != 1 ||
      layout.getWarpsPerBlock()[0] % 4 != 0)
    return emitOpError("the accumulator's layout must be a rank-2 mma layout of warpgroups "
                       "stacked along M (warpsPerBlock = [4k, 1])");
  if (a.getRank() != 2 || b.getRank() != 2 || a.getDimSize(1) != b.getDimSize(0) ||
      a.getDimSize(0) != acc.getDimSize(0) || b.getDimSize(1) != acc.getDimSize(1))
    return emitOpError("operand shapes do not multiply to the accumulator's");
  if (!acc.getElementType().isF32())
    return emitOpError("the accumulator must be f32");
  auto isF8 = [](Type t) { return isa<Float8E4M3FNType, Float8E5M2Type>(t); };
  bool eightBit = isF8(a.getElementType()) && isF8(b.getElementType());
  if (!eightBit &&
      (a.getElementType() != b.getElementType() || !warpgroupElement(a.getElementType())))
    return emitOpError("the operands must both be f16, both bf16, both f32 (TF32), or both f8 "
                       "(e4m3 or e5m2)");
  if (aInRegisters()) {
    auto dot = dyn_cast_or_null<DotOperandLayoutAttr>(a.getEncoding());
    if (getAStage() || elementBytes(a.getElementType()) != 2 || !dot || dot.getOpIdx() != 0 ||
        dot.getParent() != layout || dot.getKWidth() != 2)
      return emitOpError("an A operand in registers must be a 16-bit tile in the dot operand "
                         "layout (opIdx 0, kWidth 2) of the accumulator's, without a stage");
  } else if (!getAStage() || !warpgroupReadable(cast<BufferType>(getA().getType()), 0)) {
    return emitOpError("an A operand buffer needs a stage and the wgmma layout (rows of 32 "
                       "bytes or more in 16-byte groups with the ldmatrix swizzle)");
  }
  if (!warpgroupReadable(getB().getType(), 1))
    return emitOpError("an operand buffer is not laid out for wgmma (rows of 32 bytes or "
                       "more in 16-byte groups with the ldmatrix swizzle)");
  if (acc.getDimSize(0) % (16 * int64_t(layout.getWarpsPerBlock()[0])) != 0 ||
      a.getDimSize(1) * elementBytes(a.getElementType()) % 32 != 0)
    return emitOpError("M must be a multiple of 16 rows per warp and K of 32 bytes (16 for "
                       "f16 and bf16, 32 for f8, 8 for TF32)");
  return success();
}

LogicalResult ProducerOp::verify() {
  if (getWarps() % 4 != 0)
    return emitOpError("the producer's warps must be whole warpgroups (a multiple of 4)");
  if (!isa_and_nonnull<func::FuncOp>((*this)->getParentOp()))
    return emitOpError("must be an op of the function body, outside control flow");
  // setmaxnreg takes a multiple of 8 from 24 to 256.
  for (std::optional<uint32_t> regs : {getRegisters(), getConsumerRegisters()})
    if (regs && (*regs < 24 || *regs > 256 || *regs % 8 != 0))
      return emitOpError("register counts must be multiples of 8 from 24 to 256");
  return success();
}

//===----------------------------------------------------------------------===//
// Tensor maps
//===----------------------------------------------------------------------===//

LogicalResult TensorMapOp::verify() {
  auto arg = dyn_cast<BlockArgument>(getView());
  if (!arg || !isa_and_nonnull<func::FuncOp>(arg.getOwner()->getParentOp()))
    return emitOpError("describes a view argument of the kernel (the launch builds it)");
  tile::ViewType view = getView().getType();
  RankedTensorType tile = getMap().getType().getTile();
  if (view.getRank() < tile.getRank() || view.getElementType() != tile.getElementType())
    return emitOpError("the map's tiles ") << tile << " are not tiles of " << view;
  return success();
}

/// A tensor map access takes one offset per axis of the view the map describes.
static LogicalResult verifyMapOffsets(Operation *op, Value map, size_t numOffsets) {
  auto made = map.getDefiningOp<TensorMapOp>();
  size_t rank = made ? made.getView().getType().getRank()
                     : size_t(cast<TensorMapType>(map.getType()).getTile().getRank());
  if (numOffsets != rank || rank > 5)
    return op->emitOpError("takes one offset per axis of the map's view (") << rank << ")";
  return success();
}

/// True when `op` lies in a tilegpu.producer region.
static bool inProducer(Operation *op) { return op->getParentOfType<ProducerOp>() != nullptr; }

LogicalResult TensorMapCopyOp::verify() {
  TensorMapType map = getMap().getType();
  BufferType buffer = getBuffer().getType();
  if (map.getTile() != buffer.getTile() || map.getLayout() != buffer.getLayout())
    return emitOpError("the map writes tiles ")
           << map.getTile() << " laid out as " << map.getLayout() << ", not stages of "
           << buffer;
  if (failed(verifyMapOffsets(*this, getMap(), getOffsets().size())))
    return failure();
  if (!inProducer(*this))
    return emitOpError("must be in a tilegpu.producer region (its first thread issues it)");
  return success();
}

LogicalResult TensorMapStoreOp::verify() {
  auto func = (*this)->getParentOfType<func::FuncOp>();
  if (!func || func.getOps<ProducerOp>().empty())
    return emitOpError("needs a kernel with a tilegpu.producer (the program's threads meet on "
                       "their own barrier)");
  auto value = cast<RankedTensorType>(getValue().getType());
  std::optional<BufferType> stages = tensorMapStoreStages(value, numWarpsOf(func));
  if (!stages)
    return emitOpError("cannot store ")
           << value << " in chunks: rank 2, at most 256 rows, whole 128-byte column chunks, "
           << "each lane and warp within one chunk";
  if (getBuffer().getType() != *stages)
    return emitOpError("stores through ") << *stages << ", not " << getBuffer().getType();
  TensorMapType map = getMap().getType();
  if (map.getRoundTF32())
    return emitOpError("stores through a map that rounds to TF32: a store keeps every bit");
  if (map.getTile() != stages->getTile() || map.getLayout() != stages->getLayout())
    return emitOpError("the map writes tiles ")
           << map.getTile() << " laid out as " << map.getLayout() << ", not stages of "
           << *stages;
  if (failed(verifyMapOffsets(*this, getMap(), getOffsets().size())))
    return failure();
  return success();
}

LogicalResult BarrierExpectOp::verify() {
  if (!inProducer(*this))
    return emitOpError("must be in a tilegpu.producer region");
  return success();
}

#define GET_OP_CLASSES
#include "tilecc/Dialect/TileGPU/TileGPUOps.cpp.inc"
