//===- KernelCallsTest.cpp - what a call in kernel code runs ------------------===//
//
// resolveKernelCall on the calls of a small function `f`, described in source order as
// "kind callee [object] [closure] [static] args=N", and the limits of InlineStack.
//
//===----------------------------------------------------------------------===//
#include "ParseHelper.h"
#include "tilecc/Analysis/KernelCalls.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace tilecc;
using namespace tilecc::testing;

namespace {

const char *const kPrelude = R"(
#include <bit>
#include <utility>
float twice(float x) { return 2 * x; }
float elsewhere(float x);
struct Scale {
  float by;
  float apply(float x) const { return by * x; }
  static float unit(float x) { return x; }
  float operator()(float x) const { return by * x; }
};
struct Money { float amount; };
Money operator+(Money a, Money b) { return {a.amount + b.amount}; }
)";

const char *kindName(KernelCall::Kind kind) {
  switch (kind) {
  case KernelCall::Kind::Library: return "library";
  case KernelCall::Kind::PassThrough: return "pass-through";
  case KernelCall::Kind::BitCast: return "bit-cast";
  case KernelCall::Kind::Inline: return "inline";
  case KernelCall::Kind::External: return "external";
  case KernelCall::Kind::Indirect: return "indirect";
  }
  return "?";
}

struct Calls : RecursiveASTVisitor<Calls> {
  std::vector<std::string> out;
  bool VisitCallExpr(CallExpr *call) {
    KernelCall c = resolveKernelCall(call);
    std::string s = kindName(c.kind);
    if (c.callee)
      s += " " + c.callee->getNameAsString();
    if (c.object)
      s += c.arrow ? " object->" : " object";
    if (c.closure)
      s += " closure";
    if (c.object && !c.instance)
      s += " static";
    if (c.kind == KernelCall::Kind::Inline && !c.definition)
      s += " no-definition";
    s += " args=" + std::to_string(c.args.size());
    out.push_back(s);
    return true;
  }
};

/// The calls of `f`'s body, one line each, in source order.
std::string callsIn(const std::string &code) {
  std::unique_ptr<ASTUnit> ast = parseTileCode(kPrelude + code);
  if (!ast || ast->getDiagnostics().hasErrorOccurred())
    return "the snippet does not compile";
  const FunctionDecl *fn = findFunction(ast->getASTContext(), "f");
  if (!fn)
    return "no f";
  Calls calls;
  calls.TraverseStmt(fn->getBody());
  std::string joined;
  for (const std::string &line : calls.out)
    joined += (joined.empty() ? "" : "\n") + line;
  return joined;
}

TEST(KernelCalls, FreeFunctionWithBodyIsInlined) {
  EXPECT_EQ(callsIn("float f(float x) { return twice(x); }"), "inline twice args=1");
}

TEST(KernelCalls, FunctionWithoutBodyIsExternal) {
  EXPECT_EQ(callsIn("float f(float x) { return elsewhere(x); }"), "external elsewhere args=1");
}

TEST(KernelCalls, StdMoveAndForwardPassThrough) {
  EXPECT_EQ(callsIn("float f(float x) { float y = std::move(x); return y; }"),
            "pass-through move args=1");
}

TEST(KernelCalls, BuiltinExpectPassesThrough) {
  EXPECT_EQ(callsIn("long f(long x) { return __builtin_expect(x, 1); }"),
            "pass-through __builtin_expect args=2");
}

TEST(KernelCalls, StdBitCastIsACast) {
  EXPECT_EQ(callsIn("unsigned f(float x) { return std::bit_cast<unsigned>(x); }"),
            "bit-cast bit_cast args=1");
}

TEST(KernelCalls, TileLibraryFunction) {
  EXPECT_EQ(callsIn("auto f(tile::Tile<float, 4> t) { return tile::sum<0>(t); }"),
            "library sum args=1");
}

TEST(KernelCalls, MethodRunsOnItsObject) {
  EXPECT_EQ(callsIn("float f(Scale s, float x) { return s.apply(x); }"),
            "inline apply object args=1");
}

TEST(KernelCalls, MethodThroughPointer) {
  EXPECT_EQ(callsIn("float f(Scale* s, float x) { return s->apply(x); }"),
            "inline apply object-> args=1");
}

TEST(KernelCalls, StaticMethodNamedThroughAnObjectIsAFreeCall) {
  EXPECT_EQ(callsIn("float f(Scale s, float x) { return s.unit(x); }"), "inline unit args=1");
}

TEST(KernelCalls, FunctorCallRunsOperatorOnObject) {
  EXPECT_EQ(callsIn("float f(Scale s, float x) { return s(x); }"),
            "inline operator() object args=1");
}

TEST(KernelCalls, LambdaCallRunsOnItsClosure) {
  EXPECT_EQ(callsIn("float f(float x) { auto g = [&](float y) { return x + y; }; return g(1); }"),
            "inline operator() object closure args=1");
}

TEST(KernelCalls, FreeOperatorOnUserTypeIsInlined) {
  EXPECT_EQ(callsIn("Money f(Money a, Money b) { return a + b; }"), "inline operator+ args=2");
}

TEST(KernelCalls, CallThroughFunctionPointerIsIndirect) {
  EXPECT_EQ(callsIn("float f(float (*g)(float), float x) { return g(x); }"),
            "indirect args=1");
}

TEST(InlineStack, RefusesRecursion) {
  std::unique_ptr<ASTUnit> ast = parseTileCode(std::string(kPrelude) + "void f() {}");
  ASSERT_TRUE(ast);
  const FunctionDecl *twice = findFunction(ast->getASTContext(), "twice");
  const FunctionDecl *f = findFunction(ast->getASTContext(), "f");
  ASSERT_TRUE(twice && f);
  InlineStack stack;
  EXPECT_EQ(stack.refusal(twice), InlineStack::Refusal::None);
  stack.enter(twice);
  EXPECT_EQ(stack.refusal(twice), InlineStack::Refusal::Recursion);
  EXPECT_EQ(stack.refusal(f), InlineStack::Refusal::None);
  stack.leave();
  EXPECT_EQ(stack.refusal(twice), InlineStack::Refusal::None);
  EXPECT_EQ(stack.depth(), 0u);
}

TEST(InlineStack, RefusesNestingBeyondTheLimit) {
  // f calls kMaxInlineDepth + 1 distinct functions g<0>, g<1>, ...
  std::string code = std::string(kPrelude) + "template <int N> int g() { return N; }\nint f() { return 0";
  for (unsigned i = 0; i <= kMaxInlineDepth; ++i)
    code += " + g<" + std::to_string(i) + ">()";
  std::unique_ptr<ASTUnit> ast = parseTileCode(code + "; }");
  ASSERT_TRUE(ast);
  const FunctionDecl *f = findFunction(ast->getASTContext(), "f");
  ASSERT_TRUE(f);
  std::vector<const FunctionDecl *> bodies;
  struct Collect : RecursiveASTVisitor<Collect> {
    std::vector<const FunctionDecl *> *out;
    bool VisitCallExpr(CallExpr *c) {
      out->push_back(visibleBody(c->getDirectCallee()));
      return true;
    }
  } collect;
  collect.out = &bodies;
  collect.TraverseStmt(f->getBody());
  ASSERT_EQ(bodies.size(), kMaxInlineDepth + 1);
  InlineStack stack;
  for (unsigned i = 0; i < kMaxInlineDepth; ++i) {
    ASSERT_TRUE(bodies[i]);
    ASSERT_EQ(stack.refusal(bodies[i]), InlineStack::Refusal::None);
    stack.enter(bodies[i]);
  }
  EXPECT_EQ(stack.refusal(bodies[kMaxInlineDepth]), InlineStack::Refusal::TooDeep);
}

} // namespace
