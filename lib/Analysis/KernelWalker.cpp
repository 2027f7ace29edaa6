//===- KernelWalker.cpp - state, statements and control flow of the walk ------===//
#include "KernelWalker.h"

#include "llvm/ADT/ScopeExit.h"

#include "tilecc/Analysis/LoopEffects.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace tilecc;
using namespace tilecc::access;
using namespace tilecc::access::detail;
using index::Constraint;
using index::Constraints;
using index::IndexValue;
using index::Interval;

namespace {
constexpr unsigned kStepBudget = 400000;
/// Levels of expressions and statements one inside the other that the walk follows (each
/// level costs stack; a sum of about 250 tile terms nests 1000 levels).
constexpr unsigned kMaxNesting = 2000;
} // namespace

// ---- Value ------------------------------------------------------------------------------------

bool Value::hasViewRefs() const {
  return llvm::any_of(refs, [](const Target &t) { return t.kind == Target::ViewObject; });
}

Value Value::refsOnly() const {
  Value v;
  v.refs = refs;
  v.unknownRefs = unknownRefs;
  v.owned = owned;
  v.closure = closure;
  v.fields = fields;
  return v;
}

void Value::addRef(const Target &t) {
  for (Target &r : refs)
    if (r.sameObject(t)) {
      if (r.forged.isInvalid())
        r.forged = t.forged;
      return;
    }
  refs.push_back(t);
}

void Value::mergeRefs(const Value &o) {
  for (const Target &t : o.refs)
    addRef(t);
  unknownRefs |= o.unknownRefs;
  for (unsigned v : o.owned)
    if (!llvm::is_contained(owned, v))
      owned.push_back(v);
  if (!closure)
    closure = o.closure;
}

// ---- state ------------------------------------------------------------------------------------

KernelWalker::KernelWalker(ASTContext &context, KernelModel &model)
    : ctx(context), model(model), alg(model.symbols) {
  alg.setContext(&path);
}

ProgramPoint KernelWalker::point() {
  ProgramPoint p;
  p.seq = ++seq;
  p.loops.assign(loopStack.begin(), loopStack.end());
  p.calls.assign(callStack.begin(), callStack.end());
  return p;
}

bool KernelWalker::enterNesting(SourceLocation loc) {
  if (nesting >= kMaxNesting) {
    if (model.tooDeep.isInvalid())
      model.tooDeep = loc;
    return false;
  }
  ++nesting;
  return true;
}

bool KernelWalker::outOfBudget() {
  if (++steps > kStepBudget)
    model.budgetExceeded = true;
  return model.budgetExceeded;
}

unsigned KernelWalker::newSlot(QualType type, llvm::StringRef name, Value init, bool isStatic) {
  Slot s;
  s.value = std::move(init);
  s.scope = scope;
  s.isStatic = isStatic;
  s.name = name.str();
  s.type = type;
  slots.push_back(std::move(s));
  return static_cast<unsigned>(slots.size() - 1);
}

unsigned KernelWalker::slotFor(const ValueDecl *decl) {
  if (!frames.empty()) {
    auto it = frames.back().vars.find(decl);
    if (it != frames.back().vars.end())
      return it->second;
  }
  if (const auto *var = dyn_cast<VarDecl>(decl); var && var->hasGlobalStorage()) {
    auto it = globals.find(var);
    if (it != globals.end())
      return it->second;
    Value init = unknownOf(var->getType(), var->getName());
    if (var->getType().isConstQualified() || var->isConstexpr())
      if (const Expr *e = var->getInit(); e && !e->isValueDependent()) {
        Expr::EvalResult r;
        if (e->EvaluateAsInt(r, ctx))
          init.scalar = IndexValue::constant(r.Val.getInt().getExtValue());
      }
    unsigned s = newSlot(var->getType(), var->getName(), init, /*isStatic=*/true);
    slots[s].scope.clear();
    globals[var] = s;
    return s;
  }
  // A captured variable whose closure was not tracked: the frames that can see it.
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    auto found = it->vars.find(decl);
    if (found != it->vars.end())
      return found->second;
  }
  unsigned s = newSlot(decl->getType(), decl->getName(), unknownOf(decl->getType(), decl->getName()));
  slots[s].value.unknownRefs = decl->getType()->isPointerType() || decl->getType()->isReferenceType();
  if (!frames.empty())
    frames.back().vars[decl] = s;
  return s;
}

Value KernelWalker::readAll(llvm::ArrayRef<unsigned> ss) {
  if (ss.size() == 1)
    return read(ss[0]);
  Value v;
  bool first = true;
  for (unsigned s : ss) {
    v = first ? read(s) : joinValues(v, {}, read(s), {});
    first = false;
  }
  return v;
}

void KernelWalker::write(unsigned slot, Value v, bool strong) {
  if (!journals.empty())
    journals.back().try_emplace(slot, slots[slot].value);
  if (!strong)
    v = joinValues(slots[slot].value, {}, v, {});
  slots[slot].value = std::move(v);
}

Value KernelWalker::joinValues(const Value &a, llvm::ArrayRef<Constraint> ga, const Value &b,
                               llvm::ArrayRef<Constraint> gb) {
  Value r;
  if (a.scalar && b.scalar)
    r.scalar = alg.join({{&*a.scalar, ga}, {&*b.scalar, gb}});
  else if (a.scalar || b.scalar) {
    // One side holds no integer (uninitialized or not modelled): unknown of the other's range.
    const IndexValue &known = a.scalar ? *a.scalar : *b.scalar;
    r.scalar = alg.opaque("join", {&known}, Interval::all());
  }
  r.mergeRefs(a);
  r.mergeRefs(b);
  if (a.closure && b.closure && a.closure != b.closure)
    r.unknownRefs = true;
  // Field by field, for the fields both sides know.
  if (a.fields && b.fields) {
    auto merged = std::make_shared<FieldValues>();
    for (const auto &[field, av] : a.fields->values)
      if (const Value *bv = b.fields->find(field))
        merged->values.push_back({field, joinValues(av, ga, *bv, gb)});
    r.fields = std::move(merged);
  }
  return r;
}

std::optional<Interval> KernelWalker::typeRange(QualType type) const {
  type = type.getCanonicalType().getNonReferenceType();
  if (type->isBooleanType())
    return Interval::of(0, 1);
  if (const auto *e = type->getAs<EnumType>())
    type = e->getDecl()->getIntegerType();
  if (type.isNull() || !type->isIntegerType())
    return std::nullopt;
  return index::IndexAlgebra::typeRange(ctx.getIntWidth(type),
                                        type->isSignedIntegerOrEnumerationType());
}

Value KernelWalker::unknownOf(QualType type, llvm::StringRef name) {
  Value v;
  if (std::optional<Interval> r = typeRange(type))
    v.scalar = alg.unknown(name, *r, loopStack);
  return v;
}

Value KernelWalker::wrapTo(Value v, QualType type) {
  type = type.getCanonicalType().getNonReferenceType();
  if (!v.scalar)
    return v;
  if (type->isBooleanType()) {
    Interval r = alg.range(*v.scalar);
    if (r.lo > 0 || r.hi < 0)
      v.scalar = IndexValue::constant(1);
    else if (r.isPoint())
      v.scalar = IndexValue::constant(0);
    else
      v.scalar = alg.opaque("bool", {&*v.scalar}, Interval::of(0, 1));
    return v;
  }
  if (const auto *e = type->getAs<EnumType>())
    type = e->getDecl()->getIntegerType();
  if (type.isNull() || !type->isIntegerType()) {
    if (!type->isPointerType())
      v.scalar.reset();
    return v;
  }
  v.scalar = alg.wrapToType(*v.scalar, ctx.getIntWidth(type), type->isSignedIntegerOrEnumerationType());
  return v;
}

Value KernelWalker::havocked(const Slot &slot, llvm::StringRef why) {
  Value v = unknownOf(slot.type, slot.name.empty() ? why : llvm::StringRef(slot.name));
  v.mergeRefs(slot.value);
  // A view or a reference always denotes the same object; pointers and objects holding
  // pointers may have been re-pointed.
  bool fixed = isViewType(slot.type) || slot.type->isReferenceType() || slot.value.closure;
  if (!fixed && (!slot.value.refs.empty() || slot.type->isPointerType()))
    v.unknownRefs = true;
  return v;
}

bool KernelWalker::isViewType(QualType type) const { return tilecc::isViewType(type); }

bool KernelWalker::isWritableViewType(QualType type) const {
  std::optional<TileClass> cls = getTileClass(type);
  return cls && (cls->is(TileClassKind::Tensor) || cls->is(TileClassKind::TiledViewMut)) &&
         !type.getNonReferenceType().isConstQualified();
}

unsigned KernelWalker::createView(ViewKind kind, std::string name, const ParmVarDecl *root, bool shared,
                                  int parent, SourceLocation origin, llvm::ArrayRef<int64_t> extent,
                                  llvm::ArrayRef<int64_t> tile) {
  View v;
  v.kind = kind;
  v.name = std::move(name);
  v.root = root;
  v.shared = shared;
  v.atomic = root && isAtomicType(root->getType());
  v.parent = parent;
  v.origin = origin;
  v.extent.assign(extent.begin(), extent.end());
  v.tile.assign(tile.begin(), tile.end());
  v.created = point();
  v.scope = scope;
  model.views.push_back(std::move(v));
  return static_cast<unsigned>(model.views.size() - 1);
}

// ---- the kernel -------------------------------------------------------------------------------

void KernelWalker::run(const FunctionDecl *kernel) {
  const FunctionDecl *def = nullptr;
  if (!kernel->hasBody(def) || !def)
    return;
  scope.push_back(0);
  Frame frame;
  frame.fn = def;
  frame.isKernel = true;
  frames.push_back(std::move(frame));
  for (const ParmVarDecl *param : def->parameters()) {
    QualType type = param->getType();
    std::optional<TileClass> cls = getTileClass(type);
    Value v;
    if (cls && (cls->is(TileClassKind::Tensor) || cls->is(TileClassKind::Atomic))) {
      // An Atomic is shared: every program sees (and updates) the whole array.
      bool shared = type.getNonReferenceType().isConstQualified() || cls->is(TileClassKind::Atomic);
      unsigned id = createView(ViewKind::Tensor, param->getName().str(), param, shared, -1,
                               param->getLocation(), cls->dims, {});
      named.insert(id);
      v.addRef(Target{Target::ViewObject, id, {}});
      if (!shared && model.gridRank < 0)
        model.gridRank = static_cast<int>(cls->dims.size());
    } else {
      v = unknownOf(type, param->getName());
    }
    frames.back().vars[param] = newSlot(type, param->getName(), v);
  }
  inlining.enter(def);
  walk(def->getBody());
}

void tilecc::access::buildKernelModel(ASTContext &context, const FunctionDecl *kernel,
                                      KernelModel &model) {
  KernelWalker walker(context, model);
  walker.run(kernel);
}

// ---- statements -------------------------------------------------------------------------------

namespace {
/// Does the statement contain a goto (which may make a loop the walk does not see)?
class GotoFinder : public RecursiveASTVisitor<GotoFinder> {
public:
  bool found = false;
  bool VisitGotoStmt(GotoStmt *) { return !(found = true); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return !(found = true); }
};
class LabelFinder : public RecursiveASTVisitor<LabelFinder> {
public:
  bool found = false;
  bool VisitLabelStmt(LabelStmt *) { return !(found = true); }
};
} // namespace

void KernelWalker::walk(const Stmt *stmt) {
  if (!stmt || outOfBudget() || !enterNesting(stmt->getBeginLoc()))
    return;
  auto leave = llvm::make_scope_exit([&] { --nesting; });
  if (const auto *e = dyn_cast<Expr>(stmt)) {
    (void)eval(e);
    return;
  }
  switch (stmt->getStmtClass()) {
  case Stmt::CompoundStmtClass: {
    scope.push_back(nextScope++);
    const auto *body = cast<CompoundStmt>(stmt);
    // A function body with a goto: from its first statement holding a label on, walk it as a
    // loop (the label may be jumped back to); what comes before runs once.
    if (frames.size() && frames.back().fn && frames.back().fn->getBody() == stmt) {
      GotoFinder finder;
      finder.TraverseStmt(const_cast<Stmt *>(stmt));
      if (finder.found) {
        auto stmts = llvm::ArrayRef<Stmt *>(body->body_begin(), body->body_end());
        size_t first = 0;
        for (; first < stmts.size(); ++first) {
          LabelFinder labels;
          labels.TraverseStmt(stmts[first]);
          if (labels.found)
            break;
        }
        if (first == stmts.size())
          first = 0;
        for (size_t i = 0; i < first; ++i)
          walk(stmts[i]);
        llvm::SmallVector<const Stmt *, 8> rest(stmts.begin() + first, stmts.end());
        llvm::ArrayRef<const Stmt *> outer = loopStmts;
        loopStmts = rest;
        walkLoop(stmt, nullptr, nullptr, nullptr, /*condFirst=*/false, nullptr, std::nullopt);
        loopStmts = outer;
        destroyLocals(body);
        scope.pop_back();
        return;
      }
    }
    for (const Stmt *s : body->body())
      walk(s);
    destroyLocals(body);
    scope.pop_back();
    return;
  }
  case Stmt::DeclStmtClass:
    for (const Decl *d : cast<DeclStmt>(stmt)->decls())
      if (const auto *var = dyn_cast<VarDecl>(d))
        declare(var);
    return;
  case Stmt::ReturnStmtClass:
    walkReturn(cast<ReturnStmt>(stmt));
    return;
  case Stmt::IfStmtClass:
    walkIf(cast<IfStmt>(stmt));
    return;
  case Stmt::ForStmtClass: {
    const auto *s = cast<ForStmt>(stmt);
    scope.push_back(nextScope++);
    walk(s->getInit());
    if (s->getConditionVariableDeclStmt())
      walk(s->getConditionVariableDeclStmt());
    walkLoop(s, s->getCond(), s->getInc(), s->getBody(), /*condFirst=*/true, nullptr, std::nullopt);
    scope.pop_back();
    return;
  }
  case Stmt::WhileStmtClass: {
    const auto *s = cast<WhileStmt>(stmt);
    scope.push_back(nextScope++);
    walkLoop(s, s->getCond(), nullptr, s->getBody(), /*condFirst=*/true, nullptr, std::nullopt);
    scope.pop_back();
    return;
  }
  case Stmt::DoStmtClass: {
    const auto *s = cast<DoStmt>(stmt);
    walkLoop(s, s->getCond(), nullptr, s->getBody(), /*condFirst=*/false, nullptr, std::nullopt);
    return;
  }
  case Stmt::CXXForRangeStmtClass: {
    const auto *s = cast<CXXForRangeStmt>(stmt);
    scope.push_back(nextScope++);
    walk(s->getInit());
    walk(s->getRangeStmt());
    walk(s->getBeginStmt());
    walk(s->getEndStmt());
    // The elements, when the range is a braced list or an array the walk knows.
    std::optional<Value> element;
    const Expr *range = s->getRangeInit() ? s->getRangeInit()->IgnoreImplicit() : nullptr;
    if (const auto *list = dyn_cast_or_null<CXXStdInitializerListExpr>(range))
      range = list->getSubExpr()->IgnoreImplicit();
    if (const auto *list = dyn_cast_or_null<InitListExpr>(range)) {
      Value all;
      bool first = true;
      for (const Expr *init : list->inits()) {
        Value v = eval(init);
        all = first ? v : joinValues(all, {}, v, {});
        first = false;
      }
      if (!first)
        element = all;
    } else if (const auto *ref = dyn_cast_or_null<DeclRefExpr>(range)) {
      if (ref->getType()->isArrayType())
        element = read(slotFor(ref->getDecl()));
    }
    walkLoop(s, s->getCond(), s->getInc(), s->getBody(), /*condFirst=*/true, s->getLoopVariable(),
             element);
    scope.pop_back();
    return;
  }
  case Stmt::SwitchStmtClass: {
    const auto *s = cast<SwitchStmt>(stmt);
    scope.push_back(nextScope++);
    walk(s->getInit());
    if (s->getConditionVariableDeclStmt())
      walk(s->getConditionVariableDeclStmt());
    (void)eval(s->getCond());
    walkSwitchLike(s->getBody());
    scope.pop_back();
    return;
  }
  case Stmt::CaseStmtClass:
    walk(cast<CaseStmt>(stmt)->getSubStmt());
    return;
  case Stmt::DefaultStmtClass:
    walk(cast<DefaultStmt>(stmt)->getSubStmt());
    return;
  case Stmt::LabelStmtClass:
    walk(cast<LabelStmt>(stmt)->getSubStmt());
    return;
  case Stmt::AttributedStmtClass:
    walk(cast<AttributedStmt>(stmt)->getSubStmt());
    return;
  case Stmt::CXXTryStmtClass:
    walk(cast<CXXTryStmt>(stmt)->getTryBlock());
    return;
  case Stmt::NullStmtClass:
  case Stmt::BreakStmtClass:
  case Stmt::ContinueStmtClass:
  case Stmt::GotoStmtClass:
  case Stmt::IndirectGotoStmtClass:
    return;
  default:
    for (const Stmt *child : stmt->children())
      walk(child);
    return;
  }
}

void KernelWalker::destroyLocals(const CompoundStmt *body) {
  llvm::SmallVector<const VarDecl *, 8> locals;
  for (const Stmt *s : body->body())
    if (const auto *decls = dyn_cast<DeclStmt>(s))
      for (const Decl *d : decls->decls())
        if (const auto *var = dyn_cast<VarDecl>(d);
            var && var->hasLocalStorage() && !var->getType()->isReferenceType())
          locals.push_back(var);
  Frame &frame = frames.back();
  for (auto it = locals.rbegin(); it != locals.rend(); ++it)
    if (auto slot = frame.vars.find(*it); slot != frame.vars.end())
      destroy((*it)->getType(), slot->second, body->getRBracLoc());
}

void KernelWalker::declare(const VarDecl *var) {
  QualType type = var->getType();
  const Expr *init = var->getInit();
  Frame &frame = frames.back();
  if (var->hasGlobalStorage()) {
    unsigned s = slotFor(var);
    if (init) {
      Value v = eval(init);
      checkEscapeInto({s}, v, var->getLocation());
      write(s, v, /*strong=*/false);
    }
    return;
  }
  if (type->isReferenceType()) {
    QualType referred = type.getNonReferenceType();
    if (!init) {
      frame.vars[var] = newSlot(type, var->getName(), unknownOf(referred, var->getName()));
      return;
    }
    if (!isViewType(referred) && !referred->isRecordType()) {
      llvm::SmallVector<unsigned, 2> targets = evalSlots(init);
      if (targets.size() == 1) {
        frames.back().vars[var] = targets[0];
        return;
      }
      Value v = targets.empty() ? eval(init) : readAll(targets);
      frames.back().vars[var] = newSlot(referred, var->getName(), wrapTo(v, referred));
      return;
    }
    if (referred->isRecordType() && !isViewType(referred)) {
      // A reference to an object (a lambda, a struct): the object's slot when it has one.
      llvm::SmallVector<unsigned, 2> targets = evalSlots(init);
      if (targets.size() == 1) {
        frames.back().vars[var] = targets[0];
        return;
      }
      Value v = targets.empty() ? eval(init) : readAll(targets);
      frames.back().vars[var] = newSlot(referred, var->getName(), v);
      return;
    }
    Value v = eval(init);
    frames.back().vars[var] = newSlot(type, var->getName(), v);
    return;
  }
  Value v = init ? eval(init) : unknownOf(type, var->getName());
  if (isViewType(type)) {
    // `auto p = z.partition_mut<64>();`: the view takes the variable's name.
    for (const Target &t : v.refs)
      if (t.kind == Target::ViewObject && named.insert(t.id).second)
        model.views[t.id].name = var->getName().str();
  }
  if (v.scalar || typeRange(type))
    v = wrapTo(v, type);
  if (!v.scalar && typeRange(type))
    v.scalar = unknownOf(type, var->getName()).scalar;
  frames.back().vars[var] = newSlot(type, var->getName(), v);
}

void KernelWalker::walkIf(const IfStmt *s) {
  scope.push_back(nextScope++);
  walk(s->getInit());
  if (s->getConditionVariableDeclStmt())
    walk(s->getConditionVariableDeclStmt());
  // A constant condition (template arguments, `if constexpr`) takes one arm only.
  if (!s->getCond()->isValueDependent()) {
    bool value;
    if (s->isConstexpr() || s->getCond()->EvaluateAsBooleanCondition(value, ctx)) {
      if (s->isConstexpr()) {
        if (std::optional<const Stmt *> taken = s->getNondiscardedCase(ctx)) {
          walk(*taken);
          scope.pop_back();
          return;
        }
      } else {
        (void)eval(s->getCond());
        walk(value ? s->getThen() : s->getElse());
        scope.pop_back();
        return;
      }
    }
  }
  CondConstraints cond = evalCondition(s->getCond());
  // A fresh choice symbol per branch: what happens on one arm never meets the other arm (in the
  // same iteration of every loop around the branch).
  index::SymbolId choice = model.symbols.create("branch", Interval::of(0, 1), loopStack);
  Constraints thenCs = cond.whenTrue, elseCs = cond.whenFalse;
  thenCs.push_back({index::Affine::symbol(choice), Interval::point(1)});
  elseCs.push_back({index::Affine::symbol(choice), Interval::point(0)});

  size_t depth = path.size();
  journals.emplace_back();
  path.append(thenCs.begin(), thenCs.end());
  scope.push_back(nextScope++);
  walk(s->getThen());
  scope.pop_back();
  path.resize(depth);
  llvm::DenseMap<unsigned, Value> thenValues;
  for (auto &[slot, old] : journals.back()) {
    thenValues[slot] = slots[slot].value;
    slots[slot].value = old;
  }
  journals.back().clear();

  path.append(elseCs.begin(), elseCs.end());
  scope.push_back(nextScope++);
  walk(s->getElse());
  scope.pop_back();
  path.resize(depth);
  llvm::DenseMap<unsigned, Value> elseValues;
  for (auto &[slot, old] : journals.back()) {
    elseValues[slot] = slots[slot].value;
    slots[slot].value = old;
  }
  journals.pop_back();

  llvm::SmallVector<unsigned, 8> changed;
  for (auto &[slot, v] : thenValues)
    changed.push_back(slot);
  for (auto &[slot, v] : elseValues)
    if (!thenValues.count(slot))
      changed.push_back(slot);
  llvm::sort(changed);
  for (unsigned slot : changed) {
    const Value &before = slots[slot].value;
    auto t = thenValues.find(slot), e = elseValues.find(slot);
    const Value &tv = t != thenValues.end() ? t->second : before;
    const Value &ev = e != elseValues.end() ? e->second : before;
    write(slot, joinValues(tv, thenCs, ev, elseCs));
  }
  scope.pop_back();
}

void KernelWalker::walkLoop(const Stmt *loop, const Expr *cond, const Expr *inc, const Stmt *body,
                            bool condFirst, const VarDecl *loopVar, std::optional<Value> loopVarValue) {
  llvm::DenseMap<unsigned, int> directions;
  // Slots the loop may change: what it assigns, and anything whose address was taken.
  llvm::SmallVector<unsigned, 8> modified;
  collectModified(loop, modified, &directions);
  for (unsigned s = 0; s < slots.size(); ++s)
    if (slots[s].addressTaken && !llvm::is_contained(modified, s)) {
      modified.push_back(s);
      directions[s] = 0;
    }

  // An induction variable: `i` changed only by `++i`, `i++`, `i += c`, `i -= c`, `--i`, `i--`.
  std::optional<unsigned> induction;
  index::Int step = 0;
  if (const Expr *e = inc ? inc->IgnoreParenImpCasts() : nullptr) {
    const Expr *operand = nullptr;
    if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->isIncrementDecrementOp()) {
      operand = u->getSubExpr();
      step = u->isIncrementOp() ? 1 : -1;
    } else if (const auto *b = dyn_cast<CompoundAssignOperator>(e);
               b && (b->getOpcode() == BO_AddAssign || b->getOpcode() == BO_SubAssign)) {
      Expr::EvalResult r;
      if (!b->getRHS()->isValueDependent() && b->getRHS()->EvaluateAsInt(r, ctx)) {
        operand = b->getLHS();
        step = r.Val.getInt().getExtValue();
        if (b->getOpcode() == BO_SubAssign)
          step = -step;
      }
    }
    const auto *ref = operand ? dyn_cast<DeclRefExpr>(operand->IgnoreParenImpCasts()) : nullptr;
    if (ref && step != 0 && ref->getType()->isIntegerType()) {
      unsigned s = slotFor(ref->getDecl());
      llvm::SmallVector<unsigned, 4> elsewhere;
      collectModified(body, elsewhere);
      if (cond)
        collectModified(cond, elsewhere);
      if (!llvm::is_contained(elsewhere, s) && !slots[s].addressTaken && slots[s].value.scalar)
        induction = s;
    }
  }

  // Pointers and objects the loop may re-point: what they can hold at the start of an iteration
  // is found by walking the body without recording, until it stops growing.
  std::optional<llvm::DenseMap<unsigned, Value>> carried;
  bool holdsRefs = llvm::any_of(modified, [&](unsigned s) {
    const Slot &slot = slots[s];
    if (isViewType(slot.type) || slot.type->isReferenceType())
      return false;
    return slot.type->isPointerType() || slot.type->isRecordType() || slot.type->isArrayType() ||
           !slot.value.refs.empty();
  });
  if (holdsRefs && dryRuns < 2) {
    llvm::DenseMap<unsigned, Value> acc;
    size_t measure = 0;
    for (unsigned round = 0; round < 3; ++round) {
      Snapshot snap = snapshot();
      journals.emplace_back();
      ++dryRuns;
      llvm::DenseMap<unsigned, Value> ends = iterate(cond, inc, body, condFirst, loopVar, loopVarValue,
                                                     modified, directions, induction, step, &acc);
      --dryRuns;
      for (auto &[slot, old] : journals.back())
        if (slot < snap.slots)
          slots[slot].value = old;
      journals.pop_back();
      restore(snap);
      for (auto &[slot, v] : ends) {
        Value kept = survivors(v, snap.views, snap.slots);
        auto it = acc.find(slot);
        acc[slot] = it == acc.end() ? kept : joinValues(it->second, {}, kept, {});
      }
      size_t now = 0;
      for (auto &[slot, v] : acc)
        now += refCount(v);
      if (round > 0 && now == measure)
        break;
      measure = now;
    }
    carried = std::move(acc);
  }
  (void)iterate(cond, inc, body, condFirst, loopVar, loopVarValue, modified, directions, induction,
                step, carried ? &*carried : nullptr);
  // After the loop, what it changed is unknown.
  for (unsigned s : modified) {
    Value v = havocked(slots[s], "loop");
    if (carried)
      if (auto it = carried->find(s); it != carried->end())
        v = withCarriedRefs(v, slots[s].value, it->second);
    write(s, v);
  }
}

llvm::DenseMap<unsigned, Value>
KernelWalker::iterate(const Expr *cond, const Expr *inc, const Stmt *body, bool condFirst,
                      const VarDecl *loopVar, const std::optional<Value> &loopVarValue,
                      llvm::ArrayRef<unsigned> modified,
                      const llvm::DenseMap<unsigned, int> &directions,
                      std::optional<unsigned> induction, index::Int step,
                      const llvm::DenseMap<unsigned, Value> *carried) {
  unsigned id = static_cast<unsigned>(model.loops.size());
  model.loops.push_back({seq + 1, 0});
  loopStack.push_back(id);
  size_t depth = path.size();
  for (unsigned s : modified) {
    if (induction && s == *induction) {
      IndexValue trip = alg.unknown("trip", Interval::atLeast(0), loopStack);
      IndexValue start = *slots[s].value.scalar;
      Value v = slots[s].value;
      v.scalar = alg.add(start, alg.mul(trip, IndexValue::constant(step)));
      write(s, v);
      continue;
    }
    Value v = havocked(slots[s], "loop");
    if (carried) { // (a first dry run starts from what the slot holds before the loop)
      auto it = carried->find(s);
      v = withCarriedRefs(v, slots[s].value, it != carried->end() ? it->second : slots[s].value);
    }
    // A signed variable the loop only increments (decrements) is at least (most) what it was
    // before the loop, at the start of every iteration (overflow being undefined).
    int dir = directions.lookup(s);
    const index::Affine *before = slots[s].value.scalar ? slots[s].value.scalar->asAffine() : nullptr;
    if (dir != 0 && before && v.scalar && slots[s].type->isSignedIntegerType())
      if (const index::Affine *now = v.scalar->asAffine())
        path.push_back({*now - *before, dir > 0 ? Interval::atLeast(0) : Interval::atMost(0)});
    write(s, v);
  }
  scope.push_back(nextScope++);
  if (loopVar) {
    QualType type = loopVar->getType().getNonReferenceType();
    Value v = loopVarValue ? *loopVarValue : unknownOf(type, loopVar->getName());
    if (loopVarValue && v.scalar) // one element per iteration: a symbol of the loop
      v.scalar = alg.unknown(loopVar->getName(), alg.range(*v.scalar), loopStack);
    if (!loopVarValue)
      v.unknownRefs = isViewType(type) || type->isPointerType();
    frames.back().vars[loopVar] = newSlot(type, loopVar->getName(), v);
  }
  if (cond && condFirst) {
    CondConstraints c = evalCondition(cond);
    path.append(c.whenTrue.begin(), c.whenTrue.end());
  }
  if (body) {
    walk(body);
  } else { // statements of a goto loop
    llvm::SmallVector<const Stmt *, 8> stmts(loopStmts.begin(), loopStmts.end());
    for (const Stmt *stmt : stmts)
      walk(stmt);
  }
  if (inc)
    (void)eval(inc);
  if (cond && !condFirst)
    (void)eval(cond);
  scope.pop_back();
  path.resize(depth);
  loopStack.pop_back();
  model.loops[id].endSeq = seq;
  llvm::DenseMap<unsigned, Value> ends;
  for (unsigned s : modified)
    ends[s] = slots[s].value;
  return ends;
}

Value KernelWalker::withCarriedRefs(Value havoc, const Value &before, const Value &end) {
  // Only what the slot held before the loop or at the end of an iteration.
  havoc.refs.clear();
  havoc.unknownRefs = before.unknownRefs || end.unknownRefs;
  havoc.owned.clear();
  havoc.mergeRefs(before);
  havoc.mergeRefs(end);
  havoc.unknownRefs = before.unknownRefs || end.unknownRefs;
  havoc.closure = before.closure; // (a lambda made by the dry run is gone)
  if (before.fields && end.fields) {
    auto fields = std::make_shared<FieldValues>();
    for (const auto &[field, bv] : before.fields->values)
      if (const Value *ev = end.fields->find(field)) {
        Value fv = unknownOf(field->getType(), field->getName());
        fields->values.push_back({field, withCarriedRefs(fv, bv, *ev)});
      }
    havoc.fields = std::move(fields);
  }
  return havoc;
}

Value KernelWalker::survivors(const Value &v, size_t views, size_t slotCount) {
  Value r = v;
  r.refs.clear();
  for (const Target &t : v.refs) {
    if ((t.kind == Target::ViewObject && t.id >= views) || (t.kind == Target::Slot && t.id >= slotCount))
      r.unknownRefs = true;
    else
      r.refs.push_back(t);
  }
  r.owned.clear();
  for (unsigned o : v.owned) {
    if (o >= views)
      r.unknownRefs = true;
    else
      r.owned.push_back(o);
  }
  r.scalar.reset();
  if (v.fields) {
    auto fields = std::make_shared<FieldValues>();
    for (const auto &[field, fv] : v.fields->values)
      fields->values.push_back({field, survivors(fv, views, slotCount)});
    r.fields = std::move(fields);
  }
  r.closure = nullptr; // (closures made inside the loop may capture its slots)
  return r;
}

size_t KernelWalker::refCount(const Value &v) {
  size_t n = v.refs.size() + v.owned.size() + (v.unknownRefs ? 1 : 0);
  if (v.fields)
    for (const auto &[field, fv] : v.fields->values)
      n += refCount(fv);
  return n;
}

KernelWalker::Snapshot KernelWalker::snapshot() const {
  Snapshot s;
  s.views = model.views.size();
  s.accesses = model.accesses.size();
  s.axisUses = model.axisUses.size();
  s.escapes = model.escapes.size();
  s.unchecked = model.unchecked.size();
  s.atomicMisuses = model.atomicMisuses.size();
  s.loops = model.loops.size();
  s.slots = slots.size();
  s.seq = seq;
  s.frames = frames;
  s.globals = globals;
  s.path = path.size();
  return s;
}

void KernelWalker::restore(const Snapshot &s) {
  model.views.resize(s.views);
  model.accesses.resize(s.accesses);
  model.axisUses.resize(s.axisUses);
  model.escapes.resize(s.escapes);
  model.unchecked.resize(s.unchecked);
  model.atomicMisuses.resize(s.atomicMisuses);
  model.loops.resize(s.loops);
  slots.resize(s.slots);
  seq = s.seq;
  frames = s.frames;
  globals = s.globals;
  path.resize(s.path);
  for (auto it = named.begin(); it != named.end();) {
    auto next = std::next(it);
    if (*it >= s.views)
      named.erase(it);
    it = next;
  }
}

void KernelWalker::walkSwitchLike(const Stmt *body) {
  llvm::SmallVector<unsigned, 8> modified;
  collectModified(body, modified);
  for (unsigned s : modified)
    write(s, havocked(slots[s], "switch"));
  size_t depth = path.size();
  scope.push_back(nextScope++);
  walk(body);
  scope.pop_back();
  path.resize(depth);
  for (unsigned s : modified)
    write(s, havocked(slots[s], "switch"));
}

void KernelWalker::walkReturn(const ReturnStmt *s) {
  Value v;
  if (const Expr *e = s->getRetValue())
    v = eval(e);
  // (eval may have pushed and popped frames: look the frame up again.)
  if (!frames.back().isKernel)
    checkEscapeReturn(v, s->getReturnLoc());
  size_t entry = std::min(frames.back().pathAtEntry, path.size());
  Constraints guard(path.begin() + entry, path.end());
  Frame &f = frames.back();
  if (!f.result)
    f.result = v;
  else
    f.result = joinValues(*f.result, {}, v, guard);
}

// ---- what a loop may change -------------------------------------------------------------------

void KernelWalker::collectModified(const Stmt *stmt, llvm::SmallVectorImpl<unsigned> &out,
                                   llvm::DenseMap<unsigned, int> *directions) {
  if (!stmt)
    return;
  LoopEffects effects = scanLoopEffects({stmt}, ctx);
  llvm::SmallVector<const ValueDecl *, 8> changed(effects.changedInPlace.begin(),
                                                  effects.changedInPlace.end());
  for (auto &[d, direction] : effects.assigned)
    if (!effects.changedInPlace.contains(d))
      changed.push_back(d);
  for (const ValueDecl *d : changed) {
    // Only variables that exist now; those declared inside the statement start afresh.
    std::optional<unsigned> slot;
    if (!frames.empty()) {
      auto it = frames.back().vars.find(d);
      if (it != frames.back().vars.end())
        slot = it->second;
    }
    if (!slot) {
      auto it = globals.find(d);
      if (it != globals.end())
        slot = it->second;
    }
    if (!slot)
      for (auto it = frames.rbegin(); it != frames.rend() && !slot; ++it) {
        auto found = it->vars.find(d);
        if (found != it->vars.end())
          slot = found->second;
      }
    if (slot && !llvm::is_contained(out, *slot))
      out.push_back(*slot);
    if (slot && directions)
      (*directions)[*slot] = effects.assigned.lookup(d);
  }
}
