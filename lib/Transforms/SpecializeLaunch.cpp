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
// Such an access gets `whole`. Where the first fact holds only for the runs of `vector`
// elements each thread moves (offset, start and bound along the vector axis multiples of the
// run, the tile cut anywhere along the others), and the second holds, the access gets `runs`;
// every `whole` access is a `runs` one. The kernel gets one `tilegpu.specialization`: the facts
// its whole accesses assumed (`divisible`, `vectors`; none where every whole tile is a single
// element) and those its runs accesses assumed (`run_divisible`, `run_vectors`). CodeGen
// prints the kernel once per level of fit (a template on `int Fit_`): 2 where both sets of
// facts hold, a whole access testing only whether its tile is inside and then moving it with
// straight-line vector accesses; 1 where the run facts hold, a runs access moving each run
// with one predicated vector access; 0 otherwise, with a path per element for cut or
// unaligned tiles. Per-element paths cost registers nvcc reserves for the whole kernel
// (attention over a cache whose length the key block does not divide: 174 registers in the
// general instance, 128 in the runs one, 114 whole); the launcher picks the highest level
// whose facts hold.
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

/// The facts one access assumes: array extents divisible by a power of two, and a view that
/// allows vectors of some bytes along an axis.
struct AccessFacts {
  llvm::SmallVector<std::pair<ArgAxis, int64_t>> divisible;
  std::optional<std::pair<ArgAxis, int64_t>> vectorBytes;
};

/// How finely an access is proven to fall on the grid of its bounds: whole tiles, or the
/// runs of `vector` elements each thread moves with one access.
enum class Grain { Tile, Run };

/// The facts under which the access's tile (Grain::Tile) or each of its vector runs
/// (Grain::Run) lies wholly inside or wholly outside its bounds with aligned vectors, if it
/// can be proven.
std::optional<AccessFacts> factsFor(Value view, RankedTensorType tile,
                                    OperandRange offsets, OperandRange starts,
                                    OperandRange bounds, int64_t vector, unsigned numWarps,
                                    Grain grain) {
  auto arg = dyn_cast<BlockArgument>(view);
  if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp()))
    return std::nullopt;
  std::optional<unsigned> vectorAxis;
  if (vector > 1) {
    std::optional<LinearLayout> layout = tilegpu::linearLayoutOf(tile, numWarps);
    vectorAxis = layout ? tilegpu::vectorAxis(*layout) : std::nullopt;
    if (!vectorAxis)
      return std::nullopt;
  } else if (grain == Grain::Run) {
    return std::nullopt; // single elements: nothing to gain
  }
  AccessFacts facts;
  // Along the view's leading axes a tile of lower rank is one element: inside or outside.
  unsigned lead = tilegpu::leadingAxes(view, tile.getRank());
  for (auto [axis, size] : llvm::enumerate(tile.getShape())) {
    int64_t extent = grain == Grain::Tile ? size : axis == *vectorAxis ? vector : 1;
    if (extent == 1)
      continue;
    SmallVector<Value, 3> ends{offsets[lead + axis], bounds[lead + axis]};
    if (!starts.empty())
      ends.push_back(starts[lead + axis]);
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
  if (vectorAxis)
    facts.vectorBytes = {{int64_t(arg.getArgNumber()), int64_t(lead + *vectorAxis)},
                         vector * tilegpu::elementBytes(tile.getElementType())};
  return facts;
}

/// The strongest fact each argument axis must meet (all are powers of two).
struct LaunchFacts {
  llvm::MapVector<ArgAxis, int64_t> divisible, vectors;

  void add(const AccessFacts &facts) {
    for (auto [key, n] : facts.divisible)
      divisible[key] = std::max(divisible.lookup(key), n);
    if (facts.vectorBytes)
      vectors[facts.vectorBytes->first] =
          std::max(vectors.lookup(facts.vectorBytes->first), facts.vectorBytes->second);
  }
};

struct SpecializeLaunchPass
    : public tilecc::impl::TileSpecializeLaunchBase<SpecializeLaunchPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    unsigned numWarps = tilegpu::numWarpsOf(func);
    LaunchFacts whole, runs;
    bool anyWhole = false, anyRuns = false;
    func.walk([&](Operation *op) {
      if (!isa<tilegpu::GlobalLoadOp, tilegpu::GlobalStoreOp>(op))
        return;
      auto factsAt = [&](Grain grain) -> std::optional<AccessFacts> {
        if (auto load = dyn_cast<tilegpu::GlobalLoadOp>(op))
          return factsFor(load.getView(), load.getType(), load.getOffsets(), load.getStarts(),
                          load.getBounds(), load.getVector(), numWarps, grain);
        if (auto store = dyn_cast<tilegpu::GlobalStoreOp>(op))
          return factsFor(store.getView(), cast<RankedTensorType>(store.getValue().getType()),
                          store.getOffsets(), store.getStarts(), store.getBounds(),
                          store.getVector(), numWarps, grain);
        return std::nullopt;
      };
      auto mark = [&](StringRef name, std::optional<AccessFacts> facts, LaunchFacts &all,
                      bool &any) {
        if (!facts) {
          op->removeAttr(name);
          return;
        }
        op->setAttr(name, UnitAttr::get(op->getContext()));
        any = true;
        all.add(*facts);
      };
      mark("whole", factsAt(Grain::Tile), whole, anyWhole);
      mark("runs", factsAt(Grain::Run), runs, anyRuns);
    });
    if (!anyWhole && !anyRuns) {
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
    SmallVector<NamedAttribute> entries;
    if (anyWhole) {
      entries.push_back(b.getNamedAttr("divisible", list(whole.divisible)));
      entries.push_back(b.getNamedAttr("vectors", list(whole.vectors)));
    }
    if (anyRuns) {
      entries.push_back(b.getNamedAttr("run_divisible", list(runs.divisible)));
      entries.push_back(b.getNamedAttr("run_vectors", list(runs.vectors)));
    }
    func->setAttr(tilegpu::kSpecializationAttrName, b.getDictionaryAttr(entries));
  }
};

} // namespace
