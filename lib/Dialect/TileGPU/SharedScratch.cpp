//===- SharedScratch.cpp - the shared memory an op stages through --------------===//
#include "tilecc/Dialect/TileGPU/SharedScratch.h"
#include "tilecc/Dialect/TileGPU/SharedStaging.h"
#include "tilecc/Dialect/TileGPU/TargetLimits.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::tilegpu;

int64_t tilegpu::elementBytes(Type type) {
  if (type.isIndex())
    return 8;
  if (type.isIntOrFloat())
    return std::max<int64_t>(1, llvm::divideCeil(type.getIntOrFloatBitWidth(), 8));
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * elementBytes(complex.getElementType());
  return 4;
}

ScanSplit tilegpu::scanSplit(ArrayRef<int64_t> shape, unsigned axis, int64_t numThreads) {
  ScanSplit split;
  int64_t total = 1;
  for (int64_t d : shape)
    total *= d;
  split.lines = total / shape[axis];
  split.chunks = std::min<int64_t>(
      split.lines >= numThreads ? 1 : numThreads / split.lines, shape[axis]);
  return split;
}

bool tilegpu::convertsToLdmatrix(ConvertLayoutOp op) {
  auto to = dyn_cast_or_null<DotOperandLayoutAttr>(op.getType().getEncoding());
  if (!to || to.getKWidth() != 2 || elementBytes(op.getType().getElementType()) != 2)
    return false;
  // An accumulator's registers that already hold the operand's elements (a chain's A) stay.
  Operation *func = op->getParentOfType<func::FuncOp>();
  std::optional<ShapeMovement> move = planShapeMovement(op, func ? numWarpsOf(func) : 1u);
  return !move || !isFree(move->kind);
}

unsigned tilegpu::mmaKWidth(Type element) {
  if (element.isF32())
    return 1;
  return isa<Float8E4M3FNType, Float8E5M2Type>(element) ? 4 : 2;
}

Type tilegpu::mmaStagedType(Type element) {
  if (isa<Float8E4M3FNType, Float8E5M2Type>(element))
    return Float16Type::get(element.getContext());
  return element;
}


/// Appends a part of `elements` elements of `type` (plus `carries` more for a scan).
static void addPart(Scratch &s, Type type, int64_t elements, int64_t carries = 0) {
  int64_t bytes = elementBytes(type);
  ScratchPart part;
  part.offset = llvm::alignTo(s.bytes, 16);
  part.elements = elements;
  part.carryOffset = part.offset + llvm::alignTo(elements * bytes, 16);
  s.bytes = part.carryOffset + carries * bytes;
  s.parts.push_back(part);
}

std::optional<Scratch> tilegpu::getScratch(Operation *op, int64_t numThreads) {
  Scratch s;
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    std::optional<ReducePlan> plan = planReduce(reduce, unsigned(numThreads / 32));
    if (!plan || plan->inRegisters)
      return std::nullopt;
    for (Value v : reduce.getSources()) {
      auto type = cast<RankedTensorType>(v.getType());
      int64_t results = type.getNumElements() / type.getDimSize(reduce.getAxis());
      addPart(s, type.getElementType(), plan->warpsAlongAxis * results);
    }
  } else if (auto scan = dyn_cast<tile::ScanOp>(op)) {
    if (std::optional<ScanPlan> plan = planScan(scan, unsigned(numThreads / 32))) {
      if (!plan->crossesWarps())
        return std::nullopt;
      // The total of each line in each warp and repeat along the axis.
      for (Value v : scan.getSources())
        addPart(s, cast<RankedTensorType>(v.getType()).getElementType(),
                plan->repeats * plan->warpPositions * plan->lines);
      s.bytes = llvm::alignTo(s.bytes, 16);
      return s;
    }
    for (Value v : scan.getSources()) {
      auto type = cast<RankedTensorType>(v.getType());
      ScanSplit split = scanSplit(type.getShape(), scan.getAxis(), numThreads);
      addPart(s, type.getElementType(), type.getNumElements(), split.lines * split.chunks);
    }
  } else if (isa<tile::BroadcastOp, tile::ReshapeOp, tile::PermuteOp, tile::ExtractOp>(op)) {
    std::optional<ShapeMovement> move = planShapeMovement(op, unsigned(numThreads / 32));
    if (move && move->kind != Movement::SharedMemory)
      return std::nullopt;
    auto type = cast<RankedTensorType>(op->getOperand(0).getType());
    addPart(s, type.getElementType(),
            stagingOf(op, unsigned(numThreads / 32)).bufferElements(type.getNumElements()));
  } else if (auto mma = dyn_cast<tile::MmaOp>(op)) {
    for (Value v : {mma.getA(), mma.getB(), mma.getAcc()}) {
      auto type = cast<RankedTensorType>(v.getType());
      addPart(s, mmaStagedType(type.getElementType()), type.getNumElements());
    }
  } else if (auto convert = dyn_cast<ConvertLayoutOp>(op)) {
    std::optional<ShapeMovement> move = planShapeMovement(op, unsigned(numThreads / 32));
    if (move && move->kind != Movement::SharedMemory && !convertsToLdmatrix(convert))
      return std::nullopt;
    RankedTensorType type = convert.getType();
    addPart(s, type.getElementType(),
            stagingOf(op, unsigned(numThreads / 32)).bufferElements(type.getNumElements()));
  } else if (auto cat = dyn_cast<tile::CatOp>(op)) {
    std::optional<ShapeMovement> move = planShapeMovement(op, unsigned(numThreads / 32));
    if (move && move->kind != Movement::SharedMemory)
      return std::nullopt;
    auto type = cast<RankedTensorType>(cat.getLhs().getType());
    addPart(s, type.getElementType(), 2 * type.getNumElements());
  } else if (auto print = dyn_cast<tile::PrintOp>(op)) {
    auto type = dyn_cast<RankedTensorType>(print.getValue().getType());
    if (!type)
      return std::nullopt;
    addPart(s, type.getElementType(), type.getNumElements());
  } else if (auto atomic = dyn_cast<GlobalAtomicOp>(op)) {
    // The old values reach the threads that did not make the update: copies of a replicating
    // layout, or every thread but 0 for a scalar update.
    if (atomic.getOld().use_empty())
      return std::nullopt;
    auto type = dyn_cast<RankedTensorType>(atomic.getValue().getType());
    if (!type) {
      addPart(s, atomic.getValue().getType(), 1);
    } else {
      std::optional<LinearLayout> layout = linearLayoutOf(type, unsigned(numThreads / 32));
      if (!layout || (layout->getFreeMask(kLane) == 0 && layout->getFreeMask(kWarp) == 0))
        return std::nullopt;
      addPart(s, type.getElementType(), type.getNumElements());
    }
  } else {
    return std::nullopt;
  }
  s.bytes = llvm::alignTo(s.bytes, 16);
  return s;
}

int64_t tilegpu::bufferBytes(BufferType type) {
  return int64_t(type.getStages()) * type.getStageElements() *
         elementBytes(type.getTile().getElementType());
}

int64_t tilegpu::sharedBytesOf(Operation *op, int64_t numThreads) {
  if (auto alloc = dyn_cast<AllocBufferOp>(op))
    return bufferBytes(alloc.getType());
  if (auto alloc = dyn_cast<AllocBarriersOp>(op))
    return kBarrierBytes * int64_t(alloc.getType().getCount());
  std::optional<Scratch> scratch = getScratch(op, numThreads);
  return scratch ? scratch->bytes : 0;
}

LogicalResult tilegpu::verifySharedMemoryPlan(Operation *func, int64_t numThreads) {
  int64_t total = 0;
  if (auto attr = func->getAttrOfType<IntegerAttr>(kSmemBytesAttrName))
    total = attr.getInt();
  if (total < 0 || total > largestSharedBytes())
    return func->emitError() << "'" << kSmemBytesAttrName << "' is " << total
                             << " bytes; a block has between 0 and " << largestSharedBytes();
  WalkResult walk = func->walk([&](Operation *op) {
    int64_t bytes = sharedBytesOf(op, numThreads);
    if (bytes == 0)
      return WalkResult::advance();
    auto offset = op->getAttrOfType<IntegerAttr>(kSmemOffsetAttrName);
    if (!offset) {
      op->emitError() << "needs " << bytes << " bytes of shared memory but has no '"
                      << kSmemOffsetAttrName << "'; run tilegpu-plan-shared-memory";
      return WalkResult::interrupt();
    }
    if (offset.getInt() < 0 || offset.getInt() > total - bytes) {
      op->emitError() << "needs " << bytes << " bytes of shared memory at offset "
                      << offset.getInt() << ", outside the kernel's " << total << " bytes";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}
