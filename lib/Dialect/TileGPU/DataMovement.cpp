//===- DataMovement.cpp - how a tile op moves elements between threads ----------===//
#include "tilecc/Dialect/TileGPU/DataMovement.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::tilegpu;

/// The flattened bits of `layout`'s outputs that lie along `axis`.
static uint64_t axisBits(const LinearLayout &layout, unsigned axis) {
  SmallVector<int64_t> coords(layout.getOutDims().size(), 0);
  coords[axis] = layout.getOutShape()[axis] - 1;
  return layout.flattenOut(coords);
}

bool tilegpu::separatesAxis(const LinearLayout &layout, unsigned axis) {
  uint64_t along = axisBits(layout, axis);
  for (const LinearLayout::Dim &in : layout.getInDims())
    for (uint64_t basis : layout.getBases(in.name))
      if ((basis & along) != 0 && (basis & ~along) != 0)
        return false;
  return true;
}

int64_t tilegpu::vectorRun(const LinearLayout &layout) {
  ArrayRef<uint64_t> regs = layout.getBases(kRegister);
  if (regs.empty())
    return 1;
  // Register 1 must be the next element along one axis; then count the registers that
  // continue along it.
  SmallVector<int64_t> first = layout.outCoords(regs[0]);
  auto axis = llvm::find(first, 1);
  if (axis == first.end() || llvm::count(first, 0) != int64_t(first.size()) - 1)
    return 1;
  int64_t run = 1;
  for (uint64_t basis : regs) {
    SmallVector<int64_t> expected(first.size(), 0);
    expected[axis - first.begin()] = run;
    if (layout.outCoords(basis) != expected)
      break;
    run *= 2;
  }
  return run;
}

std::optional<unsigned> tilegpu::vectorAxis(const LinearLayout &layout) {
  if (vectorRun(layout) == 1)
    return std::nullopt;
  SmallVector<int64_t> first = layout.outCoords(layout.getBases(kRegister)[0]);
  return unsigned(llvm::find(first, 1) - first.begin());
}

LinearLayout tilegpu::reshapeView(const LinearLayout &result, ArrayRef<int64_t> sourceShape) {
  return result.reshapeOuts(LinearLayout::tileDims(sourceShape));
}

LinearLayout tilegpu::broadcastView(const LinearLayout &result, ArrayRef<int64_t> sourceShape) {
  // Result axis k is source axis k - lead; drop the axes the source repeats, from the back
  // so that the remaining axes keep their names until the rename below.
  SmallVector<int64_t> shape = result.getOutShape();
  size_t lead = shape.size() - sourceShape.size();
  LinearLayout view = result;
  for (size_t k = shape.size(); k-- > 0;)
    if (k < lead || sourceShape[k - lead] == 1)
      view = view.removeOut(LinearLayout::axisName(unsigned(k)));
  SmallVector<int64_t> kept;
  for (int64_t extent : sourceShape)
    if (extent != 1)
      kept.push_back(extent);
  view = view.reshapeOuts(LinearLayout::tileDims(kept));
  // Size-1 source axes come back as outputs of no bits.
  for (auto [k, extent] : llvm::enumerate(sourceShape))
    if (extent == 1)
      view = view.insertOut(unsigned(k), {LinearLayout::axisName(unsigned(k)), 0});
  return view.reshapeOuts(LinearLayout::tileDims(sourceShape));
}

LinearLayout tilegpu::permuteView(const LinearLayout &result, ArrayRef<int32_t> perm) {
  // Source axis perm[k] is result axis k.
  SmallVector<unsigned> inverse(perm.size());
  for (auto [k, p] : llvm::enumerate(perm))
    inverse[p] = unsigned(k);
  LinearLayout permuted = result.permuteOuts(inverse);
  return permuted.reshapeOuts(LinearLayout::tileDims(permuted.getOutShape()));
}

/// Every XOR of a subset of `vectors`, each value once, 0 first.
static SmallVector<int64_t> spanOf(ArrayRef<int64_t> vectors) {
  SmallVector<int64_t> values{0};
  for (int64_t v : vectors)
    if (!llvm::is_contained(values, v))
      for (size_t k = 0, n = values.size(); k < n; ++k)
        values.push_back(values[k] ^ v);
  return values;
}

std::optional<ShapeMovement> tilegpu::planShapeMovement(Operation *op, unsigned numWarps) {
  if (!isa<tile::ReshapeOp, tile::BroadcastOp, tile::PermuteOp, ConvertLayoutOp>(op))
    return std::nullopt;
  Value source = op->getOperand(0);
  std::optional<LinearLayout> from = linearLayoutOf(source.getType(), numWarps);
  std::optional<LinearLayout> to = linearLayoutOf(op->getResult(0).getType(), numWarps);
  if (!from || !to)
    return std::nullopt;
  ArrayRef<int64_t> shape = cast<RankedTensorType>(source.getType()).getShape();
  LinearLayout view = *to;
  if (isa<tile::ReshapeOp>(op))
    view = reshapeView(*to, shape);
  else if (isa<tile::BroadcastOp>(op))
    view = broadcastView(*to, shape);
  else if (auto permute = dyn_cast<tile::PermuteOp>(op))
    view = permuteView(*to, permute.getPerm());
  ShapeMovement plan;
  plan.kind = classifyMovement(*from, view);
  if (isFree(plan.kind))
    plan.registerBases = registerBases(*from, view);
  if (plan.kind == Movement::WarpShuffle) {
    plan.shuffle = shuffleMap(*from, view);
    plan.shuffleRounds = spanOf(plan.shuffle.regFromThread);
    if (plan.shuffleRounds.size() > kMaxShuffleRounds)
      plan.kind = Movement::SharedMemory;
  }
  return plan;
}

std::optional<LinearLayout> tilegpu::linearLayoutOf(Type tile, unsigned numWarps) {
  auto tensor = dyn_cast<RankedTensorType>(tile);
  if (!tensor)
    return std::nullopt;
  auto layout = dyn_cast_or_null<LayoutEncodingAttrInterface>(tensor.getEncoding());
  if (!layout || isa<SharedLayoutAttr>(tensor.getEncoding()))
    return std::nullopt;
  return layout.toLinearLayout(tensor.getShape(), numWarps);
}

std::optional<ReducePlan> tilegpu::planReduce(tile::ReduceOp op, unsigned numWarps) {
  Value source = op.getSources()[0];
  std::optional<LinearLayout> ll = linearLayoutOf(source.getType(), numWarps);
  if (!ll)
    return std::nullopt;
  for (Value other : op.getSources().drop_front())
    if (linearLayoutOf(other.getType(), numWarps) != ll)
      return std::nullopt; // the operands of one reduction share a layout
  auto type = cast<RankedTensorType>(source.getType());
  unsigned axis = op.getAxis();
  if (!separatesAxis(*ll, axis))
    return std::nullopt;
  ReducePlan plan;
  plan.source = *ll;
  uint64_t along = axisBits(*ll, axis);
  auto bitsAlong = [&](StringRef in) {
    uint64_t mask = 0;
    for (auto [bit, basis] : llvm::enumerate(ll->getBases(in)))
      if (basis & along)
        mask |= uint64_t(1) << bit;
    return mask;
  };
  plan.axisRegisters = bitsAlong(kRegister);
  plan.axisWarps = bitsAlong(kWarp);
  uint64_t axisLanes = bitsAlong(kLane);
  for (unsigned bit = 0; bit < ll->getInBits(kLane); ++bit)
    if ((axisLanes >> bit) & 1)
      plan.laneMasks.push_back(1u << bit);
  unsigned laneBits = ll->getInBits(kLane);
  plan.writerMask = axisLanes | ll->getFreeMask(kLane) | (ll->getFreeMask(kWarp) << laneBits);
  plan.keys = int64_t(1) << (ll->getInBits(kRegister) - llvm::popcount(plan.axisRegisters));
  plan.warpsAlongAxis = int64_t(1) << llvm::popcount(plan.axisWarps);

  SmallVector<int64_t> resultShape(type.getShape());
  resultShape.erase(resultShape.begin() + axis);
  LinearLayout projected = ll->removeOut(LinearLayout::axisName(axis));
  plan.slice = resultShape.empty()
                   ? projected.removeZeroBases(kRegister)
                   : projected.reshapeOuts(LinearLayout::tileDims(resultShape))
                         .removeZeroBases(kRegister);
  if (plan.warpsAlongAxis == 1) {
    Type result = op.getResult(0).getType();
    if (!isa<RankedTensorType>(result))
      plan.inRegisters = true;
    else if (std::optional<LinearLayout> r = linearLayoutOf(result, numWarps))
      plan.inRegisters = *r == plan.slice;
  }
  return plan;
}

