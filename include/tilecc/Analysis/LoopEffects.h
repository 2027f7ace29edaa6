//===- LoopEffects.h - what a loop's statements may change ---------------*- C++ -*-===//
//
// One scan of a loop (or of any statements run again and again) that the access analysis
// (KernelWalker) and the lowering share: the variables the statements may give a new value,
// those they may change in place, and whether they leave the loop. Calls are followed into
// the bodies they run (KernelCalls) and lambdas into theirs, where they are called, passed or
// defined, so that both see the same variables change.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_LOOPEFFECTS_H
#define TILECC_ANALYSIS_LOOPEFFECTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace tilecc {

struct LoopEffects {
  /// Variables the statements may give a new value: assigned, incremented, or bound to a
  /// non-const reference (a parameter's or a local's) while holding a tile or a scalar. The
  /// value is the direction: +1 when only ever increased by constants, -1 when only ever
  /// decreased, 0 otherwise.
  llvm::DenseMap<const clang::ValueDecl *, int> assigned;
  /// Variables they may change in place without assigning them: a member or element
  /// assigned, the address taken, a non-const method called, bound to a non-const reference
  /// while holding anything else.
  llvm::SmallPtrSet<const clang::ValueDecl *, 8> changedInPlace;
  /// They may change a member of `this` (of the method they are in, or of one they call).
  bool changesThis = false;
  /// The statements break out of, continue, or return from the loop (not counting loops and
  /// bodies nested in them).
  bool breaks = false, continues = false, returns = false;
  /// They call a function other than the tile library's.
  bool calls = false;

  bool changes(const clang::ValueDecl *var) const {
    return assigned.count(var) || changedInPlace.contains(var);
  }
};

/// Scans `parts` (null entries are skipped), the statements of one loop iteration.
LoopEffects scanLoopEffects(llvm::ArrayRef<const clang::Stmt *> parts, clang::ASTContext &ctx);

} // namespace tilecc

#endif // TILECC_ANALYSIS_LOOPEFFECTS_H
