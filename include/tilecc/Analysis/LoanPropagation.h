//===- LoanPropagation.h - forward dataflow of loans and moves --------*- C++ -*-===//
//
// A forward may-analysis over the host facts. The state at a program point says, for every
// place, which loans it may hold and whether it may have been moved from (and where). The
// lattice is a product of finite powersets (held loans per place, moved places) joined by
// union, so a loan alive on any incoming path is alive after the merge: waiting on only one
// branch of an `if`, or in some iterations of a loop, leaves the loan alive. The transfer
// functions are monotone and the lattice finite, so the worklist (in reverse post-order) reaches
// a fixpoint on any CFG, loops included.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_LOANPROPAGATION_H
#define TILECC_ANALYSIS_LOANPROPAGATION_H

#include "tilecc/Analysis/HostFacts.h"

#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include <map>
#include <optional>
#include <vector>

namespace tilecc::host {

/// The state at a program point. Sparse: only the holders that hold loans and the places that
/// were moved appear, so a state costs what is alive at that point, not the function's size.
struct LoanState {
  /// False until some path reaches the point (unreachable code is never checked).
  bool reachable = false;
  /// The loans each holder may hold (non-empty sets only, by place).
  std::map<PlaceId, llvm::BitVector> held;
  /// Places that may have been moved from, and where (the earliest site when paths disagree).
  std::map<PlaceId, unsigned> moved;
  /// Named places loans were stored into, and where (the earliest site when paths disagree).
  std::map<PlaceId, unsigned> stored;
  static constexpr unsigned NoSite = ~0u;

  /// Joins `other` into this state; true when this state changed.
  bool join(const LoanState &other);
  bool operator==(const LoanState &other) const {
    return reachable == other.reachable && held == other.held && moved == other.moved &&
           stored == other.stored;
  }

  /// The loans `place` itself holds (null when none).
  const llvm::BitVector *loansOf(PlaceId place) const;
  /// All loans held by `place` or anything within it.
  llvm::BitVector heldWithin(PlaceId place, const PlaceTable &places) const;
  /// Whether `place`, or a place it is within, may have been moved: that place and the move's
  /// site if so.
  std::optional<std::pair<PlaceId, unsigned>> movedAt(PlaceId place,
                                                      const PlaceTable &places) const;
  /// Where loans were stored into `place` (NoSite when unknown).
  unsigned storeSite(PlaceId place) const;
};

/// Applies one fact to a state (the forward transfer function).
void applyFact(const Fact &fact, LoanState &state, const HostFacts &facts);

class LoanPropagation {
public:
  LoanPropagation(const clang::CFG &cfg, const HostFacts &facts);

  /// Runs to the fixpoint.
  void run();

  /// The state on entry to `block` (the join over its predecessors).
  const LoanState &entryState(const clang::CFGBlock &block) const { return in[block.getBlockID()]; }
  const LoanState &exitState(const clang::CFGBlock &block) const { return out[block.getBlockID()]; }
  /// How many blocks the worklist processed (for tests: stays linear-ish).
  unsigned blockVisits() const { return visits; }

private:
  const clang::CFG &cfg;
  const HostFacts &facts;
  std::vector<LoanState> in, out;
  unsigned visits = 0;
};

} // namespace tilecc::host

#endif
