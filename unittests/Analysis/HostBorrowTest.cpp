//===- HostBorrowTest.cpp - the host borrow checker's pieces ------------------===//
//
// Places and types (HostPlaces), facts (HostFacts), the forward loan propagation, the backward
// liveness and the checker's reports, each on small functions.
//
//===----------------------------------------------------------------------===//
#include "ParseHelper.h"
#include "tilecc/Analysis/Checks.h"
#include "tilecc/Analysis/HostBorrowChecker.h"
#include "tilecc/Analysis/HostFacts.h"
#include "tilecc/Analysis/HostLiveness.h"
#include "tilecc/Analysis/LoanPropagation.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/SmallString.h"
#include "gtest/gtest.h"
#include <functional>

using namespace clang;
using namespace tilecc;
using namespace tilecc::host;
using namespace tilecc::testing;

namespace {

const char *const kPrelude = R"(
#include <utility>
#include <vector>
TILE_KERNEL void inc(tile::Tensor<float, 128>& z) { z.store(z.load() + 1.0f); }
TILE_KERNEL void copy(tile::Tensor<float, 128>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(tile::load_tile_like(x, z));
}
using Arr = tile::Array<float>;
using IncOp = decltype(tile::launch<inc>(std::declval<tile::PartitionRef<float, 128>>()));
inline Arr make() { return tile::zeros<float>({1000}); }
void probe(const Arr& a);
void probeOp(const IncOp& op);
)";

/// One function of a snippet, with its CFG, facts and fixpoints.
struct Analyzed {
  std::unique_ptr<ASTUnit> ast;
  std::unique_ptr<AnalysisDeclContextManager> manager;
  const FunctionDecl *fn = nullptr;
  CFG *cfg = nullptr;
  std::unique_ptr<HostFacts> facts;
  std::unique_ptr<LoanPropagation> loans;
  std::unique_ptr<HostLiveness> liveness;

  PlaceId place(llvm::StringRef name) const {
    for (PlaceId p = 0; p < facts->places.size(); ++p)
      if (facts->places[p].name == name)
        return p;
    return NoPlace;
  }
  unsigned count(Fact::Kind kind) const {
    unsigned n = 0;
    for (const auto &block : facts->blocks)
      for (const Fact &f : block)
        n += f.kind == kind;
    return n;
  }
  /// Calls `visit` with the state just before each fact, in every reachable block.
  void replay(const std::function<void(const Fact &, const LoanState &, const CFGBlock &, unsigned)>
                  &visit) const {
    for (const CFGBlock *block : *cfg) {
      LoanState state = loans->entryState(*block);
      if (!state.reachable)
        continue;
      const std::vector<Fact> &blockFacts = facts->factsOf(*block);
      for (unsigned i = 0; i < blockFacts.size(); ++i) {
        visit(blockFacts[i], state, *block, i);
        applyFact(blockFacts[i], state, *facts);
      }
    }
  }
  /// The state just before the first access whose site reads `what`.
  std::optional<LoanState> stateAt(llvm::StringRef what) const {
    std::optional<LoanState> found;
    replay([&](const Fact &f, const LoanState &s, const CFGBlock &, unsigned) {
      if (!found && f.kind == Fact::Kind::Access && facts->sites[f.site].what == what)
        found = s;
    });
    return found;
  }
  bool holdsLoanOn(const LoanState &state, PlaceId holder, PlaceId array) const {
    const llvm::BitVector *loans = state.loansOf(holder);
    if (!loans)
      return false;
    for (unsigned l : loans->set_bits())
      if (facts->loans[l].array == array)
        return true;
    return false;
  }
};

Analyzed analyze(const std::string &code, llvm::StringRef name = "f") {
  Analyzed a;
  a.ast = parseTileCode(kPrelude + code);
  if (!a.ast || a.ast->getDiagnostics().hasErrorOccurred()) {
    ADD_FAILURE() << "the snippet does not compile";
    return a;
  }
  ASTContext &context = a.ast->getASTContext();
  a.fn = findFunction(context, name);
  EXPECT_NE(a.fn, nullptr);
  if (!a.fn)
    return a;
  a.manager = std::make_unique<AnalysisDeclContextManager>(context);
  AnalysisDeclContext *adc = a.manager->getContext(a.fn);
  adc->getCFGBuildOptions() = hostCFGOptions();
  a.cfg = adc->getCFG();
  EXPECT_NE(a.cfg, nullptr);
  a.facts = buildHostFacts(context, a.fn, *a.cfg, adc->getParentMap());
  a.loans = std::make_unique<LoanPropagation>(*a.cfg, *a.facts);
  a.loans->run();
  a.liveness = std::make_unique<HostLiveness>(*a.cfg, *a.facts);
  a.liveness->run();
  return a;
}

/// Records the checker's diagnostics as "error: message" / "note: message".
class Recorder : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic &info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    llvm::SmallString<128> text;
    info.FormatDiagnostic(text);
    const char *prefix = level == DiagnosticsEngine::Error     ? "error: "
                         : level == DiagnosticsEngine::Warning ? "warning: "
                                                               : "note: ";
    messages.push_back(prefix + std::string(text));
  }
  std::vector<std::string> messages;
  unsigned count(llvm::StringRef needle) const {
    unsigned n = 0;
    for (const std::string &m : messages)
      n += llvm::StringRef(m).contains(needle);
    return n;
  }
};

/// Runs checkHostBorrows on every function definition at file scope (not in the prelude).
struct Checked {
  std::vector<std::string> messages;
  bool clean = true;
  HostCheckStats stats;
  unsigned count(llvm::StringRef needle) const {
    unsigned n = 0;
    for (const std::string &m : messages)
      n += llvm::StringRef(m).contains(needle);
    return n;
  }
};

class Definitions : public RecursiveASTVisitor<Definitions> {
public:
  explicit Definitions(SourceManager &sm) : sm(sm) {}
  bool VisitFunctionDecl(FunctionDecl *fn) {
    if (fn->doesThisDeclarationHaveABody() && sm.isInMainFile(fn->getLocation()) &&
        !(fn->getIdentifier() && fn->getName() == "make")) // the prelude's helper
      found.push_back(fn);
    return true;
  }
  SourceManager &sm;
  std::vector<const FunctionDecl *> found;
};

Checked check(const std::string &code) {
  Checked result;
  auto ast = parseTileCode(kPrelude + code);
  EXPECT_TRUE(ast && !ast->getDiagnostics().hasErrorOccurred());
  if (!ast)
    return result;
  Recorder recorder;
  ast->getDiagnostics().setClient(&recorder, /*ShouldOwnClient=*/false);
  ASTContext &context = ast->getASTContext();
  Definitions defs(context.getSourceManager());
  defs.TraverseDecl(context.getTranslationUnitDecl());
  for (const FunctionDecl *fn : defs.found)
    result.clean &= checkHostBorrows(context, fn, &result.stats);
  result.messages = recorder.messages;
  return result;
}

// ---- places and types
// ----------------------------------------------------------------------------

TEST(HostPlaces, ClassifiesTheTileTypes) {
  Analyzed a = analyze(R"(
    struct WithArray { Arr arr; int n; };
    struct Plain { int n; };
    void f() {
      Arr a = make();
      auto p = std::move(a).partition<128>();
      Arr b = make();
      auto r = b.partition_mut<128>();
      std::vector<IncOp> ops;
      WithArray w{make(), 1};
      Plain q{2};
      int n = 3;
    })");
  ASSERT_TRUE(a.facts);
  const PlaceTable &places = a.facts->places;
  for (const char *name : {"a", "p", "r", "ops", "w"})
    ASSERT_NE(a.place(name), NoPlace) << name;
  EXPECT_EQ(places[a.place("a")].type.kind, HostKind::Array);
  EXPECT_TRUE(places[a.place("a")].type.containsArrays);
  EXPECT_EQ(places[a.place("p")].type.kind, HostKind::Partition);
  EXPECT_EQ(places[a.place("r")].type.kind, HostKind::PartitionRef);
  EXPECT_TRUE(places[a.place("r")].type.carriesLoans);
  EXPECT_EQ(places[a.place("ops")].type.kind, HostKind::None);
  EXPECT_TRUE(places[a.place("ops")].type.carriesLoans);
  EXPECT_TRUE(places[a.place("w")].type.containsArrays);
  EXPECT_FALSE(places[a.place("w")].type.carriesLoans);
  EXPECT_EQ(a.place("q"), NoPlace); // untracked types get no place
  EXPECT_EQ(a.place("n"), NoPlace);
}

TEST(HostPlaces, ResolvesAliasesFieldsAndMoves) {
  Analyzed a = analyze(R"(
    struct Pair { Arr left; Arr right; };
    void f() {
      Pair s{make(), make()};
      Arr& alias = s.left;
      const Arr& again = alias;
      probe(again);
      probe(s.right);
    })");
  ASSERT_TRUE(a.facts);
  PlaceId left = a.place("s.left"), right = a.place("s.right"), s = a.place("s");
  ASSERT_NE(left, NoPlace);
  ASSERT_NE(right, NoPlace);
  EXPECT_EQ(a.place("alias"), NoPlace); // a reference is its target
  EXPECT_EQ(a.place("again"), NoPlace);
  const PlaceTable &places = a.facts->places;
  EXPECT_TRUE(places.isWithin(left, s));
  EXPECT_FALSE(places.isWithin(s, left));
  EXPECT_TRUE(places.overlaps(s, right));
  EXPECT_FALSE(places.overlaps(left, right));
  // Both probes read through places: the alias resolved to s.left.
  unsigned readsLeft = 0, readsRight = 0;
  for (const auto &block : a.facts->blocks)
    for (const Fact &f : block)
      if (f.kind == Fact::Kind::Access && f.access == AccessKind::Read) {
        readsLeft += f.place == left;
        readsRight += f.place == right;
      }
  EXPECT_EQ(readsLeft, 1u);
  EXPECT_EQ(readsRight, 1u);
}

TEST(HostPlaces, OutlivesFollowsScopesAndStorage) {
  Analyzed a = analyze(R"(
    Arr global = make();
    void f(Arr byValue, Arr& byRef) {
      std::vector<IncOp> outer;
      Arr first = make();
      std::vector<IncOp> later;
      {
        Arr inner = make();
        probe(inner);
      }
      probe(first);
    })");
  ASSERT_TRUE(a.facts);
  const PlaceResolver &r = *a.facts->resolver;
  PlaceId outer = a.place("outer"), first = a.place("first"), later = a.place("later"),
          inner = a.place("inner"), byValue = a.place("byValue");
  ASSERT_NE(inner, NoPlace);
  EXPECT_TRUE(r.outlives(outer, first));            // same scope, declared earlier: destroyed later
  EXPECT_FALSE(r.outlives(later, first));           // declared later: destroyed first
  EXPECT_TRUE(r.outlives(later, inner));            // an enclosing scope
  EXPECT_TRUE(r.outlives(outer, byValue) == false); // parameters outlive locals
  EXPECT_EQ(a.facts->places[byValue].storage, Storage::ValueParam);
}

// ---- facts
// -----------------------------------------------------------------------------------------

TEST(HostFacts, LaunchIssuesLoansIntoTheOp) {
  Analyzed a = analyze(R"(
    void f() {
      Arr z = make();
      Arr x = make();
      auto op = tile::launch<copy>(z.partition_mut<128>(), x);
      std::move(op).sync();
    })");
  ASSERT_TRUE(a.facts);
  ASSERT_EQ(a.facts->loans.size(), 2u);
  PlaceId z = a.place("z"), x = a.place("x"), op = a.place("op");
  EXPECT_EQ(a.facts->loans[0].array, z);
  EXPECT_EQ(a.facts->loans[0].kind, LoanKind::Exclusive);
  EXPECT_EQ(a.facts->loans[1].array, x);
  EXPECT_EQ(a.facts->loans[1].kind, LoanKind::Shared);
  // Both loans are issued into the launch's temporary, which flows into `op`; sync kills it.
  bool flowIntoOp = false, killOp = false, moveOp = false;
  for (const auto &block : a.facts->blocks)
    for (const Fact &f : block) {
      flowIntoOp |= f.kind == Fact::Kind::Flow && f.to == op && f.transfer;
      killOp |= f.kind == Fact::Kind::Kill && f.place == op;
      moveOp |= f.kind == Fact::Kind::Move && f.place == op;
    }
  EXPECT_TRUE(flowIntoOp);
  EXPECT_TRUE(killOp);
  EXPECT_TRUE(moveOp);
  EXPECT_EQ(a.count(Fact::Kind::Issue), 2u);
}

TEST(HostFacts, ConflictTable) {
  EXPECT_FALSE(conflicts(AccessKind::Read, LoanKind::Shared));
  EXPECT_FALSE(conflicts(AccessKind::LendShared, LoanKind::Shared));
  EXPECT_TRUE(conflicts(AccessKind::Write, LoanKind::Shared));
  EXPECT_TRUE(conflicts(AccessKind::LendExclusive, LoanKind::Shared));
  EXPECT_TRUE(conflicts(AccessKind::Move, LoanKind::Shared));
  EXPECT_TRUE(conflicts(AccessKind::Read, LoanKind::Exclusive));
  EXPECT_TRUE(conflicts(AccessKind::LendShared, LoanKind::Exclusive));
}

TEST(HostFacts, UntrackedFunctionsHaveNoFacts) {
  Analyzed a = analyze("int f(int n) { int s = 0; for (int i = 0; i < n; ++i) s += i; return s; }");
  ASSERT_TRUE(a.facts);
  EXPECT_EQ(a.facts->numFacts(), 0u);
  HostTypes types;
  EXPECT_FALSE(mentionsHostTypes(a.fn->getBody(), types));
}

// ---- loan propagation
// ------------------------------------------------------------------------------

TEST(LoanPropagation, OneBranchSyncKeepsTheLoanAlive) {
  Analyzed a = analyze(R"(
    void f(bool c) {
      Arr z = make();
      auto op = tile::launch<inc>(z.partition_mut<128>());
      if (c)
        std::move(op).sync();
      probe(z);
    })");
  ASSERT_TRUE(a.facts);
  std::optional<LoanState> at = a.stateAt("read (passed to 'probe')");
  ASSERT_TRUE(at);
  EXPECT_TRUE(a.holdsLoanOn(*at, a.place("op"), a.place("z")));
  // ... and op may have been consumed: a later sync would be a use after move.
  EXPECT_TRUE(at->movedAt(a.place("op"), a.facts->places).has_value());
}

TEST(LoanPropagation, SyncOnEveryPathEndsTheLoan) {
  Analyzed a = analyze(R"(
    void f(bool c) {
      Arr z = make();
      auto op = tile::launch<inc>(z.partition_mut<128>());
      if (c)
        std::move(op).sync();
      else
        std::move(op).sync();
      probe(z);
    })");
  ASSERT_TRUE(a.facts);
  std::optional<LoanState> at = a.stateAt("read (passed to 'probe')");
  ASSERT_TRUE(at);
  EXPECT_FALSE(a.holdsLoanOn(*at, a.place("op"), a.place("z")));
}

TEST(LoanPropagation, LoopBackEdgesCarryLoans) {
  Analyzed a = analyze(R"(
    void f(int n) {
      Arr z = make();
      std::vector<IncOp> ops;
      for (int i = 0; i < n; ++i) {
        probe(z);
        ops.push_back(tile::launch<inc>(z.partition_mut<128>()));
      }
    })");
  ASSERT_TRUE(a.facts);
  // In the second iteration the probe sees the loan stored in `ops` by the first.
  std::optional<LoanState> at = a.stateAt("read (passed to 'probe')");
  ASSERT_TRUE(at);
  EXPECT_TRUE(a.holdsLoanOn(*at, a.place("ops"), a.place("z")));
}

TEST(LoanPropagation, ReachesAFixpointQuicklyOnNestedLoops) {
  std::string body = "void f(int n) {\n Arr a = make();\n Arr b = make();\n";
  for (int i = 0; i < 6; ++i)
    body += " for (int i" + std::to_string(i) + " = 0; i" + std::to_string(i) + " < n; ++i" +
            std::to_string(i) + ") {\n";
  body += "  auto op = tile::launch<copy>(a.partition_mut<128>(), b);\n"
          "  if (n > 2) std::move(op).sync();\n  probe(b);\n";
  for (int i = 0; i < 6; ++i)
    body += " }\n";
  body += "}\n";
  Analyzed a = analyze(body);
  ASSERT_TRUE(a.facts);
  unsigned blocks = a.cfg->size();
  // A finite lattice and RPO order: a handful of passes over the blocks, not more.
  EXPECT_LE(a.loans->blockVisits(), 8 * blocks);
  EXPECT_LE(a.liveness->blockVisits(), 8 * blocks);
}

// ---- liveness
// --------------------------------------------------------------------------------------

TEST(HostLiveness, NextUseOfAnOpIsItsSync) {
  Analyzed a = analyze(R"(
    void f() {
      Arr z = make();
      auto op = tile::launch<inc>(z.partition_mut<128>());
      probe(z);
      std::move(op).sync();
    })");
  ASSERT_TRUE(a.facts);
  PlaceId op = a.place("op");
  bool checked = false;
  a.replay([&](const Fact &f, const LoanState &, const CFGBlock &block, unsigned i) {
    if (f.kind != Fact::Kind::Access || a.facts->sites[f.site].what != "read (passed to 'probe')")
      return;
    LiveState live = a.liveness->after(block, i);
    ASSERT_GE(live.nextUse(op), 0);
    EXPECT_EQ(a.facts->sites[live.nextUse(op)].what, "sync()");
    EXPECT_TRUE(live.consumedLater(op));
    checked = true;
  });
  EXPECT_TRUE(checked);
}

TEST(HostLiveness, AnUnsyncedOpLivesUntilItsDestructor) {
  Analyzed a = analyze(R"(
    void f() {
      Arr z = make();
      auto op = tile::launch<inc>(z.partition_mut<128>());
      probe(z);
      probeOp(op);
    })");
  ASSERT_TRUE(a.facts);
  PlaceId op = a.place("op");
  bool checked = false;
  a.replay([&](const Fact &f, const LoanState &, const CFGBlock &block, unsigned i) {
    if (f.kind == Fact::Kind::Def && f.place == op) {
      // Nothing ever executes it: no consuming use after its declaration.
      EXPECT_FALSE(a.liveness->after(block, i).consumedLater(op));
    }
    if (f.kind == Fact::Kind::Access && a.facts->sites[f.site].what == "read (passed to 'probe')") {
      LiveState live = a.liveness->after(block, i);
      ASSERT_GE(live.nextUse(op), 0);
      EXPECT_FALSE(a.facts->sites[live.nextUse(op)].destroy); // probeOp(op) comes first
      checked = true;
    }
  });
  EXPECT_TRUE(checked);
}

// ---- the checker
// -----------------------------------------------------------------------------------

TEST(HostBorrowChecker, ReportsInThreePoints) {
  Checked c = check(R"(
    void f() {
      Arr z = make();
      auto op = tile::launch<inc>(z.partition_mut<128>());
      probe(z);
      std::move(op).sync();
    })");
  EXPECT_FALSE(c.clean);
  ASSERT_EQ(c.messages.size(), 3u);
  EXPECT_EQ(c.messages[0], "error: read (passed to 'probe') of 'z' while the unfinished operation "
                           "'op' holds an exclusive loan on it [tile-access-while-borrowed]");
  EXPECT_EQ(c.messages[1], "note: 'z' was lent exclusively here");
  EXPECT_EQ(c.messages[2], "note: the loan is still needed here");
}

TEST(HostBorrowChecker, AcceptsTheExamplePattern) {
  Checked c = check(R"(
    void f() {
      auto x = tile::ones<float>({1000});
      auto z = tile::zeros<float>({1000});
      auto op = tile::launch<copy>(std::move(z).partition<128>(), x);
      auto z2 = std::move(op).sync().unpartition();
      std::vector<float> host = z2.to_host();
      probe(x);
    })");
  EXPECT_TRUE(c.clean);
  EXPECT_TRUE(c.messages.empty());
  EXPECT_EQ(c.stats.functions, 1u);
}

TEST(HostBorrowChecker, EachRuleFires) {
  Checked c = check(R"(
    void uam() { Arr a = make(); auto p = std::move(a).partition<128>(); probe(a); }
    void conflict() { Arr a = make(); auto op = tile::launch<copy>(a.partition_mut<128>(), a); std::move(op).sync(); }
    IncOp outlives() { Arr a = make(); return tile::launch<inc>(a.partition_mut<128>()); }
    void unused() { Arr a = make(); auto op = tile::launch<inc>(a.partition_mut<128>()); }
  )");
  EXPECT_EQ(c.count("[tile-use-after-move]"), 1u);
  EXPECT_EQ(c.count("[tile-borrow-conflict]"), 1u);
  EXPECT_EQ(c.count("[tile-loan-outlives-array]"), 1u);
  EXPECT_EQ(c.count("warning: the operation in 'op' is never executed"), 1u);
  EXPECT_FALSE(c.clean);
}

TEST(HostBorrowChecker, WarningsAloneLeaveItClean) {
  Checked c =
      check("void f() { Arr a = make(); auto op = tile::launch<inc>(a.partition_mut<128>()); }");
  EXPECT_TRUE(c.clean);
  EXPECT_EQ(c.count("[tile-unused-op]"), 1u);
}

TEST(HostBorrowChecker, TemplatesReportOncePerLocation) {
  Checked c = check(R"(
    template <int N>
    void g() {
      Arr a = tile::zeros<float>({N});
      auto p = std::move(a).partition<128>();
      probe(a);
    }
    void f() { g<1>(); g<2>(); g<3>(); }
  )");
  EXPECT_EQ(c.count("[tile-use-after-move]"), 1u);
  EXPECT_EQ(c.stats.functions, 3u); // the three instantiations (f mentions no array)
}

TEST(HostBorrowChecker, LambdasAreCheckedOnceWithTheirFunction) {
  Checked c = check(R"(
    void f() {
      auto body = [] {
        Arr a = make();
        auto p = std::move(a).partition<128>();
        probe(a);
      };
      body();
      body();
    })");
  EXPECT_EQ(c.count("[tile-use-after-move]"), 1u);
}

TEST(HostBorrowChecker, SkipsKernelsAndOddCode) {
  Checked c = check(R"(
    TILE_KERNEL void k(tile::Tensor<float, 128>& z) { z.store(z.load()); }
    void g(int n) {
      Arr a = make();
      int i = 0;
    top:
      if (i++ < n) {
        try {
          auto op = tile::launch<inc>(a.partition_mut<128>());
          if (n == 3) throw 1;
          std::move(op).sync();
        } catch (...) {
          probe(a);
        }
        goto top;
      }
      auto l = [&](auto x) { probe(a); return x; };
      l(1);
      ({ probe(a); });
    })");
  EXPECT_TRUE(c.clean);
  EXPECT_TRUE(c.messages.empty());
}

TEST(HostBorrowChecker, LargeFunctionsStayCheap) {
  std::string body = "void f(int n) {\n";
  for (int i = 0; i < 150; ++i) {
    std::string a = "a" + std::to_string(i);
    body += " Arr " + a + " = make();\n";
    body += " { auto op = tile::launch<inc>(" + a + ".partition_mut<128>());\n";
    body += "   if (n > " + std::to_string(i) + ") std::move(op).sync(); }\n";
    body += " for (int j = 0; j < n; ++j) probe(" + a + ");\n";
  }
  body += "}\n";
  Checked c = check(body);
  EXPECT_TRUE(c.clean);
  EXPECT_LE(c.stats.forwardVisits, 4 * c.stats.blocks);
}

} // namespace
