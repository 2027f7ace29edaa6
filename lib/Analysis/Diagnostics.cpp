//===- Diagnostics.cpp - the rule table and its clang diagnostics -------------===//
#include "tilecc/Analysis/Diagnostics.h"

#include "tilecc/Support/LLVMCompat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include <array>
#include <string>

using namespace tilecc;

static const RuleInfo kRules[] = {
#define TILE_RULE(Enum, Id, Sev, Message) {Rule::Enum, Id, Severity::Sev, Message, #Enum},
#include "tilecc/Analysis/Rules.def"
};

static constexpr size_t kNumRules = std::size(kRules);
static std::array<std::optional<Severity>, kNumRules> severityOverrides;

llvm::ArrayRef<RuleInfo> tilecc::allRules() { return kRules; }

const RuleInfo &tilecc::ruleInfo(Rule rule) { return kRules[static_cast<size_t>(rule)]; }

std::optional<Rule> tilecc::findRule(llvm::StringRef id) {
  for (const RuleInfo &info : kRules)
    if (info.id == id)
      return info.rule;
  return std::nullopt;
}

void tilecc::setRuleSeverity(Rule rule, Severity severity) {
  severityOverrides[static_cast<size_t>(rule)] = severity;
}

Severity tilecc::ruleSeverity(Rule rule) {
  const auto &override = severityOverrides[static_cast<size_t>(rule)];
  return override ? *override : ruleInfo(rule).defaultSeverity;
}

clang::DiagnosticBuilder tilecc::report(clang::DiagnosticsEngine &diags,
                                        clang::SourceLocation loc, Rule rule) {
  const RuleInfo &info = ruleInfo(rule);
  clang::DiagnosticsEngine::Level level = clang::DiagnosticsEngine::Error;
  switch (ruleSeverity(rule)) {
  case Severity::Ignored: level = clang::DiagnosticsEngine::Ignored; break;
  case Severity::Warning: level = clang::DiagnosticsEngine::Warning; break;
  case Severity::Error: level = clang::DiagnosticsEngine::Error; break;
  }
  std::string format = (llvm::Twine(info.message) + " [" + info.id + "]").str();
  return diags.Report(loc, compat::customDiagID(diags, level, format));
}

clang::DiagnosticBuilder tilecc::note(clang::DiagnosticsEngine &diags, clang::SourceLocation loc,
                                      llvm::StringRef message) {
  return diags.Report(loc, compat::customDiagID(diags, clang::DiagnosticsEngine::Note, message));
}
