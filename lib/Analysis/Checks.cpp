//===- Checks.cpp - every analysis tilecc runs on a translation unit ----------===//
//
// Kernel side: the kernel rules and the kernel access checker on each instantiation the file
// compiles. Host side: the borrow checker on every function definition whose body is written in
// the main file and that is not a kernel: ordinary functions and methods, function templates
// and members of class templates together with each of their instantiations, and the call
// operators of lambdas (a generic lambda's template and each instantiation of it). The checker
// decides how to cover templates: HostBorrowChecker analyzes the instantiations through their
// pattern, so that a finding repeated by several instantiations is reported once.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Analysis/Checks.h"

#include "tilecc/Analysis/HostUnchecked.h"
#include "tilecc/Analysis/KernelRules.h"
#include "tilecc/Analysis/LaunchArguments.h"
#include "tilecc/Analysis/LaunchTargets.h"
#include "tilecc/Analysis/MapInjectivity.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SetVector.h"

using namespace clang;
using namespace tilecc;

namespace {

/// Collects, in source order, the host function bodies of the main file.
class HostFunctionCollector : public RecursiveASTVisitor<HostFunctionCollector> {
public:
  explicit HostFunctionCollector(const SourceManager &sm) : sm(sm) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *fn) {
    consider(fn);
    return true;
  }

  // Lambda classes are implicit, so their call operators are not visited as declarations.
  bool VisitLambdaExpr(LambdaExpr *lambda) {
    const CXXRecordDecl *closure = lambda->getLambdaClass();
    if (!closure)
      return true;
    if (const FunctionTemplateDecl *generic = closure->getDependentLambdaCallOperator()) {
      consider(generic->getTemplatedDecl());
      for (FunctionDecl *instance : generic->specializations())
        consider(instance);
    } else {
      consider(lambda->getCallOperator());
    }
    return true;
  }

  llvm::SetVector<const FunctionDecl *> functions;

private:
  void consider(const FunctionDecl *fn) {
    if (!fn || fn->isInvalidDecl() || !fn->doesThisDeclarationHaveABody() || fn->isDefaulted() ||
        isTileKernel(fn))
      return;
    // Implicit members (constructors, assignment) have no body the user wrote; a lambda's call
    // operator is not implicit.
    if (fn->isImplicit())
      return;
    const Stmt *body = fn->getBody();
    if (!body || !sm.isInMainFile(sm.getExpansionLoc(body->getBeginLoc())))
      return;
    functions.insert(fn);
  }

  const SourceManager &sm;
};

} // namespace

bool tilecc::runChecks(ASTContext &context, llvm::ArrayRef<const FunctionDecl *> kernels) {
  bool clean = true;
  for (const FunctionDecl *kernel : kernels) {
    clean &= checkKernelRules(context, kernel);
    clean &= checkKernelAccess(context, kernel);
  }
  std::vector<const FunctionDecl *> host = hostFunctionsToCheck(context);
  for (const FunctionDecl *function : host)
    clean &= checkHostBorrows(context, function);
  clean &= checkMappedPartitions(context, host);
  std::vector<LaunchSites> launches;
  launches.reserve(host.size());
  for (const FunctionDecl *function : host)
    launches.push_back(findLaunchSites(function));
  clean &= checkLaunchTargets(context, launches);
  clean &= checkLaunchArguments(context, launches);
  clean &= checkHostUnchecked(context, host);
  return clean;
}

std::vector<const FunctionDecl *> tilecc::hostFunctionsToCheck(ASTContext &context) {
  HostFunctionCollector collector(context.getSourceManager());
  collector.TraverseDecl(context.getTranslationUnitDecl());
  return {collector.functions.begin(), collector.functions.end()};
}
