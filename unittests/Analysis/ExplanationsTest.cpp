//===- ExplanationsTest.cpp - every rule is explained (docs/rules/<id>.md) -----===//
#include "ParseHelper.h"
#include "tilecc/Analysis/Checks.h"
#include "tilecc/Analysis/Diagnostics.h"
#include "tilecc/Frontend/KernelDiscovery.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "gtest/gtest.h"
#include <set>

using namespace tilecc;
using namespace tilecc::testing;

namespace {

/// The code blocks (```cpp) of a section.
std::vector<std::string> codeBlocks(llvm::StringRef section) {
  std::vector<std::string> blocks;
  while (true) {
    size_t start = section.find("```cpp\n");
    if (start == llvm::StringRef::npos)
      return blocks;
    section = section.drop_front(start + 7);
    size_t end = section.find("```");
    blocks.push_back(section.take_front(end).str());
    section = section.drop_front(end == llvm::StringRef::npos ? section.size() : end + 3);
  }
}

/// Records the rule ids of what is reported (and whether anything else was).
class RuleRecorder : public clang::DiagnosticConsumer {
public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override {
    if (level < clang::DiagnosticsEngine::Warning)
      return;
    llvm::SmallString<128> text;
    info.FormatDiagnostic(text);
    llvm::StringRef message = text;
    size_t open = message.rfind(" [tile-");
    ids.insert(open == llvm::StringRef::npos || !message.ends_with("]")
                   ? "other: " + message.str()
                   : message.slice(open + 2, message.size() - 1).str());
  }
  std::set<std::string> ids;
};

/// What runChecks reports on a documentation example (after the tile header, a few standard
/// headers and the README's `add` kernel, which the host examples launch).
std::set<std::string> reportedRules(const std::string &example) {
  auto ast = parseTileCode(R"(#include <cstdint>
#include <cstdio>
#include <vector>
template <int B>
TILE_KERNEL void add(tile::Tensor<float, B>& z, const tile::Tensor<float, tile::dyn>& x,
                     const tile::Tensor<float, tile::dyn>& y) {
  z.store(tile::load_tile_like(x, z) + tile::load_tile_like(y, z));
}
)" + example);
  if (!ast || ast->getDiagnostics().hasErrorOccurred())
    return {"clang rejects the example"};
  RuleRecorder recorder;
  ast->getDiagnostics().setClient(&recorder, /*ShouldOwnClient=*/false);
  std::vector<const clang::FunctionDecl *> kernels;
  for (const KernelInstance &kernel : discoverKernels(ast->getASTContext()))
    kernels.push_back(kernel.decl);
  runChecks(ast->getASTContext(), kernels);
  return recorder.ids;
}

} // namespace

TEST(Explanations, EveryRuleHasOne) {
  for (const RuleInfo &info : allRules()) {
    SCOPED_TRACE(info.id.str());
    llvm::StringRef text = ruleExplanation(info.rule);
    ASSERT_FALSE(text.empty()) << "add docs/rules/" << info.id.str() << ".md";
    EXPECT_TRUE(text.starts_with((llvm::Twine("# ") + info.id + "\n").str()))
        << "the title is the id";
    EXPECT_FALSE(ruleSummary(info.rule).empty());
    EXPECT_FALSE(ruleExplanationSection(info.rule, "What it protects against").empty());
    llvm::StringRef rejected = ruleExplanationSection(info.rule, "Rejected");
    EXPECT_TRUE(rejected.contains("```cpp")) << "a rejected example";
    llvm::StringRef fix = ruleExplanationSection(info.rule, "Fix");
    EXPECT_TRUE(fix.contains("```cpp")) << "the fixed example";
  }
}

TEST(Explanations, EveryExplanationHasARule) {
  llvm::StringSet<> ids;
  for (const RuleInfo &info : allRules())
    ids.insert(info.id);
  for (llvm::StringRef id : explainedRuleIds())
    EXPECT_TRUE(ids.contains(id)) << "docs/rules/" << id.str() << ".md explains no rule";
  EXPECT_EQ(explainedRuleIds().size(), allRules().size());
}

TEST(Explanations, SectionsAndTemplates) {
  EXPECT_EQ(ruleSummary(Rule::KernelException), "A tile kernel throws or catches an exception.");
  EXPECT_TRUE(ruleExplanationSection(Rule::KernelException, "Rejected").contains("throw"));
  EXPECT_TRUE(ruleExplanationSection(Rule::KernelException, "No such section").empty());
  EXPECT_EQ(ruleMessageTemplate(Rule::KernelRecursion),
            "recursive call to '...' is not allowed in a tile kernel");
  EXPECT_EQ(ruleInfo(Rule::StoreThroughShared).name, "StoreThroughShared");
}

// The examples of docs/rules/ say what tilecc does: the rejected one is reported under its rule,
// the fixed one is clean. Rules reported after the checks (by the lowering or `tilecc compile`)
// and rules whose API is not in the header yet are not run here.
TEST(Explanations, ExamplesBehaveAsDocumented) {
  const llvm::StringSet<> notByChecks = {"tile-not-constant", "tile-no-kernels",
                                         "tile-scalar-conversion"};
  const llvm::StringSet<> plannedApi = {"tile-mapped-not-injective"};
  for (const RuleInfo &info : allRules()) {
    if (plannedApi.contains(info.id))
      continue;
    SCOPED_TRACE(info.id.str());
    std::vector<std::string> rejected =
        codeBlocks(ruleExplanationSection(info.rule, "Rejected"));
    std::vector<std::string> fixed = codeBlocks(ruleExplanationSection(info.rule, "Fix"));
    ASSERT_EQ(rejected.size(), 1u);
    ASSERT_EQ(fixed.size(), 1u);
    if (!notByChecks.contains(info.id)) {
      std::set<std::string> ids = reportedRules(rejected[0]);
      EXPECT_TRUE(ids.count(info.id.str()))
          << "rejected example: " << ::testing::PrintToString(ids);
    }
    EXPECT_EQ(reportedRules(fixed[0]), std::set<std::string>{}) << "fixed example";
  }
}
