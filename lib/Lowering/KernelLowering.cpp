//===- KernelLowering.cpp - statements and expressions -> tile IR -------------===//
#include "LoweringContext.h"

#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::lowering;

KernelLowerer::KernelLowerer(clang::ASTContext &context, ModuleOp module)
    : ast(context), ctx(module.getContext()), module(module), builder(module.getContext()) {}

//===----------------------------------------------------------------------===//
// Locations and errors
//===----------------------------------------------------------------------===//

Location KernelLowerer::loc(clang::SourceLocation location) {
  const clang::SourceManager &sm = ast.getSourceManager();
  clang::PresumedLoc presumed = sm.getPresumedLoc(sm.getExpansionLoc(location));
  if (presumed.isInvalid())
    return builder.getUnknownLoc();
  return FileLineColLoc::get(ctx, presumed.getFilename(), presumed.getLine(),
                             presumed.getColumn());
}

Location KernelLowerer::loc(const clang::Stmt *stmt) { return loc(stmt->getBeginLoc()); }

LogicalResult KernelLowerer::error(clang::SourceLocation location, Rule rule,
                                   llvm::StringRef arg) {
  report(ast.getDiagnostics(), location, rule) << arg;
  return failure();
}

/// A construct the lowering has no rule for, named as its author would name it: the kind of
/// construct where C++ has a word for it, else its source text where that is short, else "this
/// statement" or "this expression" (the diagnostic points at it). Never Clang's class name.
static std::string describeConstruct(const clang::Stmt *stmt, clang::ASTContext &ast) {
  if (isa<clang::LambdaExpr>(stmt))
    return "a lambda";
  if (isa<clang::CXXThrowExpr>(stmt))
    return "'throw'";
  if (isa<clang::CXXTryStmt>(stmt))
    return "'try'";
  if (isa<clang::CXXNewExpr>(stmt))
    return "'new'";
  if (isa<clang::CXXDeleteExpr>(stmt))
    return "'delete'";
  if (isa<clang::AsmStmt>(stmt))
    return "inline assembly";
  if (isa<clang::CoroutineBodyStmt, clang::CoroutineSuspendExpr, clang::CoreturnStmt>(stmt))
    return "a coroutine";
  if (isa<clang::CXXTypeidExpr>(stmt))
    return "'typeid'";
  if (isa<clang::CXXDynamicCastExpr>(stmt))
    return "'dynamic_cast'";
  const bool isExpr = isa<clang::Expr>(stmt);
  const clang::SourceManager &sm = ast.getSourceManager();
  llvm::StringRef text = clang::Lexer::getSourceText(sm.getExpansionRange(stmt->getSourceRange()), sm,
                                                     ast.getLangOpts());
  if (!text.empty() && text.size() <= 60 && !text.contains('\n'))
    return std::string(isExpr ? "the expression '" : "the statement '") + text.str() + "'";
  return isExpr ? "this expression" : "this statement";
}

LogicalResult KernelLowerer::unsupported(const clang::Stmt *stmt, llvm::StringRef what) {
  return error(stmt->getBeginLoc(), Rule::Unsupported, what);
}

Value KernelLowerer::indexConstant(int64_t v, Location l) {
  return builder.create<arith::ConstantIndexOp>(l, v);
}

Value KernelLowerer::toIndex(Value v, Location l) {
  if (v.getType().isIndex())
    return v;
  return builder.create<arith::IndexCastOp>(l, builder.getIndexType(), v);
}

Value KernelLowerer::fromIndex(Value v, clang::QualType to, Location l) {
  Type type = convertScalarType(to);
  if (!type || type == v.getType())
    return v;
  return builder.create<arith::IndexCastOp>(l, type, v);
}

//===----------------------------------------------------------------------===//
// The kernel function
//===----------------------------------------------------------------------===//

LogicalResult KernelLowerer::lower(const KernelInstance &kernel) {
  const clang::FunctionDecl *fn = kernel.decl;
  SmallVector<Type> argTypes;
  for (const clang::ParmVarDecl *param : fn->parameters()) {
    ParamKind kind = classifyKernelParam(param);
    Type type = convertType(param->getType(), kind == ParamKind::ExclusiveView);
    if (!type || kind == ParamKind::Invalid)
      return error(param->getLocation(), Rule::Unsupported,
                   "a parameter of type '" + param->getType().getAsString() + "'");
    argTypes.push_back(type);
  }

  builder.setInsertionPointToEnd(module.getBody());
  auto func = builder.create<func::FuncOp>(loc(fn->getLocation()), kernel.symbol,
                                           builder.getFunctionType(argTypes, {}));
  const clang::SourceManager &sm = ast.getSourceManager();
  clang::PresumedLoc where = sm.getPresumedLoc(sm.getExpansionLoc(fn->getLocation()));
  std::string source = where.isValid() ? (llvm::sys::path::filename(where.getFilename()) + ":" +
                                          llvm::Twine(where.getLine()))
                                             .str()
                                       : "";
  func->setAttr(tile::kKernelAttrName, builder.getStringAttr(kernel.displayName));
  func->setAttr(tile::kSourceAttrName, builder.getStringAttr(source));
  func->setAttr("tile.entry", builder.getStringAttr(kernel.entryExpr));
  if (std::optional<unsigned> warps = getKernelConfig(kernel.decl).numWarps)
    func->setAttr(tile::kNumWarpsAttrName, builder.getI32IntegerAttr(int32_t(*warps)));

  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  for (auto [i, param] : llvm::enumerate(fn->parameters())) {
    values[param] = entry->getArgument(i);
    if (classifyKernelParam(param) == ParamKind::Scalar)
      func.setArgAttr(i, "tile.cpp_type",
                      builder.getStringAttr(param->getType().getCanonicalType()
                                                .getUnqualifiedType()
                                                .getAsString(ast.getPrintingPolicy())));
  }
  FunctionFrame frame;
  frame.returnType = fn->getReturnType();
  slots[&frame.returned] = SlotKind::Flag;
  functions.push_back(&frame);
  inlining.enter(fn);
  LogicalResult body = lowerStmt(fn->getBody());
  inlining.leave();
  functions.pop_back();
  slots.erase(&frame.returned);
  values.erase(&frame.returned);
  if (failed(body))
    return failure();
  builder.create<func::ReturnOp>(loc(fn->getBody()->getEndLoc()));
  return success();
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// A scalar constant of `type` holding `value`, if it is an integer or a float.
static std::optional<TypedAttr> scalarAttr(const clang::APValue &value, Type type) {
  if (!type)
    return std::nullopt;
  if (value.isInt() && isa<IntegerType>(type))
    return IntegerAttr::get(type, value.getInt().getExtValue());
  if (value.isFloat() && isa<FloatType>(type)) {
    llvm::APFloat v = value.getFloat();
    bool lost;
    v.convert(cast<FloatType>(type).getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
              &lost);
    return FloatAttr::get(type, v);
  }
  return std::nullopt;
}


/// True when destroying an object of `type` runs code (destroyedClass), which the GPU lowering
/// does not yet emit.
static bool runsDestructor(clang::QualType type) { return destroyedClass(type) != nullptr; }

/// A temporary of the full-expression `e` whose destruction runs code (not looking into the
/// bodies of lambdas written there).
static const clang::CXXBindTemporaryExpr *destroyedTemporary(const clang::Stmt *e) {
  if (!e || isa<clang::LambdaExpr>(e))
    return nullptr;
  if (const auto *bind = dyn_cast<clang::CXXBindTemporaryExpr>(e); bind && runsDestructor(bind->getType()))
    return bind;
  for (const clang::Stmt *child : e->children())
    if (const clang::CXXBindTemporaryExpr *found = destroyedTemporary(child))
      return found;
  return nullptr;
}

static std::string destructorText(clang::QualType type) {
  return "an object whose destruction runs code (the destructor of '" +
         type.getUnqualifiedType().getAsString() + "')";
}

LogicalResult KernelLowerer::lowerStmt(const clang::Stmt *stmt) {
  if (!stmt)
    return success();
  if (const auto *compound = dyn_cast<clang::CompoundStmt>(stmt)) {
    Env scope = values;
    SmallVector<const clang::Stmt *> body(compound->body_begin(), compound->body_end());
    if (failed(lowerSequence(body)))
      return failure();
    popScope(scope);
    return success();
  }
  if (isa<clang::NullStmt>(stmt))
    return success();
  if (const auto *declStmt = dyn_cast<clang::DeclStmt>(stmt)) {
    for (const clang::Decl *decl : declStmt->decls()) {
      const auto *var = dyn_cast<clang::VarDecl>(decl);
      if (!var) {
        if (isa<clang::TypedefNameDecl, clang::StaticAssertDecl, clang::UsingDecl>(decl))
          continue;
        return unsupported(stmt, "this declaration");
      }
      if (var->isStaticLocal())
        return unsupported(stmt, "a static local variable");
      // The CPU runs the destructor at the end of the scope; the GPU must not drop it.
      if (!var->getType()->isReferenceType() && runsDestructor(var->getType()))
        return error(var->getLocation(), Rule::Unsupported, destructorText(var->getType()));
      if (!var->hasInit()) {
        // Reading it before an assignment is undefined in C++: any value will do.
        Type type = convertScalarType(var->getType());
        if (!type)
          return error(var->getLocation(), Rule::Unsupported,
                       "a variable without an initializer");
        values[var] = Lowered(zeroOf(type, loc(var->getLocation())));
        continue;
      }
      if (var->getType()->isReferenceType()) {
        // A reference to a variable names that variable: assignments through it update it.
        const auto *target =
            dyn_cast<clang::DeclRefExpr>(var->getInit()->IgnoreParenNoopCasts(ast));
        if (target && isBound(resolve(target->getDecl())) &&
            ast.hasSameUnqualifiedType(var->getType().getNonReferenceType(),
                                       target->getDecl()->getType().getNonReferenceType())) {
          aliases[var] = resolve(target->getDecl());
          values.erase(var);
          continue;
        }
      }
      // A constexpr scalar is the value the compiler evaluated (its initializer may call
      // functions that never run on the device).
      if (var->isConstexpr() && !var->getType()->isReferenceType())
        if (const clang::APValue *constant = var->evaluateValue())
          if (std::optional<TypedAttr> attr =
                  scalarAttr(*constant, convertScalarType(var->getType()))) {
            aliases.erase(var);
            bind(var, builder.create<arith::ConstantOp>(loc(var->getLocation()), *attr)
                          .getResult());
            continue;
          }
      LoweredOr init = lowerExpr(var->getInit());
      if (failed(init))
        return failure();
      aliases.erase(var);
      bind(var, *init);
      // `auto [a, b] = pair;`: the variables the tuple protocol introduces (std::get).
      if (const auto *decomposition = dyn_cast<clang::DecompositionDecl>(var))
        for (const clang::BindingDecl *binding : decomposition->bindings())
          if (const clang::VarDecl *holding = binding->getHoldingVar()) {
            LoweredOr value = lowerExpr(holding->getInit());
            if (failed(value))
              return failure();
            bind(holding, *value);
          }
    }
    return success();
  }
  if (const auto *ret = dyn_cast<clang::ReturnStmt>(stmt))
    return lowerReturn(ret);
  if (isa<clang::BreakStmt, clang::ContinueStmt>(stmt))
    return lowerJump(stmt);
  if (const auto *expr = dyn_cast<clang::Expr>(stmt))
    return success(succeeded(lowerExpr(expr)));
  if (const auto *ifStmt = dyn_cast<clang::IfStmt>(stmt))
    return lowerIf(ifStmt);
  if (const auto *forStmt = dyn_cast<clang::ForStmt>(stmt))
    return lowerFor(forStmt);
  if (const auto *whileStmt = dyn_cast<clang::WhileStmt>(stmt))
    return lowerWhile(whileStmt);
  if (const auto *doStmt = dyn_cast<clang::DoStmt>(stmt))
    return lowerDo(doStmt);
  if (isa<clang::CXXForRangeStmt>(stmt))
    return unsupported(stmt, "a range-based 'for' loop");
  if (isa<clang::SwitchStmt>(stmt))
    return unsupported(stmt, "'switch' (write it as 'if'/'else if')");
  if (isa<clang::GotoStmt, clang::IndirectGotoStmt, clang::LabelStmt>(stmt))
    return unsupported(stmt, "a label or 'goto'");
  return unsupported(stmt, describeConstruct(stmt, ast));
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

FailureOr<Value> KernelLowerer::lowerValue(const clang::Expr *expr) {
  LoweredOr lowered = lowerExpr(expr);
  if (failed(lowered))
    return failure();
  if (auto *value = std::get_if<Value>(&*lowered); value && *value)
    return *value;
  (void)unsupported(expr, "using a partition as a value");
  return failure();
}

FailureOr<Value> KernelLowerer::lowerIndex(const clang::Expr *expr) {
  FailureOr<Value> value = lowerValue(expr);
  if (failed(value))
    return failure();
  if (!isa<IntegerType, IndexType>(value->getType())) {
    (void)unsupported(expr, "a non-integer index");
    return failure();
  }
  Location l = loc(expr);
  Value v = *value;
  if (auto intType = dyn_cast<IntegerType>(v.getType()); intType && intType.getWidth() < 64)
    v = isUnsigned(expr->getType())
            ? builder.create<arith::ExtUIOp>(l, builder.getI64Type(), v).getResult()
            : builder.create<arith::ExtSIOp>(l, builder.getI64Type(), v).getResult();
  return toIndex(v, l);
}

FailureOr<int64_t> KernelLowerer::constantInt(const clang::Expr *expr) {
  clang::Expr::EvalResult result;
  if (!expr->isValueDependent() && expr->EvaluateAsInt(result, ast))
    return result.Val.getInt().getExtValue();
  (void)error(expr->getBeginLoc(), Rule::NotConstant, "this argument");
  return failure();
}

/// Scalar constants: anything Clang can fold without side effects.
static std::optional<TypedAttr> foldScalar(clang::ASTContext &ast, const clang::Expr *expr,
                                           Type type) {
  if (!type || expr->isValueDependent() || expr->HasSideEffects(ast))
    return std::nullopt;
  clang::Expr::EvalResult result;
  if (!expr->EvaluateAsRValue(result, ast))
    return std::nullopt;
  return scalarAttr(result.Val, type);
}

static arith::CmpIPredicate intPredicate(clang::BinaryOperatorKind op, bool isUnsigned) {
  using P = arith::CmpIPredicate;
  switch (op) {
  case clang::BO_LT: return isUnsigned ? P::ult : P::slt;
  case clang::BO_LE: return isUnsigned ? P::ule : P::sle;
  case clang::BO_GT: return isUnsigned ? P::ugt : P::sgt;
  case clang::BO_GE: return isUnsigned ? P::uge : P::sge;
  case clang::BO_EQ: return P::eq;
  default: return P::ne;
  }
}

static arith::CmpFPredicate floatPredicate(clang::BinaryOperatorKind op) {
  using P = arith::CmpFPredicate;
  switch (op) {
  case clang::BO_LT: return P::OLT;
  case clang::BO_LE: return P::OLE;
  case clang::BO_GT: return P::OGT;
  case clang::BO_GE: return P::OGE;
  case clang::BO_EQ: return P::OEQ;
  default: return P::UNE;
  }
}

namespace tilecc::lowering {
/// Scalar or elementwise binary arithmetic with C++'s meaning for `type` (the operands'
/// common element type). Shared by scalar operators and tile operators.
FailureOr<Value> buildBinary(KernelLowerer &lowerer, clang::BinaryOperatorKind op, Value lhs,
                             Value rhs, clang::QualType type, Location l) {
  OpBuilder &b = lowerer.builder;
  if (isComplex(lhs.getType()))
    return buildComplexBinary(b, op, lhs, rhs, l);
  bool isFloat = lowerer.isFloat(type), isUnsigned = lowerer.isUnsigned(type);
  switch (op) {
  case clang::BO_Add:
    return isFloat ? b.create<arith::AddFOp>(l, lhs, rhs).getResult()
                   : b.create<arith::AddIOp>(l, lhs, rhs).getResult();
  case clang::BO_Sub:
    return isFloat ? b.create<arith::SubFOp>(l, lhs, rhs).getResult()
                   : b.create<arith::SubIOp>(l, lhs, rhs).getResult();
  case clang::BO_Mul:
    return isFloat ? b.create<arith::MulFOp>(l, lhs, rhs).getResult()
                   : b.create<arith::MulIOp>(l, lhs, rhs).getResult();
  case clang::BO_Div:
    if (isFloat)
      return b.create<arith::DivFOp>(l, lhs, rhs).getResult();
    return isUnsigned ? b.create<arith::DivUIOp>(l, lhs, rhs).getResult()
                      : b.create<arith::DivSIOp>(l, lhs, rhs).getResult();
  case clang::BO_Rem:
    if (isFloat)
      return b.create<arith::RemFOp>(l, lhs, rhs).getResult();
    return isUnsigned ? b.create<arith::RemUIOp>(l, lhs, rhs).getResult()
                      : b.create<arith::RemSIOp>(l, lhs, rhs).getResult();
  case clang::BO_And:
  case clang::BO_LAnd:
    return b.create<arith::AndIOp>(l, lhs, rhs).getResult();
  case clang::BO_Or:
  case clang::BO_LOr:
    return b.create<arith::OrIOp>(l, lhs, rhs).getResult();
  case clang::BO_Xor:
    return b.create<arith::XOrIOp>(l, lhs, rhs).getResult();
  case clang::BO_Shl:
    return b.create<arith::ShLIOp>(l, lhs, rhs).getResult();
  case clang::BO_Shr:
    return isUnsigned ? b.create<arith::ShRUIOp>(l, lhs, rhs).getResult()
                      : b.create<arith::ShRSIOp>(l, lhs, rhs).getResult();
  case clang::BO_LT:
  case clang::BO_LE:
  case clang::BO_GT:
  case clang::BO_GE:
  case clang::BO_EQ:
  case clang::BO_NE:
    if (isFloat)
      return b.create<arith::CmpFOp>(l, floatPredicate(op), lhs, rhs).getResult();
    return b.create<arith::CmpIOp>(l, intPredicate(op, isUnsigned), lhs, rhs).getResult();
  default:
    return failure();
  }
}
} // namespace tilecc::lowering

const clang::ValueDecl *KernelLowerer::resolve(const clang::ValueDecl *decl) const {
  for (unsigned depth = 0; depth < 64; ++depth) {
    auto it = aliases.find(decl);
    if (it == aliases.end())
      return decl;
    decl = it->second;
  }
  return decl;
}

LogicalResult KernelLowerer::assignTo(const clang::Expr *target, Lowered value) {
  const void *key = lvalueKey(target);
  if (!key)
    return unsupported(target, "assignment to anything but a local variable or its fields");
  if (const auto *decl = fieldBase.count(key) ? nullptr
                                              : static_cast<const clang::Decl *>(key);
      decl && isa<clang::ValueDecl>(decl) &&
      cast<clang::ValueDecl>(decl)->getType()->isReferenceType())
    return unsupported(target, isa<clang::ParmVarDecl>(decl)
                                   ? "assignment through a reference parameter"
                                   : "assignment through a reference");
  bind(key, std::move(value));
  return success();
}

LoweredOr KernelLowerer::lowerExpr(const clang::Expr *expr) {
  expr = expr->IgnoreParens();
  Location l = loc(expr);
  clang::QualType type = expr->getType();

  if (type->isArithmeticType() || type->isEnumeralType())
    if (std::optional<TypedAttr> attr = foldScalar(ast, expr, convertScalarType(type)))
      return Lowered(builder.create<arith::ConstantOp>(l, *attr).getResult());

  if (const auto *e = dyn_cast<clang::ExprWithCleanups>(expr)) {
    if (const clang::CXXBindTemporaryExpr *temporary = destroyedTemporary(e->getSubExpr()))
      return unsupported(temporary, destructorText(temporary->getType()));
    return lowerExpr(e->getSubExpr());
  }
  if (const auto *e = dyn_cast<clang::MaterializeTemporaryExpr>(expr))
    return lowerExpr(e->getSubExpr());
  if (const auto *e = dyn_cast<clang::CXXBindTemporaryExpr>(expr)) {
    if (runsDestructor(e->getType()))
      return unsupported(expr, destructorText(e->getType()));
    return lowerExpr(e->getSubExpr());
  }
  if (const auto *e = dyn_cast<clang::ConstantExpr>(expr))
    return lowerExpr(e->getSubExpr());
  if (const auto *e = dyn_cast<clang::SubstNonTypeTemplateParmExpr>(expr))
    return lowerExpr(e->getReplacement());
  if (const auto *e = dyn_cast<clang::CXXDefaultArgExpr>(expr))
    return lowerExpr(e->getExpr());
  if (const auto *e = dyn_cast<clang::CXXRewrittenBinaryOperator>(expr))
    return lowerExpr(e->getSemanticForm()); // `a != b` as `!(a == b)`

  if (const auto *cast = dyn_cast<clang::CastExpr>(expr)) {
    switch (cast->getCastKind()) {
    case clang::CK_LValueToRValue:
    case clang::CK_NoOp:
    case clang::CK_ConstructorConversion:
    case clang::CK_UncheckedDerivedToBase:
    case clang::CK_DerivedToBase:
    case clang::CK_UserDefinedConversion:
    case clang::CK_ToVoid:
      if (cast->getCastKind() == clang::CK_UserDefinedConversion &&
          cast->getType()->isArithmeticType()) {
        // tile::f16 -> float and friends.
        FailureOr<Value> v = lowerValue(cast->getSubExpr());
        if (failed(v))
          return failure();
        return Lowered(convert(*v, cast->getSubExpr()->getType(), type, l));
      }
      return lowerExpr(cast->getSubExpr());
    case clang::CK_IntegralCast:
    case clang::CK_FloatingCast:
    case clang::CK_IntegralToFloating:
    case clang::CK_FloatingToIntegral:
    case clang::CK_IntegralToBoolean:
    case clang::CK_FloatingToBoolean:
    case clang::CK_BooleanToSignedIntegral: {
      FailureOr<Value> v = lowerValue(cast->getSubExpr());
      if (failed(v))
        return failure();
      return Lowered(convert(*v, cast->getSubExpr()->getType(), type, l));
    }
    default:
      if (isa<clang::ExplicitCastExpr>(cast) && type->isArithmeticType()) {
        FailureOr<Value> v = lowerValue(cast->getSubExpr());
        if (failed(v))
          return failure();
        return Lowered(convert(*v, cast->getSubExpr()->getType(), type, l));
      }
      if (cast->getCastKind() == clang::CK_ConstructorConversion ||
          cast->getCastKind() == clang::CK_FunctionToPointerDecay)
        return lowerExpr(cast->getSubExpr());
      (void)unsupported(expr, std::string("the conversion '") + cast->getCastKindName() + "'");
      return failure();
    }
  }

  if (const auto *construct = dyn_cast<clang::CXXConstructExpr>(expr)) {
    if (aggregateRecord(type))
      return lowerAggregateConstruct(construct);
    if (construct->getNumArgs() == 1 && construct->getConstructor()->isCopyOrMoveConstructor())
      return lowerExpr(construct->getArg(0));
    if (construct->getNumArgs() == 1 && type->isRecordType() && convertScalarType(type)) {
      // tile::f16(x): a conversion.
      FailureOr<Value> v = lowerValue(construct->getArg(0));
      if (failed(v))
        return failure();
      return Lowered(convert(*v, construct->getArg(0)->getType(), type, l));
    }
    if (construct->getNumArgs() == 2 && type->isRecordType() && isComplex(convertScalarType(type))) {
      // tile::complex<float>(re, im)
      FailureOr<Value> re = lowerValue(construct->getArg(0));
      FailureOr<Value> im = lowerValue(construct->getArg(1));
      if (failed(re) || failed(im))
        return failure();
      Value real = convert(*re, construct->getArg(0)->getType(), ast.FloatTy, l);
      Value imag = convert(*im, construct->getArg(1)->getType(), ast.FloatTy, l);
      return Lowered(makeComplex(builder, real, imag, l));
    }
    if (construct->getNumArgs() == 0)
      if (Type t = convertType(type); t && (isa<RankedTensorType>(t) || convertScalarType(type)))
        return Lowered(zeroOf(t, l)); // Tile's default constructor: zeros
    (void)unsupported(expr, type->isRecordType() && !getTileClass(type)
                                ? classNotValue(type)
                                : "constructing '" + type.getAsString() + "'");
    return failure();
  }

  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(expr)) {
    if (const auto *binding = dyn_cast<clang::BindingDecl>(ref->getDecl());
        binding && binding->getBinding())
      return lowerExpr(binding->getBinding());
    if (std::optional<Lowered> value = lookupVariable(resolve(ref->getDecl())))
      return *value;
    if (const auto *var = dyn_cast<clang::VarDecl>(ref->getDecl()))
      if (const clang::Expr *init = var->getAnyInitializer();
          init && var->getType().isConstQualified() && !var->hasGlobalStorage())
        return lowerExpr(init);
    (void)unsupported(expr, "a reference to '" + ref->getDecl()->getNameAsString() + "'");
    return failure();
  }

  if (const auto *binary = dyn_cast<clang::BinaryOperator>(expr)) {
    clang::BinaryOperatorKind op = binary->getOpcode();
    if (op == clang::BO_Comma) {
      if (failed(lowerExpr(binary->getLHS())))
        return failure();
      return lowerExpr(binary->getRHS());
    }
    if (binary->isLogicalOp() && !speculatable(binary->getRHS()))
      return lowerShortCircuit(binary);
    if (op == clang::BO_Assign) {
      LoweredOr value = lowerExpr(binary->getRHS());
      if (failed(value) || failed(assignTo(binary->getLHS(), *value)))
        return failure();
      return value;
    }
    clang::QualType opType = type;
    if (const auto *compound = dyn_cast<clang::CompoundAssignOperator>(binary))
      opType = compound->getComputationResultType();
    else if (binary->isComparisonOp() || binary->isLogicalOp())
      opType = binary->isLogicalOp() ? ast.BoolTy : binary->getLHS()->getType();
    FailureOr<Value> lhs = lowerValue(binary->getLHS());
    FailureOr<Value> rhs = lowerValue(binary->getRHS());
    if (failed(lhs) || failed(rhs))
      return failure();
    Value left = convert(*lhs, binary->getLHS()->getType(), opType, l);
    Value right = *rhs;
    if (!binary->isShiftOp())
      right = convert(right, binary->getRHS()->getType(), opType, l);
    else
      right = convert(right, binary->getRHS()->getType(), binary->getLHS()->getType(), l);
    if (binary->isLogicalOp()) {
      left = convert(*lhs, binary->getLHS()->getType(), ast.BoolTy, l);
      right = convert(*rhs, binary->getRHS()->getType(), ast.BoolTy, l);
    }
    clang::BinaryOperatorKind arith =
        binary->isCompoundAssignmentOp() ? clang::BinaryOperator::getOpForCompoundAssignment(op)
                                         : op;
    FailureOr<Value> result = buildBinary(*this, arith, left, right, opType, l);
    if (failed(result)) {
      (void)unsupported(expr, "this operator");
      return failure();
    }
    if (binary->isCompoundAssignmentOp()) {
      Value stored = convert(*result, opType, binary->getLHS()->getType(), l);
      if (failed(assignTo(binary->getLHS(), stored)))
        return failure();
      return Lowered(stored);
    }
    return Lowered(*result);
  }

  if (const auto *unary = dyn_cast<clang::UnaryOperator>(expr);
      unary && unary->getOpcode() == clang::UO_Deref &&
      isa<clang::CXXThisExpr>(unary->getSubExpr()->IgnoreParenImpCasts())) {
    if (const void *object = lvalueKey(unary)) // `*this` in a method of an aggregate
      if (std::optional<Lowered> value = lookupVariable(object))
        return *value;
  }
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(expr)) {
    FailureOr<Value> operand = lowerValue(unary->getSubExpr());
    if (failed(operand))
      return failure();
    clang::QualType subType = unary->getSubExpr()->getType();
    switch (unary->getOpcode()) {
    case clang::UO_Plus:
      return Lowered(convert(*operand, subType, type, l));
    case clang::UO_Minus: {
      Value v = convert(*operand, subType, type, l);
      if (isComplex(v.getType()))
        return Lowered(complexNegate(builder, v, l));
      if (isFloat(type))
        return Lowered(builder.create<arith::NegFOp>(l, v).getResult());
      Value zero = builder.create<arith::ConstantOp>(l, v.getType(), builder.getZeroAttr(v.getType()));
      return Lowered(builder.create<arith::SubIOp>(l, zero, v).getResult());
    }
    case clang::UO_Not:
    case clang::UO_LNot: {
      Value v = unary->getOpcode() == clang::UO_LNot ? convert(*operand, subType, ast.BoolTy, l)
                                                     : convert(*operand, subType, type, l);
      Value ones = builder.create<arith::ConstantOp>(
          l, v.getType(), builder.getIntegerAttr(v.getType(), -1));
      return Lowered(builder.create<arith::XOrIOp>(l, v, ones).getResult());
    }
    case clang::UO_PreInc:
    case clang::UO_PreDec:
    case clang::UO_PostInc:
    case clang::UO_PostDec: {
      Value one = builder.create<arith::ConstantOp>(l, operand->getType(),
                                                    builder.getOneAttr(operand->getType()));
      FailureOr<Value> updated =
          buildBinary(*this, unary->isIncrementOp() ? clang::BO_Add : clang::BO_Sub, *operand,
                      one, subType, l);
      if (failed(updated) || failed(assignTo(unary->getSubExpr(), *updated)))
        return failure();
      return Lowered(unary->isPrefix() ? *updated : *operand);
    }
    default:
      (void)unsupported(expr, "this unary operator");
      return failure();
    }
  }

  if (const auto *cond = dyn_cast<clang::ConditionalOperator>(expr)) {
    if (std::optional<TileClass> cls = getTileClass(type);
        cls && !cls->is(TileClassKind::Tile) && !cls->is(TileClassKind::Other))
      return lowerViewChoice(cond);
    if (!speculatable(cond->getTrueExpr()) || !speculatable(cond->getFalseExpr()))
      return lowerShortCircuit(cond);
    FailureOr<Value> c = lowerValue(cond->getCond());
    FailureOr<Value> a = lowerValue(cond->getTrueExpr());
    FailureOr<Value> b = lowerValue(cond->getFalseExpr());
    if (failed(c) || failed(a) || failed(b))
      return failure();
    Value condition = convert(*c, cond->getCond()->getType(), ast.BoolTy, l);
    return Lowered(builder
                       .create<arith::SelectOp>(
                           l, condition, convert(*a, cond->getTrueExpr()->getType(), type, l),
                           convert(*b, cond->getFalseExpr()->getType(), type, l))
                       .getResult());
  }

  if (const auto *call = dyn_cast<clang::CallExpr>(expr)) {
    KernelCall resolved = resolveKernelCall(call);
    switch (resolved.kind) {
    case KernelCall::Kind::Indirect:
      (void)unsupported(expr, "an indirect call");
      return failure();
    case KernelCall::Kind::Library:
      if (const auto *op = dyn_cast<clang::CXXOperatorCallExpr>(call))
        return lowerTileOperator(op);
      if (resolved.view || isa<clang::CXXMemberCallExpr>(call))
        return lowerViewOrMemberCall(call, resolved);
      return lowerTileCall(call, resolved.callee);
    case KernelCall::Kind::PassThrough: { // the first argument's value; the others still run
      LoweredOr value = lowerExpr(resolved.args.front());
      for (const clang::Expr *arg : llvm::ArrayRef(resolved.args).drop_front())
        if (failed(lowerExpr(arg)))
          return failure();
      return value;
    }
    default: // inlined: the object of a method (a lambda's closure, a functor) is reached
             // through the declarations its body names; a user's aggregate is `this`
      if (resolved.instance && !resolved.closure && resolved.object)
        if (std::optional<LoweredOr> onObject = lowerAggregateMethod(resolved, call))
          return *onObject;
      if (resolved.object && resolved.instance && !resolved.definition) {
        (void)unsupported(expr, isa<clang::CXXOperatorCallExpr>(call) ? "this operator call"
                                                                      : "this member call");
        return failure();
      }
      return inlineCall(resolved.callee, resolved.args, resolved.object, call);
    }
  }

  if (isa<clang::LambdaExpr>(expr))
    return Lowered(Value()); // captures resolve to the enclosing variables when called
  if (const auto *member = dyn_cast<clang::MemberExpr>(expr))
    return lowerMember(member);
  if (const auto *init = dyn_cast<clang::CXXDefaultInitExpr>(expr))
    return lowerExpr(init->getExpr());

  if (const auto *init = dyn_cast<clang::InitListExpr>(expr)) {
    if (aggregateRecord(type))
      return lowerAggregateInit(init);
    // `T x{}` and `T x{v}` for scalars and tiles.
    if (init->getNumInits() == 1)
      return lowerExpr(init->getInit(0));
    if (init->getNumInits() == 0)
      if (Type t = convertType(type); t && (isa<RankedTensorType>(t) || convertScalarType(type)))
        return Lowered(zeroOf(t, l));
    if (type->isRecordType() && !getTileClass(type) && !convertScalarType(type)) {
      (void)unsupported(expr, classNotValue(type));
      return failure();
    }
  }
  if (const auto *init = dyn_cast<clang::ImplicitValueInitExpr>(expr))
    if (Type t = convertScalarType(init->getType()))
      return Lowered(zeroOf(t, l));

  (void)unsupported(expr, describeConstruct(expr, ast));
  return failure();
}

/// `c ? x : y` between two views (or two tilings of views with one tile shape): the chosen
/// view, an arith.select. Both operands are names, so evaluating both is harmless.
LoweredOr KernelLowerer::lowerViewChoice(const clang::ConditionalOperator *cond) {
  Location l = loc(cond);
  FailureOr<Value> c = lowerValue(cond->getCond());
  LoweredOr a = lowerExpr(cond->getTrueExpr());
  LoweredOr b = lowerExpr(cond->getFalseExpr());
  if (failed(c) || failed(a) || failed(b))
    return failure();
  Value condition = convert(*c, cond->getCond()->getType(), ast.BoolTy, l);
  auto viewOf = [](const Lowered &v) {
    if (const auto *partition = std::get_if<Partition>(&v))
      return partition->view;
    return std::get<Value>(v);
  };
  const auto *pa = std::get_if<Partition>(&*a), *pb = std::get_if<Partition>(&*b);
  Value x = viewOf(*a), y = viewOf(*b);
  if (!x || !y || !isa<tile::ViewType>(x.getType()) || x.getType() != y.getType() ||
      bool(pa) != bool(pb) || (pa && pa->tile != pb->tile)) {
    (void)unsupported(cond, "a choice between views of different kinds or shapes");
    return failure();
  }
  Value chosen = builder.create<arith::SelectOp>(l, condition, x, y);
  if (pa)
    return Lowered(Partition{chosen, pa->tile});
  return Lowered(chosen);
}

LoweredOr KernelLowerer::inlineCall(const clang::FunctionDecl *fn,
                                    llvm::ArrayRef<const clang::Expr *> args,
                                    const clang::Expr *object, const clang::Expr *call) {
  const clang::FunctionDecl *definition = visibleBody(fn);
  if (!definition) {
    (void)error(call->getBeginLoc(), Rule::KernelExternalCall, fn->getQualifiedNameAsString());
    return failure();
  }
  if (definition->getNumParams() != args.size()) {
    (void)unsupported(call, "a call with default or variadic arguments");
    return failure();
  }
  // Evaluate the arguments in the caller, then bind them to the callee's parameters. A
  // reference parameter bound to a variable names that variable.
  SmallVector<std::optional<Lowered>> lowered;
  SmallVector<const clang::ValueDecl *> aliased;
  for (auto [arg, param] : llvm::zip(args, definition->parameters())) {
    if (param->getType()->isLValueReferenceType()) {
      const auto *ref = dyn_cast<clang::DeclRefExpr>(arg->IgnoreParenNoopCasts(ast));
      if (ref && isBound(resolve(ref->getDecl())) &&
          ast.hasSameUnqualifiedType(param->getType().getNonReferenceType(),
                                     ref->getDecl()->getType().getNonReferenceType())) {
        lowered.push_back(std::nullopt);
        aliased.push_back(resolve(ref->getDecl()));
        continue;
      }
    }
    LoweredOr value = lowerExpr(arg);
    if (failed(value))
      return failure();
    if (auto *v = std::get_if<Value>(&*value); v && *v && !getTileClass(param->getType()) &&
                                               param->getType()->isArithmeticType())
      *v = convert(*v, arg->getType(), param->getType(), loc(arg));
    lowered.push_back(*value);
    aliased.push_back(nullptr);
  }
  (void)object; // captures and members are reached through their declarations
  return inlineBody(definition, lowered, aliased, call->getType(), call);
}

LoweredOr KernelLowerer::inlineCallOn(const clang::FunctionDecl *fn, ArrayRef<Value> args,
                                      ArrayRef<clang::QualType> argTypes,
                                      clang::QualType resultType, const clang::Expr *call) {
  const clang::FunctionDecl *definition = visibleBody(fn);
  if (!definition) {
    (void)error(call->getBeginLoc(), Rule::KernelExternalCall, fn->getQualifiedNameAsString());
    return failure();
  }
  if (definition->getNumParams() != args.size()) {
    (void)unsupported(call, "a function whose parameter count differs from its use");
    return failure();
  }
  SmallVector<std::optional<Lowered>> lowered;
  SmallVector<const clang::ValueDecl *> aliased;
  for (auto [v, type, param] : llvm::zip(args, argTypes, definition->parameters())) {
    clang::QualType to = param->getType().getNonReferenceType();
    lowered.push_back(Lowered(to->isArithmeticType() ? convert(v, type, to, loc(call)) : v));
    aliased.push_back(nullptr);
  }
  return inlineBody(definition, lowered, aliased, resultType, call);
}

LoweredOr KernelLowerer::inlineBody(const clang::FunctionDecl *definition,
                                    ArrayRef<std::optional<Lowered>> lowered,
                                    ArrayRef<const clang::ValueDecl *> aliased,
                                    clang::QualType resultType, const clang::Expr *call) {
  switch (inlining.refusal(definition)) {
  case InlineStack::Refusal::None:
    break;
  case InlineStack::Refusal::Recursion:
    (void)error(call->getBeginLoc(), Rule::KernelRecursion,
                definition->getQualifiedNameAsString());
    return failure();
  case InlineStack::Refusal::TooDeep:
    (void)unsupported(call, "calls nested more than " + std::to_string(kMaxInlineDepth) +
                                " deep");
    return failure();
  }
  Env scope = values;
  SmallVector<std::pair<const clang::ValueDecl *, const clang::ValueDecl *>> savedAliases;
  for (auto [param, value, target] : llvm::zip(definition->parameters(), lowered, aliased)) {
    auto it = aliases.find(param);
    savedAliases.push_back({param, it == aliases.end() ? nullptr : it->second});
    if (target) {
      aliases[param] = target;
      unbind(param);
    } else {
      aliases.erase(param);
      bind(param, *value);
    }
  }

  FunctionFrame frame;
  frame.returnType = definition->getReturnType();
  if (!frame.returnType->isVoidType())
    frame.resultType = convertType(frame.returnType);
  frame.loopBase = loops.size();
  slots[&frame.returned] = SlotKind::Flag;
  slots[&frame.result] = SlotKind::Value;
  functions.push_back(&frame);
  inlining.enter(definition);
  LogicalResult body = success();
  if (const auto *ctor = dyn_cast<clang::CXXConstructorDecl>(definition))
    body = lowerMemberInits(ctor);
  if (succeeded(body))
    body = lowerStmt(definition->getBody());
  inlining.leave();
  functions.pop_back();
  std::optional<Lowered> result = lookupVariable(&frame.result);
  unbind(&frame.result);
  slots.erase(&frame.returned);
  slots.erase(&frame.result);
  values.erase(&frame.returned);

  for (auto &[param, target] : savedAliases) {
    if (target)
      aliases[param] = target;
    else
      aliases.erase(param);
  }
  popScope(scope); // the callee's parameters and locals; the caller's values of the
                   // parameters' declarations (recursion is rejected earlier) stay in `scope`
  if (failed(body))
    return failure();
  if (!result) {
    if (!definition->getReturnType()->isVoidType()) {
      (void)unsupported(call, "a call of a function that returns no value");
      return failure();
    }
    return Lowered(Value());
  }
  if (auto *v = std::get_if<Value>(&*result); v && *v && definition->getReturnType()->isArithmeticType())
    *v = convert(*v, definition->getReturnType(), resultType, loc(call));
  return *result;
}

LogicalResult tilecc::lowerKernel(clang::ASTContext &context, const KernelInstance &kernel,
                                  ModuleOp module) {
  KernelLowerer lowerer(context, module);
  return lowerer.lower(kernel);
}
