//===- LaunchSites.cpp - where a host function launches kernels ---------------===//
#include "tilecc/Analysis/LaunchSites.h"

#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using namespace tilecc;

namespace {

class Finder : public RecursiveASTVisitor<Finder> {
public:
  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    for (const FunctionDecl *target : launchedFunctions(dyn_cast<FunctionDecl>(ref->getDecl())))
      sites.references.push_back({ref->getExprLoc(), target});
    return true;
  }
  bool VisitCallExpr(CallExpr *call) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee || !callee->getIdentifier() || callee->getName() != "launch")
      return true;
    if (const FunctionDecl *kernel = launchedFunction(callee))
      sites.calls.push_back({call, kernel});
    return true;
  }

  LaunchSites sites;
};

} // namespace

LaunchSites tilecc::findLaunchSites(const FunctionDecl *function) {
  Finder finder;
  if (function && function->getBody())
    finder.TraverseStmt(const_cast<Stmt *>(function->getBody()));
  return std::move(finder.sites);
}
