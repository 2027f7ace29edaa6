//===- LoopEffectsTest.cpp - what a loop's statements may change --------------===//
//
// scanLoopEffects on the first loop of a small function `f`: the variables it may assign
// (with their direction), those it may change in place, and how it may leave.
//
//===----------------------------------------------------------------------===//
#include "ParseHelper.h"
#include "tilecc/Analysis/LoopEffects.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"
#include <algorithm>

using namespace clang;
using namespace tilecc;
using namespace tilecc::testing;

namespace {

const char *const kPrelude = R"(
struct Pair { int a = 0; int b = 0; void reset() { a = b = 0; } int sum() const { return a + b; } };
void bump(int& v) { ++v; }
int peek(const int& v) { return v; }
template <class F> void apply(F f) { f(); }
void stop(int& v) { if (v > 3) return; v = 0; }
)";

struct FirstLoop : RecursiveASTVisitor<FirstLoop> {
  const Stmt *loop = nullptr;
  bool VisitStmt(Stmt *s) {
    if (!loop && isa<ForStmt, WhileStmt, DoStmt>(s))
      loop = s;
    return true;
  }
};

/// "assigned: x:+1 y:0 | in place: s | this break continue return calls" for f's first loop
/// ("this": a member of `this` may change, here or in a method called on some object).
std::string effectsIn(const std::string &code) {
  std::unique_ptr<ASTUnit> ast = parseTileCode(kPrelude + code);
  if (!ast || ast->getDiagnostics().hasErrorOccurred())
    return "the snippet does not compile";
  const FunctionDecl *fn = findFunction(ast->getASTContext(), "f");
  if (!fn)
    return "no f";
  FirstLoop first;
  first.TraverseStmt(fn->getBody());
  if (!first.loop)
    return "no loop";
  llvm::SmallVector<const Stmt *, 3> parts;
  if (const auto *w = dyn_cast<WhileStmt>(first.loop))
    parts = {w->getCond(), w->getBody()};
  else if (const auto *fr = dyn_cast<ForStmt>(first.loop))
    parts = {fr->getCond(), fr->getInc(), fr->getBody()};
  else
    parts = {cast<DoStmt>(first.loop)->getBody(), cast<DoStmt>(first.loop)->getCond()};
  LoopEffects e = scanLoopEffects(parts, ast->getASTContext());
  std::vector<std::string> assigned, inPlace;
  for (auto &[var, dir] : e.assigned)
    assigned.push_back(var->getNameAsString() + ":" + (dir > 0 ? "+1" : dir < 0 ? "-1" : "0"));
  for (const ValueDecl *var : e.changedInPlace)
    inPlace.push_back(var->getNameAsString());
  std::sort(assigned.begin(), assigned.end());
  std::sort(inPlace.begin(), inPlace.end());
  std::string out = "assigned:";
  for (const std::string &a : assigned)
    out += " " + a;
  out += " | in place:";
  for (const std::string &p : inPlace)
    out += " " + p;
  out += " |";
  if (e.changesThis)
    out += " this";
  if (e.breaks)
    out += " break";
  if (e.continues)
    out += " continue";
  if (e.returns)
    out += " return";
  if (e.calls)
    out += " calls";
  return out;
}

TEST(LoopEffects, StepsKeepTheirDirection) {
  EXPECT_EQ(effectsIn("void f(int n) { int i = 0, k = 9, j = 0; while (i < n) { ++i; k -= 2; j = i; } }"),
            "assigned: i:+1 j:0 k:-1 | in place: |");
}

TEST(LoopEffects, MixedStepsHaveNoDirection) {
  EXPECT_EQ(effectsIn("void f(int n) { int i = 0; while (i < n) { i += 3; --i; } }"),
            "assigned: i:0 | in place: |");
}

TEST(LoopEffects, AssignmentThroughALocalReference) {
  EXPECT_EQ(effectsIn("void f(int n) { int x = 0; for (int i = 0; i < n; ++i) { int& r = x; r += 1; } }"),
            "assigned: i:+1 r:+1 x:0 | in place: |");
}

TEST(LoopEffects, AssignmentInACalleeThroughItsReferenceParameter) {
  EXPECT_EQ(effectsIn("void f(int n) { int x = 0; for (int i = 0; i < n; ++i) bump(x); }"),
            "assigned: i:+1 v:+1 x:0 | in place: | calls");
}

TEST(LoopEffects, ConstReferenceArgumentIsNotChanged) {
  EXPECT_EQ(effectsIn("int f(int n) { int x = 0, s = 0; for (int i = 0; i < n; ++i) s = peek(x); return s; }"),
            "assigned: i:+1 s:0 | in place: | calls");
}

TEST(LoopEffects, LambdaCalledInTheLoopAssignsItsCaptures) {
  EXPECT_EQ(effectsIn("void f(int n) { int x = 0; auto g = [&] { x = 1; }; for (int i = 0; i < n; ++i) g(); }"),
            "assigned: i:+1 x:0 | in place: | calls");
}

TEST(LoopEffects, LambdaPassedToAFunctionAssignsItsCaptures) {
  EXPECT_EQ(effectsIn("void f(int n) { int x = 0; auto g = [&] { x = 1; }; for (int i = 0; i < n; ++i) apply(g); }"),
            "assigned: i:+1 x:0 | in place: | calls");
}

TEST(LoopEffects, MemberAssignmentAndMethodsChangeInPlace) {
  EXPECT_EQ(effectsIn("void f(int n) { Pair p, q, r; for (int i = 0; i < n; ++i) { p.a = i; q.reset(); (void)r.sum(); } }"),
            "assigned: i:+1 | in place: p q | this calls");
}

TEST(LoopEffects, MembersOfThisChangeInAMethodsLoop) {
  EXPECT_EQ(effectsIn("struct C { int v = 0; void f(int n); };\n"
                      "void C::f(int n) { for (int i = 0; i < n; ++i) v += 1; }"),
            "assigned: i:+1 | in place: | this");
  EXPECT_EQ(effectsIn("struct C { int v = 0; int f(int n) const; };\n"
                      "int C::f(int n) const { int s = 0; for (int i = 0; i < n; ++i) s += v; return s; }"),
            "assigned: i:+1 s:0 | in place: |");
}

TEST(LoopEffects, TakingTheAddressLosesTheDirection) {
  EXPECT_EQ(effectsIn("void f(int n) { int x = 0; for (int i = 0; i < n; ++i) { int* p = &x; ++x; (void)p; } }"),
            "assigned: i:+1 x:0 | in place: x |");
}

TEST(LoopEffects, OnlyTheLoopsOwnExitsCount) {
  EXPECT_EQ(effectsIn("void f(int n) { int x = 0; while (x < n) { for (;;) { break; } stop(x); if (x) continue; } }"),
            "assigned: v:0 x:0 | in place: | continue calls");
  EXPECT_EQ(effectsIn("int f(int n) { while (n) { if (n > 4) break; if (n < 0) return 1; --n; } return 0; }"),
            "assigned: n:-1 | in place: | break return");
}

TEST(LoopEffects, TileLibraryCallsAreNotCalls) {
  EXPECT_EQ(effectsIn("void f(tile::Tensor<float, 4>& y, int n) { auto t = tile::zeros<float, 4>(); "
                      "for (int i = 0; i < n; ++i) t = t + 1.0f; y.store(t); }"),
            "assigned: i:+1 t:0 | in place: |");
}

} // namespace
