//===- KernelRules.cpp - what a tile kernel may contain -----------------------===//
#include "tilecc/Analysis/KernelRules.h"

#include "tilecc/Analysis/Diagnostics.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace tilecc;

namespace {

/// Walks a kernel body and, depth-first, the bodies of the device functions it calls.
class KernelRuleVisitor : public RecursiveASTVisitor<KernelRuleVisitor> {
public:
  explicit KernelRuleVisitor(ASTContext &context) : context(context) {}

  void checkFunction(const FunctionDecl *fn) {
    if (!fn->hasBody())
      return;
    active.insert(fn->getCanonicalDecl());
    TraverseStmt(fn->getBody());
    active.erase(fn->getCanonicalDecl());
    done.insert(fn->getCanonicalDecl());
  }

  bool clean() const { return errors == 0; }

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitCXXThrowExpr(CXXThrowExpr *e) { return fail(e->getThrowLoc(), Rule::KernelException); }
  bool VisitCXXTryStmt(CXXTryStmt *s) { return fail(s->getTryLoc(), Rule::KernelException); }
  bool VisitCXXNewExpr(CXXNewExpr *e) { return fail(e->getBeginLoc(), Rule::KernelAllocation); }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *e) {
    return fail(e->getBeginLoc(), Rule::KernelAllocation);
  }

  bool VisitDeclRefExpr(DeclRefExpr *e) {
    const auto *var = dyn_cast<VarDecl>(e->getDecl());
    if (var && var->hasGlobalStorage() && !var->isStaticLocal() && !isInTileNamespace(var) &&
        !var->getType().isConstQualified() && !var->isConstexpr()) {
      report(context.getDiagnostics(), e->getLocation(), Rule::KernelGlobal) << var->getName();
      ++errors;
    }
    return true;
  }

  bool VisitCallExpr(CallExpr *call) {
    // The uninstantiated body of a generic lambda: its calls are checked where it is instantiated.
    if (call->isInstantiationDependent())
      return true;
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee) {
      if (!isa<CXXPseudoDestructorExpr>(call->getCallee()->IgnoreParenImpCasts()))
        return fail(call->getBeginLoc(), Rule::Unsupported, "an indirect call");
      return true;
    }
    if (isInTileNamespace(callee) || isa<CXXDestructorDecl>(callee))
      return true;
    if (const auto *method = dyn_cast<CXXMethodDecl>(callee)) {
      // Calls through a lambda or a user object are fine; virtual dispatch is not.
      if (method->isVirtual() && !isa<CXXOperatorCallExpr>(call)) {
        const auto *member = dyn_cast<MemberExpr>(call->getCallee()->IgnoreParenImpCasts());
        if (!member || !member->hasQualifier()) {
          report(context.getDiagnostics(), call->getBeginLoc(), Rule::KernelVirtualCall)
              << callee->getQualifiedNameAsString();
          ++errors;
          return true;
        }
      }
    }
    const FunctionDecl *definition = nullptr;
    if (!callee->hasBody(definition) || !definition) {
      // constexpr helpers fold away; `__builtin_*` intrinsics are compiler-provided. Library
      // builtins such as printf or malloc are external calls.
      if (callee->isConstexpr() || callee->getName().starts_with("__builtin"))
        return true;
      report(context.getDiagnostics(), call->getBeginLoc(), Rule::KernelExternalCall)
          << callee->getQualifiedNameAsString();
      ++errors;
      return true;
    }
    if (active.contains(definition->getCanonicalDecl())) {
      report(context.getDiagnostics(), call->getBeginLoc(), Rule::KernelRecursion)
          << callee->getQualifiedNameAsString();
      ++errors;
      return true;
    }
    if (!done.contains(definition->getCanonicalDecl()))
      checkFunction(definition);
    return true;
  }

private:
  bool fail(SourceLocation loc, Rule rule, llvm::StringRef what = {}) {
    auto builder = report(context.getDiagnostics(), loc, rule);
    if (!what.empty())
      builder << what;
    ++errors;
    return true;
  }

  ASTContext &context;
  llvm::SmallPtrSet<const FunctionDecl *, 8> active, done;
  unsigned errors = 0;
};

} // namespace

bool tilecc::checkKernelRules(ASTContext &context, const FunctionDecl *kernel) {
  bool paramsOk = true;
  for (const ParmVarDecl *param : kernel->parameters()) {
    if (classifyKernelParam(param) != ParamKind::Invalid)
      continue;
    report(context.getDiagnostics(), param->getLocation(), Rule::KernelParam)
        << param->getName() << param->getType();
    paramsOk = false;
  }
  KernelConfig config = getKernelConfig(kernel);
  if (!config.error.empty()) {
    report(context.getDiagnostics(), config.loc, Rule::KernelConfig) << config.error;
    paramsOk = false;
  }
  KernelRuleVisitor visitor(context);
  visitor.checkFunction(kernel);
  return paramsOk && visitor.clean();
}
