//===- HostSummaries.cpp - what a function of the translation unit does to its arguments --===//
//
// `consumedParameters` summarizes a function whose body the translation unit holds: which of
// its reference parameters it consumes on every path to its end (waits for the futures or
// threads they are or hold, syncs or moves their ops), so that a call of a helper such as
// `wait_all(fs)` returns the argument's loans where it returns. The summary comes from the
// callee's own facts (its CFG, built as the caller's is) and a forward must-analysis: a
// parameter is consumed at a point when every path there killed it with no loan flowing back
// in since. Recursion and unknown bodies consume nothing.
//
//===----------------------------------------------------------------------===//
#include "HostFactBuilder.h"

#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/ParentMap.h"
#include "llvm/ADT/BitVector.h"

using namespace clang;
using namespace tilecc;
using namespace tilecc::host;
using namespace tilecc::host::detail;

const std::vector<bool> &FactBuilder::consumedParameters(const FunctionDecl *callee) {
  static const std::vector<bool> none;
  if (!callee || !callee->hasBody() || isInTileNamespace(callee) || callee->isInStdNamespace())
    return none;
  callee = callee->getDefinition() ? callee->getDefinition() : callee;
  auto [it, inserted] = S.consumed.try_emplace(callee);
  if (!inserted || S.summaryDepth > 8)
    return it->second; // computed, or being computed (recursion): nothing consumed yet
  unsigned n = callee->getNumParams();
  // The reference parameters whose type carries loans (futures, threads, ops, containers).
  std::vector<const ParmVarDecl *> params;
  for (const ParmVarDecl *p : callee->parameters())
    params.push_back(p->getType()->isLValueReferenceType() &&
                             !p->getType().getNonReferenceType().isConstQualified() &&
                             types.classify(p->getType()).carriesLoans
                         ? p
                         : nullptr);
  if (llvm::none_of(params, [](const ParmVarDecl *p) { return p != nullptr; }))
    return it->second;

  Stmt *body = callee->getBody();
  std::unique_ptr<CFG> calleeCFG = CFG::buildCFG(callee, body, &S.ctx, hostCFGOptions());
  if (!calleeCFG)
    return it->second;
  ParentMap calleeParents(body);
  PlaceResolver calleeResolver(callee, body, places, types);
  std::vector<std::vector<Fact>> calleeBlocks;
  std::map<std::pair<unsigned, unsigned>, std::vector<Fact>> calleeEdges;
  ++S.summaryDepth;
  FactBuilder sub(S, callee, *calleeCFG, calleeParents, calleeResolver, calleeBlocks, calleeEdges);
  sub.build();
  --S.summaryDepth;

  std::vector<PlaceId> paramPlace(n, NoPlace);
  for (unsigned i = 0; i < n; ++i)
    if (params[i])
      if (std::optional<PlaceId> p = calleeResolver.placeOfVariable(params[i]))
        paramPlace[i] = *p;
  // Facts change the set of consumed parameters: a kill of the parameter (or of a place that
  // holds it) adds it, loans flowing or issued into it take it out again.
  auto apply = [&](llvm::BitVector &consumed, const Fact &f) {
    for (unsigned i = 0; i < n; ++i) {
      if (paramPlace[i] == NoPlace)
        continue;
      if (f.kind == Fact::Kind::Kill && places.isWithin(paramPlace[i], f.place))
        consumed.set(i);
      else if ((f.kind == Fact::Kind::Flow && places.overlaps(f.to, paramPlace[i])) ||
               (f.kind == Fact::Kind::Issue && places.overlaps(f.place, paramPlace[i])))
        consumed.reset(i);
    }
  };
  unsigned blocks = calleeCFG->getNumBlockIDs();
  std::vector<llvm::BitVector> in(blocks, llvm::BitVector(n, true)), out(blocks, llvm::BitVector(n, true));
  unsigned entry = calleeCFG->getEntry().getBlockID();
  in[entry].reset();
  for (bool changed = true; changed;) {
    changed = false;
    for (const CFGBlock *block : *calleeCFG) {
      if (!block)
        continue;
      unsigned id = block->getBlockID();
      llvm::BitVector state(n, id != entry);
      if (id != entry) {
        bool any = false;
        for (auto [k, pred] : llvm::enumerate(block->preds())) {
          (void)k;
          const CFGBlock *p = pred.getReachableBlock();
          if (!p)
            continue;
          llvm::BitVector along = out[p->getBlockID()];
          unsigned succIndex = 0;
          for (const CFGBlock::AdjacentBlock &succ : p->succs()) {
            if (succ.getReachableBlock() == block)
              break;
            ++succIndex;
          }
          auto edge = calleeEdges.find({p->getBlockID(), succIndex});
          if (edge != calleeEdges.end())
            for (const Fact &f : edge->second)
              apply(along, f);
          state &= along;
          any = true;
        }
        if (!any)
          state.reset();
      }
      in[id] = state;
      for (const Fact &f : calleeBlocks[id])
        apply(state, f);
      if (state != out[id]) {
        out[id] = state;
        changed = true;
      }
    }
  }
  std::vector<bool> consumed(n, false);
  const llvm::BitVector &atExit = in[calleeCFG->getExit().getBlockID()];
  for (unsigned i = 0; i < n; ++i)
    consumed[i] = atExit.test(i);
  S.consumed[callee] = consumed;
  return S.consumed[callee];
}
