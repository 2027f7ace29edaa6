//===- KernelWalkerCalls.cpp - calls, closures and the tile library -----------===//
#include "KernelWalker.h"

#include "tilecc/Analysis/Diagnostics.h"

#include "clang/AST/ASTLambda.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace tilecc;
using namespace tilecc::access;
using namespace tilecc::access::detail;
using index::IndexValue;
using index::Interval;

namespace {
/// tile::block_id values fit a CUDA grid dimension.
constexpr index::Int kMaxGrid = (index::Int(1) << 31) - 1;
} // namespace

std::string tilecc::access::sourceText(ASTContext &context, const Expr *expr) {
  if (!expr)
    return "";
  const SourceManager &sm = context.getSourceManager();
  CharSourceRange range = CharSourceRange::getTokenRange(expr->getSourceRange());
  range = Lexer::makeFileCharRange(range, sm, context.getLangOpts());
  llvm::StringRef text = Lexer::getSourceText(range, sm, context.getLangOpts());
  if (text.empty() || text.size() > 80)
    return "this expression";
  std::string out;
  for (char c : text) // collapse whitespace, for one-line messages
    if (!(c == ' ' || c == '\n' || c == '\t') || (!out.empty() && out.back() != ' '))
      out += (c == '\n' || c == '\t') ? ' ' : c;
  return out;
}

void tilecc::access::noteCallChain(DiagnosticsEngine &diags, const ProgramPoint &at) {
  for (auto it = at.calls.rbegin(); it != at.calls.rend(); ++it)
    note(diags, *it, "in the device function called here");
}

std::string KernelWalker::viewName(const Expr *e) { return sourceText(ctx, e); }

static llvm::StringRef nameOf(const FunctionDecl *fn) {
  return fn->getDeclName().isIdentifier() ? fn->getName() : llvm::StringRef();
}

// ---- calls ------------------------------------------------------------------------------------

Value KernelWalker::evalCall(const CallExpr *call) {
  KernelCall resolved = resolveKernelCall(call);
  const FunctionDecl *callee = resolved.callee;
  QualType type = call->getType();
  llvm::ArrayRef<const Expr *> args = resolved.args;
  if (resolved.kind == KernelCall::Kind::Indirect) {
    (void)eval(call->getCallee());
    for (const Expr *arg : call->arguments())
      (void)eval(arg);
    Value v = unknownOf(type, "call");
    v.unknownRefs = type->isPointerType() || type->isReferenceType() || isViewType(type);
    return v;
  }
  checkUnchecked(callee, call->getExprLoc());
  switch (resolved.kind) {
  case KernelCall::Kind::Library:
    return evalTileCall(call, resolved);
  case KernelCall::Kind::BitCast: { // follow the argument, not the library's body
    const Expr *arg = args.front();
    Value v = eval(arg);
    if (isAtomicType(arg->getType()) && !isAtomicType(type))
      atomicMisuse(v, arg, call->getBeginLoc(),
                   "the bit cast to '" + type.getAsString() + "' would let it be read or written without atomics");
    QualType to = type->isPointerType() ? type->getPointeeType() : type;
    if (isWritableViewType(to))
      for (Target &t : v.refs)
        if (t.kind == Target::ViewObject && t.forged.isInvalid())
          t.forged = call->getBeginLoc();
    return v;
  }
  case KernelCall::Kind::PassThrough: {
    Value v = eval(args.front());
    for (const Expr *arg : args.drop_front())
      (void)eval(arg);
    return v;
  }
  default:
    break;
  }

  const Expr *object = resolved.object;
  if (object && !resolved.instance) { // a static method named through an object
    (void)eval(object);
    return inlineCall(callee, args, std::nullopt, nullptr, call);
  }
  if (resolved.closure) {
    Value obj = eval(object);
    if (resolved.arrow)
      if (auto targets = llvm::to_vector(llvm::make_filter_range(
              obj.refs, [](const Target &t) { return t.kind == Target::Slot; }));
          !targets.empty())
        obj = read(targets.front().id);
    return inlineCall(callee, args, std::nullopt, obj.closure, call);
  }
  if (!resolved.instance)
    return inlineCall(callee, args, std::nullopt, nullptr, call);

  // Assignment of a user type with no body to walk: an assignment of its contents.
  const auto *method = cast<CXXMethodDecl>(callee);
  if (isa<CXXOperatorCallExpr>(call) &&
      (method->isCopyAssignmentOperator() || method->isMoveAssignmentOperator()) &&
      (!resolved.definition || method->isTrivial()) && args.size() == 1) {
    Value v = eval(args.front());
    llvm::SmallVector<unsigned, 2> targets = evalSlots(object);
    checkEscapeInto(targets, v, call->getExprLoc());
    for (unsigned s : targets)
      write(s, v, /*strong=*/false);
    return v;
  }
  Value self;
  if (resolved.arrow) {
    self = eval(object);
  } else {
    llvm::SmallVector<unsigned, 2> targets = evalSlots(object);
    if (targets.empty())
      targets.push_back(newSlot(object->getType(), "object", eval(object)));
    for (unsigned s : targets)
      self.addRef(Target{Target::Slot, s, {}});
  }
  return inlineCall(callee, args, self, nullptr, call);
}

Value KernelWalker::inlineCall(const FunctionDecl *fn, llvm::ArrayRef<const Expr *> args,
                               std::optional<Value> thisValue, std::shared_ptr<const Closure> closure,
                               const Expr *call, clang::SourceLocation at) {
  const FunctionDecl *def = visibleBody(fn);
  QualType result = fn->getReturnType();
  if (!def || inlining.refusal(def) != InlineStack::Refusal::None) {
    // Code the walk cannot follow: it may change what its arguments refer to.
    for (unsigned i = 0; i < args.size(); ++i) {
      QualType param = i < fn->getNumParams() ? fn->getParamDecl(i)->getType() : QualType();
      if (!param.isNull() && param->isReferenceType() && !param.getNonReferenceType().isConstQualified()) {
        for (unsigned s : evalSlots(args[i]))
          write(s, havocked(slots[s], "call"));
        continue;
      }
      Value v = eval(args[i]);
      if (!param.isNull() && param->isPointerType() && !param->getPointeeType().isConstQualified())
        for (const Target &t : v.refs)
          if (t.kind == Target::Slot)
            write(t.id, havocked(slots[t.id], "call"));
    }
    Value v = unknownOf(result, "call");
    v.unknownRefs = result->isPointerType() || result->isReferenceType() || isViewType(result);
    return v;
  }

  // Arguments are evaluated in the caller.
  struct Binding {
    const ParmVarDecl *param;
    std::optional<unsigned> alias;
    Value value;
  };
  llvm::SmallVector<Binding, 4> bindings;
  for (unsigned i = 0; i < args.size(); ++i) {
    if (i >= def->getNumParams()) {
      (void)eval(args[i]);
      continue;
    }
    const ParmVarDecl *param = def->getParamDecl(i);
    QualType type = param->getType();
    Binding b{param, std::nullopt, {}};
    if (type->isReferenceType()) {
      QualType referred = type.getNonReferenceType();
      if (!isViewType(referred) && (typeRange(referred) || referred->isPointerType() ||
                                    referred->isRecordType() || referred->isArrayType())) {
        llvm::SmallVector<unsigned, 2> targets = evalSlots(args[i]);
        if (targets.size() == 1)
          b.alias = targets[0];
        else
          b.value = targets.empty() ? eval(args[i]) : readAll(targets);
      } else {
        b.value = eval(args[i]);
      }
    } else {
      b.value = eval(args[i]);
      if (typeRange(type))
        b.value = wrapTo(b.value, type);
    }
    bindings.push_back(std::move(b));
  }

  scope.push_back(nextScope++);
  callStack.push_back(call ? call->getExprLoc() : at);
  Frame frame;
  frame.fn = def;
  frame.thisValue = thisValue;
  frame.pathAtEntry = path.size();
  for (Binding &b : bindings) {
    if (b.alias)
      frame.vars[b.param] = *b.alias;
    else
      frame.vars[b.param] = newSlot(b.param->getType().getNonReferenceType(), b.param->getName(), b.value);
  }
  // Parameters the call did not supply (should not happen after Sema): unknown.
  for (const ParmVarDecl *param : def->parameters())
    if (!frame.vars.count(param))
      frame.vars[param] = newSlot(param->getType(), param->getName(),
                                  unknownOf(param->getType(), param->getName()));
  if (closure) {
    for (auto &[var, slot] : closure->byRef)
      frame.vars[var] = slot;
    for (auto &[var, v] : closure->byCopy)
      frame.vars[var] = newSlot(var->getType().getNonReferenceType(), var->getName(), v);
    if (closure->thisValue)
      frame.thisValue = closure->thisValue;
  }
  frames.push_back(std::move(frame));
  inlining.enter(def);

  if (const auto *ctor = dyn_cast<CXXConstructorDecl>(def)) {
    llvm::SmallVector<unsigned, 2> objects;
    if (thisValue)
      for (const Target &t : thisValue->refs)
        if (t.kind == Target::Slot)
          objects.push_back(t.id);
    for (const CXXCtorInitializer *init : ctor->inits()) {
      if (!init->getInit())
        continue;
      Value v = eval(init->getInit());
      if (const FieldDecl *field = init->getAnyMember())
        for (unsigned s : objects) {
          Value agg = read(s);
          aggregateAdd(agg, v, field->getType());
          setField(agg, field, v, /*strong=*/objects.size() == 1);
          write(s, agg);
        }
    }
  }
  walk(def->getBody());

  std::optional<Value> returned = frames.back().result;
  frames.pop_back();
  inlining.leave();
  callStack.pop_back();
  scope.pop_back();
  if (!returned) {
    Value v = unknownOf(result, "result");
    v.unknownRefs = result->isPointerType() || result->isReferenceType();
    return v;
  }
  if (typeRange(result))
    return wrapTo(*returned, result);
  return *returned;
}

Value KernelWalker::evalConstruct(const CXXConstructExpr *e) {
  QualType type = e->getType();
  const CXXConstructorDecl *ctor = e->getConstructor();
  llvm::SmallVector<const Expr *, 4> args(e->arg_begin(), e->arg_end());
  if (isViewType(type)) { // a move (views cannot be copied)
    if (args.empty())
      return {};
    return eval(args[0]).refsOnly();
  }
  const CXXRecordDecl *record = type->getAsCXXRecordDecl();
  if (ctor)
    checkUnchecked(ctor, e->getLocation());
  if (getTileClass(type) || (ctor && isInTileNamespace(ctor)) || !record) {
    for (const Expr *arg : args)
      (void)eval(arg);
    return {};
  }
  if ((record->isLambda() || (ctor && ctor->isCopyOrMoveConstructor())) && args.size() == 1)
    return eval(args[0]);
  const FunctionDecl *def = nullptr;
  if (ctor && ctor->hasBody(def) && def) {
    unsigned object = newSlot(type, "object", Value());
    Value self;
    self.addRef(Target{Target::Slot, object, {}});
    (void)inlineCall(ctor, args, self, nullptr, nullptr, e->getLocation());
    return read(object);
  }
  Value agg;
  for (unsigned i = 0; i < args.size(); ++i) {
    Value v = eval(args[i]);
    QualType param = ctor && i < ctor->getNumParams() ? ctor->getParamDecl(i)->getType() : args[i]->getType();
    aggregateAdd(agg, v, param);
  }
  return agg;
}

void KernelWalker::destroy(QualType type, unsigned object, SourceLocation at) {
  const CXXRecordDecl *record = destroyedClass(type.getCanonicalType());
  if (!record)
    return;
  const CXXDestructorDecl *dtor = record->getDestructor();
  if (!dtor)
    return;
  checkUnchecked(dtor, at);
  if (dtor->isUserProvided()) {
    Value self;
    self.addRef(Target{Target::Slot, object, {}});
    (void)inlineCall(dtor, {}, self, nullptr, nullptr, at);
  }
  // Then the members' and bases' destructors, which C++ runs after the body.
  Value whole = read(object);
  for (const FieldDecl *field : record->fields()) {
    QualType ft = ctx.getBaseElementType(field->getType().getCanonicalType());
    if (ft->isReferenceType() || !destroyedClass(ft))
      continue;
    destroy(ft, newSlot(ft, field->getName(), fieldValue(whole, field, ft)), at);
  }
  for (const CXXBaseSpecifier &base : record->bases())
    destroy(base.getType(), object, at);
}

Value KernelWalker::evalLambda(const LambdaExpr *e) {
  auto closure = std::make_shared<Closure>();
  closure->lambda = e->getLambdaClass();
  Value result;
  auto init = e->capture_init_begin();
  for (const LambdaCapture &capture : e->captures()) {
    const Expr *initExpr = init != e->capture_init_end() ? *init++ : nullptr;
    if (capture.capturesThis()) {
      if (!frames.empty() && frames.back().thisValue) {
        closure->thisValue = frames.back().thisValue;
        result.mergeRefs(*frames.back().thisValue);
      }
      continue;
    }
    if (!capture.capturesVariable())
      continue;
    ValueDecl *var = capture.getCapturedVar();
    const auto *varDecl = dyn_cast<VarDecl>(var);
    if (capture.getCaptureKind() == LCK_ByRef) {
      unsigned s;
      if (varDecl && varDecl->isInitCapture() && initExpr) {
        llvm::SmallVector<unsigned, 2> targets = evalSlots(initExpr);
        s = targets.size() == 1 ? targets[0] : newSlot(var->getType(), var->getName(), eval(initExpr));
      } else {
        s = slotFor(var);
      }
      closure->byRef[var] = s;
      // What the lambda now borrows: the views the captured variable is or refers to.
      const Value &held = slots[s].value;
      for (const Target &t : held.refs)
        if (t.kind == Target::ViewObject)
          result.addRef(t);
      for (unsigned o : held.owned)
        result.addRef(Target{Target::ViewObject, o, {}});
      continue;
    }
    Value v = initExpr ? eval(initExpr) : read(slotFor(var));
    closure->byCopy.push_back({var, v});
    aggregateAdd(result, v, var->getType());
  }
  result.scalar.reset();
  result.closure = std::move(closure);
  return result;
}

// ---- the tile library -------------------------------------------------------------------------

void KernelWalker::recordAccess(const Value &view, AccessKind kind, const Expr *expr,
                                llvm::ArrayRef<const Expr *> indexExprs, bool unchecked) {
  Access base;
  base.kind = kind;
  base.unchecked = unchecked;
  base.expr = expr;
  for (const Expr *e : indexExprs) {
    Value v = eval(e);
    base.index.push_back(v.scalar ? *v.scalar : *unknownOf(ctx.LongLongTy, "index").scalar);
    base.indexExprs.push_back(e);
  }
  base.path = path;
  base.at = point();
  bool any = false;
  for (const Target &t : view.refs) {
    if (t.kind != Target::ViewObject)
      continue;
    Access a = base;
    a.view = static_cast<int>(t.id);
    a.forgedAt = t.forged;
    model.accesses.push_back(std::move(a));
    any = true;
  }
  if ((!any || view.unknownRefs) && kind == AccessKind::Store)
    model.accesses.push_back(std::move(base)); // through a view the walk could not trace
}

void KernelWalker::recordAxisUse(const Expr *expr, const Expr *axisExpr, llvm::StringRef fn,
                                 const IndexValue &axis, int rank, int view) {
  AxisUse use;
  use.expr = expr;
  use.axisExpr = axisExpr;
  use.function = fn.str();
  use.axis = axis;
  use.path = path;
  use.rank = rank;
  use.view = view;
  use.at = point();
  model.axisUses.push_back(std::move(use));
}

static int firstView(const Value &v) {
  for (const Target &t : v.refs)
    if (t.kind == Target::ViewObject)
      return static_cast<int>(t.id);
  return -1;
}

Value KernelWalker::evalTileCall(const CallExpr *call, const KernelCall &resolved) {
  const FunctionDecl *callee = resolved.callee;
  llvm::StringRef name = nameOf(callee);
  TileFn fn = tileFunction(callee);
  QualType type = call->getType();
  // The header's internals: raw pointers and view construction. An Atomic handed to them is out
  // of its atomic-only type.
  if (isTileDetail(callee) && !isa<CXXMemberCallExpr>(call)) {
    for (const Expr *arg : call->arguments()) {
      Value v = eval(arg);
      if (isAtomicType(arg->getType()))
        atomicMisuse(v, arg, call->getBeginLoc(),
                     "'" + callee->getQualifiedNameAsString() +
                         "' is the header's internal access to its memory, around the atomic updates");
    }
    return typeRange(type) ? unknownOf(type, name) : Value();
  }
  auto evalArgs = [&](unsigned from) {
    for (unsigned i = from; i < call->getNumArgs(); ++i)
      (void)eval(call->getArg(i));
  };
  auto argsFrom = [&](unsigned from) {
    llvm::SmallVector<const Expr *, 4> out;
    for (unsigned i = from; i < call->getNumArgs(); ++i)
      out.push_back(call->getArg(i));
    return out;
  };

  // A view function, as a member (`v.load(i)`) or in its free form (`tile::load(v, i)`).
  if (resolved.view) {
    llvm::ArrayRef<const Expr *> args = resolved.viewArgs();
    std::optional<TileClass> cls = getTileClass(resolved.view->getType()->isPointerType()
                                                    ? resolved.view->getType()->getPointeeType()
                                                    : resolved.view->getType());
    Value view = eval(resolved.view);
    if (cls->is(TileClassKind::Tensor) || cls->is(TileClassKind::Atomic)) {
      if (fn == TileFn::Load && args.empty()) {
        recordAccess(view, AccessKind::Load, call, {}, false);
        return {};
      }
      if (fn == TileFn::Store && args.size() == 1) {
        (void)eval(args[0]);
        recordAccess(view, AccessKind::Store, call, {}, false);
        return {};
      }
      if (fn == TileFn::Partition || fn == TileFn::PartitionMut) {
        std::optional<TileClass> tiled = getTileClass(type);
        llvm::SmallVector<int64_t, 4> tile = tiled ? tiled->dims : llvm::SmallVector<int64_t, 4>();
        ViewKind kind = fn == TileFn::Partition ? ViewKind::Tiled : ViewKind::TiledMut;
        Value result;
        std::string text = viewName(call);
        for (const Target &t : view.refs) {
          if (t.kind != Target::ViewObject)
            continue;
          const View parent = model.views[t.id];
          unsigned id = createView(kind, text, parent.root, parent.shared, static_cast<int>(t.id),
                                   call->getBeginLoc(), parent.extent, tile);
          result.addRef(Target{Target::ViewObject, id, t.forged});
        }
        if (result.refs.empty() || view.unknownRefs) {
          unsigned id = createView(kind, text, nullptr, false, -1, call->getBeginLoc(), cls->dims, tile);
          result.addRef(Target{Target::ViewObject, id, {}});
        }
        return result;
      }
    } else if (fn == TileFn::Load) {
      recordAccess(view, AccessKind::Load, call, args, false);
      return {};
    } else if (fn == TileFn::Store && !args.empty()) {
      (void)eval(args[0]);
      recordAccess(view, AccessKind::Store, call, args.drop_front(), false);
      return {};
    }
    for (const Expr *arg : args)
      (void)eval(arg);
    return unknownOf(type, name);
  }

  if (const auto *member = dyn_cast<CXXMemberCallExpr>(call)) {
    const Expr *object = member->getImplicitObjectArgument();
    QualType objectType = object->getType();
    if (objectType->isPointerType())
      objectType = objectType->getPointeeType();
    std::optional<TileClass> cls = getTileClass(objectType);
    if (!cls || !isViewType(objectType)) {
      (void)eval(object);
      evalArgs(0);
      return unknownOf(type, name);
    }
    Value view = eval(object);
    // Atomic members: the atomic_* updates (which never race, so they are not accesses of the
    // model) and shape().
    if ((cls->is(TileClassKind::Tensor) || cls->is(TileClassKind::Atomic)) &&
        fn == TileFn::Shape && call->getNumArgs() == 1) {
      Value axis = eval(call->getArg(0));
      IndexValue a = axis.scalar ? *axis.scalar : *unknownOf(ctx.IntTy, "axis").scalar;
      int v = firstView(view);
      recordAxisUse(call, call->getArg(0), "shape", a, static_cast<int>(cls->dims.size()), v);
      std::optional<index::Int> c = a.asConstant();
      if (v >= 0 && c && *c >= 0 && *c < static_cast<index::Int>(cls->dims.size())) {
        int64_t e = model.views[v].extent[static_cast<size_t>(*c)];
        std::string key = "shape#" + std::to_string(v) + "#" + index::toString(*c);
        if (std::optional<index::SymbolId> s = model.symbols.memoized(key))
          return Value::ofScalar(IndexValue::ofSymbol(*s));
        index::SymbolId s = model.symbols.create(
            model.views[v].name + ".shape(" + index::toString(*c) + ")",
            e > 0 ? Interval::of(0, e) : Interval::atLeast(0));
        model.symbols.memoize(key, s);
        return Value::ofScalar(IndexValue::ofSymbol(s));
      }
      return unknownOf(type, "shape");
    }
    evalArgs(0);
    return unknownOf(type, name);
  }

  if (isTileUnchecked(callee) && call->getNumArgs() >= 1) {
    Value view = eval(call->getArg(0));
    if (fn == TileFn::Load) {
      recordAccess(view, AccessKind::Load, call, argsFrom(1), true);
      return {};
    }
    if (fn == TileFn::Store && call->getNumArgs() >= 2) {
      (void)eval(call->getArg(1));
      recordAccess(view, AccessKind::Store, call, argsFrom(2), true);
      return {};
    }
    evalArgs(1);
    return unknownOf(type, name);
  }

  if (fn == TileFn::BlockId || fn == TileFn::NumBlocks) {
    const Expr *axisExpr = call->getNumArgs() > 0 ? call->getArg(0) : nullptr;
    IndexValue axis = IndexValue::constant(0);
    if (axisExpr) {
      Value v = eval(axisExpr);
      axis = v.scalar ? *v.scalar : *unknownOf(ctx.IntTy, "axis").scalar;
    }
    recordAxisUse(call, axisExpr, name, axis, model.gridRank, -1);
    Interval range = fn == TileFn::BlockId ? Interval::of(0, kMaxGrid - 1) : Interval::of(1, kMaxGrid);
    if (std::optional<index::Int> a = axis.asConstant()) {
      std::string key = name.str() + "#" + index::toString(*a);
      if (std::optional<index::SymbolId> s = model.symbols.memoized(key))
        return Value::ofScalar(IndexValue::ofSymbol(*s));
      index::SymbolId s = model.symbols.create(name.str() + "(" + index::toString(*a) + ")", range);
      model.symbols.memoize(key, s);
      return Value::ofScalar(IndexValue::ofSymbol(s));
    }
    return Value::ofScalar(alg.unknown(name, range, loopStack));
  }

  if (fn == TileFn::NumTiles && call->getNumArgs() == 2) {
    Value view = eval(call->getArg(0));
    Value axisValue = eval(call->getArg(1));
    IndexValue axis = axisValue.scalar ? *axisValue.scalar : *unknownOf(ctx.IntTy, "axis").scalar;
    std::optional<TileClass> cls = getTileClass(call->getArg(0)->getType());
    int rank = cls ? static_cast<int>(cls->dims.size()) : -1;
    int v = firstView(view);
    recordAxisUse(call, call->getArg(1), "num_tiles", axis, rank, v);
    std::optional<index::Int> a = axis.asConstant();
    if (v >= 0 && a && *a >= 0 && *a < static_cast<index::Int>(model.views[v].tile.size()) &&
        *a < static_cast<index::Int>(model.views[v].extent.size())) {
      const View &tv = model.views[v];
      int64_t t = tv.tile[static_cast<size_t>(*a)], e = tv.extent[static_cast<size_t>(*a)];
      // Views of one tensor with one tile size have one tile count.
      std::string key = "num_tiles#" + std::to_string(tv.parent >= 0 ? tv.parent : v) + "#" +
                        std::to_string(t) + "#" + index::toString(*a);
      if (std::optional<index::SymbolId> s = model.symbols.memoized(key))
        return Value::ofScalar(IndexValue::ofSymbol(*s));
      Interval range = e > 0 ? Interval::of(0, (e + t - 1) / t) : Interval::atLeast(0);
      index::SymbolId s = model.symbols.create("num_tiles(" + tv.name + ", " + index::toString(*a) + ")", range);
      model.symbols.memoize(key, s);
      return Value::ofScalar(IndexValue::ofSymbol(s));
    }
    return Value::ofScalar(alg.unknown("num_tiles", Interval::atLeast(0), loopStack));
  }

  if (fn == TileFn::LoadTileLike && call->getNumArgs() == 2) {
    Value x = eval(call->getArg(0));
    (void)eval(call->getArg(1));
    recordAccess(x, AccessKind::Load, call, {}, false);
    return {};
  }

  // Operations on tiles: no views involved, except in the combiner of reduce and scan, which
  // the library calls on elements: walk its body once, on the init (an element's value).
  if ((fn == TileFn::Reduce || fn == TileFn::Scan) && call->getNumArgs() == 3) {
    evalArgs(0);
    const Expr *f = call->getArg(2)->IgnoreParenImpCasts();
    if (const CXXRecordDecl *record = f->getType()->getAsCXXRecordDecl();
        record && record->isLambda())
      if (const CXXMethodDecl *op = record->getLambdaCallOperator();
          op && op->getNumParams() == 2 && !op->getDescribedFunctionTemplate()) {
        const Expr *args[] = {call->getArg(1), call->getArg(1)};
        (void)inlineCall(op, args, std::nullopt, eval(f).closure, call);
      }
    return typeRange(type) ? unknownOf(type, name) : Value();
  }
  evalArgs(0);
  return typeRange(type) ? unknownOf(type, name.empty() ? "value" : name) : Value();
}

// ---- tile::Atomic -------------------------------------------------------------------------------

void KernelWalker::atomicMisuse(const Value &v, const Expr *subject, SourceLocation loc,
                                const std::string &what) {
  ProgramPoint at = point();
  // A cast inside a library function (std::bit_cast) is reported where the user's code called it.
  const SourceManager &sm = ctx.getSourceManager();
  auto inLibrary = [&](SourceLocation l) { return sm.isInSystemHeader(sm.getExpansionLoc(l)); };
  if (inLibrary(loc)) {
    for (size_t i = at.calls.size(); i-- > 0;) {
      if (!inLibrary(at.calls[i])) {
        loc = at.calls[i];
        at.calls.resize(i);
        break;
      }
    }
  }
  bool any = false;
  for (const Target &t : v.refs) {
    if (t.kind != Target::ViewObject || !model.views[t.id].atomic)
      continue;
    model.atomicMisuses.push_back({static_cast<int>(t.id), "", loc, what, at});
    any = true;
  }
  if (!any) // an Atomic the walk lost track of: still an Atomic
    model.atomicMisuses.push_back({-1, sourceText(ctx, subject), loc, what, at});
}

void KernelWalker::checkAtomicCast(const CastExpr *cast, const Value &v) {
  QualType from = cast->getSubExpr()->getType();
  QualType to = cast->getType();
  if (!isAtomicType(from) || isAtomicType(to) || to->isBooleanType() || to->isVoidType() ||
      cast->getCastKind() == CK_ToVoid)
    return;
  std::string how;
  QualType written = to;
  if (const auto *named = dyn_cast<CXXNamedCastExpr>(cast))
    how = named->getCastName();
  else if (isa<CStyleCastExpr>(cast))
    how = "C-style cast";
  else if (isa<CXXFunctionalCastExpr>(cast))
    how = "functional cast";
  else if (isa<BuiltinBitCastExpr>(cast))
    how = "bit cast";
  else
    how = "implicit conversion";
  if (const auto *explicitCast = dyn_cast<ExplicitCastExpr>(cast))
    written = explicitCast->getTypeAsWritten(); // a reference cast's expression type drops the '&'
  std::string typeName = written.getAsString(ctx.getPrintingPolicy());
  // The type as the user spelled it (`tile::Tensor<T, tile::dyn>&` in a template, the same for
  // every instantiation), unless the cast is in a library.
  const SourceManager &sm = ctx.getSourceManager();
  if (const auto *explicitCast = dyn_cast<ExplicitCastExpr>(cast);
      explicitCast && explicitCast->getTypeInfoAsWritten() &&
      !sm.isInSystemHeader(sm.getExpansionLoc(cast->getBeginLoc()))) {
    // Between the brackets or parentheses: a TypeLoc's range leaves out a leading 'const'.
    CharSourceRange range = CharSourceRange::getTokenRange(
        explicitCast->getTypeInfoAsWritten()->getTypeLoc().getSourceRange());
    if (const auto *named = dyn_cast<CXXNamedCastExpr>(cast))
      range = CharSourceRange::getCharRange(named->getAngleBrackets().getBegin().getLocWithOffset(1),
                                            named->getAngleBrackets().getEnd());
    else if (const auto *cStyle = dyn_cast<CStyleCastExpr>(cast))
      range = CharSourceRange::getCharRange(cStyle->getLParenLoc().getLocWithOffset(1), cStyle->getRParenLoc());
    range = Lexer::makeFileCharRange(range, sm, ctx.getLangOpts());
    llvm::StringRef text = Lexer::getSourceText(range, sm, ctx.getLangOpts()).trim();
    if (!text.empty() && text.size() <= 80 && !text.contains('\n'))
      typeName = text.str();
  }
  atomicMisuse(v, cast->getSubExpr(), cast->getBeginLoc(),
               "the " + how + " to '" + typeName + "' would let it be read or written without atomics");
}

// ---- unchecked uses and escapes ---------------------------------------------------------------

void KernelWalker::checkUnchecked(const FunctionDecl *callee, SourceLocation loc) {
  bool api = isTileUnchecked(callee);
  bool unsafeFn = !api && !isInTileNamespace(callee) &&
                  (hasAnnotation(callee, "tile.unsafe") ||
                   (callee->getTemplateInstantiationPattern() &&
                    hasAnnotation(callee->getTemplateInstantiationPattern(), "tile.unsafe")));
  if (!api && !unsafeFn)
    return;
  const FunctionDecl *in = safetyContext(frames.empty() ? nullptr : frames.back().fn);
  if (!in || allowsUnsafe(in))
    return;
  UncheckedUse use;
  use.loc = loc;
  use.what = api ? "'tile::unchecked::" + nameOf(callee).str() + "'"
                 : "calling the TILE_UNSAFE function '" + callee->getQualifiedNameAsString() + "'";
  use.in = in;
  use.at = point();
  model.unchecked.push_back(std::move(use));
}

static bool isProperPrefix(llvm::ArrayRef<unsigned> a, llvm::ArrayRef<unsigned> b) {
  return a.size() < b.size() && std::equal(a.begin(), a.end(), b.begin());
}

void KernelWalker::checkEscapeInto(llvm::ArrayRef<unsigned> targets, const Value &v, SourceLocation loc) {
  if (!v.hasViewRefs())
    return;
  for (unsigned s : targets) {
    const Slot &slot = slots[s];
    for (const Target &t : v.refs) {
      if (t.kind != Target::ViewObject)
        continue;
      const View &view = model.views[t.id];
      std::string how;
      if (slot.isStatic)
        how = "the tile program: it is stored in the static variable '" + slot.name + "'";
      else if (isProperPrefix(slot.scope, view.scope))
        how = "its scope: it is stored in '" + slot.name + "', which outlives it";
      else
        continue;
      model.escapes.push_back({t.id, loc, how, point()});
    }
  }
}

void KernelWalker::checkEscapeReturn(const Value &v, SourceLocation loc) {
  if (!v.hasViewRefs())
    return;
  const FunctionDecl *fn = frames.back().fn;
  QualType result = fn->getReturnType();
  const auto *method = dyn_cast<CXXMethodDecl>(fn);
  std::string who = method && isLambdaCallOperator(method)
                        ? std::string("a lambda")
                        : "the device function '" + fn->getQualifiedNameAsString() + "'";
  std::string how;
  if (result->isReferenceType() || result->isPointerType()) {
    // A reference to a view hands the view out; a reference to storage that holds pointers
    // (an element of the caller's array of pointers) does not: storing into it was checked.
    if (!isViewType(result->getPointeeType()))
      return;
    how = result->isReferenceType() ? "it is returned by reference" : "it is returned by pointer";
  } else if (isViewType(result))
    return; // a view returned by value moves out: not an escape
  else if (result->isRecordType())
    how = v.closure ? "a lambda capturing it by reference is returned"
                    : "an object holding a reference or pointer to it is returned";
  else if (result->isIntegralOrEnumerationType())
    how = "its address is returned as an integer";
  else
    return;
  for (const Target &t : v.refs)
    if (t.kind == Target::ViewObject)
      model.escapes.push_back({t.id, loc, who + ": " + how, point()});
}
