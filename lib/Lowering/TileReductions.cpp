//===- TileReductions.cpp - the tile library's reductions and scans -> tile IR -===//
//
// `tile::sum/prod/max/min<Axis>`, `argmax/argmin<Axis>`, `reduce<Axis>(t, init, f)`, `cumsum`
// and `scan<Axis>(t, init, f)` (include/tile/reduce.hpp) become `tile.reduce` / `tile.scan`
// with a combiner region: built-in combiners for the named reductions, the user's function
// inlined on the region's arguments for `reduce` and `scan`. Without a template axis
// (`sum(t)`), the tile is reshaped to one axis first. f16/bf16 sums, products and cumsums are
// computed in float and rounded once, as the CPU reference does.
//
//===----------------------------------------------------------------------===//
#include "LoweringContext.h"

#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::lowering;

namespace {

enum class Combine { Add, Mul, Max, Min, ArgMax, ArgMin, User };

std::optional<Combine> combineOf(TileFn fn) {
  switch (fn) {
  case TileFn::Sum:
  case TileFn::Cumsum:
    return Combine::Add;
  case TileFn::Prod:
    return Combine::Mul;
  case TileFn::Max:
    return Combine::Max;
  case TileFn::Min:
    return Combine::Min;
  case TileFn::Argmax:
    return Combine::ArgMax;
  case TileFn::Argmin:
    return Combine::ArgMin;
  case TileFn::Reduce:
  case TileFn::Scan:
    return Combine::User;
  default:
    return std::nullopt;
  }
}

/// The axis of `sum<Axis>(t)`: the specialization's first template argument when it is an
/// integer; nullopt for the whole-tile forms (`sum(t)`), whose first argument is a type.
std::optional<int64_t> templateAxis(const clang::FunctionDecl *fn) {
  const clang::TemplateArgumentList *args = fn->getTemplateSpecializationArgs();
  if (!args || args->size() == 0 || args->get(0).getKind() != clang::TemplateArgument::Integral)
    return std::nullopt;
  return args->get(0).getAsIntegral().getExtValue();
}

/// The function a combiner argument names: a lambda's or function object's `operator()`
/// (the specialization the CPU reference instantiated, for a generic lambda), or a function.
const clang::FunctionDecl *calleeOf(const clang::Expr *f) {
  f = f->IgnoreParenImpCasts();
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(f))
    if (const auto *fn = dyn_cast<clang::FunctionDecl>(ref->getDecl()))
      return fn;
  if (const auto *mat = dyn_cast<clang::MaterializeTemporaryExpr>(f))
    f = mat->getSubExpr()->IgnoreParenImpCasts();
  const clang::CXXRecordDecl *record = f->getType()->getAsCXXRecordDecl();
  if (!record)
    return nullptr;
  if (const clang::CXXMethodDecl *op = record->getLambdaCallOperator()) {
    if (!op->getDescribedFunctionTemplate())
      return op;
  }
  clang::DeclarationName name =
      record->getASTContext().DeclarationNames.getCXXOperatorName(clang::OO_Call);
  for (const clang::NamedDecl *d : record->lookup(name)) {
    if (const auto *method = dyn_cast<clang::CXXMethodDecl>(d))
      return method;
    if (const auto *tmpl = dyn_cast<clang::FunctionTemplateDecl>(d))
      for (const clang::FunctionDecl *spec : tmpl->specializations())
        if (spec->getNumParams() == 2)
          return spec;
  }
  return nullptr;
}

} // namespace

/// Fills the combiner block of a reduce or scan: its arguments are (accumulated..., next...).
static LogicalResult buildCombiner(KernelLowerer &lw, Region &region, ArrayRef<Type> elements,
                                   Combine kind, clang::QualType element,
                                   const clang::FunctionDecl *user, const clang::Expr *call,
                                   Location l) {
  OpBuilder &b = lw.builder;
  OpBuilder::InsertionGuard guard(b);
  Block *block = new Block();
  region.push_back(block);
  for (int k = 0; k < 2; ++k)
    for (Type t : elements)
      block->addArgument(t, l);
  b.setInsertionPointToStart(block);
  size_t n = elements.size();
  Value a = block->getArgument(0), x = block->getArgument(n);
  bool isFloat = isa<FloatType>(elements[0]);
  bool isUnsigned = lw.isUnsigned(element) || elements[0].isInteger(1);
  SmallVector<Value> yielded;
  if (isComplex(elements[0]) && (kind == Combine::Add || kind == Combine::Mul)) {
    // Complex sums and products: f32 arithmetic on the parts.
    yielded.push_back(*buildComplexBinary(b, kind == Combine::Add ? clang::BO_Add : clang::BO_Mul,
                                          a, x, l));
    b.create<tile::YieldOp>(l, yielded);
    return success();
  }
  switch (kind) {
  case Combine::Add:
    yielded.push_back(isFloat ? b.create<arith::AddFOp>(l, a, x).getResult()
                              : b.create<arith::AddIOp>(l, a, x).getResult());
    break;
  case Combine::Mul:
    yielded.push_back(isFloat ? b.create<arith::MulFOp>(l, a, x).getResult()
                              : b.create<arith::MulIOp>(l, a, x).getResult());
    break;
  case Combine::Max:
    yielded.push_back(isFloat      ? b.create<arith::MaxNumFOp>(l, a, x).getResult()
                      : isUnsigned ? b.create<arith::MaxUIOp>(l, a, x).getResult()
                                   : b.create<arith::MaxSIOp>(l, a, x).getResult());
    break;
  case Combine::Min:
    yielded.push_back(isFloat      ? b.create<arith::MinNumFOp>(l, a, x).getResult()
                      : isUnsigned ? b.create<arith::MinUIOp>(l, a, x).getResult()
                                   : b.create<arith::MinSIOp>(l, a, x).getResult());
    break;
  case Combine::ArgMax:
  case Combine::ArgMin: {
    // Take the next element when it is better, or equally good with a smaller index; NaN
    // loses to every number, and among NaNs the smaller index wins (the CPU reference).
    bool max = kind == Combine::ArgMax;
    Value ai = block->getArgument(1), xi = block->getArgument(3);
    Value smallerIndex = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, xi, ai);
    Value better, equal;
    if (isFloat) {
      better = b.create<arith::CmpFOp>(l, max ? arith::CmpFPredicate::OGT
                                              : arith::CmpFPredicate::OLT, x, a);
      equal = b.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, x, a);
    } else {
      auto pred = max ? (isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt)
                      : (isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt);
      better = b.create<arith::CmpIOp>(l, pred, x, a);
      equal = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, x, a);
    }
    Value take = b.create<arith::OrIOp>(l, better,
                                        b.create<arith::AndIOp>(l, equal, smallerIndex));
    if (isFloat) {
      Value aNaN = b.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNO, a, a);
      Value xNaN = b.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNO, x, x);
      Value xNumber = b.create<arith::XOrIOp>(
          l, xNaN, b.create<arith::ConstantOp>(l, b.getBoolAttr(true)));
      // a NaN and x a number: take x; both NaN: the smaller index.
      Value replaceNaN = b.create<arith::AndIOp>(l, aNaN, xNumber);
      Value bothNaN = b.create<arith::AndIOp>(
          l, b.create<arith::AndIOp>(l, aNaN, xNaN), smallerIndex);
      take = b.create<arith::OrIOp>(l, take, b.create<arith::OrIOp>(l, replaceNaN, bothNaN));
    }
    yielded.push_back(b.create<arith::SelectOp>(l, take, x, a));
    yielded.push_back(b.create<arith::SelectOp>(l, take, xi, ai));
    break;
  }
  case Combine::User: {
    LoweredOr r = lw.inlineCallOn(user, {a, x}, {element, element}, element, call);
    if (failed(r))
      return failure();
    auto *v = std::get_if<Value>(&*r);
    if (!v || !*v || v->getType() != elements[0]) {
      (void)lw.unsupported(call, "a combiner that does not return the element type");
      return failure();
    }
    // The combiner runs on one element pair in each thread, at the threads' own pace: a tile
    // operation in it (a reduction of a captured tile) would need the whole block inside.
    bool onTiles = block->walk([](Operation *op) {
                          auto tile = [](Type t) { return isa<RankedTensorType>(t); };
                          return llvm::any_of(op->getOperandTypes(), tile) ||
                                         llvm::any_of(op->getResultTypes(), tile)
                                     ? WalkResult::interrupt()
                                     : WalkResult::advance();
                        }).wasInterrupted();
    if (onTiles) {
      (void)lw.unsupported(call, "a combiner that works on tiles (it combines two elements)");
      return failure();
    }
    yielded.push_back(*v);
    break;
  }
  }
  b.create<tile::YieldOp>(l, yielded);
  return success();
}

std::optional<LoweredOr> KernelLowerer::lowerReductionCall(const clang::CallExpr *call,
                                                           const clang::FunctionDecl *callee) {
  TileFn fn = tileFunction(callee);
  std::optional<Combine> kind = combineOf(fn);
  if (!kind || call->getNumArgs() == 0)
    return std::nullopt;
  bool user = *kind == Combine::User;
  if (call->getNumArgs() != (user ? 3u : 1u))
    return std::nullopt; // elementwise tile::max(a, b) and tile::min(a, b)
  std::optional<TileClass> cls = getTileClass(call->getArg(0)->getType());
  if (!cls || !cls->is(TileClassKind::Tile))
    return std::nullopt;

  Location l = loc(call);
  bool scan = fn == TileFn::Scan || fn == TileFn::Cumsum;
  clang::QualType element = cls->element;
  FailureOr<Value> source = lowerValue(call->getArg(0));
  if (failed(source))
    return LoweredOr(failure());
  auto tileType = cast<RankedTensorType>(source->getType());

  std::optional<int64_t> axis = templateAxis(callee);
  if (!axis) {
    if (scan) {
      (void)unsupported(call, ("tile::" + spellingOf(fn) + " without an axis").str());
      return LoweredOr(failure());
    }
    // A whole-tile reduction: one axis holding every element.
    auto flat = RankedTensorType::get({tileType.getNumElements()}, tileType.getElementType());
    source = builder.create<tile::ReshapeOp>(l, flat, *source).getResult();
    tileType = flat;
    axis = 0;
  }
  if (*axis < 0 || *axis >= tileType.getRank()) {
    (void)unsupported(call, "a reduction axis outside the tile's rank");
    return LoweredOr(failure());
  }

  // Sums, products and cumsums of floats narrower than f32 (f16, bf16, f8) accumulate in f32
  // and round once, as the CPU reference does.
  clang::QualType computeElement = element;
  Type storage = tileType.getElementType();
  bool widen = (*kind == Combine::Add || *kind == Combine::Mul) && isa<FloatType>(storage) &&
               storage.getIntOrFloatBitWidth() < 32;
  if (widen) {
    computeElement = ast.FloatTy;
    source = convert(*source, element, ast.FloatTy, l);
    tileType = cast<RankedTensorType>(source->getType());
  }

  SmallVector<Value> sources{*source};
  if (*kind == Combine::ArgMax || *kind == Combine::ArgMin) {
    // Indices along the axis, broadcast over the other axes.
    int64_t n = tileType.getDimSize(*axis);
    Type i32 = builder.getI32Type();
    Value iota = builder.create<tile::IotaOp>(l, RankedTensorType::get({n}, i32));
    SmallVector<int64_t> column(tileType.getRank(), 1);
    column[*axis] = n;
    if (tileType.getRank() > 1) {
      iota = builder.create<tile::ReshapeOp>(l, RankedTensorType::get(column, i32), iota);
      iota = builder.create<tile::BroadcastOp>(
          l, RankedTensorType::get(tileType.getShape(), i32), iota);
    }
    sources.push_back(iota);
  }

  const clang::FunctionDecl *userFn = nullptr;
  SmallVector<Value> inits;
  if (user) {
    userFn = calleeOf(call->getArg(2));
    if (!userFn) {
      (void)unsupported(call->getArg(2), "this combiner (use a lambda, a function object or "
                                         "a function)");
      return LoweredOr(failure());
    }
    FailureOr<Value> init = lowerValue(call->getArg(1));
    if (failed(init))
      return LoweredOr(failure());
    inits.push_back(convert(*init, call->getArg(1)->getType(), element, l));
  }

  SmallVector<Type> elements, resultTypes;
  for (Value v : sources) {
    auto t = cast<RankedTensorType>(v.getType());
    elements.push_back(t.getElementType());
    if (scan) {
      resultTypes.push_back(t);
    } else if (t.getRank() == 1) {
      resultTypes.push_back(t.getElementType());
    } else {
      SmallVector<int64_t> shape(t.getShape());
      shape.erase(shape.begin() + *axis);
      resultTypes.push_back(RankedTensorType::get(shape, t.getElementType()));
    }
  }
  Operation *op;
  Region *region;
  if (scan) {
    auto s = builder.create<tile::ScanOp>(l, resultTypes, sources, inits, int32_t(*axis));
    op = s;
    region = &s.getCombiner();
  } else {
    auto r = builder.create<tile::ReduceOp>(l, resultTypes, sources, inits, int32_t(*axis));
    op = r;
    region = &r.getCombiner();
  }
  if (failed(buildCombiner(*this, *region, elements, *kind, computeElement, userFn, call, l)))
    return LoweredOr(failure());

  Value result = op->getResult(sources.size() == 2 ? 1 : 0); // argmax: the indices
  if (widen)
    result = convert(result, ast.FloatTy, element, l);
  return LoweredOr(Lowered(result));
}
