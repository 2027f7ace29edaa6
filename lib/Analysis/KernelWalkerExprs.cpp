//===- KernelWalkerExprs.cpp - expressions, casts and conditions of the walk --===//
#include "KernelWalker.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"

using namespace clang;
using namespace tilecc;
using namespace tilecc::access;
using namespace tilecc::access::detail;
using index::Affine;
using index::Constraint;
using index::Constraints;
using index::IndexValue;
using index::Interval;

static llvm::SmallVector<unsigned, 2> slotTargets(const Value &v) {
  llvm::SmallVector<unsigned, 2> out;
  for (const Target &t : v.refs)
    if (t.kind == Target::Slot)
      out.push_back(t.id);
  return out;
}

Value KernelWalker::eval(const Expr *e) {
  if (!e || outOfBudget() || !enterNesting(e->getExprLoc()))
    return {};
  auto leave = llvm::make_scope_exit([&] { --nesting; });
  QualType type = e->getType();
  // Integer constants fold: template arguments, constexpr variables, sizeof, enumerators.
  if (!e->isValueDependent() && !e->isTypeDependent() && type->isIntegralOrEnumerationType() &&
      !isa<IntegerLiteral>(e)) {
    Expr::EvalResult r;
    if (e->EvaluateAsInt(r, ctx) && !r.HasSideEffects)
      return Value::ofScalar(IndexValue::constant(r.Val.getInt().getExtValue()));
  }
  if (const auto *lit = dyn_cast<IntegerLiteral>(e)) {
    llvm::APInt v = lit->getValue();
    index::Int n = type->isUnsignedIntegerType() ? index::Int(v.getZExtValue()) : index::Int(v.getSExtValue());
    return Value::ofScalar(IndexValue::constant(n));
  }
  if (const auto *cast = dyn_cast<CastExpr>(e))
    return evalCast(cast);

  switch (e->getStmtClass()) {
  case Stmt::ParenExprClass:
    return eval(cast<ParenExpr>(e)->getSubExpr());
  case Stmt::ConstantExprClass:
    return eval(cast<ConstantExpr>(e)->getSubExpr());
  case Stmt::ExprWithCleanupsClass: {
    temporaries.emplace_back();
    Value v = eval(cast<ExprWithCleanups>(e)->getSubExpr());
    auto done = std::move(temporaries.back());
    temporaries.pop_back();
    for (auto it = done.rbegin(); it != done.rend(); ++it)
      destroy(it->first, newSlot(it->first, "temporary", it->second), e->getEndLoc());
    return v;
  }
  case Stmt::MaterializeTemporaryExprClass:
    return eval(cast<MaterializeTemporaryExpr>(e)->getSubExpr());
  case Stmt::CXXBindTemporaryExprClass: {
    Value v = eval(cast<CXXBindTemporaryExpr>(e)->getSubExpr());
    if (!temporaries.empty())
      temporaries.back().push_back({type, v});
    return v;
  }
  case Stmt::CXXDefaultArgExprClass:
    return eval(cast<CXXDefaultArgExpr>(e)->getExpr());
  case Stmt::CXXDefaultInitExprClass:
    return eval(cast<CXXDefaultInitExpr>(e)->getExpr());
  case Stmt::CXXStdInitializerListExprClass:
    return eval(cast<CXXStdInitializerListExpr>(e)->getSubExpr());
  case Stmt::SubstNonTypeTemplateParmExprClass:
    return eval(cast<SubstNonTypeTemplateParmExpr>(e)->getReplacement());
  case Stmt::OpaqueValueExprClass:
    if (const Expr *src = cast<OpaqueValueExpr>(e)->getSourceExpr())
      return eval(src);
    return unknownOf(type, "value");
  case Stmt::DeclRefExprClass: {
    const ValueDecl *d = cast<DeclRefExpr>(e)->getDecl();
    if (const auto *fn = dyn_cast<FunctionDecl>(d)) {
      checkUnchecked(fn, e->getExprLoc());
      return {};
    }
    if (isa<VarDecl>(d) || isa<BindingDecl>(d))
      return read(slotFor(d));
    return unknownOf(type, d->getName());
  }
  case Stmt::UnaryOperatorClass:
    return evalUnary(cast<UnaryOperator>(e));
  case Stmt::BinaryOperatorClass:
  case Stmt::CompoundAssignOperatorClass:
    return evalBinary(cast<BinaryOperator>(e));
  case Stmt::ConditionalOperatorClass:
  case Stmt::BinaryConditionalOperatorClass:
    return evalConditional(cast<AbstractConditionalOperator>(e));
  case Stmt::CallExprClass:
  case Stmt::CXXMemberCallExprClass:
  case Stmt::CXXOperatorCallExprClass:
  case Stmt::UserDefinedLiteralClass:
    return evalCall(cast<CallExpr>(e));
  case Stmt::CXXConstructExprClass:
  case Stmt::CXXTemporaryObjectExprClass:
    return evalConstruct(cast<CXXConstructExpr>(e));
  case Stmt::LambdaExprClass:
    return evalLambda(cast<LambdaExpr>(e));
  case Stmt::InitListExprClass:
    return evalInitList(cast<InitListExpr>(e));
  case Stmt::CXXThisExprClass: {
    if (!frames.empty() && frames.back().thisValue)
      return *frames.back().thisValue;
    Value v;
    v.unknownRefs = true;
    return v;
  }
  case Stmt::MemberExprClass:
    return evalMember(cast<MemberExpr>(e));
  case Stmt::ArraySubscriptExprClass: {
    const auto *a = cast<ArraySubscriptExpr>(e);
    Value base = eval(a->getBase());
    (void)eval(a->getIdx());
    llvm::SmallVector<unsigned, 2> targets = slotTargets(base);
    Value v = targets.empty() ? Value() : readAll(targets);
    if (isViewType(type)) {
      Value r;
      r.mergeRefs(v);
      for (unsigned o : v.owned)
        r.addRef(Target{Target::ViewObject, o, {}});
      r.owned.clear();
      r.unknownRefs |= targets.empty() || base.unknownRefs;
      return r;
    }
    if (typeRange(type)) {
      Value r = v.scalar ? v : unknownOf(type, "element");
      return wrapTo(r, type);
    }
    if (targets.empty())
      v.unknownRefs = true;
    return v;
  }
  case Stmt::StmtExprClass:
    walk(cast<StmtExpr>(e)->getSubStmt());
    return unknownOf(type, "statement expression");
  default:
    break;
  }
  for (const Stmt *child : e->children())
    if (const auto *ce = dyn_cast_or_null<Expr>(child))
      (void)eval(ce);
  return unknownOf(type, "value");
}

/// Marks the views of `v` as forged at `cast` when the cast makes a writable view type out of
/// something that was not one (const, a read-only view type, void, an integer).
static void markForged(KernelWalker &w, Value &v, const CastExpr *cast) {
  auto pointee = [](QualType t) {
    if (t->isPointerType())
      return t->getPointeeType();
    return t.getNonReferenceType();
  };
  QualType to = pointee(cast->getType());
  if (!w.isWritableViewType(to))
    return;
  QualType from = pointee(cast->getSubExpr()->getType());
  if (w.isWritableViewType(from) &&
      from.getCanonicalType().getUnqualifiedType() == to.getCanonicalType().getUnqualifiedType())
    return;
  for (Target &t : v.refs)
    if (t.kind == Target::ViewObject && t.forged.isInvalid())
      t.forged = cast->getBeginLoc();
}

Value KernelWalker::evalCast(const CastExpr *c) {
  const Expr *sub = c->getSubExpr();
  QualType to = c->getType();
  switch (c->getCastKind()) {
  case CK_ArrayToPointerDecay: {
    llvm::SmallVector<unsigned, 2> targets = evalSlots(sub);
    if (targets.empty())
      return {};
    Value v;
    for (unsigned s : targets)
      v.addRef(Target{Target::Slot, s, {}});
    return v;
  }
  case CK_ToVoid:
    (void)eval(sub);
    return {};
  default:
    break;
  }
  Value v = eval(sub);
  checkAtomicCast(c, v);
  switch (c->getCastKind()) {
  case CK_LValueToRValue:
  case CK_NoOp:
    break;
  case CK_IntegralCast:
  case CK_IntegralToBoolean:
  case CK_BooleanToSignedIntegral:
    if (c->getCastKind() == CK_BooleanToSignedIntegral && v.scalar)
      v.scalar = alg.neg(*v.scalar);
    v = wrapTo(v, to);
    break;
  case CK_PointerToIntegral: {
    Value r = unknownOf(to, "address");
    r.mergeRefs(v);
    v = r;
    break;
  }
  case CK_IntegralToPointer:
    v = v.refsOnly();
    break;
  case CK_NullToPointer:
  case CK_NullToMemberPointer:
    return {};
  case CK_FloatingToIntegral:
  case CK_FloatingToBoolean:
  case CK_PointerToBoolean:
  case CK_MemberPointerToBoolean:
  case CK_FloatingComplexToBoolean:
  case CK_IntegralComplexToBoolean:
    return unknownOf(to, "converted");
  case CK_IntegralToFloating:
  case CK_FloatingCast:
  case CK_FloatingRealToComplex:
  case CK_IntegralRealToComplex:
    return {};
  default:
    if (!typeRange(to))
      v.scalar.reset();
    break;
  }
  if (isa<ExplicitCastExpr>(c))
    markForged(*this, v, c);
  return v;
}

Value KernelWalker::evalUnary(const UnaryOperator *u) {
  const Expr *sub = u->getSubExpr();
  QualType type = u->getType();
  switch (u->getOpcode()) {
  case UO_AddrOf: {
    if (isViewType(sub->getType()))
      return eval(sub);
    llvm::SmallVector<unsigned, 2> targets = evalSlots(sub);
    if (targets.empty())
      return eval(sub).refsOnly();
    Value v;
    for (unsigned s : targets) {
      slots[s].addressTaken = true;
      v.addRef(Target{Target::Slot, s, {}});
    }
    return v;
  }
  case UO_Deref: {
    Value p = eval(sub);
    if (isViewType(type) || type->isFunctionType())
      return p.refsOnly();
    llvm::SmallVector<unsigned, 2> targets = slotTargets(p);
    if (targets.empty()) {
      Value v = unknownOf(type, "pointee");
      v.unknownRefs = true;
      return v;
    }
    return readAll(targets);
  }
  case UO_Plus:
  case UO_Extension:
  case UO_Coawait:
    return eval(sub);
  case UO_Minus: {
    Value v = eval(sub);
    if (v.scalar)
      v.scalar = alg.neg(*v.scalar);
    return wrapTo(v, type);
  }
  case UO_Not: { // ~x == -x - 1
    Value v = eval(sub);
    if (v.scalar)
      v.scalar = alg.sub(alg.neg(*v.scalar), IndexValue::constant(1));
    return wrapTo(v, type);
  }
  case UO_LNot: {
    CondConstraints c = evalCondition(u);
    (void)c;
    return unknownOf(type, "not");
  }
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    llvm::SmallVector<unsigned, 2> targets = evalSlots(sub);
    Value old = targets.empty() ? unknownOf(type, "value") : readAll(targets);
    Value now = old;
    if (old.scalar && !sub->getType()->isPointerType()) {
      now.scalar = alg.add(*old.scalar, IndexValue::constant(u->isIncrementOp() ? 1 : -1));
      now = wrapTo(now, sub->getType());
    }
    bool strong = targets.size() == 1 && isa<DeclRefExpr>(sub->IgnoreParenImpCasts());
    for (unsigned s : targets)
      write(s, now, strong);
    return u->isPrefix() ? now : old;
  }
  default:
    (void)eval(sub);
    return unknownOf(type, "value");
  }
}

Value KernelWalker::arith(BinaryOperatorKind op, const Value &a, const Value &b, QualType type) {
  Value r;
  if (typeRange(type)) {
    IndexValue x = a.scalar ? *a.scalar : alg.unknown("value", Interval::all(), loopStack);
    IndexValue y = b.scalar ? *b.scalar : alg.unknown("value", Interval::all(), loopStack);
    switch (op) {
    case BO_Add: r.scalar = alg.add(x, y); break;
    case BO_Sub: r.scalar = alg.sub(x, y); break;
    case BO_Mul: r.scalar = alg.mul(x, y); break;
    case BO_Div: r.scalar = alg.div(x, y); break;
    case BO_Rem: r.scalar = alg.rem(x, y); break;
    case BO_Shl: r.scalar = alg.shl(x, y); break;
    case BO_Shr: r.scalar = alg.shr(x, y); break;
    case BO_And: r.scalar = alg.bitAnd(x, y); break;
    default: {
      Interval rx = alg.range(x), ry = alg.range(y);
      Interval res = *typeRange(type);
      if (rx.lo >= 0 && ry.lo >= 0 && rx.finite() && ry.finite()) {
        // x | y and x ^ y stay below the next power of two above both.
        index::Int top = 1;
        while (top <= rx.hi || top <= ry.hi)
          top <<= 1;
        res = Interval::of(0, top - 1);
      }
      r.scalar = alg.opaque(BinaryOperator::getOpcodeStr(op), {&x, &y}, res);
      break;
    }
    }
    r = wrapTo(r, type);
  }
  if (!a.refs.empty() || !b.refs.empty()) { // integers made from addresses keep them
    r.mergeRefs(a);
    r.mergeRefs(b);
  }
  return r;
}

Value KernelWalker::evalBinary(const BinaryOperator *b) {
  BinaryOperatorKind op = b->getOpcode();
  QualType type = b->getType();
  if (b->isAssignmentOp()) {
    BinaryOperatorKind arithOp = b->isCompoundAssignmentOp()
                                     ? BinaryOperator::getOpForCompoundAssignment(op)
                                     : BO_Assign;
    return evalAssign(b, b->getLHS(), b->getRHS(), arithOp, b->isCompoundAssignmentOp());
  }
  if (op == BO_Comma) {
    (void)eval(b->getLHS());
    return eval(b->getRHS());
  }
  if (op == BO_LAnd || op == BO_LOr) {
    (void)evalCondition(b);
    return unknownOf(type, "condition");
  }
  if (op == BO_PtrMemD || op == BO_PtrMemI) {
    (void)eval(b->getLHS());
    (void)eval(b->getRHS());
    return unknownOf(type, "member");
  }
  Value x = eval(b->getLHS());
  Value y = eval(b->getRHS());
  if (b->isComparisonOp()) {
    if (x.scalar && y.scalar) {
      IndexValue d = alg.sub(*x.scalar, *y.scalar);
      Interval r = alg.range(d, path);
      std::optional<bool> known;
      switch (op) {
      case BO_LT: if (r.hi < 0) known = true; else if (r.lo >= 0) known = false; break;
      case BO_LE: if (r.hi <= 0) known = true; else if (r.lo > 0) known = false; break;
      case BO_GT: if (r.lo > 0) known = true; else if (r.hi <= 0) known = false; break;
      case BO_GE: if (r.lo >= 0) known = true; else if (r.hi < 0) known = false; break;
      case BO_EQ: if (r.isPoint() && r.lo == 0) known = true; else if (!r.contains(0)) known = false; break;
      case BO_NE: if (r.isPoint() && r.lo == 0) known = false; else if (!r.contains(0)) known = true; break;
      default: break;
      }
      if (known)
        return Value::ofScalar(IndexValue::constant(*known ? 1 : 0));
      Value v;
      v.scalar = alg.opaque(BinaryOperator::getOpcodeStr(op), {&*x.scalar, &*y.scalar}, Interval::of(0, 1));
      return v;
    }
    return unknownOf(type, "comparison");
  }
  if (type->isPointerType()) { // pointer arithmetic keeps the pointer's targets
    return (b->getLHS()->getType()->isPointerType() ? x : y).refsOnly();
  }
  return arith(op, x, y, type);
}

Value KernelWalker::evalAssign(const Expr *e, const Expr *lhs, const Expr *rhs, BinaryOperatorKind op,
                               bool isCompound) {
  // `s.f = v`, `p->f = v`: the field of the object(s).
  if (const auto *m = dyn_cast<MemberExpr>(lhs->IgnoreParens());
      m && isa<FieldDecl>(m->getMemberDecl())) {
    const auto *field = cast<FieldDecl>(m->getMemberDecl());
    Value r = eval(rhs);
    llvm::SmallVector<unsigned, 2> bases =
        m->isArrow() ? slotTargets(eval(m->getBase())) : evalSlots(m->getBase());
    QualType lt = lhs->getType();
    Value now;
    if (isCompound) {
      Value old = bases.empty() ? unknownOf(lt, "value") : fieldValue(readAll(bases), field, lt);
      QualType computation = lt;
      if (const auto *c = dyn_cast<CompoundAssignOperator>(e))
        computation = c->getComputationResultType();
      now = lt->isPointerType() ? old.refsOnly() : wrapTo(arith(op, old, r, computation), lt);
    } else {
      now = typeRange(lt) ? wrapTo(r, lt) : r;
    }
    checkEscapeInto(bases, now, e->getExprLoc());
    for (unsigned b : bases) {
      Value agg = read(b);
      aggregateAdd(agg, now, field->getType());
      setField(agg, field, now, /*strong=*/bases.size() == 1);
      write(b, agg);
    }
    return now;
  }
  Value r = eval(rhs);
  llvm::SmallVector<unsigned, 2> targets = evalSlots(lhs);
  QualType lt = lhs->getType();
  Value now;
  if (isCompound) {
    Value old = targets.empty() ? unknownOf(lt, "value") : readAll(targets);
    if (lt->isPointerType()) {
      now = old.refsOnly();
    } else {
      QualType computation = lt;
      if (const auto *c = dyn_cast<CompoundAssignOperator>(e))
        computation = c->getComputationResultType();
      now = wrapTo(arith(op, old, r, computation), lt);
    }
  } else {
    now = typeRange(lt) ? wrapTo(r, lt) : r;
  }
  checkEscapeInto(targets, now, e->getExprLoc());
  const Expr *plain = lhs->IgnoreParenImpCasts();
  bool strong = targets.size() == 1 &&
                (isa<DeclRefExpr>(plain) ||
                 (isa<UnaryOperator>(plain) && cast<UnaryOperator>(plain)->getOpcode() == UO_Deref)) &&
                !slots[targets[0]].type->isArrayType() && !slots[targets[0]].type->isRecordType();
  for (unsigned s : targets)
    write(s, now, strong);
  return now;
}

Value KernelWalker::evalConditional(const AbstractConditionalOperator *op) {
  const Expr *cond = op->getCond();
  if (const auto *bin = dyn_cast<BinaryConditionalOperator>(op))
    (void)eval(bin->getCommon());
  if (!cond->isValueDependent()) {
    bool value;
    if (cond->EvaluateAsBooleanCondition(value, ctx)) {
      (void)eval(cond);
      return eval(value ? op->getTrueExpr() : op->getFalseExpr());
    }
  }
  CondConstraints c = evalCondition(cond);
  index::SymbolId choice = model.symbols.create("branch", Interval::of(0, 1), loopStack);
  Constraints thenCs = c.whenTrue, elseCs = c.whenFalse;
  thenCs.push_back({Affine::symbol(choice), Interval::point(1)});
  elseCs.push_back({Affine::symbol(choice), Interval::point(0)});
  size_t depth = path.size();
  path.append(thenCs.begin(), thenCs.end());
  Value a = eval(op->getTrueExpr());
  path.resize(depth);
  path.append(elseCs.begin(), elseCs.end());
  Value b = eval(op->getFalseExpr());
  path.resize(depth);
  return joinValues(a, thenCs, b, elseCs);
}

Value KernelWalker::evalMember(const MemberExpr *m) {
  const ValueDecl *member = m->getMemberDecl();
  QualType type = m->getType();
  if (const auto *var = dyn_cast<VarDecl>(member)) { // a static data member
    (void)eval(m->getBase());
    return read(slotFor(var));
  }
  Value base = eval(m->getBase());
  Value object = base;
  if (m->isArrow()) {
    llvm::SmallVector<unsigned, 2> targets = slotTargets(base);
    if (!targets.empty())
      object = readAll(targets);
    else
      object.unknownRefs = true;
  }
  const auto *field = dyn_cast<FieldDecl>(member);
  if (!field)
    return {};
  return fieldValue(object, field, type);
}

Value KernelWalker::fieldValue(const Value &object, const FieldDecl *field, QualType type) {
  if (object.fields)
    if (const Value *v = object.fields->find(field))
      return typeRange(type) ? wrapTo(*v, type) : *v;
  // The union of what the object holds.
  QualType ft = field->getType();
  if (isViewType(ft.getNonReferenceType()) || ft->isPointerType() || ft->isReferenceType()) {
    Value r;
    r.mergeRefs(object);
    for (unsigned o : object.owned)
      r.addRef(Target{Target::ViewObject, o, {}});
    r.owned.clear();
    r.closure = nullptr;
    return r;
  }
  if (typeRange(type)) {
    Value r = object.scalar ? Value::ofScalar(object.scalar)
                            : unknownOf(type, field->getName());
    return wrapTo(r, type);
  }
  if (ft->isRecordType() || ft->isArrayType()) {
    Value r = object;
    r.fields = nullptr;
    return r;
  }
  return {};
}

void KernelWalker::setField(Value &agg, const FieldDecl *field, const Value &v, bool strong) {
  auto fv = agg.fields ? std::make_shared<FieldValues>(*agg.fields) : std::make_shared<FieldValues>();
  for (auto &[f, old] : fv->values)
    if (f == field) {
      old = strong ? v : joinValues(old, {}, v, {});
      agg.fields = std::move(fv);
      return;
    }
  if (strong) // (a field not recorded yet stays "the union" under a weak update)
    fv->values.push_back({field, v});
  agg.fields = std::move(fv);
}

void KernelWalker::aggregateAdd(Value &agg, const Value &v, QualType fieldType) {
  if (isViewType(fieldType) && !fieldType->isReferenceType()) {
    for (const Target &t : v.refs)
      if (t.kind == Target::ViewObject && !llvm::is_contained(agg.owned, t.id))
        agg.owned.push_back(t.id);
    agg.unknownRefs |= v.unknownRefs;
    return;
  }
  if (fieldType->isReferenceType() || fieldType->isPointerType()) {
    for (const Target &t : v.refs)
      agg.addRef(t);
    agg.unknownRefs |= v.unknownRefs;
    return;
  }
  if (typeRange(fieldType)) {
    IndexValue s = v.scalar ? *v.scalar : *unknownOf(fieldType, "field").scalar;
    agg.scalar = agg.scalar ? alg.join({{&*agg.scalar, {}}, {&s, {}}}) : s;
    if (!v.refs.empty())
      agg.mergeRefs(v);
    return;
  }
  agg.mergeRefs(v);
  if (v.scalar)
    agg.scalar = agg.scalar ? alg.join({{&*agg.scalar, {}}, {&*v.scalar, {}}}) : *v.scalar;
}

Value KernelWalker::evalInitList(const InitListExpr *e) {
  QualType type = e->getType();
  if (e->getNumInits() == 1 && (typeRange(type) || type->isPointerType() || e->isTransparent()))
    return typeRange(type) ? wrapTo(eval(e->getInit(0)), type) : eval(e->getInit(0));
  Value agg;
  if (const auto *record = type->getAsCXXRecordDecl()) {
    llvm::SmallVector<QualType, 8> slotsTypes;
    for (const CXXBaseSpecifier &base : record->bases())
      slotsTypes.push_back(base.getType());
    for (const FieldDecl *field : record->fields())
      slotsTypes.push_back(field->getType());
    if (const FieldDecl *unionField = e->getInitializedFieldInUnion()) {
      slotsTypes.clear();
      slotsTypes.push_back(unionField->getType());
    }
    llvm::SmallVector<const FieldDecl *, 8> fieldOf(record->getNumBases(), nullptr);
    for (const FieldDecl *field : record->fields())
      fieldOf.push_back(field);
    if (const FieldDecl *unionField = e->getInitializedFieldInUnion())
      fieldOf.assign(1, unionField);
    for (unsigned i = 0; i < e->getNumInits(); ++i) {
      Value v = eval(e->getInit(i));
      aggregateAdd(agg, v, i < slotsTypes.size() ? slotsTypes[i] : e->getInit(i)->getType());
      if (i < fieldOf.size() && fieldOf[i] && !record->isUnion())
        setField(agg, fieldOf[i], v);
    }
    return agg;
  }
  QualType element = type->isArrayType() ? ctx.getAsArrayType(type)->getElementType() : type;
  for (const Expr *init : e->inits())
    aggregateAdd(agg, eval(init), element);
  if (const Expr *filler = e->getArrayFiller())
    aggregateAdd(agg, eval(filler), element);
  return agg;
}

llvm::SmallVector<unsigned, 2> KernelWalker::evalSlots(const Expr *e) {
  if (!e || outOfBudget())
    return {};
  e = e->IgnoreParens();
  if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
    if (isa<VarDecl>(ref->getDecl()) || isa<BindingDecl>(ref->getDecl()))
      return {slotFor(ref->getDecl())};
    return {};
  }
  if (const auto *c = dyn_cast<CastExpr>(e)) {
    switch (c->getCastKind()) {
    case CK_NoOp:
    case CK_LValueBitCast:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
    case CK_BaseToDerived:
      if (c->getSubExpr()->isGLValue())
        return evalSlots(c->getSubExpr());
      break;
    default:
      break;
    }
  }
  if (const auto *u = dyn_cast<UnaryOperator>(e)) {
    if (u->getOpcode() == UO_Deref)
      return slotTargets(eval(u->getSubExpr()));
    if (u->getOpcode() == UO_PreInc || u->getOpcode() == UO_PreDec) {
      (void)evalUnary(u);
      // The operand designates plain storage (no side effects): its slots again.
      const Expr *operand = u->getSubExpr()->IgnoreParenImpCasts();
      if (const auto *ref = dyn_cast<DeclRefExpr>(operand))
        return {slotFor(ref->getDecl())};
      return {};
    }
  }
  if (const auto *m = dyn_cast<MemberExpr>(e)) {
    if (const auto *var = dyn_cast<VarDecl>(m->getMemberDecl()))
      return {slotFor(var)};
    if (m->isArrow())
      return slotTargets(eval(m->getBase()));
    return evalSlots(m->getBase());
  }
  if (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) {
    Value base = eval(a->getBase());
    (void)eval(a->getIdx());
    return slotTargets(base);
  }
  if (const auto *b = dyn_cast<BinaryOperator>(e)) {
    if (b->getOpcode() == BO_Comma) {
      (void)eval(b->getLHS());
      return evalSlots(b->getRHS());
    }
    if (b->isAssignmentOp()) {
      (void)evalBinary(b);
      const Expr *lhs = b->getLHS()->IgnoreParenImpCasts();
      if (const auto *ref = dyn_cast<DeclRefExpr>(lhs))
        return {slotFor(ref->getDecl())};
      return {};
    }
  }
  if (const auto *c = dyn_cast<AbstractConditionalOperator>(e)) {
    (void)eval(c->getCond());
    llvm::SmallVector<unsigned, 2> out = evalSlots(c->getTrueExpr());
    for (unsigned s : evalSlots(c->getFalseExpr()))
      if (!llvm::is_contained(out, s))
        out.push_back(s);
    return out;
  }
  if (const auto *t = dyn_cast<MaterializeTemporaryExpr>(e)) {
    Value v = eval(t->getSubExpr());
    return {newSlot(t->getType(), "temporary", v)};
  }
  if (isa<CXXThisExpr>(e))
    return {};
  // Anything else (a call returning a reference, ...): a temporary holding its value.
  Value v = eval(e);
  if (e->isGLValue() || e->getType()->isRecordType())
    return {newSlot(e->getType(), "temporary", v)};
  return {};
}

// ---- conditions -------------------------------------------------------------------------------

CondConstraints KernelWalker::evalCondition(const Expr *cond) {
  CondConstraints out;
  const Expr *e = cond->IgnoreParens();
  while (const auto *c = dyn_cast<ImplicitCastExpr>(e)) {
    if (c->getCastKind() != CK_IntegralToBoolean && c->getCastKind() != CK_NoOp)
      break;
    e = c->getSubExpr()->IgnoreParens();
  }
  if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_LNot) {
    CondConstraints inner = evalCondition(u->getSubExpr());
    return {inner.whenFalse, inner.whenTrue};
  }
  if (const auto *b = dyn_cast<BinaryOperator>(e)) {
    BinaryOperatorKind op = b->getOpcode();
    if (op == BO_LAnd || op == BO_LOr) {
      CondConstraints lhs = evalCondition(b->getLHS());
      size_t depth = path.size();
      const Constraints &known = op == BO_LAnd ? lhs.whenTrue : lhs.whenFalse;
      path.append(known.begin(), known.end());
      CondConstraints rhs = evalCondition(b->getRHS());
      path.resize(depth);
      Constraints &both = op == BO_LAnd ? out.whenTrue : out.whenFalse;
      const Constraints &l = op == BO_LAnd ? lhs.whenTrue : lhs.whenFalse;
      const Constraints &r = op == BO_LAnd ? rhs.whenTrue : rhs.whenFalse;
      both.append(l.begin(), l.end());
      both.append(r.begin(), r.end());
      return out;
    }
    if (b->isComparisonOp() && b->getLHS()->getType()->isIntegralOrEnumerationType() &&
        b->getRHS()->getType()->isIntegralOrEnumerationType()) {
      Value x = eval(b->getLHS()), y = eval(b->getRHS());
      if (!x.scalar || !y.scalar)
        return out;
      IndexValue d = alg.sub(*x.scalar, *y.scalar);
      const Affine *a = d.asAffine();
      if (!a)
        return out;
      auto both = [&](Interval t, std::optional<Interval> f) {
        out.whenTrue.push_back({*a, t});
        if (f)
          out.whenFalse.push_back({*a, *f});
      };
      const index::Int inf = index::kInf;
      switch (op) {
      case BO_LT: both({-inf, -1}, Interval{0, inf}); break;
      case BO_LE: both({-inf, 0}, Interval{1, inf}); break;
      case BO_GT: both({1, inf}, Interval{-inf, 0}); break;
      case BO_GE: both({0, inf}, Interval{-inf, -1}); break;
      case BO_EQ: both({0, 0}, std::nullopt); break;
      case BO_NE: out.whenFalse.push_back({*a, Interval::point(0)}); break;
      default: break;
      }
      return out;
    }
  }
  Value v = eval(e);
  if (v.scalar && e->getType()->isIntegralOrEnumerationType())
    if (const Affine *a = v.scalar->asAffine()) {
      out.whenFalse.push_back({*a, Interval::point(0)});
      if (alg.range(*v.scalar).lo >= 0)
        out.whenTrue.push_back({*a, Interval::atLeast(1)});
    }
  return out;
}
