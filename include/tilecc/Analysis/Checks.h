//===- Checks.h - every analysis tilecc runs on a translation unit ----*- C++ -*-===//
//
// `runChecks` is what `tilecc check` and `tilecc compile` run: the kernel rules and the kernel
// side of the borrow checker on every kernel instantiation the file compiles, and the host side of
// the borrow checker on every function body written in the main file. Findings go through the
// rule table (Diagnostics.h); the return value says whether an error was reported.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_CHECKS_H
#define TILECC_ANALYSIS_CHECKS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"
#include <vector>

namespace tilecc {

/// Kernel side (KernelAccessChecker.cpp): stores only through exclusive views, disjoint mutable
/// views, no escaping views, tile::unchecked only under TILE_UNSAFE, static index ranges,
/// atomic-only access to tile::Atomic. Returns true when clean.
bool checkKernelAccess(clang::ASTContext &context, const clang::FunctionDecl *kernel);

/// Host side (HostBorrowChecker.cpp): loans of arrays to partitions and operations, followed over
/// the function's CFG. Returns true when clean.
bool checkHostBorrows(clang::ASTContext &context, const clang::FunctionDecl *function);

/// Runs every check on the translation unit. `kernels` are the instantiations it compiles.
/// Returns true when every check passed.
bool runChecks(clang::ASTContext &context, llvm::ArrayRef<const clang::FunctionDecl *> kernels);

/// The functions runChecks gives to checkHostBorrows, in source order: every definition whose
/// body is written in the main file and that is not a kernel, including methods, function
/// templates and members of class templates (the pattern, then each instantiation) and lambdas'
/// call operators (a generic lambda's pattern and instantiations); not implicit or defaulted
/// members.
std::vector<const clang::FunctionDecl *> hostFunctionsToCheck(clang::ASTContext &context);

} // namespace tilecc

#endif
