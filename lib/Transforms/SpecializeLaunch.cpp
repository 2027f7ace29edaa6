//===- SpecializeLaunch.cpp - facts of the arguments that make tiles whole ------===//
//
// `tile-specialize-launch` finds the global accesses whose tiles are whole or empty once the
// arguments meet a few facts the launcher can test once per launch, the way Triton
// specializes a kernel on arguments divisible by 16:
//
//  * along each axis the tile spans more than one element, its offset, start and bound are
//    multiples of the tile's extent, proven by knownDivisor from the index arithmetic with
//    every array extent the access is bounded by assumed a multiple of that extent (a
//    piece's origin is block_id * tile, a loop over whole tiles steps by the tile). The tile
//    then lies in one cell of a grid of tile-sized cells that its bounds are unions of: it
//    is wholly inside them or wholly outside;
//  * a vector access (`vector` > 1) needs its view to allow vectors of that many bytes along
//    the layout's fastest axis: stride 1 and aligned rows.
//
// Such an access gets `whole`, and a kernel with one `tilegpu.specialization`: the facts its
// whole accesses assumed (none where every whole tile is a single element). CodeGen prints the kernel twice: specialized, where a whole access
// tests only whether its tile is inside and then moves it with straight-line vector accesses
// (no per-element paths, whose registers nvcc would otherwise reserve for the whole kernel),
// and general; the launcher picks the first when the facts hold.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Transforms/Passes.h"

#include "tilecc/Dialect/TileGPU/DataMovement.h"
#include "tilecc/Dialect/TileGPU/Divisibility.h"
#include "tilecc/Dialect/TileGPU/SharedScratch.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace tilecc {
#define GEN_PASS_DEF_TILESPECIALIZELAUNCH
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

/// An axis of a kernel argument: (argument number, axis).
using ArgAxis = std::pair<int64_t, int64_t>;

/// The array extents (`tilegpu.array_dim` of a kernel argument) that `v` is computed from.
void collectExtents(Value v, llvm::SetVector<Operation *> &extents, unsigned depth = 0) {
  constexpr unsigned kMaxDepth = 32; // as knownDivisor: deeper values are not explained
  Operation *def = v.getDefiningOp();
  if (!def || depth > kMaxDepth)
    return;
  if (isa<tilegpu::ArrayDimOp>(def)) {
    extents.insert(def);
    return;
  }
  for (Value operand : def->getOperands())
    collectExtents(operand, extents, depth + 1);
}

std::optional<ArgAxis> argAxisOf(tilegpu::ArrayDimOp dim) {
  auto arg = dyn_cast<BlockArgument>(dim.getView());
  if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp()))
    return std::nullopt;
  return ArgAxis{arg.getArgNumber(), dim.getAxis()};
}

/// The facts one access assumes to be whole or empty, if it can be.
struct AccessFacts {
  llvm::SmallVector<std::pair<ArgAxis, int64_t>> divisible;
  std::optional<std::pair<ArgAxis, int64_t>> vectorBytes;
};

std::optional<AccessFacts> factsFor(Value view, RankedTensorType tile,
                                    OperandRange offsets, OperandRange starts,
                                    OperandRange bounds, int64_t vector, unsigned numWarps) {
  auto arg = dyn_cast<BlockArgument>(view);
  if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp()))
    return std::nullopt;
  AccessFacts facts;
  for (auto [axis, extent] : llvm::enumerate(tile.getShape())) {
    if (extent == 1)
      continue;
    SmallVector<Value, 3> ends{offsets[axis], bounds[axis]};
    if (!starts.empty())
      ends.push_back(starts[axis]);
    // Assume every extent these are computed from a multiple of the tile's extent.
    llvm::SetVector<Operation *> extents;
    for (Value v : ends)
      collectExtents(v, extents);
    llvm::DenseSet<Operation *> assumedOps;
    for (Operation *e : extents)
      if (std::optional<ArgAxis> key = argAxisOf(cast<tilegpu::ArrayDimOp>(e))) {
        facts.divisible.push_back({*key, extent});
        assumedOps.insert(e);
      }
    auto assumed = [&](Value v) -> int64_t {
      return assumedOps.contains(v.getDefiningOp()) ? extent : 1;
    };
    for (Value v : ends)
      if (tilegpu::knownDivisor(v, assumed) % extent != 0)
        return std::nullopt;
  }
  if (vector > 1) {
    std::optional<LinearLayout> layout = tilegpu::linearLayoutOf(tile, numWarps);
    std::optional<unsigned> axis = layout ? tilegpu::vectorAxis(*layout) : std::nullopt;
    if (!axis)
      return std::nullopt;
    facts.vectorBytes = {{int64_t(arg.getArgNumber()), int64_t(*axis)},
                         vector * tilegpu::elementBytes(tile.getElementType())};
  }
  return facts;
}

struct SpecializeLaunchPass
    : public tilecc::impl::TileSpecializeLaunchBase<SpecializeLaunchPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    unsigned numWarps = tilegpu::numWarpsOf(func);
    // The strongest fact each argument axis must meet (all are powers of two).
    llvm::MapVector<ArgAxis, int64_t> divisible, vectors;
    bool anyWhole = false;
    func.walk([&](Operation *op) {
      std::optional<AccessFacts> facts;
      if (auto load = dyn_cast<tilegpu::GlobalLoadOp>(op))
        facts = factsFor(load.getView(), load.getType(), load.getOffsets(),
                         load.getStarts(), load.getBounds(), load.getVector(), numWarps);
      else if (auto store = dyn_cast<tilegpu::GlobalStoreOp>(op))
        facts = factsFor(store.getView(), cast<RankedTensorType>(store.getValue().getType()),
                         store.getOffsets(), store.getStarts(), store.getBounds(),
                         store.getVector(), numWarps);
      else
        return;
      if (!facts) {
        op->removeAttr("whole");
        return;
      }
      op->setAttr("whole", UnitAttr::get(op->getContext()));
      anyWhole = true;
      for (auto [key, n] : facts->divisible)
        divisible[key] = std::max(divisible.lookup(key), n);
      if (facts->vectorBytes)
        vectors[facts->vectorBytes->first] =
            std::max(vectors.lookup(facts->vectorBytes->first), facts->vectorBytes->second);
    });
    if (!anyWhole) {
      func->removeAttr(tilegpu::kSpecializationAttrName);
      return;
    }
    Builder b(&getContext());
    auto list = [&](const llvm::MapVector<ArgAxis, int64_t> &facts) {
      SmallVector<Attribute> items;
      for (auto [key, n] : facts)
        items.push_back(b.getDenseI64ArrayAttr({key.first, key.second, n}));
      return b.getArrayAttr(items);
    };
    func->setAttr(tilegpu::kSpecializationAttrName,
                  b.getDictionaryAttr({b.getNamedAttr("divisible", list(divisible)),
                                       b.getNamedAttr("vectors", list(vectors))}));
  }
};

} // namespace
