//===- Diagnostics.h - reporting tilecc's rules through clang ---------*- C++ -*-===//
//
// `Rule` enumerates Rules.def. `report(diags, loc, rule)` emits the rule's message as a clang
// diagnostic (clang-style `file:line:col: error: ... [rule-id]`, with source carets), honouring
// the severity overrides the driver installed with `setRuleSeverity`.
//
// Each rule also has an explanation, docs/rules/<id>.md, embedded at build time: a one-line
// summary, what the rule protects against, a rejected example and its fix (`tilecc --explain`,
// SARIF's rule descriptions).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_DIAGNOSTICS_H
#define TILECC_ANALYSIS_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace tilecc {

enum class Rule {
#define TILE_RULE(Enum, Id, Severity, Message) Enum,
#include "tilecc/Analysis/Rules.def"
};

enum class Severity { Ignored, Warning, Error };

struct RuleInfo {
  Rule rule;
  llvm::StringRef id;
  Severity defaultSeverity;
  llvm::StringRef message;
  /// The enumerator's name (`StoreThroughShared`): SARIF's readable rule name.
  llvm::StringRef name;
};

/// The whole table, in Rules.def order.
llvm::ArrayRef<RuleInfo> allRules();
const RuleInfo &ruleInfo(Rule rule);
std::optional<Rule> findRule(llvm::StringRef id);

/// Overrides a rule's severity for this process (-W, -Wno-, -Werror=).
void setRuleSeverity(Rule rule, Severity severity);
Severity ruleSeverity(Rule rule);

/// Starts a diagnostic for `rule` at `loc`; stream the message's arguments into the result.
clang::DiagnosticBuilder report(clang::DiagnosticsEngine &diags, clang::SourceLocation loc,
                                Rule rule);

/// A note attached to the diagnostic just reported (the loan's origin, the later use, ...).
/// Notes of an ignored diagnostic are dropped with it, as in clang.
clang::DiagnosticBuilder note(clang::DiagnosticsEngine &diags, clang::SourceLocation loc,
                              llvm::StringRef message);

/// The rule's explanation in Markdown (docs/rules/<id>.md); empty when it has none.
llvm::StringRef ruleExplanation(Rule rule);

/// The explanation's one-line summary: its first paragraph after the `# id` title.
llvm::StringRef ruleSummary(Rule rule);

/// The body of the explanation's section `## <title>` (up to the next `## `), trimmed; empty when
/// there is no such section. The sections are "What it protects against", "Rejected" and "Fix".
llvm::StringRef ruleExplanationSection(Rule rule, llvm::StringRef title);

/// The ids of every embedded explanation, sorted (the unit tests compare them with the table).
std::vector<llvm::StringRef> explainedRuleIds();

/// The rule's message with its %N placeholders shown as `...` (for listings).
std::string ruleMessageTemplate(Rule rule);

} // namespace tilecc

#endif
