//===- RuleTableTest.cpp - the diagnostics table ------------------------------===//
#include "tilecc/Analysis/Diagnostics.h"

#include "llvm/ADT/StringSet.h"
#include "gtest/gtest.h"

using namespace tilecc;

TEST(RuleTable, IdsAreUniqueAndFindable) {
  llvm::StringSet<> seen;
  for (const RuleInfo &info : allRules()) {
    EXPECT_TRUE(info.id.starts_with("tile-")) << info.id.str();
    EXPECT_TRUE(seen.insert(info.id).second) << "duplicate id " << info.id.str();
    std::optional<Rule> found = findRule(info.id);
    ASSERT_TRUE(found);
    EXPECT_EQ(&ruleInfo(*found), &info);
  }
  EXPECT_FALSE(findRule("tile-no-such-rule"));
}

TEST(RuleTable, SeverityCanBeOverridden) {
  EXPECT_EQ(ruleSeverity(Rule::NoKernels), Severity::Warning);
  setRuleSeverity(Rule::NoKernels, Severity::Error);
  EXPECT_EQ(ruleSeverity(Rule::NoKernels), Severity::Error);
  setRuleSeverity(Rule::NoKernels, Severity::Warning);
}
