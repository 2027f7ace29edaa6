//===- Explain.cpp - tilecc --explain [ID] ------------------------------------===//
//
// With an id: the rule's id, default severity and message, then its explanation (what it
// protects against, a rejected example, the fix) from docs/rules/<id>.md. Without: every rule,
// one line each.
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "tilecc/Analysis/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

using namespace tilecc;
using namespace tilecc::driver;

static llvm::StringRef severityName(Severity severity) {
  switch (severity) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  case Severity::Ignored: return "ignored";
  }
  return "";
}

int tilecc::driver::runExplain(llvm::StringRef id) {
  llvm::raw_ostream &os = llvm::outs();
  if (id.empty()) {
    size_t width = 0;
    for (const RuleInfo &info : allRules())
      width = std::max(width, info.id.size());
    os << "tilecc's rules (tilecc --explain ID for one of them):\n\n";
    for (const RuleInfo &info : allRules())
      os << "  " << llvm::left_justify(info.id, width) << "  "
         << llvm::left_justify(severityName(info.defaultSeverity), 7) << "  "
         << ruleSummary(info.rule) << "\n";
    return Success;
  }
  std::optional<Rule> rule = findRule(id);
  if (!rule) {
    std::string known;
    for (const RuleInfo &info : allRules())
      known += (known.empty() ? "" : ", ") + info.id.str();
    toolError("unknown rule id '" + id + "'; the rules are: " + known);
    return ToolFailure;
  }
  const RuleInfo &info = ruleInfo(*rule);
  os << info.id << " (" << severityName(info.defaultSeverity) << " by default";
  if (ruleSeverity(*rule) != info.defaultSeverity)
    os << ", " << severityName(ruleSeverity(*rule)) << " here";
  os << ")\n";
  os << "message: " << ruleMessageTemplate(*rule) << " [" << info.id << "]\n";
  // The explanation without its `# id` title line.
  llvm::StringRef text = ruleExplanation(*rule);
  if (text.starts_with("# "))
    text = text.split('\n').second;
  os << "\n" << text.trim() << "\n";
  return Success;
}
