//===- HostUnchecked.h - tile::unchecked only in unsafe host code ----*- C++ -*-===//
//
// The host API's `tile::unchecked` functions do what the runtime cannot check: today
// `unchecked::borrow_external`, an array over memory behind a raw pointer whose lifetime the
// runtime cannot see (the safe form takes an owner that keeps the memory alive).
// `checkHostUnchecked` reports each use in a host function that is not marked TILE_UNSAFE or
// TILE_TRUSTED("why") (tile-unchecked-outside-unsafe), as the kernel rules do in kernels.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_HOSTUNCHECKED_H
#define TILECC_ANALYSIS_HOSTUNCHECKED_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"

namespace tilecc {

/// Reports tile-unchecked-outside-unsafe for every use of a `tile::unchecked` function in
/// `functions` whose safety context (the function itself, or the one a lambda is written in)
/// allows no unsafe code; each location once. Returns true when there was none.
bool checkHostUnchecked(clang::ASTContext &context,
                        llvm::ArrayRef<const clang::FunctionDecl *> functions);

} // namespace tilecc

#endif
