//===- KernelRulesTest.cpp - the kernel rules on small kernels ----------------===//
#include "ParseHelper.h"
#include "tilecc/Analysis/KernelRules.h"

#include "clang/Basic/Diagnostic.h"
#include "gtest/gtest.h"

using namespace tilecc;
using namespace tilecc::testing;

namespace {

/// Runs the kernel rules on kernel `k` of `code`; returns the number of errors reported.
unsigned countRuleErrors(const std::string &code) {
  auto ast = parseTileCode(code);
  if (!ast || ast->getDiagnostics().hasErrorOccurred())
    return ~0u;
  // The base consumer counts what it is handed; nothing is printed.
  clang::DiagnosticConsumer counter;
  ast->getDiagnostics().setClient(&counter, /*ShouldOwnClient=*/false);
  checkKernelRules(ast->getASTContext(), findFunction(ast->getASTContext(), "k"));
  return counter.getNumErrors();
}

TEST(KernelRules, AcceptsACleanKernel) {
  EXPECT_EQ(countRuleErrors(R"(
    inline tile::Tile<float, 64> twice(const tile::Tile<float, 64>& t) { return t * 2.0f; }
    TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, tile::dyn>& x,
                       float a) { z.store(twice(tile::load_tile_like(x, z)) + a); })"),
            0u);
}

TEST(KernelRules, RejectsEachForbiddenConstruct) {
  EXPECT_EQ(countRuleErrors("TILE_KERNEL void k(tile::Tensor<float, 64>& z, int* p) {}"), 1u);
  EXPECT_EQ(countRuleErrors("TILE_KERNEL void k(tile::Tensor<float, 64>& z) { throw 1; }"), 1u);
  EXPECT_EQ(countRuleErrors("TILE_KERNEL void k(tile::Tensor<float, 64>& z) { delete new int; }"),
            2u);
  EXPECT_EQ(countRuleErrors(R"(int g;
    TILE_KERNEL void k(tile::Tensor<float, 64>& z) { g = 1; })"),
            1u);
  EXPECT_EQ(countRuleErrors(R"(int f(int n) { return n ? f(n - 1) : 0; }
    TILE_KERNEL void k(tile::Tensor<float, 64>& z) { f(2); })"),
            1u);
}

TEST(KernelRules, FollowsCallsIntoDeviceFunctions) {
  EXPECT_EQ(countRuleErrors(R"(struct S { virtual int v() const { return 0; } };
    inline int helper(const S& s) { return s.v(); }
    TILE_KERNEL void k(tile::Tensor<float, 64>& z) { S s; helper(s); })"),
            1u);
}

TEST(KernelRules, AcceptsOnlyDeeplyImmutableStatics) {
  EXPECT_EQ(countRuleErrors(R"(constexpr float table[2] = {1.0f, 2.0f};
    constexpr const float* first = &table[0];
    TILE_KERNEL void k(tile::Tensor<float, 64>& z) { z.store(tile::full<float, 64>(table[1] + *first)); })"),
            0u);
  EXPECT_EQ(countRuleErrors(R"(int counter;
    int* const to_counter = &counter;
    TILE_KERNEL void k(tile::Tensor<float, 64>& z) { *to_counter = 1; })"),
            1u);
  EXPECT_EQ(countRuleErrors(R"(struct C { mutable int n; };
    const C c{};
    TILE_KERNEL void k(tile::Tensor<float, 64>& z) { c.n = 1; })"),
            1u);
  EXPECT_EQ(countRuleErrors(R"(
    TILE_KERNEL void k(tile::Tensor<float, 64>& z) { static int n = 0; ++n; })"),
            1u);
}

TEST(KernelRules, RejectsReinterpretingAView) {
  EXPECT_EQ(countRuleErrors(R"(
    TILE_KERNEL void k(tile::Tensor<float, 64>& z) { (void)reinterpret_cast<char*>(&z); })"),
            1u);
  EXPECT_EQ(countRuleErrors(R"(
    TILE_KERNEL void k(tile::Tensor<float, 64>& z) { auto* p = &z; ++p; })"),
            1u);
  EXPECT_EQ(countRuleErrors(R"(
    TILE_KERNEL void k(tile::Tensor<float, 64>& z) { (void)tile::detail::TensorAccess::data(z); })"),
            1u);
}

TEST(KernelRules, FollowsImplicitCalls) {
  // A destructor declared but not defined is an external call the end of the scope makes.
  EXPECT_EQ(countRuleErrors(R"(struct H { ~H(); };
    TILE_KERNEL void k(tile::Tensor<float, 64>& z) { H h; })"),
            1u);
  // A default member initializer that reads a mutable global.
  EXPECT_EQ(countRuleErrors(R"(int g;
    struct S { int v = g; };
    TILE_KERNEL void k(tile::Tensor<float, 64>& z) { S s{}; (void)s; })"),
            1u);
}

} // namespace
