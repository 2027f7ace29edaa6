//===- InferLayouts.cpp - layouts that follow the data --------------------------===//
//
// `tile-infer-layouts` starts from the anchors tile-assign-layouts gave (one blocked layout
// per tile shape, 16-byte vectors for global accesses) and lets values inherit a layout from
// the ops that produce them wherever that costs nothing:
//
//  * a reduction's result takes the slice of its operand's layout (`#tilegpu.slice`): the
//    shuffles leave each result in the threads that held its elements; one whose axis
//    crosses warps, whose partials meet in shared memory anyway, takes a layout with fewer
//    copies when no use wants the slice's (nothing broadcasts it back): spread over the
//    block where a loop carries it, else its shape's anchor;
//  * a reshape, broadcast, permute, cat or extract takes the first candidate under which
//    every thread already holds its result's elements (tilegpu::planShapeMovement): the
//    parent of a slice when its axis comes back as a unit axis (its chunks cut to the unit
//    axis), the result shape's anchor, the operand's own layout (for a cat, both operands'
//    first: a cat then picks registers of one operand or the other; for an extract, the
//    registers of the chosen sub-tile), the operand's blocked layout permuted, and last, for
//    a reshape that only adds or drops unit axes, the operand's own bases under the result's
//    shape (`#tilegpu.linear`), which is always free; when none is free it keeps the anchor
//    and exchanges through shared memory;
//  * an mma on whole instruction tiles takes its operands in the fragments it reads and
//    computes its result in the accumulator's (tilegpu::mmaFragments);
//  * an elementwise op takes the layout of one of its operands, the one the others convert to
//    most cheaply, weighed by the elements that move (ties: an operand computed in the body
//    over one that follows a loop-carried value, which takes whatever layout its loop settles
//    on, then the first); a single-use broadcast operand is made again in
//    that layout when moving its operand costs less than moving its result (P x V: the
//    weights broadcast along the value rows follow V's load instead of V following them); a
//    scan keeps its operand's;
//  * values an `scf.for` or `scf.while` carries take the layout their yield computes
//    (iterated until it is stable, so a loop-carried sum of reductions stays a slice), the
//    values an `scf.condition` forwards the layout the before region computes them in,
//    `scf.if` results that of their branch that is not uniform;
//  * a load whose value (through single-use elementwise ops) a broadcast repeats reads the
//    elements each thread needs directly, in the slice of the broadcast's anchor, when that
//    reads memory in runs as long as its own anchor's;
//  * a store keeps its value's layout only when that writes memory in runs as long as the
//    anchor's (a transpose's result is exchanged to the coalesced anchor before its store);
//    atomics, like every op not named here, take their anchors.
//
// Then each operand that reaches an op in a layout the op does not take passes through a
// `tilegpu.convert_layout`; constants, splats and iotas fold into the wanted layout, and a
// value computed from them alone (elementwise ops, broadcasts and unit-axis reshapes of
// coordinates and scalars, such as a causal mask's indices) is computed again in that layout.
// Such values do not pull an elementwise op's layout toward theirs.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Transforms/Passes.h"

#include "tilecc/Dialect/TileGPU/DataMovement.h"
#include "tilecc/Dialect/TileGPU/MmaFragments.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/MapVector.h"

namespace tilecc {
#define GEN_PASS_DEF_TILEINFERLAYOUTS
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;
using namespace tilecc::tilegpu;

namespace {

RankedTensorType withLayout(RankedTensorType type, Attribute layout) {
  return RankedTensorType::get(type.getShape(), type.getElementType(), layout);
}

/// `layout` for a tile of `shape`: a blocked layout whose chunks are longer than the tile
/// along an axis (the parent of a slice seen with a unit axis) holds one element there.
Attribute fitTo(Attribute layout, ArrayRef<int64_t> shape) {
  auto blocked = dyn_cast_or_null<BlockedLayoutAttr>(layout);
  if (!blocked || blocked.getRank() != shape.size())
    return layout;
  SmallVector<unsigned> spt;
  for (auto [d, extent] : llvm::enumerate(shape))
    spt.push_back(unsigned(std::min<int64_t>(blocked.getSizePerThread()[d], extent)));
  return BlockedLayoutAttr::get(layout.getContext(), spt, blocked.getThreadsPerWarp(),
                                blocked.getWarpsPerBlock(), blocked.getOrder());
}

/// A value every layout can hold without moving data: made from its coordinates alone.
bool isUniform(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (auto constant = dyn_cast<arith::ConstantOp>(def))
    return isa<DenseElementsAttr>(constant.getValue());
  return isa<tile::SplatOp, tile::IotaOp>(def);
}

/// True when `v` is computed from coordinates and scalars alone: a uniform value, or an
/// elementwise op, broadcast, reshape or layout conversion of such (a causal mask's row and
/// column indices).
/// Every layout computes it in place, so it is made again where a layout needs it.
bool fromCoordinates(Value v, unsigned depth = 0) {
  if (isUniform(v))
    return true;
  Operation *def = v.getDefiningOp();
  if (!def || depth > 32 || def->getNumResults() != 1 || def->getNumRegions() != 0 ||
      !isMemoryEffectFree(def) || !isa<RankedTensorType>(v.getType()))
    return false;
  if (!isa<tile::BroadcastOp, tile::ReshapeOp, ConvertLayoutOp>(def) &&
      !def->hasTrait<OpTrait::Elementwise>())
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return !isa<RankedTensorType>(operand.getType()) || fromCoordinates(operand, depth + 1);
  });
}

class LayoutInference {
public:
  LayoutInference(func::FuncOp func, unsigned numWarps) : func(func), numWarps(numWarps) {}

  void run() {
    loadWhereBroadcastsNeed();
    analyze(func.getBody().front());
    materialize();
  }

private:
  /// The layout a value had from tile-assign-layouts: the anchor of its shape.
  static Attribute anchorOf(Value v) { return cast<RankedTensorType>(v.getType()).getEncoding(); }
  /// The layout chosen for a value so far, else its anchor.
  Attribute layoutOf(Value v) const {
    auto it = chosen.find(v);
    return it != chosen.end() ? it->second : anchorOf(v);
  }

  std::optional<LinearLayout> linear(Attribute layout, ArrayRef<int64_t> shape) const {
    auto encoding = dyn_cast_or_null<LayoutEncodingAttrInterface>(layout);
    if (!encoding)
      return std::nullopt;
    if (auto blocked = dyn_cast<BlockedLayoutAttr>(layout); blocked && !blocked.fits(shape))
      return std::nullopt;
    if (auto bases = dyn_cast<LinearLayoutAttr>(layout); bases && !bases.fits(shape))
      return std::nullopt;
    LinearLayout ll = encoding.toLinearLayout(shape, numWarps);
    if (!ll.hasDisjointBits())
      return std::nullopt;
    return ll;
  }

  /// What moving a tile of `shape` from layout `from` to `to` costs (0 when it stays in its
  /// threads).
  int64_t cost(Attribute from, Attribute to, ArrayRef<int64_t> shape) const {
    if (from == to)
      return 0;
    std::optional<LinearLayout> a = linear(from, shape), b = linear(to, shape);
    if (!a || !b)
      return 100;
    return isFree(classifyMovement(*a, *b)) ? 0 : 10;
  }

  void want(OpOperand &operand, Attribute layout) { wants.push_back({&operand, layout}); }

  /// True when `layout` moves a tile of `shape` to memory as well as `anchor`: each thread's
  /// run of consecutive elements along the last axis is at least as long, and the lanes
  /// continue it (or one thread holds the whole row).
  bool coalescedAs(Attribute layout, Attribute anchor, ArrayRef<int64_t> shape) const {
    if (layout == anchor)
      return true;
    std::optional<LinearLayout> value = linear(layout, shape), best = linear(anchor, shape);
    if (!value || !best)
      return false;
    auto run = [](const LinearLayout &l) {
      ArrayRef<uint64_t> regs = l.getBases(kRegister);
      return !regs.empty() && regs[0] == 1 ? vectorRun(l) : int64_t(1);
    };
    int64_t have = run(*value);
    if (have < run(*best))
      return false;
    ArrayRef<uint64_t> lanes = value->getBases(kLane);
    return have >= shape.back() || (!lanes.empty() && lanes[0] == uint64_t(have));
  }

  void analyze(Block &block) {
    for (Operation &op : block)
      analyze(&op);
  }

  void analyze(Operation *op) {
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return analyzeFor(loop);
    if (auto loop = dyn_cast<scf::WhileOp>(op))
      return analyzeWhile(loop);
    if (auto branch = dyn_cast<scf::IfOp>(op))
      return analyzeIf(branch);
    if (auto reduce = dyn_cast<tile::ReduceOp>(op))
      return analyzeReduce(reduce);
    if (auto mma = dyn_cast<tile::MmaOp>(op))
      return analyzeMma(mma);
    if (isa<tile::ReshapeOp, tile::BroadcastOp, tile::PermuteOp, tile::CatOp, tile::ExtractOp>(op))
      return analyzeShape(op);
    if (isa<tile::ScanOp>(op) || (op->hasTrait<OpTrait::Elementwise>() &&
                                  llvm::any_of(op->getResultTypes(), [](Type t) {
                                    return isa<RankedTensorType>(t);
                                  })))
      return analyzeElementwise(op);
    // A store keeps its value's layout when that writes memory as well as the anchor does.
    if (auto store = dyn_cast<tile::StoreOp>(op)) {
      Value value = store.getValue();
      if (!coalescedAs(layoutOf(value), anchorOf(value),
                       cast<RankedTensorType>(value.getType()).getShape()))
        want(store->getOpOperand(0), anchorOf(value));
      return;
    }
    // Ops that take a tile in any layout.
    if (isa<tile::PrintOp, tile::CheckOp>(op))
      return;
    // Everything else keeps its anchors: its tile operands come back to them.
    for (OpOperand &operand : op->getOpOperands())
      if (isa<RankedTensorType>(operand.get().getType()) && !isa<scf::YieldOp>(op))
        want(operand, anchorOf(operand.get()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (!isa<tile::ReduceOp, tile::ScanOp>(op))
          analyze(block);
  }

  /// Before the walk: a broadcast whose operand is loaded (through single-use elementwise
  /// ops such as a cast) has the load read the elements each thread needs directly, in the
  /// slice of the broadcast's anchor, when that loads memory as well as the load's anchor: a
  /// GEMV's x then reaches every warp that holds a row of the matrix without an exchange.
  void loadWhereBroadcastsNeed() {
    func.walk([&](tile::BroadcastOp op) {
      SmallVector<Operation *> chain;
      Value v = op.getSource();
      while (true) {
        Operation *def = v.getDefiningOp();
        if (!def || !v.hasOneUse() || def->getNumResults() != 1)
          return;
        chain.push_back(def);
        if (isa<tile::LoadOp>(def))
          break;
        if (!def->hasTrait<OpTrait::Elementwise>())
          return;
        SmallVector<Value> varying;
        for (Value operand : def->getOperands())
          if (isa<RankedTensorType>(operand.getType()) && !isUniform(operand))
            varying.push_back(operand);
        if (varying.size() != 1)
          return;
        v = varying.front();
      }
      auto srcType = cast<RankedTensorType>(op.getSource().getType());
      auto dstType = cast<RankedTensorType>(op.getType());
      Attribute anchor = anchorOf(op.getResult());
      Attribute wanted = fitTo(anchor, srcType.getShape());
      for (int64_t k = 0; k < dstType.getRank() - srcType.getRank(); ++k)
        wanted = SliceLayoutAttr::get(op.getContext(), 0, wanted);
      std::optional<LinearLayout> src = linear(wanted, srcType.getShape());
      std::optional<LinearLayout> dst = linear(anchor, dstType.getShape());
      Value loaded = chain.back()->getResult(0);
      if (!src || !dst || !isFree(classifyMovement(*src, broadcastView(*dst, srcType.getShape()))) ||
          !coalescedAs(wanted, anchorOf(loaded), srcType.getShape()))
        return;
      for (Operation *def : chain)
        chosen[def->getResult(0)] = wanted;
    });
  }

  void analyzeReduce(tile::ReduceOp op) {
    Attribute source = layoutOf(op.getSources()[0]);
    auto type = cast<RankedTensorType>(op.getSources()[0].getType());
    for (OpOperand &operand : op->getOpOperands())
      if (isa<RankedTensorType>(operand.get().getType()))
        want(operand, source);
    auto result = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    std::optional<LinearLayout> ll = linear(source, type.getShape());
    if (!result || !ll || !separatesAxis(*ll, op.getAxis()) ||
        !isa<BlockedLayoutAttr, SliceLayoutAttr, MmaLayoutAttr, LinearLayoutAttr>(source))
      return;
    Attribute slice = SliceLayoutAttr::get(op.getContext(), op.getAxis(), source);
    Attribute resultLayout = slice;
    if (Attribute layout = layoutAcrossWarps(op, *ll, slice))
      resultLayout = layout;
    for (Value v : op.getResults())
      chosen[v] = resultLayout;
  }

  /// A reduction whose axis crosses warps meets in shared memory, where each result register
  /// reads one partial per warp along the axis: its result may take any layout at that cost.
  /// The slice repeats each result in every warp and lane that held its elements (the column
  /// sums of a bf16 tile whose rows 8 warps share: 8 sums per thread, in 16 copies). When no
  /// use wants those copies (nothing broadcasts the result back), the result takes
  ///  * when a loop carries it (an accumulator of such sums), the block spread: one result
  ///    per thread, lanes first, then warps; a store after the loop exchanges it once;
  ///  * otherwise its shape's anchor, the layout a store of it wants, so that the choice
  ///    adds no exchange;
  /// whichever gives each thread fewer results than the slice. Null when the slice is kept.
  Attribute layoutAcrossWarps(tile::ReduceOp op, const LinearLayout &source, Attribute slice) {
    auto type = dyn_cast<RankedTensorType>(op.getResult(0).getType());
    if (!type)
      return {};
    if (!inputBitsAlong(source, op.getAxis(), kWarp))
      return {};
    bool carried = false;
    for (Value v : op.getResults())
      if (!followUses(v, carried))
        return {};
    Attribute layout = carried ? LinearLayoutAttr::get(op.getContext(),
                                                       spreadLayout(type.getShape(), numWarps))
                               : anchorOf(op.getResult(0));
    std::optional<LinearLayout> sliced = linear(slice, type.getShape());
    std::optional<LinearLayout> chosenLayout = linear(layout, type.getShape());
    if (!sliced || !chosenLayout ||
        chosenLayout->getInSize(kRegister) >= sliced->getInSize(kRegister))
      return {};
    return layout;
  }

  /// A tile of `shape` over the block with its row-major index's lowest bits in the lanes,
  /// the next in the warps, the rest in registers; threads past its elements hold copies.
  static LinearLayout spreadLayout(ArrayRef<int64_t> shape, unsigned numWarps) {
    SmallVector<LinearLayout::Dim> outs = LinearLayout::tileDims(shape);
    unsigned bits = 0;
    for (const LinearLayout::Dim &d : outs)
      bits += d.bits;
    unsigned warpBits = llvm::Log2_32(numWarps), next = 0;
    auto take = [&](unsigned count) {
      SmallVector<uint64_t> bases;
      for (unsigned k = 0; k < count; ++k, ++next)
        bases.push_back(next < bits ? uint64_t(1) << next : 0);
      return bases;
    };
    SmallVector<uint64_t> lanes = take(5), warps = take(warpBits);
    SmallVector<uint64_t> registers = take(bits > next ? bits - next : 0);
    unsigned registerBits = registers.size();
    return LinearLayout({{std::string(kRegister), registerBits}, {std::string(kLane), 5},
                         {std::string(kWarp), warpBits}},
                        outs, {registers, lanes, warps});
  }

  /// Follows the uses of `v` through elementwise ops, reshapes, stores and the values loops
  /// and branches carry. False when one is an op that takes the value where its producer
  /// left it (a broadcast back along the reduced axis, a shape op, another reduction);
  /// `carried` is set when a loop (`scf.for`, `scf.while`) carries it.
  static bool followUses(Value v, bool &carried) {
    SmallVector<Value> work{v};
    llvm::DenseSet<Value> seen;
    // Value k that a loop carries: an `scf.for`'s iteration argument and result, an
    // `scf.while`'s before-region argument (its condition forwards it on).
    auto carry = [&](Operation *loop, unsigned k) {
      carried = true;
      if (auto forLoop = dyn_cast<scf::ForOp>(loop)) {
        work.push_back(forLoop.getResult(k));
        work.push_back(forLoop.getRegionIterArgs()[k]);
      } else {
        work.push_back(cast<scf::WhileOp>(loop).getBeforeArguments()[k]);
      }
    };
    while (!work.empty()) {
      Value x = work.pop_back_val();
      if (!seen.insert(x).second)
        continue;
      for (OpOperand &use : x.getUses()) {
        Operation *user = use.getOwner();
        unsigned k = use.getOperandNumber();
        if (isa<tile::StoreOp>(user))
          continue;
        if (isa<tile::ReshapeOp>(user) || user->hasTrait<OpTrait::Elementwise>()) {
          llvm::append_range(work, user->getResults());
          continue;
        }
        if (auto yield = dyn_cast<scf::YieldOp>(user)) {
          Operation *parent = yield->getParentOp();
          if (isa<scf::ForOp, scf::WhileOp>(parent)) {
            carry(parent, k);
            continue;
          }
          if (auto branch = dyn_cast<scf::IfOp>(parent)) {
            work.push_back(branch.getResult(k));
            continue;
          }
          return false;
        }
        if (auto condition = dyn_cast<scf::ConditionOp>(user); condition && k > 0) {
          auto loop = cast<scf::WhileOp>(condition->getParentOp());
          work.push_back(loop.getResult(k - 1));
          work.push_back(loop.getAfterArguments()[k - 1]);
          continue;
        }
        if (auto loop = dyn_cast<scf::ForOp>(user); loop && k >= loop.getNumControlOperands()) {
          carry(loop, k - loop.getNumControlOperands());
          continue;
        }
        if (isa<scf::WhileOp>(user)) {
          carry(user, k);
          continue;
        }
        return false;
      }
    }
    return true;
  }

  /// An mma on whole instruction tiles reads and writes fragments (tilegpu::mmaFragments):
  /// its result is computed in the accumulator layout, so what the kernel derives from it
  /// (a scale, a row maximum, a cast to the next mma's operand) stays in those registers.
  /// Other mmas take their operands in any layout.
  void analyzeMma(tile::MmaOp op) {
    std::optional<MmaFragments> fragments =
        mmaFragments(op.getA().getType(), op.getB().getType(), op.getAcc().getType(), numWarps);
    if (!fragments)
      return;
    want(op.getAMutable(), fragments->a);
    want(op.getBMutable(), fragments->b);
    want(op.getAccMutable(), fragments->acc);
    chosen[op.getResult()] = fragments->acc;
  }

  void analyzeShape(Operation *op) {
    Value source = op->getOperand(0);
    Attribute from = layoutOf(source);
    auto srcType = cast<RankedTensorType>(source.getType());
    auto dstType = cast<RankedTensorType>(op->getResult(0).getType());
    want(op->getOpOperand(0), from);
    if (isa<tile::CatOp>(op))
      want(op->getOpOperand(1), from); // the operands of a cat share a layout
    std::optional<LinearLayout> src = linear(from, srcType.getShape());
    if (!src)
      return;
    SmallVector<Attribute> candidates;
    MLIRContext *ctx = op->getContext();
    if (auto slice = dyn_cast<SliceLayoutAttr>(from); slice && isa<tile::ReshapeOp>(op)) {
      SmallVector<int64_t> expanded(srcType.getShape());
      expanded.insert(expanded.begin() + slice.getDim(), 1);
      if (dstType.getShape() == ArrayRef<int64_t>(expanded))
        candidates.push_back(slice.getParent());
    }
    candidates.push_back(anchorOf(op->getResult(0)));
    if (isa<tile::CatOp, tile::ExtractOp>(op) ||
        (srcType.getRank() == dstType.getRank() && !isa<SliceLayoutAttr>(from)))
      candidates.push_back(from);
    if (auto permute = dyn_cast<tile::PermuteOp>(op))
      if (auto blocked = dyn_cast<BlockedLayoutAttr>(from)) {
        ArrayRef<int32_t> perm = permute.getPerm();
        SmallVector<unsigned> spt, tpw, wpb, order;
        SmallVector<unsigned> inverse(perm.size());
        for (auto [k, p] : llvm::enumerate(perm)) {
          spt.push_back(blocked.getSizePerThread()[p]);
          tpw.push_back(blocked.getThreadsPerWarp()[p]);
          wpb.push_back(blocked.getWarpsPerBlock()[p]);
          inverse[p] = unsigned(k);
        }
        for (unsigned o : blocked.getOrder())
          order.push_back(inverse[o]);
        candidates.push_back(BlockedLayoutAttr::get(ctx, spt, tpw, wpb, order));
      }
    // Last, for a reshape that only adds or drops unit axes, the operand's own bases under
    // the result's shape: the same elements in the same threads. (A reshape that splits or
    // merges axes keeps the anchor instead, so that what follows it, such as the row
    // slices of an FFT stage, finds the layout it moves nothing in.)
    if (isa<tile::ReshapeOp>(op) && withoutUnitAxes(srcType.getShape()) ==
                                        withoutUnitAxes(dstType.getShape()))
      candidates.push_back(
          LinearLayoutAttr::get(ctx, src->reshapeOuts(LinearLayout::tileDims(dstType.getShape()))));
    for (Attribute candidate : candidates) {
      candidate = fitTo(candidate, dstType.getShape());
      std::optional<LinearLayout> dst = linear(candidate, dstType.getShape());
      if (!dst)
        continue;
      std::optional<ShapeMovement> move = planShapeMovement(op, *src, *dst);
      if (move && isFree(move->kind)) {
        chosen[op->getResult(0)] = candidate;
        return;
      }
    }
  }

  /// What moving `v` (of `shape`) to `layout` costs, weighed by the elements that move.
  int64_t moveCost(Value v, Attribute layout, ArrayRef<int64_t> shape) const {
    return cost(layoutOf(v), layout, shape) * ShapedType::getNumElements(shape);
  }

  /// When `v` is a single-use broadcast that can be made again in `layout` without moving
  /// its result: the layout its operand takes for that, and the cost of moving the operand.
  std::optional<std::pair<Attribute, int64_t>> rebroadcast(Value v, Attribute layout) const {
    auto op = v.getDefiningOp<tile::BroadcastOp>();
    if (!op || !v.hasOneUse())
      return std::nullopt;
    Attribute operand = operandLayout(op, layout);
    auto srcShape = cast<RankedTensorType>(op.getSource().getType()).getShape();
    std::optional<LinearLayout> src = linear(operand, srcShape);
    std::optional<LinearLayout> dst = linear(layout, cast<RankedTensorType>(op.getType()).getShape());
    if (!src || !dst)
      return std::nullopt;
    std::optional<ShapeMovement> move = planShapeMovement(op, *src, *dst);
    if (!move || !isFree(move->kind))
      return std::nullopt;
    return std::make_pair(operand, moveCost(op.getSource(), operand, srcShape));
  }

  /// What bringing `v` (of `shape`) to `layout` costs: converting it, or for a single-use
  /// broadcast moving its operand and broadcasting again, whichever moves fewer elements.
  int64_t costOfOperand(Value v, Attribute layout, ArrayRef<int64_t> shape) const {
    int64_t whole = moveCost(v, layout, shape);
    if (whole == 0)
      return 0;
    if (auto again = rebroadcast(v, layout))
      return std::min(whole, again->second);
    return whole;
  }

  /// Replaces the layout `operand` was wanted in.
  void rewant(OpOperand &operand, Attribute layout) {
    for (auto &[wanted, was] : llvm::reverse(wants))
      if (wanted == &operand) {
        was = layout;
        return;
      }
    want(operand, layout);
  }

  void analyzeElementwise(Operation *op) {
    ArrayRef<int64_t> shape;
    for (Type t : op->getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(t))
        shape = tensor.getShape();
    // Candidates: the layouts of the operands that are not uniform; last, those that follow
    // a loop-carried value (it takes whatever layout its loop settles on).
    SmallVector<std::pair<Value, bool>> varying;
    for (Value v : op->getOperands())
      if (auto tensor = dyn_cast<RankedTensorType>(v.getType());
          tensor && tensor.getShape() == shape && !fromCoordinates(v))
        varying.push_back({v, isa<BlockArgument>(v) || followsCarry.contains(v)});
    Attribute best;
    if (varying.empty()) {
      best = anchorOf(op->getResult(0));
    } else {
      int64_t bestCost = 0;
      bool bestCarried = true;
      for (auto [candidateValue, carried] : varying) {
        Attribute candidate = layoutOf(candidateValue);
        int64_t total = 0;
        for (auto [other, unused] : varying)
          total += costOfOperand(other, candidate, shape);
        if (!best || total < bestCost || (total == bestCost && bestCarried && !carried)) {
          best = candidate;
          bestCost = total;
          bestCarried = carried;
        }
      }
      if (llvm::any_of(varying, [&](auto &operand) {
            return operand.second && layoutOf(operand.first) == best;
          }))
        for (Value v : op->getResults())
          followsCarry.insert(v);
    }
    // A broadcast operand that is cheaper to make again in `best` than to convert is.
    for (auto [v, unused] : varying) {
      if (layoutOf(v) == best)
        continue;
      if (auto again = rebroadcast(v, best); again && again->second < moveCost(v, best, shape)) {
        rewant(v.getDefiningOp()->getOpOperand(0), again->first);
        chosen[v] = best;
      }
    }
    for (OpOperand &operand : op->getOpOperands())
      if (auto tensor = dyn_cast<RankedTensorType>(operand.get().getType());
          tensor && tensor.getShape() == shape)
        want(operand, best);
    for (Value v : op->getResults())
      if (isa<RankedTensorType>(v.getType()))
        chosen[v] = best;
  }

  void analyzeFor(scf::ForOp loop) {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    carryThrough(loop.getInitArgs(), loop.getRegionIterArgs(), yield.getOperands(),
                 [&] { analyze(*loop.getBody()); });
    for (auto [k, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      if (!isa<RankedTensorType>(arg.getType()))
        continue;
      Attribute carried = layoutOf(arg);
      want(loop.getInitArgsMutable()[k], carried);
      want(yield->getOpOperand(k), carried);
      chosen[loop.getResult(k)] = carried;
    }
  }

  /// An `scf.while` carries each value in the layout the after region yields it in, and
  /// forwards the condition's values in the layouts the before region computes them in.
  void analyzeWhile(scf::WhileOp loop) {
    scf::ConditionOp condition = loop.getConditionOp();
    scf::YieldOp yield = loop.getYieldOp();
    carryThrough(loop.getInits(), loop.getBeforeArguments(), yield.getOperands(), [&] {
      analyze(*loop.getBeforeBody());
      for (auto [forwarded, arg] : llvm::zip(condition.getArgs(), loop.getAfterArguments()))
        if (isa<RankedTensorType>(arg.getType()))
          chosen[arg] = layoutOf(forwarded);
      analyze(*loop.getAfterBody());
    });
    for (auto [k, arg] : llvm::enumerate(loop.getBeforeArguments()))
      if (isa<RankedTensorType>(arg.getType())) {
        want(loop.getInitsMutable()[k], layoutOf(arg));
        want(yield->getOpOperand(k), layoutOf(arg));
      }
    for (auto [k, arg] : llvm::enumerate(loop.getAfterArguments()))
      if (isa<RankedTensorType>(arg.getType())) {
        want(condition.getArgsMutable()[k], layoutOf(arg));
        chosen[loop.getResult(k)] = layoutOf(arg);
      }
  }

  /// A loop's carried values (`carried`, entered as `inits`) take the layouts their next values
  /// (`next`) are computed in: `analyzeBody` runs again (its wants recomputed) until no carried
  /// layout changes, at most four times.
  void carryThrough(ValueRange inits, ValueRange carried, ValueRange next,
                    function_ref<void()> analyzeBody) {
    for (auto [init, arg] : llvm::zip(inits, carried))
      if (isa<RankedTensorType>(arg.getType()))
        chosen[arg] = layoutOf(init);
    size_t mark = wants.size();
    for (int round = 0; round < 4; ++round) {
      wants.resize(mark);
      analyzeBody();
      bool stable = true;
      for (auto [arg, value] : llvm::zip(carried, next))
        if (isa<RankedTensorType>(arg.getType()) && layoutOf(value) != layoutOf(arg)) {
          chosen[arg] = layoutOf(value);
          stable = false;
        }
      if (stable)
        break;
    }
  }

  void analyzeIf(scf::IfOp branch) {
    for (Region *region : {&branch.getThenRegion(), &branch.getElseRegion()})
      for (Block &block : *region)
        analyze(block);
    if (branch.getElseRegion().empty())
      return;
    auto thenYield = branch.thenYield(), elseYield = branch.elseYield();
    for (auto [k, result] : llvm::enumerate(branch.getResults())) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type)
        continue;
      Value a = thenYield.getOperand(k), b = elseYield.getOperand(k);
      // A uniform branch is made in the other's layout.
      Attribute pick = isUniform(a) ? layoutOf(b) : layoutOf(a);
      want(thenYield->getOpOperand(k), pick);
      want(elseYield->getOpOperand(k), pick);
      chosen[result] = pick;
    }
  }

  /// The layout the operand of `op`, a broadcast or a reshape that inserts a unit axis, takes
  /// so that its result lies in `layout` without moving: the slice along the inserted axis,
  /// or for a broadcast the layout over the operand's shape (under slices of the leading
  /// axes it adds).
  static Attribute operandLayout(Operation *op, Attribute layout) {
    auto src = cast<RankedTensorType>(op->getOperand(0).getType());
    auto dst = cast<RankedTensorType>(op->getResult(0).getType());
    MLIRContext *ctx = op->getContext();
    if (isa<tile::ReshapeOp>(op)) {
      for (int64_t axis = 0; axis < dst.getRank(); ++axis) {
        SmallVector<int64_t> without(dst.getShape());
        without.erase(without.begin() + axis);
        if (dst.getDimSize(axis) == 1 && ArrayRef<int64_t>(without) == src.getShape())
          return SliceLayoutAttr::get(ctx, unsigned(axis), layout);
      }
      return {};
    }
    int64_t added = dst.getRank() - src.getRank();
    SmallVector<int64_t> padded(size_t(added), 1);
    padded.append(src.getShape().begin(), src.getShape().end());
    Attribute fitted = fitTo(layout, padded);
    for (int64_t k = 0; k < added; ++k)
      fitted = SliceLayoutAttr::get(ctx, 0, fitted);
    return fitted;
  }

  /// The layout each tile operand of `def` takes to compute its result in `layout`.
  static Attribute operandLayoutFor(Operation *def, Attribute layout) {
    return isa<tile::BroadcastOp, tile::ReshapeOp>(def) ? operandLayout(def, layout) : layout;
  }

  /// True when `v` (fromCoordinates) can be computed in `layout`: every value it is made of
  /// has a layout there that maps its shape.
  bool remakeable(Value v, Attribute layout) const {
    auto type = cast<RankedTensorType>(v.getType());
    if (!layout || !linear(layout, type.getShape()))
      return false;
    if (isUniform(v))
      return true;
    Operation *def = v.getDefiningOp();
    return llvm::all_of(def->getOperands(), [&](Value operand) {
      return !isa<RankedTensorType>(operand.getType()) ||
             remakeable(operand, operandLayoutFor(def, layout));
    });
  }

  /// `v` computed again in `layout` at the builder's point (remakeable holds); the uniform
  /// values it starts from are converted, which folds into them.
  Value remake(OpBuilder &b, Value v, Attribute layout) {
    auto type = cast<RankedTensorType>(v.getType());
    if (type.getEncoding() == layout)
      return v;
    if (isUniform(v))
      return b.create<ConvertLayoutOp>(v.getLoc(), withLayout(type, layout), v);
    Operation *def = v.getDefiningOp();
    IRMapping map;
    for (Value operand : def->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        map.map(operand, remake(b, operand, operandLayoutFor(def, layout)));
    Operation *clone = b.clone(*def, map);
    clone->getResult(0).setType(withLayout(type, layout));
    return clone->getResult(0);
  }

  void materialize() {
    for (auto [value, layout] : chosen)
      if (auto type = dyn_cast<RankedTensorType>(value.getType()))
        value.setType(withLayout(type, layout));
    OpBuilder b(func.getContext());
    for (auto [operand, layout] : wants) {
      auto type = cast<RankedTensorType>(operand->get().getType());
      if (type.getEncoding() == layout)
        continue;
      Operation *owner = operand->getOwner();
      b.setInsertionPoint(owner);
      // Made from coordinates: computed again where it is needed rather than moved.
      if (!isUniform(operand->get()) && fromCoordinates(operand->get()) &&
          remakeable(operand->get(), layout)) {
        operand->set(remake(b, operand->get(), layout));
        continue;
      }
      Value converted = b.create<ConvertLayoutOp>(owner->getLoc(), withLayout(type, layout),
                                                  operand->get());
      operand->set(converted);
    }
  }

  func::FuncOp func;
  unsigned numWarps;
  llvm::MapVector<Value, Attribute> chosen;
  /// Elementwise results whose layout is that of a loop-carried operand.
  llvm::DenseSet<Value> followsCarry;
  SmallVector<std::pair<OpOperand *, Attribute>> wants;
};

struct TileInferLayoutsPass : public tilecc::impl::TileInferLayoutsBase<TileInferLayoutsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto warps = func->getAttrOfType<IntegerAttr>(kNumWarpsAttrName);
    if (!warps) {
      func.emitError() << "'" << kNumWarpsAttrName << "' is missing; run tile-assign-layouts first";
      return signalPassFailure();
    }
    LayoutInference(func, unsigned(warps.getInt())).run();
    RewritePatternSet patterns(&getContext());
    ConvertLayoutOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsAndFoldGreedily(func, std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
