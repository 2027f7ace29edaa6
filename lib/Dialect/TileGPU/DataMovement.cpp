//===- DataMovement.cpp - how a tile op moves elements between threads ----------===//
#include "tilecc/Dialect/TileGPU/DataMovement.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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

uint64_t tilegpu::inputBitsAlong(const LinearLayout &layout, unsigned axis, StringRef in) {
  uint64_t along = axisBits(layout, axis), mask = 0;
  for (auto [bit, basis] : llvm::enumerate(layout.getBases(in)))
    if (basis & along)
      mask |= uint64_t(1) << bit;
  return mask;
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

SmallVector<int64_t> tilegpu::withoutUnitAxes(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> kept;
  llvm::copy_if(shape, std::back_inserter(kept), [](int64_t d) { return d != 1; });
  return kept;
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
  view = view.reshapeOuts(LinearLayout::tileDims(withoutUnitAxes(sourceShape)));
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

/// `layout` with each basis's output coordinates moved by `move` onto a tile of `shape`
/// (`move` must be linear over the coordinates' bits).
static LinearLayout mapCoords(const LinearLayout &layout, ArrayRef<int64_t> shape,
                              function_ref<SmallVector<int64_t>(SmallVector<int64_t>)> move) {
  SmallVector<LinearLayout::Dim> outs = LinearLayout::tileDims(shape);
  auto flatten = [&](ArrayRef<int64_t> coords) {
    uint64_t flat = 0;
    for (auto [c, extent] : llvm::zip(coords, shape))
      flat = flat * uint64_t(extent) + uint64_t(c);
    return flat;
  };
  SmallVector<SmallVector<uint64_t>> bases;
  for (const LinearLayout::Dim &in : layout.getInDims()) {
    SmallVector<uint64_t> &list = bases.emplace_back();
    for (uint64_t basis : layout.getBases(in.name))
      list.push_back(flatten(move(layout.outCoords(basis))));
  }
  return LinearLayout(SmallVector<LinearLayout::Dim>(layout.getInDims()), outs, bases);
}

LinearLayout tilegpu::catView(const LinearLayout &result, unsigned axis) {
  SmallVector<int64_t> shape{2};
  llvm::append_range(shape, result.getOutShape());
  int64_t half = shape[axis + 1] /= 2;
  return mapCoords(result, shape, [&](SmallVector<int64_t> coords) {
    coords.insert(coords.begin(), (coords[axis] & half) ? 1 : 0);
    coords[axis + 1] &= half - 1;
    return coords;
  });
}

LinearLayout tilegpu::stackedOperands(const LinearLayout &operand) {
  SmallVector<int64_t> shape{2};
  llvm::append_range(shape, operand.getOutShape());
  SmallVector<LinearLayout::Dim> ins(operand.getInDims());
  SmallVector<SmallVector<uint64_t>> bases;
  for (LinearLayout::Dim &in : ins) {
    bases.emplace_back(operand.getBases(in.name));
    if (in.name == kRegister) {
      ++in.bits;
      bases.back().push_back(uint64_t(1) << operand.getTotalOutBits());
    }
  }
  return LinearLayout(ins, LinearLayout::tileDims(shape), bases);
}

LinearLayout tilegpu::extractView(const LinearLayout &result, ArrayRef<int64_t> sourceShape) {
  return mapCoords(result, sourceShape, [](SmallVector<int64_t> coords) { return coords; });
}

std::optional<SmallVector<int64_t>> tilegpu::subTileRegisters(const LinearLayout &from,
                                                             const LinearLayout &to) {
  SmallVector<int64_t> source = from.getOutShape(), result = to.getOutShape();
  SmallVector<uint64_t> vectors;
  for (size_t k = source.size(); k-- > 0;)
    for (int64_t step = result[k]; step < source[k]; step *= 2) {
      SmallVector<int64_t> coords(source.size(), 0);
      coords[k] = step;
      vectors.push_back(from.flattenOut(coords));
    }
  return registerCombinations(from, vectors);
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

std::optional<ShapeMovement> tilegpu::planShapeMovement(Operation *op, const LinearLayout &from,
                                                        const LinearLayout &to) {
  if (!isa<tile::ReshapeOp, tile::BroadcastOp, tile::PermuteOp, tile::CatOp, tile::ExtractOp,
           ConvertLayoutOp>(op))
    return std::nullopt;
  ArrayRef<int64_t> shape = cast<RankedTensorType>(op->getOperand(0).getType()).getShape();
  LinearLayout source = from, view = to;
  if (isa<tile::ReshapeOp>(op))
    view = reshapeView(to, shape);
  else if (isa<tile::BroadcastOp>(op))
    view = broadcastView(to, shape);
  else if (auto permute = dyn_cast<tile::PermuteOp>(op))
    view = permuteView(to, permute.getPerm());
  else if (auto cat = dyn_cast<tile::CatOp>(op)) {
    source = stackedOperands(from);
    view = catView(to, cat.getAxis());
  } else if (isa<tile::ExtractOp>(op))
    view = extractView(to, shape);
  ShapeMovement plan;
  plan.kind = classifyMovement(source, view);
  if (isa<tile::CatOp, tile::ExtractOp>(op) && !isFree(plan.kind))
    plan.kind = Movement::SharedMemory;
  if (isa<tile::ExtractOp>(op) && isFree(plan.kind)) {
    std::optional<SmallVector<int64_t>> index = subTileRegisters(from, to);
    if (!index) {
      plan.kind = Movement::SharedMemory;
      return plan;
    }
    plan.indexBases = std::move(*index);
  }
  if (isFree(plan.kind))
    plan.registerBases = registerBases(source, view);
  if (plan.kind == Movement::WarpShuffle) {
    plan.shuffle = shuffleMap(source, view);
    plan.shuffleRounds = spanOf(plan.shuffle.regFromThread);
    if (plan.shuffleRounds.size() > kMaxShuffleRounds)
      plan.kind = Movement::SharedMemory;
  }
  return plan;
}

std::optional<ShapeMovement> tilegpu::planShapeMovement(Operation *op, unsigned numWarps) {
  std::optional<LinearLayout> from = linearLayoutOf(op->getOperand(0).getType(), numWarps);
  std::optional<LinearLayout> to = linearLayoutOf(op->getResult(0).getType(), numWarps);
  if (!from || !to)
    return std::nullopt;
  if (auto cat = dyn_cast<tile::CatOp>(op);
      cat && linearLayoutOf(cat.getRhs().getType(), numWarps) != from)
    return std::nullopt;
  return planShapeMovement(op, *from, *to);
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

/// "fmaxf" or "fminf" when `op` combines one f32 operand by arith.maxnumf or minnumf of its
/// two arguments alone, else empty.
static StringRef hardwareMinMax(tile::ReduceOp op) {
  if (op.getSources().size() != 1 || !op.getCombiner().hasOneBlock())
    return {};
  Block &body = op.getCombiner().front();
  if (body.getNumArguments() != 2 || !body.getArgument(0).getType().isF32() ||
      !llvm::hasSingleElement(body.without_terminator()))
    return {};
  Operation &combine = body.front();
  if (!isa<arith::MaxNumFOp, arith::MinNumFOp>(combine) ||
      body.getTerminator()->getOperands() != combine.getResults())
    return {};
  Value a = combine.getOperand(0), b = combine.getOperand(1);
  Value x = body.getArgument(0), y = body.getArgument(1);
  if (!((a == x && b == y) || (a == y && b == x)))
    return {};
  return isa<arith::MaxNumFOp>(combine) ? "fmaxf" : "fminf";
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
  plan.axisRegisters = inputBitsAlong(*ll, axis, kRegister);
  plan.axisWarps = inputBitsAlong(*ll, axis, kWarp);
  uint64_t axisLanes = inputBitsAlong(*ll, axis, kLane);
  for (unsigned bit = 0; bit < ll->getInBits(kLane); ++bit)
    if ((axisLanes >> bit) & 1)
      plan.laneMasks.push_back(1u << bit);
  unsigned laneBits = ll->getInBits(kLane);
  plan.writerMask = axisLanes | ll->getFreeMask(kLane) | (ll->getFreeMask(kWarp) << laneBits);
  plan.keys = int64_t(1) << (ll->getInBits(kRegister) - llvm::popcount(plan.axisRegisters));
  plan.warpsAlongAxis = int64_t(1) << llvm::popcount(plan.axisWarps);
  plan.hardwareMinMax = hardwareMinMax(op);

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


std::optional<ScanPlan> tilegpu::planScan(tile::ScanOp op, unsigned numWarps) {
  Value source = op.getSources()[0];
  std::optional<LinearLayout> ll = linearLayoutOf(source.getType(), numWarps);
  if (!ll || !ll->hasDisjointBits())
    return std::nullopt;
  for (Value other : op.getSources().drop_front())
    if (linearLayoutOf(other.getType(), numWarps) != ll)
      return std::nullopt;
  unsigned axis = op.getAxis();
  if (!separatesAxis(*ll, axis))
    return std::nullopt;
  auto type = cast<RankedTensorType>(source.getType());
  int64_t length = type.getDimSize(axis);
  uint64_t along = axisBits(*ll, axis);
  unsigned lowest = unsigned(llvm::countr_zero(along));

  // The input bit behind each bit of the axis, lowest first: registers, then lanes, then
  // warps, then registers again, each group in increasing order of its bits.
  enum Level { Low, Lanes, Warps, High };
  ScanPlan plan;
  Level level = Low;
  int lastLane = -1, lastWarp = -1;
  for (int64_t bit = 1; bit < length; bit *= 2) {
    uint64_t out = uint64_t(bit) << lowest;
    auto find = [&](StringRef in) -> int {
      for (auto [b, basis] : llvm::enumerate(ll->getBases(in)))
        if (basis == out)
          return int(b);
      return -1;
    };
    if (int r = find(kRegister); r >= 0) {
      if (level == Lanes || level == Warps)
        level = High;
      (level == Low ? plan.lowRegisters : plan.highRegisters).push_back(int64_t(1) << r);
    } else if (int l = find(kLane); l >= 0) {
      if (level > Lanes || l < lastLane)
        return std::nullopt;
      level = Lanes;
      lastLane = l;
      plan.axisLanes.push_back(int64_t(1) << l);
    } else if (int w = find(kWarp); w >= 0) {
      if (level > Warps || w < lastWarp)
        return std::nullopt;
      level = Warps;
      lastWarp = w;
      plan.axisWarps |= uint64_t(1) << w;
    } else {
      return std::nullopt;
    }
  }
  for (auto [b, basis] : llvm::enumerate(ll->getBases(kRegister)))
    if ((basis & along) == 0)
      plan.keyRegisters.push_back(int64_t(1) << b);
  unsigned laneBits = ll->getInBits(kLane);
  plan.replicas = ll->getFreeMask(kLane) | (ll->getFreeMask(kWarp) << laneBits);
  plan.lines = type.getNumElements() / length;
  plan.warpPositions = int64_t(1) << llvm::popcount(plan.axisWarps);
  plan.repeats = int64_t(1) << plan.highRegisters.size();

  SmallVector<int64_t> lineShape(type.getShape());
  lineShape.erase(lineShape.begin() + axis);
  LinearLayout projected = ll->removeOut(LinearLayout::axisName(axis));
  plan.slice = lineShape.empty() ? projected.removeZeroBases(kRegister)
                                 : projected.reshapeOuts(LinearLayout::tileDims(lineShape))
                                       .removeZeroBases(kRegister);
  return plan;
}
