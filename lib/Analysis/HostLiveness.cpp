//===- HostLiveness.cpp - backward liveness of ops and partitions -------------===//
#include "tilecc/Analysis/HostLiveness.h"

#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include <set>
#include <tuple>

using namespace clang;
using namespace tilecc;
using namespace tilecc::host;

/// Is use site `a` a better representative than `b`? Explicit uses beat destructors, then the
/// earlier location wins.
static bool better(unsigned a, unsigned b, const HostFacts &facts) {
  const Site &sa = facts.sites[a], &sb = facts.sites[b];
  return std::make_tuple(sa.destroy, sa.loc.getRawEncoding(), a) <
         std::make_tuple(sb.destroy, sb.loc.getRawEncoding(), b);
}

bool LiveState::join(const LiveState &other, const HostFacts &facts) {
  bool changed = false;
  for (const auto &[place, site] : other.next) {
    auto [it, inserted] = next.try_emplace(place, site);
    if (inserted || better(site, it->second, facts)) {
      it->second = site;
      changed = true;
    }
  }
  for (PlaceId p : other.consumeLive)
    changed |= consumeLive.insert(p).second;
  return changed;
}

void host::applyFactBackward(const Fact &fact, LiveState &state, const HostFacts &facts) {
  switch (fact.kind) {
  case Fact::Kind::Use:
    state.next[fact.place] = fact.site;
    if (fact.use == UseKind::Consume)
      state.consumeLive.insert(fact.place);
    break;
  case Fact::Kind::Def:
    facts.places.forEachWithin(fact.place, [&](PlaceId p) {
      state.next.erase(p);
      state.consumeLive.erase(p);
    });
    break;
  default:
    break;
  }
}

HostLiveness::HostLiveness(const CFG &cfg, const HostFacts &facts) : cfg(cfg), facts(facts) {}

void HostLiveness::run() {
  const unsigned numBlocks = cfg.getNumBlockIDs();
  in.assign(numBlocks, LiveState());
  out.assign(numBlocks, LiveState());

  // Post-order: successors before predecessors.
  PostOrderCFGView order(&cfg);
  std::vector<const CFGBlock *> rpo(order.begin(), order.end());
  std::vector<unsigned> poIndex(numBlocks, ~0u);
  std::vector<const CFGBlock *> byIndex(rpo.rbegin(), rpo.rend());
  for (unsigned i = 0; i < byIndex.size(); ++i)
    poIndex[byIndex[i]->getBlockID()] = i;

  std::set<unsigned> worklist;
  for (unsigned i = 0; i < byIndex.size(); ++i)
    worklist.insert(i);
  std::vector<bool> seen(numBlocks, false);

  while (!worklist.empty()) {
    const CFGBlock *block = byIndex[*worklist.begin()];
    worklist.erase(worklist.begin());
    ++visits;
    const unsigned id = block->getBlockID();

    LiveState joined;
    unsigned index = 0;
    for (const CFGBlock::AdjacentBlock &succ : block->succs()) {
      const CFGBlock *s = succ.getReachableBlock();
      if (s) {
        if (const std::vector<Fact> *edge = facts.edgeFacts(*block, index)) {
          LiveState onEdge = in[s->getBlockID()];
          for (auto it = edge->rbegin(); it != edge->rend(); ++it)
            applyFactBackward(*it, onEdge, facts);
          joined.join(onEdge, facts);
        } else {
          joined.join(in[s->getBlockID()], facts);
        }
      }
      ++index;
    }
    out[id] = joined;
    const std::vector<Fact> &blockFacts = facts.factsOf(*block);
    for (auto it = blockFacts.rbegin(); it != blockFacts.rend(); ++it)
      applyFactBackward(*it, joined, facts);
    if (seen[id] && joined == in[id])
      continue;
    seen[id] = true;
    in[id] = std::move(joined);
    for (const CFGBlock::AdjacentBlock &pred : block->preds())
      if (const CFGBlock *p = pred.getReachableBlock())
        if (poIndex[p->getBlockID()] != ~0u)
          worklist.insert(poIndex[p->getBlockID()]);
  }
}

LiveState HostLiveness::after(const CFGBlock &block, unsigned index) const {
  LiveState state = out[block.getBlockID()];
  const std::vector<Fact> &blockFacts = facts.factsOf(block);
  for (size_t i = blockFacts.size(); i > index + 1; --i)
    applyFactBackward(blockFacts[i - 1], state, facts);
  return state;
}
