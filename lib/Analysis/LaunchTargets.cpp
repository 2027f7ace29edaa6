//===- LaunchTargets.cpp - only kernels are launched --------------------------===//
//
// A reference to a specialization of `tile::launch` (or `tile::autotune`) names what it
// launches as its template arguments (LaunchSites' references); each of those functions (or
// the template it was instantiated from) must carry TILE_KERNEL's annotation.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Analysis/LaunchTargets.h"

#include "tilecc/Analysis/Diagnostics.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "llvm/ADT/DenseSet.h"

using namespace clang;
using namespace tilecc;

bool tilecc::checkLaunchTargets(ASTContext &context, llvm::ArrayRef<LaunchSites> sites) {
  bool clean = true;
  llvm::DenseSet<SourceLocation> reported;
  for (const LaunchSites &function : sites) {
    for (const LaunchSites::Reference &launch : function.references) {
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
