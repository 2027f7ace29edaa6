//===- LaunchSites.h - where a host function launches kernels ---------*- C++ -*-===//
//
// `findLaunchSites` walks a host function's body once for what the launch checks read: every
// reference to a specialization of `tile::launch` or `tile::autotune`, with the functions it
// launches (launchedFunctions: LaunchTargets checks they are kernels), and every call of
// `tile::launch`, with the kernel it launches (LaunchArguments checks the arguments).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_LAUNCHSITES_H
#define TILECC_ANALYSIS_LAUNCHSITES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <vector>

namespace tilecc {

struct LaunchSites {
  struct Reference {
    clang::SourceLocation loc;
    const clang::FunctionDecl *target;
  };
  struct Call {
    const clang::CallExpr *call;
    const clang::FunctionDecl *kernel;
  };
  std::vector<Reference> references;  // in source order
  std::vector<Call> calls;            // in source order
};

LaunchSites findLaunchSites(const clang::FunctionDecl *function);

} // namespace tilecc

#endif
