//===- ControlFlow.cpp - if, loops, break/continue/return -> scf --------------===//
//
// C++ control flow becomes structured `scf` with SSA values flowing out of it; the CPU
// reference runs the same C++, so the meaning is C++'s own:
//
//  * `if`/`else` -> scf.if whose results are the variables (and flags) either branch changed;
//    a condition Clang folds (`if constexpr`, template parameters) picks its branch here.
//  * A counted `for` (`for (int64_t i = a; i < b; i += c)`, also `<=`, `!=`, `>`, `>=` with a
//    constant step, the bound unchanged by the body) -> scf.for; the variables the loop assigns
//    are iter_args. Every other loop (`while`, `do`/`while`, other `for`s, any loop with `break`
//    or `return`) -> scf.while carrying them.
//  * `return`, `break` and `continue` set flags, slots in the variable map: absent = false,
//    null = certainly true, else an i1. The statements after one that may have run are guarded
//    by `scf.if !flags`; a loop's condition fails once its break flag or the function's return
//    flag is set; a `continue` flag lives for one iteration. When one branch of an `if` always
//    leaves (`if (c) return;`), the statements after the `if` go into the other branch.
//  * `a && b`, `a || b` and `c ? x : y` evaluate an operand C++ might skip eagerly only when
//    that is harmless; otherwise they become an scf.if too.
//
//===----------------------------------------------------------------------===//
#include "LoweringContext.h"

#include "tilecc/Analysis/LoopEffects.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::lowering;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static bool sameLowered(const Lowered &a, const Lowered &b) {
  if (a.index() != b.index())
    return false;
  if (const auto *v = std::get_if<Value>(&a))
    return *v == std::get<Value>(b);
  if (const auto *x = std::get_if<AggregatePtr>(&a))
    return *x == std::get<AggregatePtr>(b); // (variables hold their fields, not aggregates)
  const Partition &p = std::get<Partition>(a), &q = std::get<Partition>(b);
  return p.view == q.view && p.tile == q.tile;
}

static const Lowered *lookup(const Env &env, const void *key) {
  auto it = env.find(key);
  return it == env.end() ? nullptr : &it->second;
}

/// Types a variable may have across scf regions: tiles and scalars.
static bool carriable(Type type) {
  return type && isa<RankedTensorType, IntegerType, FloatType, IndexType>(type);
}

/// Whether `stmt` always leaves the enclosing statement list (return, break or continue on
/// every path through it).
static bool alwaysExits(const clang::Stmt *stmt) {
  if (!stmt)
    return false;
  if (isa<clang::ReturnStmt, clang::BreakStmt, clang::ContinueStmt>(stmt))
    return true;
  if (const auto *compound = dyn_cast<clang::CompoundStmt>(stmt))
    return llvm::any_of(compound->body(), alwaysExits);
  if (const auto *ifStmt = dyn_cast<clang::IfStmt>(stmt))
    return alwaysExits(ifStmt->getThen()) && alwaysExits(ifStmt->getElse());
  return false;
}

Value KernelLowerer::zeroOf(Type type, Location l) {
  if (isComplex(type))
    return complexConstant(builder, type, 0.0f, l);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return builder.create<arith::ConstantOp>(
        l, DenseElementsAttr::get(tensor, builder.getZeroAttr(tensor.getElementType())));
  return builder.create<arith::ConstantOp>(l, cast<TypedAttr>(builder.getZeroAttr(type)));
}

Value KernelLowerer::negate(Value flag, Location l) {
  Value yes = builder.create<arith::ConstantOp>(l, builder.getBoolAttr(true));
  return builder.create<arith::XOrIOp>(l, flag, yes);
}

Value KernelLowerer::materialize(const void *key, Type type, Location l) {
  const Lowered *value = lookup(values, key);
  auto kind = slots.find(key);
  if (kind != slots.end() && kind->second == SlotKind::Flag) {
    if (!value)
      return builder.create<arith::ConstantOp>(l, builder.getBoolAttr(false));
    Value flag = std::get<Value>(*value);
    return flag ? flag : builder.create<arith::ConstantOp>(l, builder.getBoolAttr(true));
  }
  if (!value)
    return zeroOf(type, l);
  return std::get<Value>(*value);
}

LoopFrame *KernelLowerer::innermostLoop() {
  return loops.size() > function().loopBase ? loops.back() : nullptr;
}

PendingExit KernelLowerer::pendingExit(Location l, bool includeContinue) {
  PendingExit exit;
  SmallVector<const void *, 3> keys{&function().returned};
  if (LoopFrame *loop = innermostLoop()) {
    keys.push_back(&loop->broken);
    if (includeContinue)
      keys.push_back(&loop->continued);
  }
  SmallVector<Value, 3> dynamic;
  for (const void *key : keys) {
    const Lowered *value = lookup(values, key);
    if (!value)
      continue;
    exit.any = true;
    exit.keys.push_back(key);
    if (Value flag = std::get<Value>(*value))
      dynamic.push_back(flag);
    else
      exit.definite = true;
  }
  if (exit.any && !exit.definite) {
    exit.value = dynamic.front();
    for (Value flag : llvm::drop_begin(dynamic))
      exit.value = builder.create<arith::OrIOp>(l, exit.value, flag);
  }
  return exit;
}

void KernelLowerer::popScope(const Env &scope) {
  Env kept;
  for (auto &[key, value] : values)
    if (scope.count(key) || slots.count(key))
      kept.insert({key, value});
  values = std::move(kept);
}

/// `v` (an integer of C++ signedness `isUnsigned`, or an index) as an index.
static Value asIndex(OpBuilder &b, Value v, bool isUnsigned, Location l) {
  if (v.getType().isIndex())
    return v;
  if (auto type = dyn_cast<IntegerType>(v.getType()); type && type.getWidth() < 64)
    v = isUnsigned ? b.create<arith::ExtUIOp>(l, b.getI64Type(), v).getResult()
                   : b.create<arith::ExtSIOp>(l, b.getI64Type(), v).getResult();
  return b.create<arith::IndexCastOp>(l, b.getIndexType(), v);
}

//===----------------------------------------------------------------------===//
// Joins
//===----------------------------------------------------------------------===//

LogicalResult KernelLowerer::buildIf(Value cond, function_ref<LogicalResult()> thenFn,
                                     function_ref<LogicalResult()> elseFn, Location l,
                                     const clang::Stmt *where) {
  Env before = values;
  auto ifOp = builder.create<scf::IfOp>(l, cond, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard insertion(builder);
  Block *blocks[2] = {ifOp.thenBlock(), ifOp.elseBlock()};
  function_ref<LogicalResult()> fns[2] = {thenFn, elseFn};
  Env envs[2];
  for (int b = 0; b < 2; ++b) {
    builder.setInsertionPoint(blocks[b]->getTerminator());
    values = before;
    if (fns[b] && failed(fns[b]())) {
      values = before;
      return failure();
    }
    envs[b] = std::move(values);
  }

  // Variables either branch changed, then flags and returned values the branches set.
  SmallVector<const void *> keys;
  for (auto &[key, value] : before) {
    const Lowered *t = lookup(envs[0], key), *e = lookup(envs[1], key);
    if (!t || !e || !sameLowered(*t, value) || !sameLowered(*e, value))
      keys.push_back(key);
  }
  for (Env &env : envs)
    for (auto &[key, value] : env)
      if (slots.count(key) && !before.count(key) && !llvm::is_contained(keys, key))
        keys.push_back(key);

  Env after = before;
  SmallVector<const void *> resultKeys;
  SmallVector<Type> types;
  for (const void *key : keys) {
    const Lowered *t = lookup(envs[0], key), *e = lookup(envs[1], key);
    bool isSlot = slots.count(key);
    if ((!isSlot && (!t || !e)) || (!t && !e)) {
      after.erase(key);
      continue;
    }
    if (t && e && sameLowered(*t, *e)) {
      after[key] = *t;
      continue;
    }
    Type type;
    if (isSlot && slots[key] == SlotKind::Flag) {
      type = builder.getI1Type();
    } else {
      for (const Lowered *branch : {t, e}) {
        if (!branch)
          continue;
        const auto *v = std::get_if<Value>(branch);
        if (!v || !*v)
          return unsupported(where, "a partition or view that differs between the branches of "
                                    "an 'if' (only tiles and scalars can)");
        if (type && type != v->getType())
          return unsupported(where, "a variable whose type differs between branches");
        type = v->getType();
      }
      if (!carriable(type))
        return unsupported(where, "a value of this type flowing out of an 'if'");
    }
    resultKeys.push_back(key);
    types.push_back(type);
  }

  if (resultKeys.empty()) {
    if (ifOp.elseBlock()->without_terminator().empty())
      ifOp.elseBlock()->erase();
    values = std::move(after);
    return success();
  }

  SmallVector<Value> yields[2];
  for (int b = 0; b < 2; ++b) {
    builder.setInsertionPoint(blocks[b]->getTerminator());
    std::swap(values, envs[b]);
    for (auto [key, type] : llvm::zip(resultKeys, types))
      yields[b].push_back(materialize(key, type, l));
    std::swap(values, envs[b]);
  }
  builder.setInsertionPoint(ifOp);
  auto joined = builder.create<scf::IfOp>(l, TypeRange(types), cond, /*addThenBlock=*/false,
                                          /*addElseBlock=*/false);
  joined.getThenRegion().takeBody(ifOp.getThenRegion());
  joined.getElseRegion().takeBody(ifOp.getElseRegion());
  for (int b = 0; b < 2; ++b) {
    Block *block = b == 0 ? joined.thenBlock() : joined.elseBlock();
    Operation *terminator = block->getTerminator();
    builder.setInsertionPoint(terminator);
    builder.create<scf::YieldOp>(terminator->getLoc(), yields[b]);
    terminator->erase();
  }
  ifOp.erase();
  for (auto [key, result] : llvm::zip(resultKeys, joined.getResults()))
    after[key] = Lowered(Value(result));
  values = std::move(after);
  return success();
}

LogicalResult KernelLowerer::guard(Value cond, ArrayRef<const void *> known,
                                   function_ref<LogicalResult()> fn, Location l,
                                   const clang::Stmt *where) {
  Env outer = values;
  return buildIf(
      cond,
      [&]() -> LogicalResult {
        for (const void *key : known)
          values.erase(key);
        if (failed(fn()))
          return failure();
        // A flag the region left alone is false here, and so equal to its value outside.
        for (const void *key : known)
          if (!values.count(key))
            if (const Lowered *value = lookup(outer, key))
              values[key] = *value;
        return success();
      },
      nullptr, l, where);
}

//===----------------------------------------------------------------------===//
// Statement lists, if, return, break, continue
//===----------------------------------------------------------------------===//

LogicalResult KernelLowerer::lowerSequence(ArrayRef<const clang::Stmt *> stmts) {
  while (!stmts.empty()) {
    const clang::Stmt *stmt = stmts.front();
    stmts = stmts.drop_front();
    if (const auto *ifStmt = dyn_cast<clang::IfStmt>(stmt);
        ifStmt && !stmts.empty() &&
        (alwaysExits(ifStmt->getThen()) || alwaysExits(ifStmt->getElse())))
      return lowerIf(ifStmt, stmts);
    if (failed(lowerStmt(stmt)))
      return failure();
    if (stmts.empty())
      break;
    Location l = loc(stmts.front());
    PendingExit exit = pendingExit(l);
    if (!exit.any)
      continue;
    if (exit.definite)
      return success(); // the rest cannot run
    ArrayRef<const clang::Stmt *> rest = stmts;
    return guard(negate(exit.value, l), exit.keys, [&] { return lowerSequence(rest); }, l,
                 rest.front());
  }
  return success();
}

LogicalResult KernelLowerer::lowerIf(const clang::IfStmt *stmt,
                                     ArrayRef<const clang::Stmt *> rest) {
  if (stmt->isConsteval())
    return unsupported(stmt, "'if consteval'");
  Location l = loc(stmt);
  Env scope = values;
  if (failed(lowerStmt(stmt->getInit())))
    return failure();
  if (const clang::DeclStmt *var = stmt->getConditionVariableDeclStmt())
    if (failed(lowerStmt(var)))
      return failure();
  // A branch, then the statements after the `if` that were moved into it.
  auto branch = [&](const clang::Stmt *body) -> LogicalResult {
    SmallVector<const clang::Stmt *> seq;
    if (body)
      seq.push_back(body);
    seq.append(rest.begin(), rest.end());
    return lowerSequence(seq);
  };
  const clang::Expr *cond = stmt->getCond();
  clang::Expr::EvalResult folded;
  LogicalResult result = failure();
  if (!cond->isValueDependent() &&
      cond->EvaluateAsRValue(folded, ast, /*InConstantContext=*/stmt->isConstexpr()) &&
      !folded.HasSideEffects && folded.Val.isInt()) {
    result = branch(folded.Val.getInt().getBoolValue() ? stmt->getThen() : stmt->getElse());
  } else {
    FailureOr<Value> c = lowerValue(cond);
    if (failed(c))
      return failure();
    Value flag = convert(*c, cond->getType(), ast.BoolTy, loc(cond));
    result = buildIf(
        flag, [&] { return branch(stmt->getThen()); }, [&] { return branch(stmt->getElse()); },
        l, stmt);
  }
  if (succeeded(result))
    popScope(scope);
  return result;
}

LogicalResult KernelLowerer::lowerReturn(const clang::ReturnStmt *stmt) {
  FunctionFrame &fn = function();
  if (const clang::Expr *value = stmt->getRetValue()) {
    LoweredOr lowered = lowerExpr(value);
    if (failed(lowered))
      return failure();
    if (!fn.returnType->isVoidType())
      bind(&fn.result, *lowered);
  }
  values[&fn.returned] = Lowered(Value());
  return success();
}

LogicalResult KernelLowerer::lowerJump(const clang::Stmt *stmt) {
  bool isBreak = isa<clang::BreakStmt>(stmt);
  LoopFrame *loop = innermostLoop();
  if (!loop)
    return unsupported(stmt, isBreak ? "'break' outside a loop" : "'continue' outside a loop");
  values[isBreak ? &loop->broken : &loop->continued] = Lowered(Value());
  return success();
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

namespace {
/// Collects the variables an expression reads.
void collectRefs(const clang::Stmt *stmt, KernelLowerer &lowerer,
                 llvm::SmallPtrSetImpl<const void *> &refs) {
  if (!stmt)
    return;
  if (const auto *ref = dyn_cast<clang::DeclRefExpr>(stmt))
    refs.insert(lowerer.resolve(ref->getDecl()));
  for (const clang::Stmt *child : stmt->children())
    collectRefs(child, lowerer, refs);
}

/// `for (T i = init; i OP bound; i += step)` that scf.for runs exactly as C++ would.
struct CountedLoop {
  const clang::VarDecl *iv = nullptr;
  const clang::Expr *bound = nullptr;
  clang::BinaryOperatorKind op = clang::BO_LT; // i OP bound
  int64_t step = 0;
};
} // namespace

LoopScan KernelLowerer::scanLoop(ArrayRef<const clang::Stmt *> parts) {
  LoopEffects effects = scanLoopEffects(parts, ast);
  llvm::SmallPtrSet<const void *, 16> assigned; // the variables, through reference parameters
  for (auto &[var, direction] : effects.assigned)
    assigned.insert(resolve(var));
  for (const clang::ValueDecl *var : effects.changedInPlace)
    if (aggregateKeys.count(resolve(var)))
      assigned.insert(resolve(var)); // `p.f = v`, or a method that changes p
  // A loop in a method that may change `this` carries every field of the object.
  const void *self = effects.changesThis && !thisKeys.empty() ? thisKeys.back() : nullptr;
  LoopScan scan;
  for (auto &[key, value] : values)
    if (!slots.count(key) && (assigned.count(rootOf(key)) || (self && isWithin(key, self))))
      scan.assigned.push_back(key);
  scan.breaks = effects.breaks;
  scan.continues = effects.continues;
  scan.returns = effects.returns;
  return scan;
}

/// The variables a loop carries: those the scan found assigned, holding tiles or scalars.
static LogicalResult carriedVariables(KernelLowerer &lw, const LoopScan &scan,
                                      const clang::Stmt *loop, SmallVectorImpl<const void *> &keys,
                                      SmallVectorImpl<Type> &types) {
  for (const void *key : scan.assigned) {
    const Lowered &value = lw.values[key];
    const auto *v = std::get_if<Value>(&value);
    if (!v)
      return lw.unsupported(loop, "a partition or view variable assigned in a loop");
    if (!*v || isa<tile::ViewType>(v->getType()))
      continue; // lambdas and views are never reassigned
    if (!carriable(v->getType()))
      return lw.unsupported(loop, "a variable of this type assigned in a loop");
    keys.push_back(key);
    types.push_back(v->getType());
  }
  return success();
}

/// After a loop region: every variable the loop does not carry still has its value from
/// before the loop. (The scan is conservative; this catches what it cannot see, such as a
/// partition reassigned through a reference.)
static LogicalResult checkUnchanged(KernelLowerer &lw, const Env &outer,
                                    ArrayRef<const void *> carried, const clang::Stmt *loop) {
  for (auto &[key, value] : outer) {
    if (lw.slots.count(key) || llvm::is_contained(carried, key))
      continue;
    auto it = lw.values.find(key);
    if (it == lw.values.end() || sameLowered(it->second, value))
      continue;
    if (const auto *v = std::get_if<Value>(&value); v && *v && carriable(v->getType()))
      return lw.unsupported(loop, "a loop that assigns a variable in a way tilecc cannot follow");
    return lw.unsupported(loop, "a partition or view variable assigned in a loop");
  }
  return success();
}

static std::optional<int64_t> constantStep(clang::ASTContext &ast, const clang::Expr *expr) {
  clang::Expr::EvalResult result;
  if (expr->isValueDependent() || expr->HasSideEffects(ast) || !expr->EvaluateAsInt(result, ast))
    return std::nullopt;
  const llvm::APSInt &v = result.Val.getInt();
  if (v.getSignificantBits() > 62)
    return std::nullopt;
  return v.getExtValue();
}

static clang::BinaryOperatorKind reversed(clang::BinaryOperatorKind op) {
  switch (op) {
  case clang::BO_LT: return clang::BO_GT;
  case clang::BO_GT: return clang::BO_LT;
  case clang::BO_LE: return clang::BO_GE;
  case clang::BO_GE: return clang::BO_LE;
  default: return op;
  }
}

/// Matches a `for` that scf.for runs exactly: one integer induction variable declared in the
/// init, compared with a bound the loop does not change, stepped by a constant, assigned
/// nowhere else, no `break` or `return`; and C++ arithmetic on it cannot wrap where scf.for's
/// would not (signed of at least 32 bits, where overflow is undefined; or unsigned narrower
/// than 64 bits counting up by one to a bound of its own type).
static std::optional<CountedLoop> matchCounted(KernelLowerer &lw, const clang::ForStmt *stmt) {
  clang::ASTContext &ast = lw.ast;
  const auto *init = dyn_cast_or_null<clang::DeclStmt>(stmt->getInit());
  if (!init || !init->isSingleDecl() || stmt->getConditionVariable() || !stmt->getCond() ||
      !stmt->getInc())
    return std::nullopt;
  CountedLoop loop;
  loop.iv = dyn_cast<clang::VarDecl>(init->getSingleDecl());
  if (!loop.iv || !loop.iv->hasInit() || loop.iv->getType()->isReferenceType())
    return std::nullopt;
  clang::QualType ivType = loop.iv->getType().getCanonicalType().getUnqualifiedType();
  if (!ivType->isIntegerType() || ivType->isBooleanType() || ivType->isEnumeralType() ||
      ast.getTypeSize(ivType) > 64)
    return std::nullopt;
  auto isIV = [&](const clang::Expr *e) {
    const auto *ref = dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
    return ref && ref->getDecl() == loop.iv;
  };

  const auto *cmp = dyn_cast<clang::BinaryOperator>(stmt->getCond()->IgnoreParens());
  if (!cmp || !llvm::is_contained({clang::BO_LT, clang::BO_LE, clang::BO_GT, clang::BO_GE,
                                   clang::BO_NE},
                                  cmp->getOpcode()))
    return std::nullopt;
  if (isIV(cmp->getLHS()) && !isIV(cmp->getRHS())) {
    loop.bound = cmp->getRHS();
    loop.op = cmp->getOpcode();
  } else if (isIV(cmp->getRHS()) && !isIV(cmp->getLHS())) {
    loop.bound = cmp->getLHS();
    loop.op = reversed(cmp->getOpcode());
  } else {
    return std::nullopt;
  }
  clang::QualType cmpType = cmp->getLHS()->getType().getCanonicalType().getUnqualifiedType();
  if (!cmpType->isIntegerType() || cmpType->isBooleanType())
    return std::nullopt;

  // The step.
  const clang::Expr *inc = stmt->getInc()->IgnoreParens();
  std::optional<int64_t> step;
  if (const auto *unary = dyn_cast<clang::UnaryOperator>(inc);
      unary && unary->isIncrementDecrementOp() && isIV(unary->getSubExpr())) {
    step = unary->isIncrementOp() ? 1 : -1;
  } else if (const auto *compound = dyn_cast<clang::CompoundAssignOperator>(inc);
             compound && isIV(compound->getLHS()) &&
             (compound->getOpcode() == clang::BO_AddAssign ||
              compound->getOpcode() == clang::BO_SubAssign)) {
    step = constantStep(ast, compound->getRHS());
    if (step && compound->getOpcode() == clang::BO_SubAssign)
      step = -*step;
  } else if (const auto *assign = dyn_cast<clang::BinaryOperator>(inc);
             assign && assign->getOpcode() == clang::BO_Assign && isIV(assign->getLHS())) {
    const auto *rhs = dyn_cast<clang::BinaryOperator>(assign->getRHS()->IgnoreParenImpCasts());
    if (rhs && rhs->getOpcode() == clang::BO_Add && isIV(rhs->getLHS()))
      step = constantStep(ast, rhs->getRHS());
    else if (rhs && rhs->getOpcode() == clang::BO_Add && isIV(rhs->getRHS()))
      step = constantStep(ast, rhs->getLHS());
    else if (rhs && rhs->getOpcode() == clang::BO_Sub && isIV(rhs->getLHS()))
      if ((step = constantStep(ast, rhs->getRHS())))
        step = -*step;
  }
  if (!step || *step == 0)
    return std::nullopt;
  loop.step = *step;
  switch (loop.op) {
  case clang::BO_LT:
  case clang::BO_LE:
    if (loop.step < 0)
      return std::nullopt;
    break;
  case clang::BO_GT:
  case clang::BO_GE:
    if (loop.step > 0)
      return std::nullopt;
    break;
  default: // !=
    if (loop.step != 1 && loop.step != -1)
      return std::nullopt;
    break;
  }

  // Wrap-around.
  uint64_t ivBits = ast.getTypeSize(ivType), cmpBits = ast.getTypeSize(cmpType);
  if (cmpType->isSignedIntegerType()) {
    if (!ivType->isSignedIntegerType() || ivBits < 32)
      return std::nullopt;
  } else if (!ivType->isUnsignedIntegerType() || ivBits != cmpBits || cmpBits >= 64 ||
             loop.step != 1 || loop.op != clang::BO_LT) {
    return std::nullopt;
  }

  // The body and condition neither change the variable nor the bound, nor leave the loop.
  LoopEffects body = scanLoopEffects({stmt->getCond(), stmt->getBody()}, ast);
  llvm::SmallPtrSet<const void *, 8> changed; // the variables, through reference parameters
  for (auto &[var, direction] : body.assigned)
    changed.insert(lw.resolve(var));
  for (const clang::ValueDecl *var : body.changedInPlace) // a scalar through its address
    if (var->getType().getNonReferenceType()->isArithmeticType())
      changed.insert(lw.resolve(var));
  if (body.breaks || body.returns || changed.count(loop.iv))
    return std::nullopt;
  LoopEffects bound = scanLoopEffects({loop.bound}, ast);
  if (!bound.assigned.empty() || bound.calls)
    return std::nullopt;
  llvm::SmallPtrSet<const void *, 8> refs;
  collectRefs(loop.bound, lw, refs);
  for (const void *ref : refs)
    if (ref == loop.iv || changed.count(ref))
      return std::nullopt;
  return loop;
}

LogicalResult KernelLowerer::lowerFor(const clang::ForStmt *stmt) {
  Env scope = values;
  Location l = loc(stmt);
  std::optional<CountedLoop> counted = matchCounted(*this, stmt);
  if (!counted) {
    if (failed(lowerStmt(stmt->getInit())))
      return failure();
    if (failed(buildLoop(stmt, /*doWhile=*/false, stmt->getCond(),
                         stmt->getConditionVariableDeclStmt(), stmt->getBody(), stmt->getInc())))
      return failure();
    popScope(scope);
    return success();
  }

  // scf.for over [lb, ub) in index arithmetic; a descending loop counts j up from 0 and its
  // variable is init - j.
  clang::QualType ivType = counted->iv->getType().getCanonicalType().getUnqualifiedType();
  clang::QualType cmpType = counted->bound->getType().getCanonicalType().getUnqualifiedType();
  FailureOr<Value> init = lowerValue(counted->iv->getInit());
  if (failed(init))
    return failure();
  Value first = asIndex(builder, *init, isUnsigned(ivType), l);
  FailureOr<Value> boundValue = lowerValue(counted->bound);
  if (failed(boundValue))
    return failure();
  Value bound = asIndex(builder, *boundValue, isUnsigned(cmpType), loc(counted->bound));
  bool descending = counted->step < 0;
  bool inclusive = counted->op == clang::BO_LE || counted->op == clang::BO_GE;
  Value lb, ub;
  if (!descending) {
    lb = first;
    ub = inclusive ? builder.create<arith::AddIOp>(l, bound, indexConstant(1, l)).getResult()
                   : bound;
  } else {
    lb = indexConstant(0, l);
    ub = builder.create<arith::SubIOp>(l, first, bound);
    if (inclusive)
      ub = builder.create<arith::AddIOp>(l, ub, indexConstant(1, l));
  }
  Value step = indexConstant(descending ? -counted->step : counted->step, l);

  LoopScan scan = scanLoop({stmt->getCond(), stmt->getInc(), stmt->getBody()});
  SmallVector<const void *> keys;
  SmallVector<Type> types;
  if (failed(carriedVariables(*this, scan, stmt, keys, types)))
    return failure();
  SmallVector<Value> inits;
  for (const void *key : keys)
    inits.push_back(std::get<Value>(values[key]));

  LoopFrame frame;
  slots[&frame.broken] = SlotKind::Flag;
  slots[&frame.continued] = SlotKind::Flag;
  loops.push_back(&frame);
  auto forOp = builder.create<scf::ForOp>(l, lb, ub, step, inits);
  Env outer = values;
  LogicalResult result = success();
  {
    OpBuilder::InsertionGuard insertion(builder);
    Block *body = forOp.getBody();
    if (inits.empty())
      builder.setInsertionPoint(body->getTerminator());
    else
      builder.setInsertionPointToEnd(body);
    for (auto [key, arg] : llvm::zip(keys, forOp.getRegionIterArgs()))
      values[key] = Lowered(Value(arg));
    Value iv = forOp.getInductionVar();
    if (descending)
      iv = builder.create<arith::SubIOp>(l, first, iv);
    values[counted->iv] = Lowered(fromIndex(iv, ivType, l));
    result = lowerStmt(stmt->getBody());
    if (succeeded(result))
      result = checkUnchanged(*this, outer, keys, stmt);
    if (succeeded(result)) {
      values.erase(&frame.continued);
      if (!inits.empty()) {
        SmallVector<Value> yields;
        for (const void *key : keys)
          yields.push_back(std::get<Value>(values[key]));
        builder.create<scf::YieldOp>(l, yields);
      }
    }
  }
  loops.pop_back();
  slots.erase(&frame.broken);
  slots.erase(&frame.continued);
  values = std::move(outer);
  if (failed(result))
    return failure();
  for (auto [key, res] : llvm::zip(keys, forOp.getResults()))
    values[key] = Lowered(Value(res));
  popScope(scope);
  return success();
}

LogicalResult KernelLowerer::buildLoop(const clang::Stmt *stmt, bool doWhile,
                                       const clang::Expr *cond, const clang::DeclStmt *condVar,
                                       const clang::Stmt *body, const clang::Expr *inc) {
  Location l = loc(stmt);
  LoopScan scan = scanLoop({condVar, cond, inc, body});
  FunctionFrame &fn = function();
  LoopFrame frame;

  SmallVector<const void *> keys;
  SmallVector<Type> types;
  if (failed(carriedVariables(*this, scan, stmt, keys, types)))
    return failure();
  if (scan.breaks) {
    keys.push_back(&frame.broken);
    types.push_back(builder.getI1Type());
  }
  if (scan.returns) {
    keys.push_back(&fn.returned);
    types.push_back(builder.getI1Type());
    if (aggregateRecord(fn.returnType)) {
      // The returned object's fields: zero until a `return` sets them.
      if (!isBound(&fn.result)) {
        LoweredOr zero = zeroValue(fn.returnType, stmt);
        if (failed(zero))
          return failure();
        bind(&fn.result, *zero);
      }
      for (auto &[key, value] : values)
        if (key != &fn.result && isWithin(key, &fn.result)) {
          const auto *v = std::get_if<Value>(&value);
          if (!v || !*v || !carriable(v->getType()))
            return unsupported(stmt, "a 'return' of this class inside a loop");
          keys.push_back(key);
          types.push_back(v->getType());
        }
    } else if (!fn.returnType->isVoidType()) {
      if (!carriable(fn.resultType))
        return unsupported(stmt, "a 'return' of a partition or view inside a loop");
      keys.push_back(&fn.result);
      types.push_back(fn.resultType);
    }
  }

  slots[&frame.broken] = SlotKind::Flag;
  slots[&frame.continued] = SlotKind::Flag;
  SmallVector<Value> inits;
  for (auto [key, type] : llvm::zip(keys, types))
    inits.push_back(materialize(key, type, l));
  auto loop = builder.create<scf::WhileOp>(l, TypeRange(types), inits);
  Env outer = values;
  loops.push_back(&frame);

  auto bind = [&](ValueRange args) {
    for (auto [key, arg] : llvm::zip(keys, args))
      values[key] = Lowered(Value(arg));
  };
  // Where the loop's body starts, no break or return has run.
  auto startBody = [&] {
    values.erase(&frame.broken);
    values.erase(&fn.returned);
  };
  auto carried = [&] {
    SmallVector<Value> result;
    for (auto [key, type] : llvm::zip(keys, types))
      result.push_back(materialize(key, type, l));
    return result;
  };
  auto lowerBody = [&]() -> LogicalResult {
    if (failed(lowerStmt(body)))
      return failure();
    values.erase(&frame.continued);
    return success();
  };
  // The condition, evaluated only while no break or return ran.
  auto condition = [&]() -> FailureOr<Value> {
    auto evaluate = [&]() -> FailureOr<Value> {
      if (condVar && failed(lowerStmt(condVar)))
        return failure();
      if (!cond)
        return builder.create<arith::ConstantOp>(l, builder.getBoolAttr(true)).getResult();
      FailureOr<Value> v = lowerValue(cond);
      if (failed(v))
        return failure();
      return convert(*v, cond->getType(), ast.BoolTy, loc(cond));
    };
    PendingExit exit = pendingExit(l, /*includeContinue=*/false);
    if (!exit.any)
      return evaluate();
    if (exit.definite)
      return builder.create<arith::ConstantOp>(l, builder.getBoolAttr(false)).getResult();
    char holder = 0;
    slots[&holder] = SlotKind::Flag;
    LogicalResult guarded = guard(
        negate(exit.value, l), exit.keys,
        [&]() -> LogicalResult {
          FailureOr<Value> v = evaluate();
          if (failed(v))
            return failure();
          values[&holder] = Lowered(*v);
          return success();
        },
        l, cond ? static_cast<const clang::Stmt *>(cond) : stmt);
    Value result;
    if (succeeded(guarded))
      result = materialize(&holder, builder.getI1Type(), l);
    values.erase(&holder);
    slots.erase(&holder);
    if (failed(guarded))
      return failure();
    return result;
  };

  LogicalResult result = [&]() -> LogicalResult {
    OpBuilder::InsertionGuard insertion(builder);
    SmallVector<Location> locs(types.size(), l);
    Block *before = builder.createBlock(&loop.getBefore(), {}, types, locs);
    bind(before->getArguments());
    if (doWhile) {
      startBody();
      if (failed(lowerBody()))
        return failure();
    }
    FailureOr<Value> c = condition();
    if (failed(c) || failed(checkUnchanged(*this, outer, keys, stmt)))
      return failure();
    builder.create<scf::ConditionOp>(l, *c, carried());

    values = outer;
    Block *after = builder.createBlock(&loop.getAfter(), {}, types, locs);
    bind(after->getArguments());
    if (!doWhile) {
      startBody();
      if (failed(lowerBody()))
        return failure();
      if (inc) {
        PendingExit exit = pendingExit(l, /*includeContinue=*/false);
        if (!exit.any) {
          if (failed(lowerExpr(inc)))
            return failure();
        } else if (!exit.definite) {
          if (failed(guard(negate(exit.value, l), exit.keys,
                           [&] { return success(succeeded(lowerExpr(inc))); }, l, inc)))
            return failure();
        }
      }
    }
    if (failed(checkUnchanged(*this, outer, keys, stmt)))
      return failure();
    builder.create<scf::YieldOp>(l, carried());
    return success();
  }();

  loops.pop_back();
  values = std::move(outer);
  if (succeeded(result))
    bind(loop.getResults());
  values.erase(&frame.broken);
  values.erase(&frame.continued);
  slots.erase(&frame.broken);
  slots.erase(&frame.continued);
  return result;
}

LogicalResult KernelLowerer::lowerWhile(const clang::WhileStmt *stmt) {
  Env scope = values;
  if (failed(buildLoop(stmt, /*doWhile=*/false, stmt->getCond(),
                       stmt->getConditionVariableDeclStmt(), stmt->getBody(), nullptr)))
    return failure();
  popScope(scope);
  return success();
}

LogicalResult KernelLowerer::lowerDo(const clang::DoStmt *stmt) {
  Env scope = values;
  if (failed(buildLoop(stmt, /*doWhile=*/true, stmt->getCond(), nullptr, stmt->getBody(),
                       nullptr)))
    return failure();
  popScope(scope);
  return success();
}

//===----------------------------------------------------------------------===//
// Short-circuit expressions
//===----------------------------------------------------------------------===//

bool KernelLowerer::speculatable(const clang::Expr *expr) {
  bool ok = true;
  std::function<void(const clang::Stmt *)> visit = [&](const clang::Stmt *stmt) {
    if (!stmt || !ok || isa<clang::LambdaExpr>(stmt))
      return;
    if (const auto *binary = dyn_cast<clang::BinaryOperator>(stmt)) {
      if (binary->isAssignmentOp())
        ok = false;
      if ((binary->getOpcode() == clang::BO_Div || binary->getOpcode() == clang::BO_Rem) &&
          !isFloat(binary->getType()))
        ok = false;
    }
    if (const auto *unary = dyn_cast<clang::UnaryOperator>(stmt);
        unary && unary->isIncrementDecrementOp())
      ok = false;
    if (const auto *call = dyn_cast<clang::CallExpr>(stmt)) {
      const auto *fn = dyn_cast_or_null<clang::FunctionDecl>(call->getCalleeDecl());
      if (!fn || !isInTileNamespace(fn)) {
        ok = false;
      } else if (const auto *op = dyn_cast<clang::CXXOperatorCallExpr>(call)) {
        clang::OverloadedOperatorKind kind = op->getOperator();
        if (op->isAssignmentOp() ||
            ((kind == clang::OO_Slash || kind == clang::OO_Percent) &&
             !isFloat(elementOf(op->getType()))))
          ok = false;
      } else if (hasRole(tileFunction(fn), Writes)) {
        ok = false;
      }
    }
    for (const clang::Stmt *child : stmt->children())
      visit(child);
  };
  visit(expr);
  return ok;
}

LoweredOr KernelLowerer::lowerShortCircuit(const clang::Expr *expr) {
  Location l = loc(expr);
  char holder = 0;
  LogicalResult built = failure();
  Type type;
  if (const auto *binary = dyn_cast<clang::BinaryOperator>(expr)) {
    FailureOr<Value> lhs = lowerValue(binary->getLHS());
    if (failed(lhs))
      return failure();
    Value left = convert(*lhs, binary->getLHS()->getType(), ast.BoolTy, l);
    slots[&holder] = SlotKind::Flag;
    type = builder.getI1Type();
    auto rhs = [&]() -> LogicalResult {
      FailureOr<Value> right = lowerValue(binary->getRHS());
      if (failed(right))
        return failure();
      values[&holder] =
          Lowered(convert(*right, binary->getRHS()->getType(), ast.BoolTy, loc(binary->getRHS())));
      return success();
    };
    auto yes = [&]() -> LogicalResult {
      values[&holder] = Lowered(Value());
      return success();
    };
    built = binary->getOpcode() == clang::BO_LAnd ? buildIf(left, rhs, nullptr, l, expr)
                                                  : buildIf(left, yes, rhs, l, expr);
  } else {
    const auto *cond = cast<clang::ConditionalOperator>(expr);
    FailureOr<Value> c = lowerValue(cond->getCond());
    if (failed(c))
      return failure();
    Value flag = convert(*c, cond->getCond()->getType(), ast.BoolTy, l);
    slots[&holder] = SlotKind::Value;
    auto arm = [&](const clang::Expr *e) -> LogicalResult {
      FailureOr<Value> v = lowerValue(e);
      if (failed(v))
        return failure();
      values[&holder] = Lowered(convert(*v, e->getType(), expr->getType(), loc(e)));
      return success();
    };
    built = buildIf(
        flag, [&] { return arm(cond->getTrueExpr()); },
        [&] { return arm(cond->getFalseExpr()); }, l, expr);
  }
  Value result;
  if (succeeded(built))
    result = materialize(&holder, type, l);
  values.erase(&holder);
  slots.erase(&holder);
  if (failed(built))
    return failure();
  return Lowered(result);
}
