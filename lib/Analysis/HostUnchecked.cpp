//===- HostUnchecked.cpp - tile::unchecked only in unsafe host code -----------===//
//
// A reference to a function of the library's `tile::unchecked` namespace (isTileUnchecked)
// inside a host function whose safety context does not allow unsafe code is an error at the
// reference, with a note at the function.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Analysis/HostUnchecked.h"

#include "tilecc/Analysis/Diagnostics.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;
using namespace tilecc;

namespace {

class UncheckedFinder : public RecursiveASTVisitor<UncheckedFinder> {
public:
  bool VisitDeclRefExpr(DeclRefExpr *ref) {
    if (const auto *fn = dyn_cast<FunctionDecl>(ref->getDecl()); fn && isTileUnchecked(fn))
      uses.push_back({ref->getExprLoc(), fn});
    return true;
  }

  struct Use {
    SourceLocation loc;
    const FunctionDecl *callee;
  };
  std::vector<Use> uses;
};

} // namespace

bool tilecc::checkHostUnchecked(ASTContext &context, llvm::ArrayRef<const FunctionDecl *> functions) {
  bool clean = true;
  llvm::DenseSet<SourceLocation> reported;
  for (const FunctionDecl *fn : functions) {
    // A lambda written in a kernel is kernel code, which the kernel rules check.
    const FunctionDecl *context_ = safetyContext(fn);
    if (allowsUnsafe(context_) || isTileKernel(context_))
      continue;
    UncheckedFinder finder;
    finder.TraverseStmt(const_cast<Stmt *>(fn->getBody()));
    for (const UncheckedFinder::Use &use : finder.uses) {
      clean = false;
      if (!reported.insert(use.loc).second)
        continue;
      report(context.getDiagnostics(), use.loc, Rule::UncheckedOutsideUnsafe)
          << ("'tile::unchecked::" + use.callee->getNameAsString() + "'");
      std::string name =
          context_->getDeclName().isIdentifier() ? context_->getName().str() : "this function";
      note(context.getDiagnostics(), context_->getLocation(),
           "'" + name + "' is not marked TILE_UNSAFE or TILE_TRUSTED(\"why\")");
    }
  }
  return clean;
}
