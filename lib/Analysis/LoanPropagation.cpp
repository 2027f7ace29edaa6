//===- LoanPropagation.cpp - forward dataflow of loans and moves --------------===//
#include "tilecc/Analysis/LoanPropagation.h"

#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include <set>

using namespace clang;
using namespace tilecc;
using namespace tilecc::host;

/// Keeps the earlier site for each key of `into` also in `from`; true when `into` changed.
static bool joinSites(std::map<PlaceId, unsigned> &into, const std::map<PlaceId, unsigned> &from) {
  bool changed = false;
  for (const auto &[place, site] : from) {
    auto [it, inserted] = into.try_emplace(place, site);
    if (inserted || site < it->second) {
      it->second = site;
      changed = true;
    }
  }
  return changed;
}

bool LoanState::join(const LoanState &other) {
  if (!other.reachable)
    return false;
  if (!reachable) {
    *this = other;
    return true;
  }
  bool changed = false;
  for (const auto &[place, loans] : other.held) {
    auto [it, inserted] = held.try_emplace(place, loans);
    if (inserted) {
      changed = true;
    } else {
      llvm::BitVector before = it->second;
      it->second |= loans;
      changed |= before != it->second;
    }
  }
  changed |= joinSites(moved, other.moved);
  changed |= joinSites(stored, other.stored);
  return changed;
}

const llvm::BitVector *LoanState::loansOf(PlaceId place) const {
  auto it = held.find(place);
  return it == held.end() ? nullptr : &it->second;
}

llvm::BitVector LoanState::heldWithin(PlaceId place, const PlaceTable &places) const {
  llvm::BitVector result;
  places.forEachWithin(place, [&](PlaceId p) {
    if (const llvm::BitVector *loans = loansOf(p))
      result |= *loans;
  });
  return result;
}

std::optional<std::pair<PlaceId, unsigned>> LoanState::movedAt(PlaceId place,
                                                               const PlaceTable &places) const {
  for (PlaceId p = place; p != NoPlace; p = places[p].parent) {
    auto it = moved.find(p);
    if (it != moved.end())
      return *it;
  }
  return std::nullopt;
}

unsigned LoanState::storeSite(PlaceId place) const {
  auto it = stored.find(place);
  return it == stored.end() ? NoSite : it->second;
}

void host::applyFact(const Fact &fact, LoanState &state, const HostFacts &facts) {
  const PlaceTable &places = facts.places;
  const unsigned numLoans = static_cast<unsigned>(facts.loans.size());
  auto clearWithin = [&](PlaceId place) {
    places.forEachWithin(place, [&](PlaceId p) { state.held.erase(p); });
  };
  switch (fact.kind) {
  case Fact::Kind::Issue: {
    llvm::BitVector &loans = state.held[fact.place];
    loans.resize(numLoans);
    loans.set(fact.loan);
    break;
  }
  case Fact::Kind::Flow: {
    llvm::BitVector loans = state.heldWithin(fact.place, places);
    if (fact.transfer)
      clearWithin(fact.place);
    if (loans.none())
      break;
    llvm::BitVector &into = state.held[fact.to];
    into.resize(numLoans);
    into |= loans;
    if (fact.checkStore)
      state.stored[fact.to] = fact.site;
    break;
  }
  case Fact::Kind::Kill:
    clearWithin(fact.place);
    break;
  case Fact::Kind::Move:
    state.moved[fact.place] = fact.site;
    break;
  case Fact::Kind::Revive:
    places.forEachWithin(fact.place, [&](PlaceId p) { state.moved.erase(p); });
    break;
  case Fact::Kind::Forget: {
    llvm::BitVector gone(numLoans);
    for (LoanId l = 0; l < numLoans; ++l)
      if (places.isWithin(facts.loans[l].array, fact.place))
        gone.set(l);
    if (gone.none())
      break;
    for (auto it = state.held.begin(); it != state.held.end();) {
      it->second.reset(gone);
      it = it->second.none() ? state.held.erase(it) : std::next(it);
    }
    break;
  }
  case Fact::Kind::Access:
  case Fact::Kind::Use:
  case Fact::Kind::Def:
  case Fact::Kind::Escape:
  case Fact::Kind::Discarded:
    break; // checks only
  }
}

LoanPropagation::LoanPropagation(const CFG &cfg, const HostFacts &facts) : cfg(cfg), facts(facts) {}

void LoanPropagation::run() {
  const unsigned numBlocks = cfg.getNumBlockIDs();
  in.assign(numBlocks, LoanState());
  out.assign(numBlocks, LoanState());

  // Reverse post-order, so that most blocks see all their predecessors first.
  PostOrderCFGView order(&cfg);
  std::vector<unsigned> rpoIndex(numBlocks, ~0u);
  std::vector<const CFGBlock *> byIndex;
  for (const CFGBlock *block : order) {
    rpoIndex[block->getBlockID()] = static_cast<unsigned>(byIndex.size());
    byIndex.push_back(block);
  }

  std::set<unsigned> worklist; // RPO indices, smallest first
  const CFGBlock &entry = cfg.getEntry();
  in[entry.getBlockID()].reachable = true;
  if (rpoIndex[entry.getBlockID()] != ~0u)
    worklist.insert(rpoIndex[entry.getBlockID()]);

  while (!worklist.empty()) {
    const CFGBlock *block = byIndex[*worklist.begin()];
    worklist.erase(worklist.begin());
    ++visits;
    const unsigned id = block->getBlockID();

    if (block != &entry) {
      LoanState joined;
      for (const CFGBlock::AdjacentBlock &pred : block->preds()) {
        const CFGBlock *p = pred.getReachableBlock();
        if (!p)
          continue;
        const LoanState &predOut = out[p->getBlockID()];
        if (!predOut.reachable)
          continue;
        // Facts that hold on this edge only (a range-for's exit).
        unsigned index = 0;
        const std::vector<Fact> *edge = nullptr;
        for (const CFGBlock::AdjacentBlock &succ : p->succs()) {
          if (succ.getReachableBlock() == block) {
            edge = facts.edgeFacts(*p, index);
            break;
          }
          ++index;
        }
        if (edge) {
          LoanState onEdge = predOut;
          for (const Fact &f : *edge)
            applyFact(f, onEdge, facts);
          joined.join(onEdge);
        } else {
          joined.join(predOut);
        }
      }
      in[id] = std::move(joined);
    }

    LoanState state = in[id];
    if (state.reachable)
      for (const Fact &f : facts.factsOf(*block))
        applyFact(f, state, facts);
    if (state == out[id])
      continue;
    out[id] = std::move(state);
    for (const CFGBlock::AdjacentBlock &succ : block->succs())
      if (const CFGBlock *s = succ.getReachableBlock())
        if (rpoIndex[s->getBlockID()] != ~0u)
          worklist.insert(rpoIndex[s->getBlockID()]);
  }
}
