//===- HostLiveness.h - backward liveness of ops and partitions -------*- C++ -*-===//
//
// A backward analysis over the host facts: at each point, which holders (ops, partitions,
// partition refs, containers holding them) are used later, and where the nearest such use is.
// A holder's loans stay alive while the holder is live; its destructor counts as a use, because
// an unfinished op or a partition ref keeps its loans until it is destroyed.
//
//  * `next[place]` is a representative later use (a site), if any. At merges the better one is
//    kept (an explicit use over a destructor, then the earlier in the source): a semilattice of
//    finite height, so the fixpoint exists on any CFG.
//  * `consumeLive` are the holders with a later *consuming* use (sync(), moved away, passed to
//    a function, returned). An op declared with none is never executed (tile-unused-op).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_HOSTLIVENESS_H
#define TILECC_ANALYSIS_HOSTLIVENESS_H

#include "tilecc/Analysis/HostFacts.h"

#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include <map>
#include <set>
#include <vector>

namespace tilecc::host {

/// Liveness at a program point; sparse (only live holders appear).
struct LiveState {
  /// Live holders and the site of a representative later use.
  std::map<PlaceId, unsigned> next;
  /// Holders with a later consuming use.
  std::set<PlaceId> consumeLive;

  bool join(const LiveState &other, const HostFacts &facts);
  bool operator==(const LiveState &other) const {
    return next == other.next && consumeLive == other.consumeLive;
  }
  /// The representative later use of `place` (-1 when it is dead).
  int nextUse(PlaceId place) const {
    auto it = next.find(place);
    return it == next.end() ? -1 : static_cast<int>(it->second);
  }
  bool consumedLater(PlaceId place) const { return consumeLive.count(place) != 0; }
};

/// Applies one fact backwards (the state after the fact becomes the state before it).
void applyFactBackward(const Fact &fact, LiveState &state, const HostFacts &facts);

class HostLiveness {
public:
  HostLiveness(const clang::CFG &cfg, const HostFacts &facts);

  void run();

  /// Liveness after the last fact of `block` (the join over its successors).
  const LiveState &exitState(const clang::CFGBlock &block) const { return out[block.getBlockID()]; }
  /// Liveness right after fact `index` of `block`.
  LiveState after(const clang::CFGBlock &block, unsigned index) const;
  unsigned blockVisits() const { return visits; }

private:
  const clang::CFG &cfg;
  const HostFacts &facts;
  std::vector<LiveState> in, out;
  unsigned visits = 0;
};

} // namespace tilecc::host

#endif
