//===- HostPositions.h - which element of a container an expression names -*- C++ -*-===//
//
// A local `std::vector` or `std::deque` of ops or futures that a function fills with
// `push_back`/`emplace_back` has a known length wherever every path to a point filled it the
// same number of times. `ContainerPositions` is a forward analysis over the function's CFG that
// gives, for each `push_back`/`emplace_back` call, the position it fills, for each `pop_back`
// the position it removes, and for each `c[k]` and `c.at(k)` with a constant `k`, `c.front()`
// and `c.back()`, the position it names, so that
// the borrow checker can keep each element's loans apart (`fs.back().wait()` returns the loans
// of the last op pushed, and only those).
//
// A container is followed only when every mention of it in the body is one of those calls,
// `size()`, `empty()`, `capacity()`, `reserve()`, `clear()` or the range of a range-for: a
// reference to it, a call that receives it, a move, or a lambda that mentions it could change
// its length unseen, and then none of its positions is known.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_HOSTPOSITIONS_H
#define TILECC_ANALYSIS_HOSTPOSITIONS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>

namespace tilecc::host {

class HostTypes;

/// An element of a followed container: the container's variable and the element's index.
struct Position {
  const clang::VarDecl *container;
  unsigned index;
};

class ContainerPositions {
public:
  /// Follows the containers declared in `body` (whose CFG is `cfg`).
  static ContainerPositions compute(clang::ASTContext &context, const clang::CFG &cfg,
                                    const clang::Stmt *body, HostTypes &types);

  /// The position a push_back/emplace_back call fills, a pop_back removes, or an element access
  /// names, where it is the same on every path.
  std::optional<Position> of(const clang::Expr *expr) const;

private:
  llvm::DenseMap<const clang::Expr *, Position> positions;
};

} // namespace tilecc::host

#endif
