//===- TileIntrinsics.cpp - the tile library's functions -> tile IR -----------===//
//
// Calls into namespace `tile` are the kernel language: their CPU bodies in include/tile/ are
// the reference semantics, and here each becomes the tile/arith/math op with that meaning.
//
//===----------------------------------------------------------------------===//
#include "LoweringContext.h"

#include "tilecc/Analysis/TileLibrary.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::lowering;

namespace tilecc::lowering {
FailureOr<Value> buildBinary(KernelLowerer &lowerer, clang::BinaryOperatorKind op, Value lhs,
                             Value rhs, clang::QualType type, Location l);
}

/// The static tile type a call returns.
static RankedTensorType resultTile(KernelLowerer &lowerer, const clang::Expr *call) {
  return dyn_cast_or_null<RankedTensorType>(lowerer.convertType(call->getType()));
}

FailureOr<Value> KernelLowerer::asTile(const clang::Expr *operand, clang::QualType element,
                                       RankedTensorType tileType) {
  FailureOr<Value> value = lowerValue(operand);
  if (failed(value))
    return failure();
  Location l = loc(operand);
  checkScalarOperand(operand, element);
  Value converted = convert(*value, operand->getType(), element, l);
  if (isa<RankedTensorType>(converted.getType()))
    return converted;
  auto splatType = RankedTensorType::get(tileType.getShape(), converted.getType());
  return builder.create<tile::SplatOp>(l, splatType, converted).getResult();
}

/// Elementwise math on float tiles or scalars. min/max follow the CPU reference (std::fmin and
/// std::fmax: a NaN operand yields the other operand), hence minnumf/maxnumf.
static FailureOr<Value> buildMath(KernelLowerer &lw, TileFn fn, ArrayRef<Value> args,
                                  clang::QualType element, Location l) {
  OpBuilder &b = lw.builder;
  bool isFloat = lw.isFloat(element), isUnsigned = lw.isUnsigned(element);
  Value x = args[0];
  if (args.size() == 1) {
    if (fn == TileFn::Abs)
      return isFloat ? b.create<math::AbsFOp>(l, x).getResult()
                     : (isUnsigned ? x : b.create<math::AbsIOp>(l, x).getResult());
    if (!isFloat)
      return failure();
    if (fn == TileFn::Exp) return b.create<math::ExpOp>(l, x).getResult();
    if (fn == TileFn::Exp2) return b.create<math::Exp2Op>(l, x).getResult();
    if (fn == TileFn::Log) return b.create<math::LogOp>(l, x).getResult();
    if (fn == TileFn::Log2) return b.create<math::Log2Op>(l, x).getResult();
    if (fn == TileFn::Sqrt) return b.create<math::SqrtOp>(l, x).getResult();
    if (fn == TileFn::Rsqrt) return b.create<math::RsqrtOp>(l, x).getResult();
    if (fn == TileFn::Sin) return b.create<math::SinOp>(l, x).getResult();
    if (fn == TileFn::Cos) return b.create<math::CosOp>(l, x).getResult();
    if (fn == TileFn::Tanh) return b.create<math::TanhOp>(l, x).getResult();
    if (fn == TileFn::Floor) return b.create<math::FloorOp>(l, x).getResult();
    if (fn == TileFn::Ceil) return b.create<math::CeilOp>(l, x).getResult();
    return failure();
  }
  if (args.size() == 2) {
    Value y = args[1];
    if (fn == TileFn::Min)
      return isFloat ? b.create<arith::MinNumFOp>(l, x, y).getResult()
                     : (isUnsigned ? b.create<arith::MinUIOp>(l, x, y).getResult()
                                   : b.create<arith::MinSIOp>(l, x, y).getResult());
    if (fn == TileFn::Max)
      return isFloat ? b.create<arith::MaxNumFOp>(l, x, y).getResult()
                     : (isUnsigned ? b.create<arith::MaxUIOp>(l, x, y).getResult()
                                   : b.create<arith::MaxSIOp>(l, x, y).getResult());
    if (fn == TileFn::Pow && isFloat)
      return b.create<math::PowFOp>(l, x, y).getResult();
    return failure();
  }
  if (args.size() == 3 && fn == TileFn::Fma && isFloat)
    return b.create<math::FmaOp>(l, args[0], args[1], args[2]).getResult();
  return failure();
}


/// The offsets `(i0 * t0, i1 * t1, ...)` of tile `(i0, i1, ...)` of a partition.
static FailureOr<SmallVector<Value>> tileOffsets(KernelLowerer &lw, const Partition &p,
                                                 ArrayRef<const clang::Expr *> indices,
                                                 const clang::Expr *call) {
  if (indices.size() != p.tile.size()) {
    (void)lw.unsupported(call, "a tile index whose rank differs from the partition's");
    return failure();
  }
  SmallVector<Value> offsets;
  for (auto [index, size] : llvm::zip(indices, p.tile)) {
    FailureOr<Value> i = lw.lowerIndex(index);
    if (failed(i))
      return failure();
    Location l = lw.loc(index);
    offsets.push_back(lw.builder.create<arith::MulIOp>(l, *i, lw.indexConstant(size, l)));
  }
  return offsets;
}

/// `a.atomic_<kind>(value, i...)` and `a.atomic_cas(expected, desired, i...)` on a
/// tile::Atomic view: a tile value updates tile (i...) of its shape, a scalar element (i...).
static LoweredOr lowerAtomicUpdate(KernelLowerer &lw, const clang::CXXMemberCallExpr *call,
                                   Value view, ArrayRef<const clang::Expr *> args) {
  llvm::StringRef name = call->getMethodDecl()->getName();
  TileFn fn = tileFunction(call->getMethodDecl());
  std::optional<TileClass> atomic = getTileClass(call->getImplicitObjectArgument()->getType());
  bool isUnsignedInt = atomic && atomic->element->isIntegerType() &&
                       !atomic->element->isBooleanType() && lw.isUnsigned(atomic->element);
  std::optional<tile::AtomicKind> kind;
  switch (fn) {
  case TileFn::AtomicAdd:
    kind = tile::AtomicKind::Add;
    break;
  case TileFn::AtomicMax:
    kind = isUnsignedInt ? tile::AtomicKind::Umax : tile::AtomicKind::Max;
    break;
  case TileFn::AtomicMin:
    kind = isUnsignedInt ? tile::AtomicKind::Umin : tile::AtomicKind::Min;
    break;
  case TileFn::AtomicExchange:
    kind = tile::AtomicKind::Exchange;
    break;
  case TileFn::AtomicCas:
    kind = tile::AtomicKind::Cas;
    break;
  default:
    break;
  }
  size_t values = kind == tile::AtomicKind::Cas ? 2 : 1;
  if (!kind || args.size() < values) {
    (void)lw.unsupported(call, ("the atomic member '" + name + "'").str());
    return failure();
  }
  FailureOr<Value> first = lw.lowerValue(args[0]);
  FailureOr<Value> second = values == 2 ? lw.lowerValue(args[1]) : first;
  if (failed(first) || failed(second))
    return failure();
  Value value = *second, expected = values == 2 ? *first : Value();
  ArrayRef<const clang::Expr *> indices = args.drop_front(values);
  SmallVector<Value> offsets;
  if (auto tileType = dyn_cast<RankedTensorType>(value.getType())) {
    FailureOr<SmallVector<Value>> tiled = tileOffsets(
        lw, Partition{view, SmallVector<int64_t, 4>(tileType.getShape())}, indices, call);
    if (failed(tiled))
      return failure();
    offsets = std::move(*tiled);
  } else {
    for (const clang::Expr *index : indices) {
      FailureOr<Value> i = lw.lowerIndex(index);
      if (failed(i))
        return failure();
      offsets.push_back(*i);
    }
  }
  Location l = lw.loc(call);
  auto op = lw.builder.create<tile::AtomicOp>(l, *kind, value, expected, view, offsets);
  return Lowered(op.getOld());
}

/// `p.load(i...)` / `p.store(t, i...)` of a tiled view, also reached by tile::unchecked.
static LoweredOr lowerPartitionAccess(KernelLowerer &lw, const clang::CallExpr *call,
                                      const Partition &partition, TileFn fn,
                                      ArrayRef<const clang::Expr *> args) {
  Location l = lw.loc(call);
  if (fn == TileFn::Load) {
    RankedTensorType tileType = resultTile(lw, call);
    FailureOr<SmallVector<Value>> offsets = tileOffsets(lw, partition, args, call);
    if (!tileType || failed(offsets))
      return failure();
    return Lowered(lw.builder.create<tile::LoadOp>(l, tileType, partition.view, *offsets).getResult());
  }
  if (fn == TileFn::Store && !args.empty()) {
    FailureOr<Value> value = lw.lowerValue(args[0]);
    FailureOr<SmallVector<Value>> offsets = tileOffsets(lw, partition, args.drop_front(), call);
    if (failed(value) || failed(offsets))
      return failure();
    lw.builder.create<tile::StoreOp>(l, *value, partition.view, *offsets);
    return Lowered(Value());
  }
  (void)lw.unsupported(call, ("the partition member '" + spellingOf(fn) + "'").str());
  return failure();
}

LoweredOr KernelLowerer::lowerTileCall(const clang::CallExpr *call,
                                       const clang::FunctionDecl *callee) {
  llvm::StringRef name = callee->getIdentifier() ? callee->getName() : llvm::StringRef();
  TileFn fn = tileFunction(callee);
  Location l = loc(call);
  clang::QualType resultType = call->getType();

  if (fn == TileFn::BlockId || fn == TileFn::NumBlocks) {
    int64_t axis = 0;
    if (call->getNumArgs() > 0) {
      FailureOr<int64_t> a = constantInt(call->getArg(0));
      if (failed(a))
        return failure();
      axis = *a;
    }
    if (axis < 0 || axis > 3) {
      (void)unsupported(call, "a grid axis outside 0..3");
      return failure();
    }
    Value v = fn == TileFn::BlockId
                  ? builder.create<tile::BlockIdOp>(l, int32_t(axis)).getResult()
                  : builder.create<tile::NumBlocksOp>(l, int32_t(axis)).getResult();
    return Lowered(fromIndex(v, resultType, l));
  }

  // tile::unchecked::load/store: the access without bounds handling. Out of the extent it is
  // undefined behaviour, so the bounded access is a correct lowering (and costs nothing where
  // the bounds are proved).
  if (isTileUnchecked(callee) && (fn == TileFn::Load || fn == TileFn::Store) && call->getNumArgs() >= 1) {
    LoweredOr object = lowerExpr(call->getArg(0));
    if (failed(object))
      return failure();
    auto *partition = std::get_if<Partition>(&*object);
    if (!partition) {
      (void)unsupported(call, ("tile::unchecked::" + name + " of something other than a tiled view").str());
      return failure();
    }
    SmallVector<const clang::Expr *> args(call->arg_begin() + 1, call->arg_end());
    return lowerPartitionAccess(*this, call, *partition, fn, args);
  }

  if (fn == TileFn::LoadTileLike) {
    FailureOr<Value> x = lowerValue(call->getArg(0));
    FailureOr<Value> z = lowerValue(call->getArg(1));
    RankedTensorType tileType = resultTile(*this, call);
    if (failed(x) || failed(z) || !tileType)
      return failure();
    auto xView = cast<tile::ViewType>(x->getType());
    auto zView = cast<tile::ViewType>(z->getType());
    if (xView.getRank() != zView.getRank()) {
      (void)unsupported(call, "load_tile_like between views of different rank");
      return failure();
    }
    SmallVector<Value> offsets;
    for (unsigned axis = 0; axis < zView.getRank(); ++axis) {
      Value origin = builder.create<tile::PieceOriginOp>(l, *z, int32_t(axis));
      if (xView.isExclusive())
        origin = builder.create<arith::SubIOp>(
            l, origin, builder.create<tile::PieceOriginOp>(l, *x, int32_t(axis)));
      offsets.push_back(origin);
    }
    return Lowered(builder.create<tile::LoadOp>(l, tileType, *x, offsets).getResult());
  }

  if (fn == TileFn::Zeros || fn == TileFn::Ones || fn == TileFn::Full) {
    RankedTensorType tileType = resultTile(*this, call);
    if (!tileType) {
      (void)unsupported(call, "this array factory (host API) inside a kernel");
      return failure();
    }
    if (fn == TileFn::Full) {
      FailureOr<Value> v = asTile(call->getArg(0), elementOf(resultType), tileType);
      if (failed(v))
        return failure();
      return Lowered(*v);
    }
    Type element = tileType.getElementType();
    if (isComplex(element))
      return Lowered(complexConstant(builder, tileType, fn == TileFn::Zeros ? 0.0f : 1.0f, l));
    TypedAttr scalar = fn == TileFn::Zeros ? builder.getZeroAttr(element) : builder.getOneAttr(element);
    return Lowered(builder
                       .create<arith::ConstantOp>(l, DenseElementsAttr::get(tileType, scalar))
                       .getResult());
  }

  if (fn == TileFn::Iota) {
    RankedTensorType tileType = resultTile(*this, call);
    if (!tileType)
      return failure();
    return Lowered(builder.create<tile::IotaOp>(l, tileType).getResult());
  }

  if (fn == TileFn::Where) {
    RankedTensorType tileType = resultTile(*this, call);
    if (!tileType)
      return failure();
    clang::QualType element = elementOf(resultType);
    FailureOr<Value> c = asTile(call->getArg(0), ast.BoolTy,
                                RankedTensorType::get(tileType.getShape(), builder.getI1Type()));
    FailureOr<Value> a = asTile(call->getArg(1), element, tileType);
    FailureOr<Value> b = asTile(call->getArg(2), element, tileType);
    if (failed(c) || failed(a) || failed(b))
      return failure();
    return Lowered(builder.create<arith::SelectOp>(l, *c, *a, *b).getResult());
  }

  if (fn == TileFn::Cast) {
    FailureOr<Value> v = lowerValue(call->getArg(0));
    if (failed(v))
      return failure();
    return Lowered(convert(*v, call->getArg(0)->getType(), resultType, l));
  }

  if (fn == TileFn::Bitcast) {
    FailureOr<Value> v = lowerValue(call->getArg(0));
    RankedTensorType tileType = resultTile(*this, call);
    if (failed(v) || !tileType)
      return failure();
    return Lowered(builder.create<arith::BitcastOp>(l, tileType, *v).getResult());
  }

  if (fn == TileFn::NumTiles) {
    LoweredOr p = lowerExpr(call->getArg(0));
    FailureOr<int64_t> axis = constantInt(call->getArg(1));
    if (failed(p) || failed(axis))
      return failure();
    auto *partition = std::get_if<Partition>(&*p);
    if (!partition || *axis < 0 || *axis >= int64_t(partition->tile.size())) {
      (void)unsupported(call, "num_tiles of this argument");
      return failure();
    }
    Value extent = builder.create<tile::DimOp>(l, partition->view, int32_t(*axis));
    Value count = builder.create<arith::CeilDivSIOp>(
        l, extent, indexConstant(partition->tile[*axis], l));
    return Lowered(fromIndex(count, resultType, l));
  }

  if (fn == TileFn::Mma || fn == TileFn::Matmul) {
    RankedTensorType result = resultTile(*this, call);
    FailureOr<Value> a = lowerValue(call->getArg(0));
    FailureOr<Value> b =
        call->getNumArgs() > 1 ? lowerValue(call->getArg(1)) : FailureOr<Value>(failure());
    if (!result || failed(a) || failed(b))
      return failure();
    Value acc;
    if (fn == TileFn::Mma) {
      FailureOr<Value> given = call->getNumArgs() == 3 ? lowerValue(call->getArg(2))
                                                       : FailureOr<Value>(failure());
      if (failed(given))
        return failure();
      acc = *given;
    } else {
      acc = builder.create<arith::ConstantOp>(
          l, DenseElementsAttr::get(result, builder.getZeroAttr(result.getElementType())));
    }
    return Lowered(builder.create<tile::MmaOp>(l, result, *a, *b, acc).getResult());
  }

  if (fn == TileFn::Real || fn == TileFn::Imag || fn == TileFn::Conj ||
      (fn == TileFn::Abs && call->getNumArgs() == 1 && isComplex(convertType(call->getArg(0)->getType())))) {
    FailureOr<Value> z = lowerValue(call->getArg(0));
    if (failed(z))
      return failure();
    if (!isComplex(z->getType())) {
      (void)unsupported(call, ("tile::" + name + " of a value that is not complex").str());
      return failure();
    }
    if (fn == TileFn::Real)
      return Lowered(realPart(builder, *z, l));
    if (fn == TileFn::Imag)
      return Lowered(imagPart(builder, *z, l));
    if (fn == TileFn::Conj)
      return Lowered(complexConj(builder, *z, l));
    return Lowered(complexAbs(builder, *z, l));
  }

  if (fn == TileFn::MakeComplex) {
    RankedTensorType tileType = resultTile(*this, call);
    if (!tileType)
      return failure();
    auto parts = RankedTensorType::get(tileType.getShape(), builder.getF32Type());
    FailureOr<Value> re = asTile(call->getArg(0), ast.FloatTy, parts);
    FailureOr<Value> im = asTile(call->getArg(1), ast.FloatTy, parts);
    if (failed(re) || failed(im))
      return failure();
    return Lowered(makeComplex(builder, *re, *im, l));
  }

  if (fn == TileFn::Check || fn == TileFn::Print) {
    // tile::check(cond, "message") and tile::print("label", value): the text is a literal.
    unsigned textArg = fn == TileFn::Check ? 1 : 0;
    const auto *text = call->getNumArgs() > textArg
                           ? dyn_cast<clang::StringLiteral>(call->getArg(textArg)->IgnoreImpCasts())
                           : nullptr;
    if (!text) {
      (void)unsupported(call, ("tile::" + name + " with a message that is not a string literal").str());
      return failure();
    }
    FailureOr<Value> v = lowerValue(call->getArg(1 - textArg));
    if (failed(v))
      return failure();
    if (fn == TileFn::Check) {
      Value cond = convert(*v, call->getArg(0)->getType(), ast.BoolTy, l);
      builder.create<tile::CheckOp>(l, cond, text->getString());
    } else {
      clang::QualType element = elementOf(call->getArg(1)->getType());
      auto print = builder.create<tile::PrintOp>(l, text->getString(), *v);
      if (element->isUnsignedIntegerType() && !element->isBooleanType())
        print.setIsUnsigned(true);
    }
    return Lowered(Value());
  }

  if (std::optional<LoweredOr> shaped = lowerShapeCall(call, callee))
    return *shaped;
  if (std::optional<LoweredOr> reduced = lowerReductionCall(call, callee))
    return *reduced;

  if (hasRole(fn, Math)) {
    clang::QualType element = elementOf(resultType);
    RankedTensorType tileType = resultTile(*this, call);
    SmallVector<Value> args;
    for (const clang::Expr *arg : call->arguments()) {
      FailureOr<Value> v = tileType ? asTile(arg, element, tileType) : lowerValue(arg);
      if (failed(v))
        return failure();
      args.push_back(tileType ? *v : convert(*v, arg->getType(), element, l));
    }
    FailureOr<Value> result = buildMath(*this, fn, args, element, l);
    if (failed(result)) {
      (void)unsupported(call, ("tile::" + name + " on this element type").str());
      return failure();
    }
    return Lowered(*result);
  }

  (void)unsupported(call, ("tile::" + name + " (not yet lowered)").str());
  return failure();
}

/// Maps an overloaded operator of the tile library onto the C++ binary operator it means.
static std::optional<clang::BinaryOperatorKind> binaryKind(clang::OverloadedOperatorKind op) {
  switch (op) {
  case clang::OO_PlusEqual: return clang::BO_Add;
  case clang::OO_MinusEqual: return clang::BO_Sub;
  case clang::OO_StarEqual: return clang::BO_Mul;
  case clang::OO_SlashEqual: return clang::BO_Div;
  case clang::OO_PercentEqual: return clang::BO_Rem;
  case clang::OO_AmpEqual: return clang::BO_And;
  case clang::OO_PipeEqual: return clang::BO_Or;
  case clang::OO_CaretEqual: return clang::BO_Xor;
  case clang::OO_LessLessEqual: return clang::BO_Shl;
  case clang::OO_GreaterGreaterEqual: return clang::BO_Shr;
  case clang::OO_Plus: return clang::BO_Add;
  case clang::OO_Minus: return clang::BO_Sub;
  case clang::OO_Star: return clang::BO_Mul;
  case clang::OO_Slash: return clang::BO_Div;
  case clang::OO_Percent: return clang::BO_Rem;
  case clang::OO_Amp: return clang::BO_And;
  case clang::OO_Pipe: return clang::BO_Or;
  case clang::OO_Caret: return clang::BO_Xor;
  case clang::OO_AmpAmp: return clang::BO_LAnd;  // Tile<bool>: element by element
  case clang::OO_PipePipe: return clang::BO_LOr;
  case clang::OO_LessLess: return clang::BO_Shl;
  case clang::OO_GreaterGreater: return clang::BO_Shr;
  case clang::OO_EqualEqual: return clang::BO_EQ;
  case clang::OO_ExclaimEqual: return clang::BO_NE;
  case clang::OO_Less: return clang::BO_LT;
  case clang::OO_LessEqual: return clang::BO_LE;
  case clang::OO_Greater: return clang::BO_GT;
  case clang::OO_GreaterEqual: return clang::BO_GE;
  default: return std::nullopt;
  }
}

static bool isCompoundAssignment(clang::OverloadedOperatorKind op) {
  return llvm::is_contained({clang::OO_PlusEqual, clang::OO_MinusEqual, clang::OO_StarEqual,
                             clang::OO_SlashEqual, clang::OO_PercentEqual, clang::OO_AmpEqual,
                             clang::OO_PipeEqual, clang::OO_CaretEqual, clang::OO_LessLessEqual,
                             clang::OO_GreaterGreaterEqual},
                            op);
}

/// An operator of `tile::complex<float>` on scalars: + - * / == != and negation, by the
/// formulas the tiles use (ComplexLowering.cpp); a real operand converts as C++ converts it.
LoweredOr KernelLowerer::lowerComplexScalarOperator(const clang::CXXOperatorCallExpr *call) {
  Location l = loc(call);
  SmallVector<Value, 2> operands;
  for (const clang::Expr *arg : call->arguments()) {
    FailureOr<Value> v = lowerValue(arg);
    if (failed(v) || !*v)
      return failure();
    if (!isComplex(v->getType())) {
      (void)unsupported(call, "this operator");
      return failure();
    }
    operands.push_back(*v);
  }
  clang::OverloadedOperatorKind op = call->getOperator();
  if (operands.size() == 1 && op == clang::OO_Minus)
    return Lowered(complexNegate(builder, operands[0], l));
  if (operands.size() == 1 && op == clang::OO_Plus)
    return Lowered(operands[0]);
  std::optional<clang::BinaryOperatorKind> kind = binaryKind(op);
  if (operands.size() == 2 && kind && !isCompoundAssignment(op))
    if (FailureOr<Value> result = buildComplexBinary(builder, *kind, operands[0], operands[1], l);
        succeeded(result))
      return Lowered(*result);
  (void)unsupported(call, "this operator");
  return failure();
}

LoweredOr KernelLowerer::lowerTileOperator(const clang::CXXOperatorCallExpr *call) {
  Location l = loc(call);
  clang::OverloadedOperatorKind op = call->getOperator();

  if (op == clang::OO_Equal) {
    // Tile assignment: `t = expr` rebinds the variable.
    LoweredOr value = lowerExpr(call->getArg(1));
    if (failed(value))
      return failure();
    if (failed(assignTo(call->getArg(0), *value)))
      return failure();
    return value;
  }

  // Operands: the element type is the tile operand's; scalars broadcast.
  clang::QualType element;
  RankedTensorType operandTile;
  for (const clang::Expr *arg : call->arguments())
    if (std::optional<TileClass> cls = getTileClass(arg->getType()); cls && cls->is(TileClassKind::Tile)) {
      element = cls->element;
      operandTile = dyn_cast_or_null<RankedTensorType>(convertType(arg->getType()));
      break;
    }
  if (!operandTile)
    return lowerComplexScalarOperator(call);

  if (call->getNumArgs() == 1) {
    FailureOr<Value> v = lowerValue(call->getArg(0));
    if (failed(v))
      return failure();
    if (op == clang::OO_Minus) {
      if (isComplex(v->getType()))
        return Lowered(complexNegate(builder, *v, l));
      if (isFloat(element))
        return Lowered(builder.create<arith::NegFOp>(l, *v).getResult());
      Value zero = builder.create<arith::ConstantOp>(l, DenseElementsAttr::get(
                                                            operandTile, builder.getZeroAttr(operandTile.getElementType())));
      return Lowered(builder.create<arith::SubIOp>(l, zero, *v).getResult());
    }
    if (op == clang::OO_Tilde || op == clang::OO_Exclaim) {
      Value ones = builder.create<arith::ConstantOp>(
          l, DenseElementsAttr::get(operandTile,
                                    builder.getIntegerAttr(operandTile.getElementType(), -1)));
      return Lowered(builder.create<arith::XOrIOp>(l, *v, ones).getResult());
    }
    if (op == clang::OO_Plus)
      return Lowered(*v);
    (void)unsupported(call, "this unary tile operator");
    return failure();
  }

  std::optional<clang::BinaryOperatorKind> kind = binaryKind(op);
  if (!kind || call->getNumArgs() != 2) {
    (void)unsupported(call, "this tile operator");
    return failure();
  }
  FailureOr<Value> lhs = asTile(call->getArg(0), element, operandTile);
  FailureOr<Value> rhs = asTile(call->getArg(1), element, operandTile);
  if (failed(lhs) || failed(rhs))
    return failure();
  FailureOr<Value> result = buildBinary(*this, *kind, *lhs, *rhs, element, l);
  if (failed(result)) {
    (void)unsupported(call, "this tile operator");
    return failure();
  }
  if (isCompoundAssignment(op)) {
    // `t += x`: rebinds the tile variable.
    if (failed(assignTo(call->getArg(0), *result)))
      return failure();
  }
  return Lowered(*result);
}

LoweredOr KernelLowerer::lowerViewOrMemberCall(const clang::CallExpr *call, const KernelCall &resolved) {
  llvm::StringRef name = resolved.callee->getIdentifier() ? resolved.callee->getName() : llvm::StringRef();
  TileFn fn = tileFunction(resolved.callee);
  Location l = loc(call);
  const clang::Expr *objectExpr = resolved.view ? resolved.view : resolved.object;
  LoweredOr object = lowerExpr(objectExpr);
  if (failed(object))
    return failure();
  SmallVector<const clang::Expr *> args(resolved.viewArgs());
  if (isAtomicType(objectExpr->getType()) && hasRole(fn, AtomicUpdate)) {
    auto *view = std::get_if<Value>(&*object);
    if (!view || !*view) {
      (void)unsupported(call, "an atomic update of something other than a kernel parameter");
      return failure();
    }
    return lowerAtomicUpdate(*this, cast<clang::CXXMemberCallExpr>(call), *view, args);
  }

  if (auto *partition = std::get_if<Partition>(&*object))
    return lowerPartitionAccess(*this, call, *partition, fn, args);

  Value self = std::get<Value>(*object);
  auto view = dyn_cast_or_null<tile::ViewType>(self ? self.getType() : Type());
  if (!view) {
    (void)unsupported(call, ("the member '" + name + "'").str());
    return failure();
  }
  auto zeroOffsets = [&] {
    SmallVector<Value> offsets;
    for (unsigned i = 0; i < view.getRank(); ++i)
      offsets.push_back(indexConstant(0, l));
    return offsets;
  };
  if (fn == TileFn::Load && args.empty()) {
    RankedTensorType tileType = resultTile(*this, call);
    if (!tileType)
      return failure();
    return Lowered(builder.create<tile::LoadOp>(l, tileType, self, zeroOffsets()).getResult());
  }
  if (fn == TileFn::Store && args.size() == 1) {
    FailureOr<Value> value = lowerValue(args[0]);
    if (failed(value))
      return failure();
    builder.create<tile::StoreOp>(l, *value, self, zeroOffsets());
    return Lowered(Value());
  }
  if (fn == TileFn::Shape && args.size() == 1) {
    FailureOr<int64_t> axis = constantInt(args[0]);
    if (failed(axis))
      return failure();
    if (*axis < 0 || *axis >= int64_t(view.getRank())) {
      (void)unsupported(call, "an axis outside the view's rank");
      return failure();
    }
    Value dim = builder.create<tile::DimOp>(l, self, int32_t(*axis));
    return Lowered(fromIndex(dim, call->getType(), l));
  }
  if (fn == TileFn::Partition || fn == TileFn::PartitionMut) {
    std::optional<TileClass> tiled = getTileClass(call->getType());
    SmallVector<int64_t> tile = tiled ? SmallVector<int64_t>(tiled->dims.begin(), tiled->dims.end()) : SmallVector<int64_t>();
    if (tile.size() != view.getRank()) {
      (void)unsupported(call, "a partition whose rank differs from the view's");
      return failure();
    }
    return Lowered(Partition{self, SmallVector<int64_t, 4>(tile.begin(), tile.end())});
  }
  (void)unsupported(call, ("the view member '" + name + "'").str());
  return failure();
}
