//===- HostSummaries.cpp - what a function of the translation unit does to its arguments --===//
//
// `summarizeCall` summarizes a function whose body the translation unit holds:
//  * which of its reference parameters it consumes on every path to its end (waits for the
//    futures or threads they are or hold, syncs or moves their ops), so that a call of a helper
//    such as `wait_all(fs)` returns the argument's loans where it returns: a forward
//    must-analysis of the callee's own facts (its CFG, built as the caller's is), where a
//    parameter is consumed at a point when every path there killed it with no loan flowing
//    back in since;
//  * which holder parameters may come back holding loans on which array parameters: any loan
//    the body makes on an array parameter may reach any holder parameter that receives loans.
// Recursion and unknown bodies consume nothing and store nothing.
//
//===----------------------------------------------------------------------===//
#include "HostFactBuilder.h"

#include "tilecc/Analysis/TileLibrary.h"

#include "llvm/ADT/BitVector.h"

using namespace clang;
using namespace tilecc;
using namespace tilecc::host;
using namespace tilecc::host::detail;

const CallSummary &FactBuilder::summarizeCall(const FunctionDecl *callee) {
  static const CallSummary none;
  if (!callee || !callee->hasBody() || isInTileNamespace(callee) || callee->isInStdNamespace())
    return none;
  callee = callee->getDefinition() ? callee->getDefinition() : callee;
  auto [it, inserted] = S.callSummaries.try_emplace(callee);
  if (!inserted || S.summaryDepth > 8)
    return it->second; // computed, or being computed (recursion): nothing consumed yet
  unsigned n = callee->getNumParams();
  // The reference parameters whose type carries loans (futures, threads, ops, containers),
  // and those that are arrays.
  std::vector<const ParmVarDecl *> params, arrays;
  for (const ParmVarDecl *p : callee->parameters()) {
    bool reference = p->getType()->isLValueReferenceType();
    TypeFacts type = types.classify(p->getType());
    params.push_back(reference && !p->getType().getNonReferenceType().isConstQualified() &&
                             type.carriesLoans
                         ? p
                         : nullptr);
    arrays.push_back(reference && type.kind == HostKind::Array ? p : nullptr);
  }
  if (llvm::none_of(params, [](const ParmVarDecl *p) { return p != nullptr; }))
    return it->second;

  std::unique_ptr<BodyFacts> facts = buildBodyFacts(callee, callee, S.summaryDepth);
  if (!facts)
    return it->second;
  const CFG *calleeCFG = facts->cfg.get();
  PlaceResolver &calleeResolver = *facts->resolver;
  const std::vector<std::vector<Fact>> &calleeBlocks = facts->blocks;
  const auto &calleeEdges = facts->edges;

  std::vector<PlaceId> paramPlace(n, NoPlace), arrayPlace(n, NoPlace);
  for (unsigned i = 0; i < n; ++i) {
    if (params[i])
      if (std::optional<PlaceId> p = calleeResolver.placeOfVariable(params[i]))
        paramPlace[i] = *p;
    if (arrays[i])
      if (std::optional<PlaceId> p = calleeResolver.placeOfVariable(arrays[i]))
        arrayPlace[i] = *p;
  }
  CallSummary summary;
  // Stores: the loans made on array parameters, and the holder parameters loans reach.
  llvm::SmallVector<bool, 4> receives(n, false);
  llvm::SmallVector<std::optional<LoanKind>, 4> lent(n);
  auto note = [&](const Fact &f) {
    for (unsigned i = 0; i < n; ++i) {
      if (paramPlace[i] != NoPlace &&
          ((f.kind == Fact::Kind::Flow && places.overlaps(f.to, paramPlace[i])) ||
           (f.kind == Fact::Kind::Issue && places.overlaps(f.place, paramPlace[i]))))
        receives[i] = true;
      if (arrayPlace[i] != NoPlace && f.kind == Fact::Kind::Issue &&
          places.isWithin(S.out.loans[f.loan].array, arrayPlace[i]) &&
          lent[i] != LoanKind::Exclusive)
        lent[i] = S.out.loans[f.loan].kind;
    }
  };
  for (const std::vector<Fact> &facts : calleeBlocks)
    for (const Fact &f : facts)
      note(f);
  for (auto &[edge, facts] : calleeEdges)
    for (const Fact &f : facts)
      note(f);
  for (unsigned holder = 0; holder < n; ++holder)
    for (unsigned array = 0; array < n; ++array)
      if (receives[holder] && lent[array])
        summary.stores.emplace_back(holder, array, *lent[array]);
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
        for (const CFGBlock::AdjacentBlock &pred : block->preds()) {
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
  summary.consumed.assign(n, false);
  const llvm::BitVector &atExit = in[calleeCFG->getExit().getBlockID()];
  for (unsigned i = 0; i < n; ++i)
    summary.consumed[i] = atExit.test(i);
  S.callSummaries[callee] = std::move(summary);
  return S.callSummaries[callee];
}
