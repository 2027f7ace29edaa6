//===- LaunchTargets.cpp - only kernels are launched --------------------------===//
//
// A reference to a specialization of `tile::launch` (or `tile::autotune`) names what it
// launches as its template arguments (launchedFunctions); each of those functions (or the
// template it was instantiated from) must carry TILE_KERNEL's annotation.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Analysis/LaunchTargets.h"

#include "tilecc/Analysis/Diagnostics.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;
using namespace tilecc;

namespace {

class LaunchFinder : public RecursiveASTVisitor<LaunchFinder> {
public:
  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    for (const FunctionDecl *target : launchedFunctions(dyn_cast<FunctionDecl>(ref->getDecl())))
      launches.push_back({ref->getExprLoc(), target});
    return true;
  }

  struct Launch {
    SourceLocation loc;
    const FunctionDecl *target;
  };
  std::vector<Launch> launches;
};

} // namespace

bool tilecc::checkLaunchTargets(ASTContext &context, llvm::ArrayRef<const FunctionDecl *> functions) {
  bool clean = true;
  llvm::DenseSet<SourceLocation> reported;
  for (const FunctionDecl *fn : functions) {
    LaunchFinder finder;
    finder.TraverseStmt(const_cast<Stmt *>(fn->getBody()));
    for (const LaunchFinder::Launch &launch : finder.launches) {
      const FunctionDecl *definition = launch.target->getDefinition();
      if (isTileKernel(definition ? definition : launch.target))
        continue;
      clean = false;
      if (!reported.insert(launch.loc).second)
        continue;
      std::string name; // with its template arguments: plain_template<16>
      llvm::raw_string_ostream os(name);
      launch.target->getNameForDiagnostic(os, context.getPrintingPolicy(), /*Qualified=*/true);
      report(context.getDiagnostics(), launch.loc, Rule::LaunchNotKernel) << name;
    }
  }
  return clean;
}
