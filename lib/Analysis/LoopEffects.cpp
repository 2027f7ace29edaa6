//===- LoopEffects.cpp - what a loop's statements may change ------------------===//
#include "tilecc/Analysis/LoopEffects.h"

#include "tilecc/Analysis/KernelCalls.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;
using namespace tilecc;

namespace {

class Scanner {
public:
  Scanner(ASTContext &ctx, LoopEffects &out) : ctx(ctx), out(out) {}

  /// `loopDepth`: loops entered within the scan; `inBody`: inside a body a call or a lambda
  /// runs, whose returns and loop exits are its own.
  void scan(const Stmt *s, unsigned loopDepth, bool inBody) {
    if (!s)
      return;
    if (const auto *lambda = dyn_cast<LambdaExpr>(s)) {
      for (const Expr *init : lambda->capture_inits())
        scan(init, loopDepth, inBody);
      runs(lambda->getLambdaClass()); // it may be called in the loop
      return;
    }
    if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp())
      assign(b->getLHS(), direction(b));
    if (const auto *u = dyn_cast<UnaryOperator>(s)) {
      if (u->isIncrementDecrementOp())
        assign(u->getSubExpr(), u->isIncrementOp() ? 1 : -1);
      else if (u->getOpcode() == UO_AddrOf)
        changeInPlace(u->getSubExpr());
    }
    if (const auto *decls = dyn_cast<DeclStmt>(s))
      for (const Decl *d : decls->decls())
        if (const auto *var = dyn_cast<VarDecl>(d); var && var->hasInit() && bindsMutably(var->getType()))
          bindMutable(var->getInit());
    if (const auto *call = dyn_cast<CallExpr>(s))
      this->call(call);
    if (const auto *construct = dyn_cast<CXXConstructExpr>(s)) {
      llvm::SmallVector<const Expr *, 4> args(construct->arguments());
      bindArguments(construct->getConstructor(), args);
    }
    if (!inBody) {
      out.returns |= isa<ReturnStmt>(s);
      out.breaks |= loopDepth == 0 && isa<BreakStmt>(s);
      out.continues |= loopDepth == 0 && isa<ContinueStmt>(s);
    }
    bool loop = isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(s);
    for (const Stmt *child : s->children())
      scan(child, loopDepth + (loop ? 1 : 0), inBody);
  }

  /// A variable also changed in place is not only stepped one way.
  void finish() {
    for (const ValueDecl *var : out.changedInPlace)
      if (auto it = out.assigned.find(var); it != out.assigned.end())
        it->second = 0;
  }

private:
  static bool bindsMutably(QualType type) {
    return type->isLValueReferenceType() && !type.getNonReferenceType().isConstQualified();
  }

  /// +1 / -1 for `x += c` / `x -= c` with a constant c of that sign, else 0.
  int direction(const BinaryOperator *b) const {
    if (b->getOpcode() != BO_AddAssign && b->getOpcode() != BO_SubAssign)
      return 0;
    Expr::EvalResult r;
    if (b->getRHS()->isValueDependent() || !b->getRHS()->EvaluateAsInt(r, ctx))
      return 0;
    int sign = r.Val.getInt().isNegative() ? -1 : (r.Val.getInt().isZero() ? 0 : 1);
    return b->getOpcode() == BO_SubAssign ? -sign : sign;
  }

  /// The variable an lvalue designates a part of (`v`, `v.f`, `v[i]`), or null.
  static const ValueDecl *base(const Expr *e) {
    while (e) {
      e = e->IgnoreParenCasts();
      if (const auto *ref = dyn_cast<DeclRefExpr>(e))
        return ref->getDecl();
      if (const auto *m = dyn_cast<MemberExpr>(e)) {
        if (m->isArrow())
          return nullptr;
        e = m->getBase();
      } else if (const auto *a = dyn_cast<ArraySubscriptExpr>(e)) {
        e = a->getBase();
      } else {
        return nullptr;
      }
    }
    return nullptr;
  }

  void assign(const Expr *target, int dir) {
    const auto *ref = dyn_cast<DeclRefExpr>(target->IgnoreParenImpCasts());
    if (!ref) {
      changeInPlace(target);
      return;
    }
    auto [it, inserted] = out.assigned.try_emplace(ref->getDecl(), dir);
    if (!inserted && it->second != dir)
      it->second = 0;
  }

  /// Whether an lvalue designates a part of `*this` (`m`, `this->m.f`, `(*this)[i]`).
  static bool basedOnThis(const Expr *e) {
    while (e) {
      e = e->IgnoreParenCasts();
      if (isa<CXXThisExpr>(e))
        return true;
      if (const auto *m = dyn_cast<MemberExpr>(e))
        e = m->getBase();
      else if (const auto *a = dyn_cast<ArraySubscriptExpr>(e))
        e = a->getBase();
      else if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_Deref)
        e = u->getSubExpr();
      else
        return false;
    }
    return false;
  }

  void changeInPlace(const Expr *e) {
    if (const ValueDecl *var = base(e))
      out.changedInPlace.insert(var);
    else if (basedOnThis(e))
      out.changesThis = true;
  }

  /// `e` bound to a non-const reference: a tile or scalar variable may get a new value, any
  /// other one may change in place.
  void bindMutable(const Expr *e) {
    const auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    if (!ref) {
      changeInPlace(e);
      return;
    }
    QualType type = ref->getDecl()->getType().getNonReferenceType();
    std::optional<TileClass> cls = getTileClass(type);
    if ((cls && cls->is(TileClassKind::Tile)) || (!cls && type->isArithmeticType()))
      assign(ref, 0);
    else
      out.changedInPlace.insert(ref->getDecl());
  }

  void bindArguments(const FunctionDecl *fn, llvm::ArrayRef<const Expr *> args) {
    for (unsigned i = 0; i < args.size(); ++i) {
      QualType param = fn && i < fn->getNumParams() ? fn->getParamDecl(i)->getType() : QualType();
      if (param.isNull())
        changeInPlace(args[i]); // a variadic argument: anything may happen to it
      else if (bindsMutably(param))
        bindMutable(args[i]);
      if (const CXXRecordDecl *record = args[i]->getType()->getAsCXXRecordDecl();
          record && record->isLambda())
        runs(record); // the callee may call it
    }
  }

  void call(const CallExpr *call) {
    KernelCall c = resolveKernelCall(call);
    out.calls |= c.kind != KernelCall::Kind::Library;
    if (const auto *op = dyn_cast<CXXOperatorCallExpr>(call); op && op->isAssignmentOp())
      assign(op->getArg(0), 0);
    else if (c.object && c.instance)
      if (const auto *method = dyn_cast<CXXMethodDecl>(c.callee); method && !method->isConst())
        changeInPlace(c.arrow && !basedOnThis(c.object) ? nullptr : c.object);
    bindArguments(c.callee, c.args);
    // The body it runs (a lambda's operator() with the captures it names).
    if (c.kind == KernelCall::Kind::Inline && visited.insert(c.definition).second)
      scan(c.definition->getBody(), 0, /*inBody=*/true);
  }

  /// A lambda's body, which runs where it is called.
  void runs(const CXXRecordDecl *record) {
    if (!record || !record->isLambda() || !visited.insert(record).second)
      return;
    if (const CXXMethodDecl *op = record->getLambdaCallOperator())
      if (const FunctionDecl *body = visibleBody(op))
        scan(body->getBody(), 0, /*inBody=*/true);
  }

  ASTContext &ctx;
  LoopEffects &out;
  llvm::SmallPtrSet<const Decl *, 16> visited;
};

} // namespace

LoopEffects tilecc::scanLoopEffects(llvm::ArrayRef<const Stmt *> parts, ASTContext &ctx) {
  LoopEffects effects;
  Scanner scanner(ctx, effects);
  for (const Stmt *part : parts)
    scanner.scan(part, 0, /*inBody=*/false);
  scanner.finish();
  return effects;
}
