//===- KernelAccessTest.cpp - checkKernelAccess on small kernels --------------===//
#include "ParseHelper.h"
#include "tilecc/Analysis/Checks.h"
#include "tilecc/Analysis/KernelAccess.h"

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/SmallString.h"
#include "gtest/gtest.h"

using namespace tilecc;
using namespace tilecc::testing;

namespace {

/// The rule ids checkKernelAccess reports on kernel `k` of `code`, in order ("?" when the
/// snippet does not compile).
class RuleCollector : public clang::DiagnosticConsumer {
public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Warning)
      return;
    llvm::SmallString<256> text;
    info.FormatDiagnostic(text);
    llvm::StringRef message = text;
    size_t open = message.rfind(" [");
    rules.push_back(open == llvm::StringRef::npos ? message.str()
                                                  : message.substr(open + 2).drop_back().str());
  }
  std::vector<std::string> rules;
};

std::vector<std::string> rulesFor(const std::string &code) {
  auto ast = parseTileCode(code);
  if (!ast || ast->getDiagnostics().hasErrorOccurred())
    return {"?"};
  RuleCollector collector;
  ast->getDiagnostics().setClient(&collector, /*ShouldOwnClient=*/false);
  checkKernelAccess(ast->getASTContext(), findFunction(ast->getASTContext(), "k"));
  return collector.rules;
}

using Rules = std::vector<std::string>;

TEST(KernelAccess, CleanKernels) {
  EXPECT_EQ(rulesFor(R"(
    TILE_KERNEL void k(tile::Tensor<float, 128>& z, const tile::Tensor<float, tile::dyn>& x) {
      z.store(tile::load_tile_like(x, z) * 2.0f);
    })"),
            Rules{});
  EXPECT_EQ(rulesFor(R"(
    TILE_KERNEL void k(tile::Tensor<float, 32, 64>& c, const tile::Tensor<float, tile::dyn, tile::dyn>& b) {
      c.store(b.partition<32, 64>().load(tile::block_id(0), tile::block_id(1)));
    })"),
            Rules{});
}

TEST(KernelAccess, StoreThroughAConstCast) {
  EXPECT_EQ(rulesFor(R"(
    TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 64>& x) {
      const_cast<tile::Tensor<float, 64>&>(x).store(z.load());
    })"),
            Rules{"tile-store-shared"});
  // The exclusive piece seen through a const reference may be written after a cast.
  EXPECT_EQ(rulesFor(R"(
    TILE_KERNEL void k(tile::Tensor<float, 64>& z) {
      const tile::Tensor<float, 64>& view = z;
      const_cast<tile::Tensor<float, 64>&>(view).store(tile::zeros<float, 64>());
    })"),
            Rules{});
}

TEST(KernelAccess, TwoPartitionsOfOnePiece) {
  const char *base = R"(
    TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
      auto p = z.partition_mut<64>();
      auto q = z.partition_mut<32>();
      p.store(tile::zeros<float, 64>(), 0);
      q.store(tile::zeros<float, 32>(), INDEX);
    })";
  auto with = [&](const char *index) {
    std::string code = base;
    code.replace(code.find("INDEX"), 5, index);
    return rulesFor(code);
  };
  EXPECT_EQ(with("1"), Rules{"tile-view-overlap"}); // [32, 64) inside [0, 64)
  EXPECT_EQ(with("2"), Rules{});                    // [64, 96)
}

TEST(KernelAccess, OneViewIsAlwaysOrdered) {
  EXPECT_EQ(rulesFor(R"(
    TILE_KERNEL void k(tile::Tensor<float, 256>& z, int i, int j) {
      auto p = z.partition_mut<64>();
      p.store(tile::zeros<float, 64>(), i);
      p.store(tile::ones<float, 64>(), j);
    })"),
            Rules{});
}

TEST(KernelAccess, EscapeIntoAStatic) {
  EXPECT_EQ(rulesFor(R"(
    TILE_KERNEL void k(tile::Tensor<float, 64>& z) {
      static tile::Tensor<float, 64>* keep = nullptr;
      keep = &z;
    })"),
            Rules{"tile-view-escape"});
}

TEST(KernelAccess, UncheckedNeedsUnsafe) {
  const char *body = R"(
    ATTR void k(tile::Tensor<float, 64>& z) {
      auto p = z.partition_mut<64>();
      tile::unchecked::store(p, tile::zeros<float, 64>(), 0);
    })";
  auto with = [&](const char *attr) {
    std::string code = body;
    code.replace(code.find("ATTR"), 4, attr);
    return rulesFor(code);
  };
  EXPECT_EQ(with("TILE_KERNEL"), Rules{"tile-unchecked-outside-unsafe"});
  EXPECT_EQ(with("TILE_KERNEL TILE_UNSAFE"), Rules{});
  EXPECT_EQ(with("TILE_KERNEL TILE_TRUSTED(\"index 0 of a 64-wide piece\")"), Rules{});
}

TEST(KernelAccess, StaticallyOutOfRangeIndex) {
  EXPECT_EQ(rulesFor(R"(
    TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 256>& x) {
      z.store(x.partition<64>().load(4));
    })"),
            Rules{"tile-index-out-of-range"});
  EXPECT_EQ(rulesFor(R"(
    TILE_KERNEL void k(tile::Tensor<float, 64>& z, const tile::Tensor<float, 256>& x) {
      z.store(x.partition<64>().load(3));
    })"),
            Rules{});
}

TEST(KernelAccess, TheModelRecordsAccessesThroughDeviceFunctions) {
  auto ast = parseTileCode(R"(
    inline void put(tile::TiledViewMut<float, 64>& p, int i) { p.store(tile::zeros<float, 64>(), i + 1); }
    TILE_KERNEL void k(tile::Tensor<float, 256>& z) {
      auto p = z.partition_mut<64>();
      for (int i = 0; i < 3; ++i)
        put(p, i);
    })");
  ASSERT_TRUE(ast && !ast->getDiagnostics().hasErrorOccurred());
  access::KernelModel model;
  access::buildKernelModel(ast->getASTContext(), findFunction(ast->getASTContext(), "k"), model);
  ASSERT_EQ(model.views.size(), 2u); // z and p
  EXPECT_EQ(model.views[1].name, "p");
  ASSERT_EQ(model.accesses.size(), 1u);
  const access::Access &store = model.accesses[0];
  EXPECT_EQ(store.kind, access::AccessKind::Store);
  EXPECT_EQ(store.view, 1);
  EXPECT_EQ(store.at.loops.size(), 1u);
  EXPECT_EQ(store.at.calls.size(), 1u);
  index::IndexAlgebra alg(model.symbols);
  index::Interval r = alg.range(store.index[0], store.path);
  EXPECT_EQ(static_cast<int64_t>(r.lo), 1);
  EXPECT_EQ(static_cast<int64_t>(r.hi), 3);
}

} // namespace
