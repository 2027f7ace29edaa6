//===- HostBorrowChecker.cpp - the host rules and their reports ---------------===//
//
// Drives the host analyses for one function and reports what the fixpoint shows: every
// reachable block is replayed from its entry state, fact by fact, checking each fact against
// the state just before it. See HostBorrowChecker.h for the rules.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Analysis/HostBorrowChecker.h"

#include "tilecc/Analysis/Checks.h"
#include "tilecc/Analysis/Diagnostics.h"
#include "tilecc/Analysis/HostFacts.h"
#include "tilecc/Analysis/HostLiveness.h"
#include "tilecc/Analysis/LoanPropagation.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/ASTLambda.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include <set>

using namespace clang;
using namespace tilecc;
using namespace tilecc::host;

namespace {

/// Reports through the rule table, once per (rule, location).
class Reporter {
public:
  explicit Reporter(DiagnosticsEngine &diags) : diags(diags) {}

  /// Starts a report unless one was already made here; streams arguments into it.
  std::optional<DiagnosticBuilder> start(Rule rule, SourceLocation loc) {
    if (!reported.insert({static_cast<unsigned>(rule), loc.getRawEncoding()}).second)
      return std::nullopt;
    if (ruleSeverity(rule) == Severity::Error)
      errors = true;
    return report(diags, loc, rule);
  }
  void addNote(SourceLocation loc, const std::string &message) {
    if (loc.isValid())
      note(diags, loc, message);
  }
  bool clean() const { return !errors; }

private:
  DiagnosticsEngine &diags;
  std::set<std::pair<unsigned, unsigned>> reported;
  bool errors = false;
};

std::string quoted(const std::string &name) { return "'" + name + "'"; }

class FunctionChecker {
public:
  FunctionChecker(const CFG &cfg, const HostFacts &facts, const LoanPropagation &loans,
                  const HostLiveness &liveness, Reporter &reporter)
      : cfg(cfg), facts(facts), places(facts.places), loans(loans), liveness(liveness),
        reporter(reporter) {}

  void run() {
    PostOrderCFGView order(&cfg);
    for (const CFGBlock *block : order) {
      LoanState state = loans.entryState(*block);
      if (!state.reachable)
        continue;
      const std::vector<Fact> &blockFacts = facts.factsOf(*block);
      for (unsigned i = 0; i < blockFacts.size(); ++i) {
        check(blockFacts[i], state, *block, i);
        applyFact(blockFacts[i], state, facts);
      }
    }
  }

private:
  void check(const Fact &f, const LoanState &state, const CFGBlock &block, unsigned index) {
    switch (f.kind) {
    case Fact::Kind::Access:
      checkAccess(f, state, block, index);
      break;
    case Fact::Kind::Use:
      if (f.use != UseKind::Destroy && places[f.place].type.isTileValue())
        checkMoved(f, state);
      break;
    case Fact::Kind::Escape:
      checkEscape(f, state);
      break;
    case Fact::Kind::Def:
      if (f.declaration && places[f.place].type.kind == HostKind::DeviceOp &&
          !liveness.after(block, index).consumedLater(f.place))
        if (auto diag = reporter.start(Rule::UnusedOp, facts.sites[f.site].loc))
          *diag << ("the operation in " + quoted(places[f.place].name));
      break;
    case Fact::Kind::Discarded:
      if (auto diag = reporter.start(Rule::UnusedOp, facts.sites[f.site].loc))
        *diag << "this operation";
      break;
    default:
      break;
    }
  }

  /// tile-use-after-move. True when reported.
  bool checkMoved(const Fact &f, const LoanState &state) {
    std::optional<std::pair<PlaceId, unsigned>> moved = state.movedAt(f.place, places);
    if (!moved)
      return false;
    const Site &use = facts.sites[f.site];
    const Site &at = facts.sites[moved->second];
    {
      auto diag = reporter.start(Rule::UseAfterMove, use.loc);
      if (!diag)
        return true;
      *diag << places[f.place].name << at.what;
    }
    const std::string how = llvm::StringRef(at.what).starts_with("consumed")   ? "consumed"
                            : llvm::StringRef(at.what).starts_with("returned") ? "returned"
                                                                               : "moved";
    reporter.addNote(at.loc, quoted(places[moved->first].name) + " was " + how + " here");
    if (at.inner.isValid())
      reporter.addNote(at.inner, "inside the lambda, here");
    if (use.inner.isValid())
      reporter.addNote(use.inner, "the lambda uses " + quoted(places[f.place].name) + " here");
    return true;
  }

  void checkAccess(const Fact &f, const LoanState &state, const CFGBlock &block, unsigned index) {
    const Place &place = places[f.place];
    if (f.access != AccessKind::Assign && f.access != AccessKind::Destroy && !f.exemptMoved &&
        place.type.isTileValue() && checkMoved(f, state))
      return;

    // The first conflicting loan (in creation order), preferably held by a named place.
    LoanId found = NoLoan;
    PlaceId holder = NoPlace;
    for (const auto &[h, loans] : state.held) {
      // Work kept by an unseen callee was reported where it was handed over if it borrows an
      // array the function destroys.
      if (f.access == AccessKind::Destroy && places[h].kind == PlaceKind::Kept)
        continue;
      for (unsigned l : loans.set_bits()) {
        // A loan from this very site is checked too: it is one made by an earlier execution
        // (a previous loop iteration), since the new one is issued after this access.
        const Loan &loan = facts.loans[l];
        if (!places.overlaps(loan.array, f.place) || !conflicts(f.access, loan.kind))
          continue;
        bool namedBetter = places[h].storage != Storage::Temporary &&
                           (holder == NoPlace || places[holder].storage == Storage::Temporary);
        if (found == NoLoan || l < found || (l == found && namedBetter)) {
          found = l;
          holder = h;
        }
      }
    }
    if (found == NoLoan)
      return;

    const Loan &loan = facts.loans[found];
    const Site &at = facts.sites[f.site];
    if (f.access == AccessKind::Destroy && places[holder].storage != Storage::Temporary &&
        facts.resolver->outlives(holder, loan.array)) {
      reportOutlives(holder, loan, state, at);
      return;
    }
    const char *loanKind = loan.kind == LoanKind::Exclusive ? "an exclusive" : "a shared";
    bool lending = f.access == AccessKind::LendShared || f.access == AccessKind::LendExclusive;
    if (lending && f.launch != NoPlace) {
      auto diag = reporter.start(Rule::BorrowConflict, at.loc);
      if (!diag)
        return;
      *diag << place.name << (f.access == AccessKind::LendExclusive ? "exclusively" : "shared")
            << describeHolder(holder, f.launch) << loanKind;
    } else {
      auto diag = reporter.start(Rule::AccessWhileBorrowed, at.loc);
      if (!diag)
        return;
      *diag << at.what << place.name << describeHolder(holder, f.launch) << loanKind;
    }
    noteLoanOrigin(loan);
    if (holder != f.launch && places[holder].storage != Storage::Temporary) {
      LiveState live = liveness.after(block, index);
      int next = -1;
      PlaceId user = holder;
      for (PlaceId p = holder; p != NoPlace; p = places[p].parent)
        if (live.nextUse(p) >= 0 && (next < 0 || facts.sites[live.nextUse(p)].loc.getRawEncoding() <
                                                  facts.sites[next].loc.getRawEncoding())) {
          next = live.nextUse(p);
          user = p;
        }
      if (next >= 0) {
        const Site &use = facts.sites[next];
        reporter.addNote(use.loc, use.destroy ? "the loan is still needed here, when " +
                                                    quoted(places[user].name) + " is destroyed"
                                              : std::string("the loan is still needed here"));
      }
    }
    if (at.inner.isValid())
      reporter.addNote(at.inner, "the lambda uses " + quoted(place.name) + " here");
  }

  /// The first of the three points: "'a' was lent exclusively here".
  void noteLoanOrigin(const Loan &loan) {
    reporter.addNote(loan.origin, quoted(places[loan.array].name) + " was lent " +
                                      (loan.kind == LoanKind::Exclusive ? "exclusively" : "shared") +
                                      " here");
  }

  std::string describeHolder(PlaceId holder, PlaceId launch) const {
    const Place &h = places[holder];
    if (holder == launch)
      return "another argument of this launch";
    if (h.kind == PlaceKind::Kept && isa_and_nonnull<CXXNewExpr>(h.expr))
      return "the object made by 'new' (not followed)";
    if (h.kind == PlaceKind::Kept)
      return "the work handed to " + quoted(h.name) + " (which may run it after it returns)";
    if (h.kind == PlaceKind::Temporary) {
      if (h.type.kind == HostKind::DeviceOp)
        return "an unfinished operation";
      if (h.type.kind == HostKind::Future)
        return "an unfinished future";
      if (h.type.kind == HostKind::Graph)
        return "a graph";
      if (h.type.kind == HostKind::PartitionRef)
        return "a partition ref";
      if (h.type.kind == HostKind::Thread)
        return "work running on another thread";
      return "a temporary";
    }
    if (h.type.kind == HostKind::DeviceOp)
      return "the unfinished operation " + quoted(h.name);
    if (h.type.kind == HostKind::Future)
      return "the future " + quoted(h.name) + " (not waited for)";
    if (h.type.kind == HostKind::Graph)
      return "the graph " + quoted(h.name);
    if (h.type.kind == HostKind::PartitionRef)
      return (isArrayView(h) ? "the view " : "the partition ref ") + quoted(h.name);
    if (h.type.kind == HostKind::Thread)
      return "the work on another thread that " + quoted(h.name) +
             " runs (not joined or waited for)";
    return quoted(h.name);
  }

  /// The array is destroyed while `holder`, which lives longer, still holds a loan on it:
  /// reported where the loan was stored into the holder.
  void reportOutlives(PlaceId holder, const Loan &loan, const LoanState &state,
                      const Site &destroyed) {
    unsigned stored = state.storeSite(holder);
    SourceLocation loc = stored != LoanState::NoSite ? facts.sites[stored].loc : destroyed.loc;
    {
      auto diag = reporter.start(Rule::LoanOutlivesArray, loc);
      if (!diag)
        return;
      *diag << quoted(places[holder].name) << places[loan.array].name;
    }
    noteLoanOrigin(loan);
    if (stored != LoanState::NoSite)
      reporter.addNote(destroyed.loc, quoted(places[loan.array].name) +
                                          " is destroyed here while " +
                                          quoted(places[holder].name) + " still holds the loan");
  }

  /// A place holding an ArrayView or ArrayViewMut (a view() or slice()), named as a view.
  static bool isArrayView(const Place &h) {
    const CXXRecordDecl *record =
        h.var ? h.var->getType().getNonReferenceType()->getAsCXXRecordDecl() : nullptr;
    return record && record->getIdentifier() && isInTileNamespace(record) &&
           record->getName().starts_with("ArrayView");
  }

  /// A returned op or partition ref must not borrow the function's own arrays.
  void checkEscape(const Fact &f, const LoanState &state) {
    llvm::BitVector leaving = state.heldWithin(f.place, places);
    for (unsigned l : leaving.set_bits()) {
      const Loan &loan = facts.loans[l];
      const Place &root = places[places.root(loan.array)];
      if (root.kind != PlaceKind::Variable ||
          (root.storage != Storage::Local && root.storage != Storage::ValueParam))
        continue;
      const Site &at = facts.sites[f.site];
      {
        auto diag = reporter.start(Rule::LoanOutlivesArray, at.loc);
        if (!diag)
          return;
        *diag << at.what << places[loan.array].name;
      }
      noteLoanOrigin(loan);
      return;
    }
  }

  const CFG &cfg;
  const HostFacts &facts;
  const PlaceTable &places;
  const LoanPropagation &loans;
  const HostLiveness &liveness;
  Reporter &reporter;
};

/// Runs the analyses on one body.
void analyze(ASTContext &context, const FunctionDecl *fn, Reporter &reporter,
             HostCheckStats &stats) {
  const Stmt *body = fn->getBody();
  if (!body || fn->isDependentContext())
    return;
  {
    HostTypes quick;
    if (!mentionsHostTypes(body, quick))
      return;
  }
  AnalysisDeclContextManager manager(context);
  AnalysisDeclContext *adc = manager.getContext(fn);
  adc->getCFGBuildOptions() = hostCFGOptions();
  CFG *cfg = adc->getCFG();
  if (!cfg)
    return; // Clang could not build a CFG: nothing to say
  std::unique_ptr<HostFacts> facts = buildHostFacts(context, fn, *cfg, adc->getParentMap());
  ++stats.functions;
  stats.blocks += cfg->size();
  stats.facts += facts->numFacts();
  if (facts->numFacts() == 0)
    return;
  LoanPropagation loans(*cfg, *facts);
  loans.run();
  HostLiveness liveness(*cfg, *facts);
  liveness.run();
  stats.forwardVisits += loans.blockVisits();
  stats.backwardVisits += liveness.blockVisits();
  FunctionChecker(*cfg, *facts, loans, liveness, reporter).run();
}

/// The lambdas written in a body, at any depth.
class LambdaCollector : public RecursiveASTVisitor<LambdaCollector> {
public:
  bool VisitLambdaExpr(LambdaExpr *lambda) {
    lambdas.push_back(lambda);
    return true;
  }
  std::vector<const LambdaExpr *> lambdas;
};

/// A function and the lambdas in it.
void analyzeWithLambdas(ASTContext &context, const FunctionDecl *fn, Reporter &reporter,
                        HostCheckStats &stats) {
  analyze(context, fn, reporter, stats);
  if (!fn->getBody())
    return;
  LambdaCollector collector;
  collector.TraverseStmt(const_cast<Stmt *>(fn->getBody()));
  for (const LambdaExpr *lambda : collector.lambdas) {
    const CXXMethodDecl *op = lambda->getCallOperator();
    if (const FunctionTemplateDecl *generic = op->getDescribedFunctionTemplate()) {
      for (const FunctionDecl *spec : generic->specializations())
        analyze(context, spec, reporter, stats);
    } else {
      analyze(context, op, reporter, stats);
    }
  }
}

} // namespace

bool tilecc::checkHostBorrows(ASTContext &context, const FunctionDecl *function,
                              HostCheckStats *stats) {
  HostCheckStats local;
  HostCheckStats &s = stats ? *stats : local;
  if (!function || !function->doesThisDeclarationHaveABody() || isTileKernel(function) ||
      isInTileNamespace(function))
    return true;
  // A lambda inside a function is checked with that function.
  if (const auto *method = dyn_cast<CXXMethodDecl>(function))
    if (isLambdaCallOperator(method) && method->getParent()->getDeclContext()->isFunctionOrMethod())
      return true;
  // An instantiation is checked through its pattern.
  if (function->getTemplateInstantiationPattern())
    return true;

  Reporter reporter(context.getDiagnostics());
  if (function->isDependentContext()) {
    if (const FunctionTemplateDecl *tmpl = function->getDescribedFunctionTemplate()) {
      for (const FunctionDecl *spec : tmpl->specializations())
        if (spec->getTemplateSpecializationKind() != TSK_ExplicitSpecialization)
          analyzeWithLambdas(context, spec, reporter, s);
    } else if (const auto *method = dyn_cast<CXXMethodDecl>(function)) {
      if (const ClassTemplateDecl *cls = method->getParent()->getDescribedClassTemplate())
        for (const ClassTemplateSpecializationDecl *spec : cls->specializations())
          for (const Decl *member : spec->decls())
            if (const auto *m = dyn_cast<FunctionDecl>(member))
              if (m->getTemplateInstantiationPattern() == function)
                analyzeWithLambdas(context, m, reporter, s);
    }
    return reporter.clean();
  }
  analyzeWithLambdas(context, function, reporter, s);
  return reporter.clean();
}

bool tilecc::checkHostBorrows(ASTContext &context, const FunctionDecl *function) {
  return checkHostBorrows(context, function, nullptr);
}
