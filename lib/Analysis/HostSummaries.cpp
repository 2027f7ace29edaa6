//===- HostSummaries.cpp - what a function of the translation unit does to its arguments --===//
//
// `summarizeCall` summarizes a function whose body the translation unit holds:
//  * which of its reference parameters it consumes on every path to its end (waits for the
//    futures or threads they are or hold, syncs or moves their ops), so that a call of a helper
//    such as `wait_all(fs)` returns the argument's loans where it returns: a forward
//    must-analysis of the callee's own facts (its CFG, built as the caller's is), where a
//    parameter is consumed at a point when every path there killed it with no loan flowing
//    back in since;
//  * which holder parameters (or the method's object) may come back holding loans on which
//    array parameters: any loan the body makes on an array parameter may reach any holder that
//    receives loans.
// A method's object is summarized too: the fields of it that the method consumes (a method that
// waits for the futures it holds, a destructor that waits for the future a reference member
// names), and whether it receives loans (a method that starts work on
// an array argument and keeps it). Recursion and unknown bodies consume nothing and store
// nothing.
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
  // A method's object (a constructor's, which it makes), and its fields that carry loans.
  const auto *method = dyn_cast<CXXMethodDecl>(callee);
  bool hasObject = method && method->isInstance() &&
                   (isa<CXXConstructorDecl, CXXDestructorDecl>(method) || !method->isConst());
  std::vector<const FieldDecl *> fields;
  if (hasObject)
    for (const FieldDecl *field : method->getParent()->fields())
      if (types.classify(field->getType()).carriesLoans)
        fields.push_back(field);
  if (llvm::none_of(params, [](const ParmVarDecl *p) { return p != nullptr; }) &&
      !(hasObject && llvm::any_of(arrays, [](const ParmVarDecl *p) { return p != nullptr; })) &&
      fields.empty())
    return it->second;

  std::unique_ptr<BodyFacts> facts = buildBodyFacts(callee, callee, S.summaryDepth);
  if (!facts)
    return it->second;
  const CFG *calleeCFG = facts->cfg.get();
  PlaceResolver &calleeResolver = *facts->resolver;
  const std::vector<std::vector<Fact>> &calleeBlocks = facts->blocks;
  const auto &calleeEdges = facts->edges;

  // Slots whose consumption is summarized: the holder parameters, then the object's fields.
  unsigned slots = n + static_cast<unsigned>(fields.size());
  std::vector<PlaceId> slotPlace(slots, NoPlace), arrayPlace(n, NoPlace);
  for (unsigned i = 0; i < n; ++i) {
    if (params[i])
      if (std::optional<PlaceId> p = calleeResolver.placeOfVariable(params[i]))
        slotPlace[i] = *p;
    if (arrays[i])
      if (std::optional<PlaceId> p = calleeResolver.placeOfVariable(arrays[i]))
        arrayPlace[i] = *p;
  }
  PlaceId object = hasObject ? places.thisObject() : NoPlace;
  for (unsigned f = 0; f < fields.size(); ++f)
    slotPlace[n + f] = places.field(object, fields[f], types.classify(fields[f]->getType()));
  CallSummary summary;
  // Stores: the loans made on array parameters, and the holders loans reach.
  llvm::SmallVector<bool, 4> receives(n, false);
  bool objectReceives = false;
  std::vector<const FieldDecl *> receivingFields;
  llvm::SmallVector<std::optional<LoanKind>, 4> lent(n);
  auto reaches = [&](const Fact &f, PlaceId holder) {
    return (f.kind == Fact::Kind::Flow && places.overlaps(f.to, holder)) ||
           (f.kind == Fact::Kind::Issue && places.overlaps(f.place, holder));
  };
  auto note = [&](const Fact &f) {
    for (unsigned i = 0; i < n; ++i) {
      if (slotPlace[i] != NoPlace && reaches(f, slotPlace[i]))
        receives[i] = true;
      if (arrayPlace[i] != NoPlace && f.kind == Fact::Kind::Issue &&
          places.isWithin(S.out.loans[f.loan].array, arrayPlace[i]) &&
          lent[i] != LoanKind::Exclusive)
        lent[i] = S.out.loans[f.loan].kind;
    }
    if (object != NoPlace && reaches(f, object)) {
      // Into one of the fields summarized (a loan-carrying field of the object), or elsewhere.
      const FieldDecl *into = nullptr;
      for (unsigned k = 0; k < fields.size(); ++k)
        if (places.isWithin(f.kind == Fact::Kind::Flow ? f.to : f.place, slotPlace[n + k]))
          into = fields[k];
      if (!into)
        objectReceives = true;
      else if (!llvm::is_contained(receivingFields, into))
        receivingFields.push_back(into);
    }
  };
  for (const std::vector<Fact> &facts : calleeBlocks)
    for (const Fact &f : facts)
      note(f);
  for (auto &[edge, facts] : calleeEdges)
    for (const Fact &f : facts)
      note(f);
  for (unsigned array = 0; array < n; ++array) {
    if (!lent[array])
      continue;
    for (unsigned holder = 0; holder < n; ++holder)
      if (receives[holder])
        summary.stores.push_back({holder, nullptr, array, *lent[array]});
    if (objectReceives)
      summary.stores.push_back({CallSummary::Object, nullptr, array, *lent[array]});
    for (const FieldDecl *field : receivingFields)
      summary.stores.push_back({CallSummary::Object, field, array, *lent[array]});
  }
  // Facts change the set of consumed slots: a kill of the slot (or of a place that holds it)
  // adds it, loans flowing or issued into it take it out again.
  auto apply = [&](llvm::BitVector &consumed, const Fact &f) {
    for (unsigned i = 0; i < slots; ++i) {
      if (slotPlace[i] == NoPlace)
        continue;
      if (f.kind == Fact::Kind::Kill && places.isWithin(slotPlace[i], f.place))
        consumed.set(i);
      else if (reaches(f, slotPlace[i]))
        consumed.reset(i);
    }
  };
  unsigned blocks = calleeCFG->getNumBlockIDs();
  std::vector<llvm::BitVector> in(blocks, llvm::BitVector(slots, true)),
      out(blocks, llvm::BitVector(slots, true));
  unsigned entry = calleeCFG->getEntry().getBlockID();
  in[entry].reset();
  for (bool changed = true; changed;) {
    changed = false;
    for (const CFGBlock *block : *calleeCFG) {
      if (!block)
        continue;
      unsigned id = block->getBlockID();
      llvm::BitVector state(slots, id != entry);
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
  const llvm::BitVector &atExit = in[calleeCFG->getExit().getBlockID()];
  summary.consumed.assign(n, false);
  for (unsigned i = 0; i < n; ++i)
    summary.consumed[i] = atExit.test(i);
  for (unsigned f = 0; f < fields.size(); ++f)
    if (atExit.test(n + f))
      summary.consumedFields.push_back(fields[f]);
  S.callSummaries[callee] = std::move(summary);
  return S.callSummaries[callee];
}
