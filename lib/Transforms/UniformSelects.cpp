//===- UniformSelects.cpp - skip a tile select whose condition is uniform -------===//
//
// `tile-uniform-selects`: a tile `arith.select` whose condition compares tiles built from
// iotas, splats and constants with integer arithmetic (a causal mask `col <= row`, a bound
// `col < n`) usually picks one side for the whole tile: in attention's loop every key block
// below the diagonal keeps all its scores. For such a condition the pass computes, as scalars
// before the select, the bounds of each compared tile (lowest and highest element) and from
// them whether the condition holds everywhere or nowhere, and rewrites
//
//   %r = arith.select %c, %x, %y
//
// into `scf.if all-true { %x } else { scf.if all-false { %y } else { select } }`, with the
// condition's element-wise computation moved into the innermost branch. A bound is computed
// only where no scalar step wraps: each addition, subtraction and product checks for signed
// overflow and a failed check takes the element-wise branch, so the result is the select's
// bit for bit.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/Tile/TileDialect.h"
#include "tilecc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

namespace tilecc {
#define GEN_PASS_DEF_TILEUNIFORMSELECTS
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

/// The lowest and highest element of an integer tile, and an i1 that is true when the two
/// bounds are exact (no step of computing them wrapped).
struct Bounds {
  Value lo, hi, valid;
};

/// Whether a boolean tile is true everywhere and whether it is false everywhere (i1 scalars;
/// a constant false where nothing is known).
struct Uniformity {
  Value allTrue, allFalse;
};

/// Builds the scalar bounds and uniformity tests in front of one select.
class UniformityBuilder {
public:
  UniformityBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  std::optional<Uniformity> uniformity(Value cond) {
    Operation *def = cond.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (auto splat = dyn_cast<tile::SplatOp>(def))
      return Uniformity{splat.getScalar(), negate(splat.getScalar())};
    if (isa<tile::BroadcastOp, tile::ReshapeOp, tile::PermuteOp>(def))
      return uniformity(def->getOperand(0));
    DenseElementsAttr dense;
    if (matchPattern(cond, m_Constant(&dense)) && dense.isSplat()) {
      bool value = dense.getSplatValue<bool>();
      return Uniformity{constantBool(value), constantBool(!value)};
    }
    if (auto andOp = dyn_cast<arith::AndIOp>(def)) {
      Uniformity l = known(andOp.getLhs()), r = known(andOp.getRhs());
      return Uniformity{both(l.allTrue, r.allTrue), either(l.allFalse, r.allFalse)};
    }
    if (auto orOp = dyn_cast<arith::OrIOp>(def)) {
      Uniformity l = known(orOp.getLhs()), r = known(orOp.getRhs());
      return Uniformity{either(l.allTrue, r.allTrue), both(l.allFalse, r.allFalse)};
    }
    if (auto xorOp = dyn_cast<arith::XOrIOp>(def)) {
      // `!c` is `c ^ true`.
      for (auto [c, other] : {std::pair(xorOp.getLhs(), xorOp.getRhs()),
                              std::pair(xorOp.getRhs(), xorOp.getLhs())})
        if (matchPattern(other, m_One()))
          if (std::optional<Uniformity> u = uniformity(c))
            return Uniformity{u->allFalse, u->allTrue};
      return std::nullopt;
    }
    if (auto cmp = dyn_cast<arith::CmpIOp>(def))
      return compare(cmp);
    return std::nullopt;
  }

private:
  OpBuilder &b;
  Location loc;
  DenseMap<Value, std::optional<Bounds>> boundsCache;

  Uniformity known(Value cond) {
    if (std::optional<Uniformity> u = uniformity(cond))
      return *u;
    return Uniformity{constantBool(false), constantBool(false)};
  }

  Value constantBool(bool value) {
    return b.create<arith::ConstantOp>(loc, b.getBoolAttr(value));
  }
  Value constantInt(Type type, const APInt &value) {
    return b.create<arith::ConstantOp>(loc, b.getIntegerAttr(type, value));
  }
  Value negate(Value v) { return b.createOrFold<arith::XOrIOp>(loc, v, constantBool(true)); }
  Value both(Value l, Value r) { return b.createOrFold<arith::AndIOp>(loc, l, r); }
  Value either(Value l, Value r) { return b.createOrFold<arith::OrIOp>(loc, l, r); }
  Value cmp(arith::CmpIPredicate pred, Value l, Value r) {
    return b.createOrFold<arith::CmpIOp>(loc, pred, l, r);
  }
  Value isNegative(Value v) {
    return cmp(arith::CmpIPredicate::slt, v,
               constantInt(v.getType(), APInt::getZero(v.getType().getIntOrFloatBitWidth())));
  }

  /// l + r, and whether it did not wrap (signed).
  std::pair<Value, Value> add(Value l, Value r) {
    Value sum = b.createOrFold<arith::AddIOp>(loc, l, r);
    // Overflow iff both operands differ in sign from the sum.
    Value lx = b.createOrFold<arith::XOrIOp>(loc, l, sum);
    Value rx = b.createOrFold<arith::XOrIOp>(loc, r, sum);
    return {sum, negate(isNegative(b.createOrFold<arith::AndIOp>(loc, lx, rx)))};
  }
  /// l - r, and whether it did not wrap (signed).
  std::pair<Value, Value> sub(Value l, Value r) {
    Value diff = b.createOrFold<arith::SubIOp>(loc, l, r);
    // Overflow iff the operands differ in sign and the result's sign differs from l's.
    Value ops = b.createOrFold<arith::XOrIOp>(loc, l, r);
    Value res = b.createOrFold<arith::XOrIOp>(loc, l, diff);
    return {diff, negate(isNegative(b.createOrFold<arith::AndIOp>(loc, ops, res)))};
  }
  /// v * c for a constant c, and whether it did not wrap (signed).
  std::pair<Value, Value> mulConstant(Value v, const APInt &c) {
    Type type = v.getType();
    unsigned width = c.getBitWidth();
    Value product = b.createOrFold<arith::MulIOp>(loc, v, constantInt(type, c));
    if (c.isZero() || c.isOne())
      return {product, constantBool(true)};
    if (c.isAllOnes()) // -1: wraps only for the minimum.
      return {product, cmp(arith::CmpIPredicate::ne, v,
                           constantInt(type, APInt::getSignedMinValue(width)))};
    APInt lo = APInt::getSignedMinValue(width).sdiv(c);
    APInt hi = APInt::getSignedMaxValue(width).sdiv(c);
    if (c.isNegative())
      std::swap(lo, hi);
    return {product, both(cmp(arith::CmpIPredicate::sge, v, constantInt(type, lo)),
                          cmp(arith::CmpIPredicate::sle, v, constantInt(type, hi)))};
  }

  std::optional<APInt> splatConstant(Value v) {
    if (auto splat = v.getDefiningOp<tile::SplatOp>()) {
      APInt c;
      if (matchPattern(splat.getScalar(), m_ConstantInt(&c)))
        return c;
      return std::nullopt;
    }
    DenseIntElementsAttr dense;
    if (matchPattern(v, m_Constant(&dense)) && dense.isSplat())
      return dense.getSplatValue<APInt>();
    return std::nullopt;
  }

  std::optional<Bounds> bounds(Value v) {
    auto it = boundsCache.find(v);
    if (it != boundsCache.end())
      return it->second;
    std::optional<Bounds> result = computeBounds(v);
    boundsCache[v] = result;
    return result;
  }

  std::optional<Bounds> computeBounds(Value v) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.getElementType().isSignlessInteger() ||
        type.getElementType().isInteger(1))
      return std::nullopt;
    Type element = type.getElementType();
    unsigned width = element.getIntOrFloatBitWidth();
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (auto splat = dyn_cast<tile::SplatOp>(def))
      return Bounds{splat.getScalar(), splat.getScalar(), constantBool(true)};
    if (auto iota = dyn_cast<tile::IotaOp>(def)) {
      int64_t extent = type.getDimSize(iota.getIotaAxis());
      if (ShapedType::isDynamic(extent) || extent < 1 ||
          (width < 64 && uint64_t(extent - 1) > APInt::getSignedMaxValue(width).getZExtValue()))
        return std::nullopt;
      return Bounds{constantInt(element, APInt(width, 0)),
                    constantInt(element, APInt(width, uint64_t(extent - 1))),
                    constantBool(true)};
    }
    DenseIntElementsAttr dense;
    if (matchPattern(v, m_Constant(&dense))) {
      if (dense.empty())
        return std::nullopt;
      APInt lo = *dense.value_begin<APInt>(), hi = lo;
      for (const APInt &x : dense.getValues<APInt>()) {
        if (x.slt(lo))
          lo = x;
        if (x.sgt(hi))
          hi = x;
      }
      return Bounds{constantInt(element, lo), constantInt(element, hi), constantBool(true)};
    }
    if (isa<tile::BroadcastOp, tile::ReshapeOp, tile::PermuteOp>(def))
      return bounds(def->getOperand(0));
    if (auto ext = dyn_cast<arith::ExtSIOp>(def)) {
      std::optional<Bounds> in = bounds(ext.getIn());
      if (!in)
        return std::nullopt;
      return Bounds{b.createOrFold<arith::ExtSIOp>(loc, element, in->lo),
                    b.createOrFold<arith::ExtSIOp>(loc, element, in->hi), in->valid};
    }
    if (isa<arith::AddIOp, arith::SubIOp, arith::MinSIOp, arith::MaxSIOp>(def)) {
      std::optional<Bounds> l = bounds(def->getOperand(0)), r = bounds(def->getOperand(1));
      if (!l || !r)
        return std::nullopt;
      Value valid = both(l->valid, r->valid);
      if (isa<arith::MinSIOp>(def))
        return Bounds{b.createOrFold<arith::MinSIOp>(loc, l->lo, r->lo),
                      b.createOrFold<arith::MinSIOp>(loc, l->hi, r->hi), valid};
      if (isa<arith::MaxSIOp>(def))
        return Bounds{b.createOrFold<arith::MaxSIOp>(loc, l->lo, r->lo),
                      b.createOrFold<arith::MaxSIOp>(loc, l->hi, r->hi), valid};
      // Without wrapping at the extremes, no element's sum or difference wraps either.
      auto [lo, loOk] = isa<arith::AddIOp>(def) ? add(l->lo, r->lo) : sub(l->lo, r->hi);
      auto [hi, hiOk] = isa<arith::AddIOp>(def) ? add(l->hi, r->hi) : sub(l->hi, r->lo);
      return Bounds{lo, hi, both(valid, both(loOk, hiOk))};
    }
    if (auto mul = dyn_cast<arith::MulIOp>(def)) {
      for (auto [x, c] : {std::pair(mul.getLhs(), mul.getRhs()),
                          std::pair(mul.getRhs(), mul.getLhs())}) {
        std::optional<APInt> factor = splatConstant(c);
        if (!factor)
          continue;
        std::optional<Bounds> in = bounds(x);
        if (!in)
          return std::nullopt;
        auto [lo, loOk] = mulConstant(in->lo, *factor);
        auto [hi, hiOk] = mulConstant(in->hi, *factor);
        if (factor->isNegative())
          std::swap(lo, hi);
        return Bounds{lo, hi, both(in->valid, both(loOk, hiOk))};
      }
      return std::nullopt;
    }
    return std::nullopt;
  }

  std::optional<Uniformity> compare(arith::CmpIOp op) {
    std::optional<Bounds> l = bounds(op.getLhs()), r = bounds(op.getRhs());
    if (!l || !r)
      return std::nullopt;
    using P = arith::CmpIPredicate;
    Value valid = both(l->valid, r->valid);
    P pred = op.getPredicate();
    switch (pred) {
    case P::ult: case P::ule: case P::ugt: case P::uge:
      // Unsigned order is the signed order where no element is negative.
      valid = both(valid, both(negate(isNegative(l->lo)), negate(isNegative(r->lo))));
      pred = pred == P::ult ? P::slt : pred == P::ule ? P::sle : pred == P::ugt ? P::sgt : P::sge;
      break;
    default:
      break;
    }
    Value allTrue, allFalse;
    switch (pred) {
    case P::slt:
      allTrue = cmp(P::slt, l->hi, r->lo);
      allFalse = cmp(P::sge, l->lo, r->hi);
      break;
    case P::sle:
      allTrue = cmp(P::sle, l->hi, r->lo);
      allFalse = cmp(P::sgt, l->lo, r->hi);
      break;
    case P::sgt:
      allTrue = cmp(P::sgt, l->lo, r->hi);
      allFalse = cmp(P::sle, l->hi, r->lo);
      break;
    case P::sge:
      allTrue = cmp(P::sge, l->lo, r->hi);
      allFalse = cmp(P::slt, l->hi, r->lo);
      break;
    case P::eq:
    case P::ne: {
      Value same = both(both(cmp(P::eq, l->lo, l->hi), cmp(P::eq, r->lo, r->hi)),
                        cmp(P::eq, l->lo, r->lo));
      Value apart = either(cmp(P::slt, l->hi, r->lo), cmp(P::slt, r->hi, l->lo));
      allTrue = pred == P::eq ? same : apart;
      allFalse = pred == P::eq ? apart : same;
      break;
    }
    default:
      return std::nullopt;
    }
    return Uniformity{both(valid, allTrue), both(valid, allFalse)};
  }
};

bool isConstantFalse(Value v) { return matchPattern(v, m_Zero()); }
bool isConstantTrue(Value v) { return matchPattern(v, m_One()); }

/// The ops of `select`'s block that its condition is computed from, in block order.
SmallVector<Operation *> conditionSlice(arith::SelectOp select) {
  Block *block = select->getBlock();
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> work{select.getCondition()};
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != block || !slice.insert(def))
      continue;
    llvm::append_range(work, def->getOperands());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

/// Whether every op the condition is computed from in the select's block can be computed
/// again inside a branch.
bool canMoveIntoBranch(ArrayRef<Operation *> slice) {
  return llvm::all_of(slice, [](Operation *op) {
    return op->getNumRegions() == 0 && isPure(op);
  });
}

void specialize(arith::SelectOp select) {
  auto type = dyn_cast<RankedTensorType>(select.getType());
  if (!type || !isa<RankedTensorType>(select.getCondition().getType()))
    return;
  SmallVector<Operation *> slice = conditionSlice(select);
  if (!canMoveIntoBranch(slice))
    return;
  OpBuilder b(select);
  Location loc = select.getLoc();
  UniformityBuilder builder(b, loc);
  // Scalars built for a condition that turns out not to be uniform are left for the
  // canonicalizer to remove.
  std::optional<Uniformity> u = builder.uniformity(select.getCondition());
  if (!u || (isConstantFalse(u->allTrue) && isConstantFalse(u->allFalse)))
    return;
  Value x = select.getTrueValue(), y = select.getFalseValue();
  if (isConstantTrue(u->allTrue) || isConstantTrue(u->allFalse)) {
    select.replaceAllUsesWith(isConstantTrue(u->allTrue) ? x : y);
    select.erase();
    return;
  }
  auto elementwise = [&](OpBuilder &inner, Location at) {
    IRMapping mapping;
    for (Operation *op : slice)
      inner.clone(*op, mapping);
    Value chosen = inner.create<arith::SelectOp>(at, mapping.lookupOrDefault(select.getCondition()),
                                                 x, y);
    inner.create<scf::YieldOp>(at, chosen);
  };
  auto otherwise = [&](OpBuilder &inner, Location at) {
    if (isConstantFalse(u->allFalse))
      return elementwise(inner, at);
    auto none = inner.create<scf::IfOp>(
        at, u->allFalse,
        [&](OpBuilder &branch, Location l) { branch.create<scf::YieldOp>(l, y); },
        elementwise);
    inner.create<scf::YieldOp>(at, none.getResult(0));
  };
  Value allTrue = isConstantFalse(u->allTrue) ? u->allFalse : u->allTrue;
  scf::IfOp specialized =
      isConstantFalse(u->allTrue)
          ? b.create<scf::IfOp>(
                loc, allTrue,
                [&](OpBuilder &branch, Location l) { branch.create<scf::YieldOp>(l, y); },
                elementwise)
          : b.create<scf::IfOp>(
                loc, allTrue,
                [&](OpBuilder &branch, Location l) { branch.create<scf::YieldOp>(l, x); },
                otherwise);
  if (!isConstantFalse(u->allTrue))
    specialized->setAttr(tile::kUniformSelectAttrName, b.getUnitAttr());
  select.replaceAllUsesWith(specialized.getResult(0));
  select.erase();
  // The condition's element-wise computation now lives in the branch.
  for (Operation *op : llvm::reverse(slice))
    if (op->use_empty())
      op->erase();
}

struct TileUniformSelectsPass : public tilecc::impl::TileUniformSelectsBase<TileUniformSelectsPass> {
  void runOnOperation() override {
    SmallVector<arith::SelectOp> selects;
    getOperation().walk([&](arith::SelectOp op) { selects.push_back(op); });
    for (arith::SelectOp select : selects)
      specialize(select);
  }
};

} // namespace
