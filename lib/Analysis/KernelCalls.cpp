//===- KernelCalls.cpp - what a call in kernel code runs ----------------------===//
#include "tilecc/Analysis/KernelCalls.h"

#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Builtins.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace tilecc;

static bool isStdNamed(const FunctionDecl *fn, std::initializer_list<llvm::StringRef> names) {
  return fn->isInStdNamespace() && fn->getDeclName().isIdentifier() &&
         llvm::is_contained(names, fn->getName());
}

/// Calls whose value is their first argument's: std's casts to a reference and the builtins
/// that only tell the optimizer something.
static bool passesThrough(const FunctionDecl *fn) {
  switch (fn->getBuiltinID()) {
  case Builtin::BI__builtin_addressof:
  case Builtin::BI__builtin_launder:
  case Builtin::BI__builtin_expect:
  case Builtin::BI__builtin_assume_aligned:
    return true;
  default:
    return isStdNamed(fn, {"move", "forward", "move_if_noexcept", "as_const", "addressof",
                           "__addressof", "launder"});
  }
}

/// The view of a view function of the tile library: the object of `v.load(i)`, the first
/// argument of `tile::load(v, i)` (tile::unchecked's accesses are not view functions: they run
/// without bounds).
static const Expr *viewOperand(const KernelCall &c) {
  if (!c.callee || !isInTileNamespace(c.callee) || isTileUnchecked(c.callee) || isTileDetail(c.callee))
    return nullptr;
  TileFn fn = tileFunction(c.callee);
  if (fn != TileFn::Load && fn != TileFn::Store && fn != TileFn::Partition && fn != TileFn::PartitionMut)
    return nullptr;
  const Expr *view = c.instance ? c.object : c.args.empty() ? nullptr : c.args.front();
  if (!view)
    return nullptr;
  QualType type = view->getType();
  if (c.arrow)
    type = type->getPointeeType();
  return isViewType(type) ? view : nullptr;
}

const FunctionDecl *tilecc::visibleBody(const FunctionDecl *fn) {
  const FunctionDecl *definition = nullptr;
  return fn && fn->hasBody(definition) ? definition : nullptr;
}

KernelCall tilecc::resolveKernelCall(const CallExpr *call) {
  KernelCall c;
  c.callee = call->getDirectCallee();
  const auto *method = dyn_cast_or_null<CXXMethodDecl>(c.callee);
  if (const auto *member = dyn_cast<CXXMemberCallExpr>(call)) {
    c.object = member->getImplicitObjectArgument();
    c.instance = method && !method->isStatic();
    c.arrow = c.object && c.object->getType()->isPointerType();
    c.args.assign(member->arg_begin(), member->arg_end());
  } else if (const auto *op = dyn_cast<CXXOperatorCallExpr>(call);
             op && method && !method->isStatic() && op->getNumArgs() >= 1) {
    c.object = op->getArg(0);
    c.instance = true;
    c.args.assign(op->arg_begin() + 1, op->arg_end());
  } else {
    c.args.assign(call->arg_begin(), call->arg_end());
  }
  c.closure = c.instance && method->getParent()->isLambda();
  c.view = viewOperand(c);
  if (!c.callee)
    c.kind = KernelCall::Kind::Indirect;
  else if (isInTileNamespace(c.callee))
    c.kind = KernelCall::Kind::Library;
  else if (passesThrough(c.callee) && !c.args.empty())
    c.kind = KernelCall::Kind::PassThrough;
  else if (isStdNamed(c.callee, {"bit_cast"}) && c.args.size() == 1)
    c.kind = KernelCall::Kind::BitCast;
  else if ((c.definition = visibleBody(c.callee)))
    c.kind = KernelCall::Kind::Inline;
  else
    c.kind = KernelCall::Kind::External;
  return c;
}

InlineStack::Refusal InlineStack::refusal(const FunctionDecl *definition) const {
  if (active.contains(definition->getCanonicalDecl()))
    return Refusal::Recursion;
  if (bodies.size() >= kMaxInlineDepth)
    return Refusal::TooDeep;
  return Refusal::None;
}

void InlineStack::enter(const FunctionDecl *definition) {
  const FunctionDecl *canonical = definition->getCanonicalDecl();
  bodies.push_back(canonical);
  active.insert(canonical);
}

void InlineStack::leave() {
  active.erase(bodies.back());
  bodies.pop_back();
}
