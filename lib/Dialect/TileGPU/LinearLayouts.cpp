//===- LinearLayouts.cpp - every tilegpu layout as a linear layout --------------===//
//
// toLinearLayout of each layout attribute: the one place that says which register, lane
// and warp of a tile program holds which element. The register order each gives is the
// order the device code keeps registers in (tile_dev::mma_frag reads fragments in it).
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::tilegpu;
using Dim = LinearLayout::Dim;

#include "tilecc/Dialect/TileGPU/TileGPUAttrInterfaces.cpp.inc"

namespace {

unsigned bitsOf(int64_t v) { return unsigned(llvm::Log2_64(uint64_t(v))); }

/// Collects the bases of a distributed layout as coordinates, then flattens them.
class DistributedBuilder {
public:
  explicit DistributedBuilder(ArrayRef<int64_t> shape) : shape(shape), outs(LinearLayout::tileDims(shape)) {}

  /// A basis that moves `step` along `axis`; 0 once the step leaves the tile (the layout
  /// wraps there, so the input only replicates).
  uint64_t along(unsigned axis, int64_t step) const {
    if (step >= shape[axis])
      return 0;
    SmallVector<int64_t> coords(shape.size(), 0);
    coords[axis] = step;
    LinearLayout probe({}, outs, {});
    return probe.flattenOut(coords);
  }

  SmallVector<uint64_t> reg, lane, warp;

  LinearLayout build(unsigned numWarps) {
    while (warp.size() < bitsOf(numWarps)) // warps the layout does not use hold copies
      warp.push_back(0);
    return LinearLayout({{kRegister.str(), unsigned(reg.size())},
                         {kLane.str(), unsigned(lane.size())},
                         {kWarp.str(), unsigned(warp.size())}},
                        outs, {reg, lane, warp});
  }

private:
  ArrayRef<int64_t> shape;
  SmallVector<Dim> outs;
};

} // namespace

LinearLayout BlockedLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape, unsigned numWarps) const {
  DistributedBuilder b(shape);
  ArrayRef<unsigned> spt = getSizePerThread(), tpw = getThreadsPerWarp(),
                     wpb = getWarpsPerBlock();
  for (unsigned axis : getOrder()) {
    int64_t cta = int64_t(spt[axis]) * tpw[axis] * wpb[axis];
    for (unsigned i = 0; i < bitsOf(spt[axis]); ++i)
      b.reg.push_back(b.along(axis, int64_t(1) << i));
    for (int64_t rep = cta; rep < shape[axis]; rep *= 2)
      b.reg.push_back(b.along(axis, rep));
  }
  for (unsigned axis : getOrder())
    for (unsigned i = 0; i < bitsOf(tpw[axis]); ++i)
      b.lane.push_back(b.along(axis, int64_t(spt[axis]) << i));
  for (unsigned axis : getOrder())
    for (unsigned i = 0; i < bitsOf(wpb[axis]); ++i)
      b.warp.push_back(b.along(axis, int64_t(spt[axis]) * tpw[axis] << i));
  return b.build(numWarps);
}

LinearLayout MmaLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape, unsigned numWarps) const {
  DistributedBuilder b(shape);
  unsigned r = getRank() - 2, row = r, col = r + 1;
  int64_t wm = getWarpsPerBlock()[row], wn = getWarpsPerBlock()[col];
  // Registers: the fragment's (col + 1, row + 8), then the repeats along N, M, the batch.
  b.reg = {b.along(col, 1), b.along(row, 8)};
  for (int64_t step = 8 * wn; step < shape[col]; step *= 2)
    b.reg.push_back(b.along(col, step));
  for (int64_t step = 16 * wm; step < shape[row]; step *= 2)
    b.reg.push_back(b.along(row, step));
  if (r == 1)
    for (int64_t step = 1; step < shape[0]; step *= 2)
      b.reg.push_back(b.along(0, step));
  // Lane l = 4g + t holds column 2t and row g of each instruction tile.
  b.lane = {b.along(col, 2), b.along(col, 4), b.along(row, 1), b.along(row, 2), b.along(row, 4)};
  for (int64_t step = 8; step < 8 * wn; step *= 2)
    b.warp.push_back(b.along(col, step));
  for (int64_t step = 16; step < 16 * wm; step *= 2)
    b.warp.push_back(b.along(row, step));
  // A unit axis (a reduction's result seen with its axis back) holds one element there.
  return b.build(numWarps).removeZeroBases(kRegister);
}

LinearLayout DotOperandLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape,
                                                  unsigned numWarps) const {
  DistributedBuilder b(shape);
  unsigned r = getRank() - 2, row = r, col = r + 1;
  int64_t wm = getParent().getWarpsPerBlock()[row], wn = getParent().getWarpsPerBlock()[col];
  int64_t kw = getKWidth(), ki = getInstrK();
  bool isA = getOpIdx() == 0;
  // The k axis of the operand, and its M (A) or N (B) axis.
  unsigned k = isA ? col : row, mn = isA ? row : col;
  // Registers within an instruction tile: kWidth consecutive k, then (A) the row g + 8,
  // then the k half 4 * kWidth.
  for (int64_t step = 1; step < kw; step *= 2)
    b.reg.push_back(b.along(k, step));
  if (isA)
    b.reg.push_back(b.along(row, 8));
  b.reg.push_back(b.along(k, 4 * kw));
  // Then the instruction tiles: columns of tiles, rows of tiles, the batch.
  int64_t colTile = isA ? ki : 8 * wn, rowTile = isA ? 16 * wm : ki;
  for (int64_t step = colTile; step < shape[col]; step *= 2)
    b.reg.push_back(b.along(col, step));
  for (int64_t step = rowTile; step < shape[row]; step *= 2)
    b.reg.push_back(b.along(row, step));
  if (r == 1)
    for (int64_t step = 1; step < shape[0]; step *= 2)
      b.reg.push_back(b.along(0, step));
  // Lane l = 4g + t: k kWidth * t, and row (A) or column (B) g.
  b.lane = {b.along(k, kw), b.along(k, 2 * kw), b.along(mn, 1), b.along(mn, 2), b.along(mn, 4)};
  // Warp w = wm * WN + wn: A is replicated over wn, B over wm.
  for (int64_t step = 8; step < 8 * wn; step *= 2)
    b.warp.push_back(isA ? 0 : b.along(col, step));
  for (int64_t step = 16; step < 16 * wm; step *= 2)
    b.warp.push_back(isA ? b.along(row, step) : 0);
  return b.build(numWarps);
}

LinearLayout LinearLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape, unsigned numWarps) const {
  SmallVector<Dim> outs = LinearLayout::tileDims(shape);
  LinearLayout probe({}, outs, {});
  unsigned rank = getRank();
  // Each basis flattened over `shape`, its coordinates wrapped to the tile's extents.
  auto flatten = [&](ArrayRef<int64_t> bases) {
    SmallVector<uint64_t> flat;
    for (size_t k = 0; k + rank <= bases.size(); k += rank) {
      SmallVector<int64_t> coords(shape.size(), 0);
      for (unsigned a = 0; a < rank && a < shape.size(); ++a)
        coords[a] = bases[k + a] & (shape[a] - 1);
      flat.push_back(probe.flattenOut(coords));
    }
    return flat;
  };
  SmallVector<uint64_t> reg = flatten(getRegisters()), lane = flatten(getLanes()),
                        warp = flatten(getWarps());
  warp.resize(std::max<size_t>(warp.size(), bitsOf(numWarps)), 0); // unused warps hold copies
  return LinearLayout({{kRegister.str(), unsigned(reg.size())},
                       {kLane.str(), unsigned(lane.size())},
                       {kWarp.str(), unsigned(warp.size())}},
                      outs, {reg, lane, warp});
}

LinearLayoutAttr LinearLayoutAttr::get(MLIRContext *ctx, const LinearLayout &layout) {
  SmallVector<int64_t> shape = layout.getOutShape();
  auto coordinates = [&](StringRef in) {
    SmallVector<int64_t> out;
    for (uint64_t basis : layout.getBases(in))
      llvm::append_range(out, layout.outCoords(basis));
    return out;
  };
  return get(ctx, unsigned(shape.size()), coordinates(kRegister), coordinates(kLane),
             coordinates(kWarp));
}

bool LinearLayoutAttr::fits(ArrayRef<int64_t> shape) const {
  if (shape.size() != getRank())
    return false;
  for (ArrayRef<int64_t> list : {getRegisters(), getLanes(), getWarps()})
    for (size_t k = 0; k < list.size(); ++k)
      if (list[k] >= shape[k % getRank()])
        return false;
  return toLinearLayout(shape, getNumWarps()).isSurjective();
}

LinearLayout SliceLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape, unsigned numWarps) const {
  SmallVector<int64_t> parentShape(shape);
  parentShape.insert(parentShape.begin() + getDim(), 1);
  LinearLayout parent =
      llvm::cast<LayoutEncodingAttrInterface>(getParent()).toLinearLayout(parentShape, numWarps);
  return parent.removeOut(LinearLayout::axisName(getDim()))
      .reshapeOuts(LinearLayout::tileDims(shape))
      .removeZeroBases(kRegister);
}

LinearLayout SharedLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape, unsigned) const {
  SmallVector<Dim> outs = LinearLayout::tileDims(shape);
  LinearLayout probe({}, outs, {});
  ArrayRef<unsigned> order = getOrder();
  unsigned fast = order[0];
  SmallVector<uint64_t> offset;
  auto at = [&](unsigned axis, int64_t step) {
    SmallVector<int64_t> coords(shape.size(), 0);
    coords[axis] = step;
    return coords;
  };
  // The fast axis within a block, the rows, then the fast axis's blocks.
  int64_t block = getBlock() && getBlock() < shape[fast] ? getBlock() : shape[fast];
  for (int64_t step = 1; step < block; step *= 2)
    offset.push_back(probe.flattenOut(at(fast, step)));
  if (order.size() > 1) {
    // Row bit j of the second axis also flips group bit (j - log2 perPhase) of the fast axis.
    unsigned second = order[1];
    for (int64_t step = 1; step < shape[second]; step *= 2) {
      SmallVector<int64_t> coords = at(second, step);
      int64_t phase = step / getPerPhase();
      if (phase >= 1 && phase < int64_t(getMaxPhase()))
        coords[fast] = (phase * getVec()) & (block - 1);
      offset.push_back(probe.flattenOut(coords));
    }
  }
  for (int64_t step = block; step < shape[fast]; step *= 2)
    offset.push_back(probe.flattenOut(at(fast, step)));
  for (unsigned axis : order.drop_front(std::min<size_t>(2, order.size())))
    for (int64_t step = 1; step < shape[axis]; step *= 2)
      offset.push_back(probe.flattenOut(at(axis, step)));
  return LinearLayout({{kOffset.str(), unsigned(offset.size())}}, outs, {offset});
}
