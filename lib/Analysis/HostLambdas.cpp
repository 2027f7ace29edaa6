//===- HostLambdas.cpp - summaries of lambdas for the host checker ------------===//
//
// A lambda's body is a function of its own (checked with its enclosing function), but what it
// does to the variables it captured by reference happens where it is called. `summaryFor` builds
// the facts of the body's CFG with the enclosing function's places and keeps those about
// captured places: accesses, uses and moves (all of them), loans ended or values revived (only
// on blocks every path through the body takes), and the loans it creates on captured arrays.
// `applyLambda` replays the summary at a call, or where the lambda is passed to an unknown
// function that may call it; `lendToThread` turns the arrays a lambda started on another thread
// touches into loans its thread holds until joined.
//
//===----------------------------------------------------------------------===//
#include "HostFactBuilder.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace tilecc;
using namespace tilecc::host;
using namespace tilecc::host::detail;

void FactBuilder::applyLambda(const LambdaExpr *l, const Expr *call, PlaceId closure,
                              SourceLocation at) {
  const LambdaSummary &summary = summaryFor(l);
  // A call that consumes every op or future the closure holds ends the closure's loans.
  if (summary.consumesHeld && closure != NoPlace) {
    use(closure, UseKind::Consume, site(call->getExprLoc(), "call of the lambda"));
    kill(closure);
  }
  SourceLocation loc = at.isValid() ? at : call->getExprLoc();
  for (const Fact &f : summary.facts) {
    Fact g = f;
    if (f.kind == Fact::Kind::Access || f.kind == Fact::Kind::Use || f.kind == Fact::Kind::Move) {
      const Site inner = S.out.sites[f.site];
      Site replay{loc, viaLambda(inner.what), inner.inner.isValid() ? inner.inner : inner.loc,
                  false};
      S.out.sites.push_back(replay);
      g.site = static_cast<unsigned>(S.out.sites.size() - 1);
    }
    g.loan = NoLoan;
    g.launch = NoPlace;
    emit(g);
  }
  // Loans made inside the body leave it through the captures that received them, or through
  // the value it returns: a lambda that returns nothing hands none to the call's result (a
  // std::thread it started holds only what lendToThread lends it).
  bool returnsValue = !l->getCallOperator()->getReturnType()->isVoidType();
  PlaceId result = producesTemp(call) && returnsValue ? tempOf(call) : NoPlace;
  for (LoanId inner : summary.innerLoans) {
    auto key = std::make_pair(call, inner);
    auto it = S.replayedLoans.find(key);
    LoanId loan;
    if (it != S.replayedLoans.end()) {
      loan = it->second;
    } else {
      Loan copy = S.out.loans[inner];
      S.out.loans.push_back(copy);
      loan = static_cast<LoanId>(S.out.loans.size() - 1);
      S.replayedLoans[key] = loan;
    }
    if (result != NoPlace)
      issue(loan, result);
    for (PlaceId receiver : summary.receivers)
      issue(loan, receiver);
  }
}

void FactBuilder::lendToThread(const LambdaExpr *l, const Expr *call, PlaceId holder) {
  const LambdaSummary &summary = summaryFor(l);
  // Only what outlives the body is lent: its own temporaries and locals come and go with it.
  auto outlivesBody = [&](PlaceId place) {
    const Place &root = places[places.root(place)];
    if (root.kind == PlaceKind::Temporary)
      return false;
    if (root.kind == PlaceKind::Variable && root.var)
      for (const DeclContext *dc = root.var->getDeclContext(); dc; dc = dc->getParent())
        if (dc == l->getCallOperator())
          return false;
    return true;
  };
  llvm::MapVector<PlaceId, bool> touched; // array -> written
  for (const Fact &f : summary.facts)
    if (f.kind == Fact::Kind::Access && places[f.place].type.containsArrays &&
        outlivesBody(f.place))
      touched[f.place] |= f.access != AccessKind::Read;
  for (auto [array, writes] : touched)
    lendForThread(array, writes, call, holder, "used by");
}

void FactBuilder::lendRefToThread(const Expr *arg, const Expr *call, PlaceId holder) {
  const auto *ref = dyn_cast<CallExpr>(PlaceResolver::skipWrappers(arg));
  const FunctionDecl *callee = ref ? ref->getDirectCallee() : nullptr;
  if (!callee || !callee->isInStdNamespace() || !callee->getIdentifier() ||
      (callee->getName() != "ref" && callee->getName() != "cref") || ref->getNumArgs() != 1)
    return;
  std::optional<PlaceRef> target = resolver.resolve(ref->getArg(0));
  if (!target || !places[target->place].type.containsArrays)
    return;
  // std::cref, or std::ref of a const object, lets the thread only read.
  bool writes = callee->getName() == "ref" && !ref->getArg(0)->getType().isConstQualified();
  lendForThread(target->place, writes, call, holder, "passed by reference to");
}

void FactBuilder::lendForThread(PlaceId array, bool writes, const Expr *call, PlaceId holder,
                                llvm::StringRef how) {
  SourceLocation loc = call->getExprLoc();
  LoanKind kind = writes ? LoanKind::Exclusive : LoanKind::Shared;
  LoanId loan = loanFor(call, array, kind, loc);
  access(array, writes ? AccessKind::LendExclusive : AccessKind::LendShared,
         site(loc, std::string(writes ? "exclusive" : "shared") + " borrow (" + how.str() +
                       " the work started on another thread here)"),
         loan);
  if (holder != NoPlace)
    issue(loan, holder);
}

/// Blocks on every path from entry to exit.
static llvm::DenseSet<unsigned> unconditionalBlocks(const CFG &cfg,
                                                    const llvm::DenseSet<unsigned> &candidates) {
  llvm::DenseSet<unsigned> result;
  for (unsigned id : candidates) {
    llvm::DenseSet<unsigned> seen;
    llvm::SmallVector<const CFGBlock *, 16> work{&cfg.getEntry()};
    seen.insert(cfg.getEntry().getBlockID());
    bool exitReached = false;
    while (!work.empty() && !exitReached) {
      const CFGBlock *b = work.pop_back_val();
      if (b == &cfg.getExit()) {
        exitReached = true;
        break;
      }
      for (const CFGBlock::AdjacentBlock &succ : b->succs()) {
        const CFGBlock *next = succ.getReachableBlock();
        if (!next || next->getBlockID() == id || !seen.insert(next->getBlockID()).second)
          continue;
        work.push_back(next);
      }
    }
    if (!exitReached)
      result.insert(id);
  }
  return result;
}

std::unique_ptr<BodyFacts> FactBuilder::buildBodyFacts(const FunctionDecl *fn, const Decl *scope,
                                                       unsigned &depth) {
  Stmt *body = fn->getBody();
  auto facts = std::make_unique<BodyFacts>();
  facts->cfg = CFG::buildCFG(fn, body, &S.ctx, hostCFGOptions());
  if (!facts->cfg)
    return nullptr;
  facts->parents = std::make_unique<ParentMap>(body);
  facts->resolver = std::make_unique<PlaceResolver>(scope, body, places, types);
  facts->resolver->followPositions(ContainerPositions::compute(S.ctx, *facts->cfg, body, types));
  ++depth;
  FactBuilder sub(S, fn, *facts->cfg, *facts->parents, *facts->resolver, facts->blocks,
                  facts->edges);
  sub.build();
  --depth;
  return facts;
}

const LambdaSummary &FactBuilder::summaryFor(const LambdaExpr *l) {
  std::unique_ptr<LambdaSummary> &slot = S.summaries[l];
  if (slot)
    return *slot;
  slot = std::make_unique<LambdaSummary>();
  LambdaSummary &summary = *slot;
  if (S.lambdaDepth > 6)
    return summary;

  const FunctionDecl *op = l->getCallOperator();
  if (const FunctionTemplateDecl *generic = op->getDescribedFunctionTemplate()) {
    op = nullptr;
    for (const FunctionDecl *spec : generic->specializations())
      if (spec->hasBody()) {
        op = spec;
        break;
      }
  }
  if (!op || !op->hasBody())
    return summary;
  std::unique_ptr<BodyFacts> facts = buildBodyFacts(op, S.topFunction, S.lambdaDepth);
  if (!facts)
    return summary;
  const CFG *lambdaCFG = facts->cfg.get();
  PlaceResolver &lambdaResolver = *facts->resolver;
  const std::vector<std::vector<Fact>> &lambdaBlocks = facts->blocks;

  // The places the lambda reaches through its by-reference captures.
  llvm::SmallVector<PlaceId, 4> captured;
  for (const LambdaCapture &capture : l->captures()) {
    if (capture.capturesThis()) {
      captured.push_back(places.thisObject());
    } else if (capture.capturesVariable() && capture.getCaptureKind() == LCK_ByRef) {
      if (const auto *var = dyn_cast<VarDecl>(capture.getCapturedVar()))
        if (std::optional<PlaceId> p = lambdaResolver.placeOfVariable(var))
          captured.push_back(*p);
    }
  }
  auto isCaptured = [&](PlaceId p) {
    if (p == NoPlace)
      return false;
    for (PlaceId c : captured)
      if (places.isWithin(p, c))
        return true;
    return false;
  };

  llvm::DenseSet<unsigned> reachable;
  llvm::SmallVector<const CFGBlock *, 16> work{&lambdaCFG->getEntry()};
  reachable.insert(lambdaCFG->getEntry().getBlockID());
  while (!work.empty()) {
    const CFGBlock *b = work.pop_back_val();
    for (const CFGBlock::AdjacentBlock &succ : b->succs())
      if (const CFGBlock *next = succ.getReachableBlock())
        if (reachable.insert(next->getBlockID()).second)
          work.push_back(next);
  }
  llvm::DenseSet<unsigned> candidates;
  for (unsigned id : reachable)
    for (const Fact &f : lambdaBlocks[id])
      if ((f.kind == Fact::Kind::Kill || f.kind == Fact::Kind::Revive) && isCaptured(f.place))
        candidates.insert(id);
  llvm::DenseSet<unsigned> must = unconditionalBlocks(*lambdaCFG, candidates);

  // The captures the closure holds by value that carry loans (ops, futures), and whether the
  // body consumes every one of them on every path.
  llvm::SmallVector<PlaceId, 4> held;
  for (const LambdaCapture &capture : l->captures())
    if (capture.capturesVariable() && capture.getCaptureKind() == LCK_ByCopy)
      if (const auto *var = dyn_cast<VarDecl>(capture.getCapturedVar());
          var && types.classify(var->getType()).carriesLoans)
        if (std::optional<PlaceId> p = lambdaResolver.placeOfVariable(var))
          held.push_back(*p);
  llvm::DenseSet<unsigned> consuming;
  for (unsigned id : reachable)
    for (const Fact &f : lambdaBlocks[id])
      if (f.kind == Fact::Kind::Kill && llvm::is_contained(held, f.place))
        consuming.insert(id);
  llvm::DenseSet<unsigned> always = unconditionalBlocks(*lambdaCFG, consuming);
  summary.consumesHeld = !held.empty() && llvm::all_of(held, [&](PlaceId p) {
    return llvm::any_of(always, [&](unsigned id) {
      return llvm::any_of(lambdaBlocks[id], [&](const Fact &f) {
        return f.kind == Fact::Kind::Kill && f.place == p;
      });
    });
  });

  for (const CFGBlock *block : *lambdaCFG) {
    if (!block || !reachable.count(block->getBlockID()))
      continue;
    for (const Fact &f : lambdaBlocks[block->getBlockID()]) {
      switch (f.kind) {
      case Fact::Kind::Access:
      case Fact::Kind::Move:
        if (isCaptured(f.place))
          summary.facts.push_back(f);
        break;
      case Fact::Kind::Use:
        if (f.use != UseKind::Destroy && isCaptured(f.place))
          summary.facts.push_back(f);
        break;
      case Fact::Kind::Kill:
      case Fact::Kind::Revive:
        if (isCaptured(f.place) && must.count(block->getBlockID()))
          summary.facts.push_back(f);
        break;
      case Fact::Kind::Issue:
        if (isCaptured(S.out.loans[f.loan].array) &&
            !llvm::is_contained(summary.innerLoans, f.loan))
          summary.innerLoans.push_back(f.loan);
        break;
      case Fact::Kind::Flow:
        if (isCaptured(f.to) && !llvm::is_contained(summary.receivers, f.to))
          summary.receivers.push_back(f.to);
        break;
      default:
        break;
      }
    }
  }
  return summary;
}

static bool holdsClosureAt(QualType type, const CXXRecordDecl *closure, unsigned depth) {
  const CXXRecordDecl *record = type.isNull() ? nullptr : type->getAsCXXRecordDecl();
  if (!record || depth > 6)
    return false;
  if (record->getCanonicalDecl() == closure->getCanonicalDecl())
    return true;
  if (!record->hasDefinition())
    return false;
  for (const FieldDecl *field : record->fields())
    if (!field->getType()->isReferenceType() && !field->getType()->isPointerType() &&
        holdsClosureAt(field->getType(), closure, depth + 1))
      return true;
  for (const CXXBaseSpecifier &base : record->bases())
    if (holdsClosureAt(base.getType(), closure, depth + 1))
      return true;
  return false;
}

bool FactBuilder::holdsClosure(QualType type, const LambdaExpr *lambda) {
  return holdsClosureAt(type, lambda->getLambdaClass(), 0);
}

bool FactBuilder::destructorRunsClosure(QualType type, const LambdaExpr *lambda) {
  const CXXRecordDecl *record = type->getAsCXXRecordDecl();
  const CXXDestructorDecl *dtor = record && record->hasDefinition() ? record->getDestructor() : nullptr;
  const FunctionDecl *definition = nullptr;
  if (!dtor || !dtor->hasBody(definition) || !definition)
    return false;
  const auto *body = dyn_cast_or_null<CompoundStmt>(definition->getBody());
  if (!body)
    return false;
  const CXXRecordDecl *closure = lambda->getLambdaClass()->getCanonicalDecl();
  for (const Stmt *stmt : body->body()) {
    const auto *call = dyn_cast<CXXOperatorCallExpr>(stmt);
    if (const auto *e = dyn_cast<Expr>(stmt))
      call = dyn_cast<CXXOperatorCallExpr>(e->IgnoreImplicit());
    if (!call || call->getOperator() != OO_Call || call->getNumArgs() < 1)
      continue;
    const auto *member = dyn_cast<MemberExpr>(call->getArg(0)->IgnoreParenImpCasts());
    if (!member || !isa<CXXThisExpr>(member->getBase()->IgnoreParenImpCasts()))
      continue;
    const CXXRecordDecl *held = member->getType()->getAsCXXRecordDecl();
    if (held && held->getCanonicalDecl() == closure)
      return true;
  }
  return false;
}
