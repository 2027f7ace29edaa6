//===- MapInjectivity.h - proving mapped partitions disjoint ----------*- C++ -*-===//
//
// `std::move(p).map(f)` gives program c of a partition's grid the tile f(c, grid). Two programs
// on one tile would both hold it exclusively, so the map must be injective
// (tile-mapped-not-injective). `proveMapInjective` decides that symbolically:
//  * the schedules of tile/schedule.hpp are bijections by construction;
//  * a lambda or function object returning `{e_0, ..., e_{R-1}}` where each e_k is an affine
//    function of the program coordinates c[0..R-1] with integer coefficients (plus any terms
//    that do not depend on c: captures, grid extents) is injective iff the coefficient matrix is
//    non-singular (its determinant is computed exactly), and every operation and conversion
//    holds the span of its values over the grid (coordinates below 2^31 - 1), so that the
//    machine's wrapping cannot make two coordinates meet.
// Anything else (division, modulo, calls, maps whose body is not visible) is "not proven".
// `checkMappedPartitions` reports every unproven map of the given host functions, except in
// TILE_UNSAFE functions, which accept the run-time check of tile_rt instead.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_MAPINJECTIVITY_H
#define TILECC_ANALYSIS_MAPINJECTIVITY_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include <string>

namespace tilecc {

struct MapVerdict {
  bool proven = false;
  /// Why it is (not) injective, in words: "a library schedule", "coordinate 1 divides ...".
  std::string reason;
};

/// Is the map `mapArgument` (the argument of a `map` call) injective on `rank`-D grids?
MapVerdict proveMapInjective(const clang::Expr *mapArgument, unsigned rank);

/// Reports tile-mapped-not-injective for the unproven maps in `functions` (each location once).
/// Returns true when there were none.
bool checkMappedPartitions(clang::ASTContext &context,
                           llvm::ArrayRef<const clang::FunctionDecl *> functions);

} // namespace tilecc

#endif
