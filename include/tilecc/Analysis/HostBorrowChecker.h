//===- HostBorrowChecker.h - the host side of the borrow checker ------*- C++ -*-===//
//
// `checkHostBorrows` (declared in Checks.h) runs the host rules of DESIGN §4 on one function:
// it builds the function's CFG, its facts (HostFacts.h), propagates loans and moves forward
// (LoanPropagation.h) and liveness backward (HostLiveness.h), then replays every reachable
// block against the fixpoint and reports:
//
//   tile-use-after-move         an array, partition or op used after it was moved or consumed
//   tile-borrow-conflict        a launch lends an array exclusively and shared, or exclusively
//                               twice, within its arguments or against another live op/ref
//   tile-access-while-borrowed  host access to an array while an unfinished op or a live
//                               partition ref holds a conflicting loan on it
//   tile-loan-outlives-array    an op/ref holding a loan returned, or stored where it outlives
//                               the array
//   tile-unused-op (warning)    an op created and never executed
//
// Each conflict is reported in three points: the access (error), the loan's creation and the
// later use that keeps the loan alive (notes).
//
// Which functions: a function template (or a member of a class template) is checked through
// its instantiations, so passing the pattern checks every instantiation once (diagnostics at one
// location are reported once); passing an instantiation itself does nothing. A lambda nested in
// a function is checked with that function (and its effect on what it captures by reference is
// replayed where it is called). Tile kernels are skipped. The mapped-partition rule
// (tile-mapped-not-injective) is not flow-sensitive and lives apart, in MapInjectivity.h.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_HOSTBORROWCHECKER_H
#define TILECC_ANALYSIS_HOSTBORROWCHECKER_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace tilecc {

/// What one `checkHostBorrows` call did (for tests and verbose output).
struct HostCheckStats {
  unsigned functions = 0; ///< bodies analyzed (instantiations and lambdas included)
  unsigned blocks = 0;    ///< CFG blocks of those bodies
  unsigned facts = 0;     ///< facts built
  unsigned forwardVisits = 0;
  unsigned backwardVisits = 0;
};

/// `checkHostBorrows` with statistics. Returns true when no error was reported.
bool checkHostBorrows(clang::ASTContext &context, const clang::FunctionDecl *function,
                      HostCheckStats *stats);

} // namespace tilecc

#endif
