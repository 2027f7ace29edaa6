//===- Explanations.cpp - the rules' explanations (docs/rules/<id>.md) --------===//
//
// The Markdown files are embedded at build time (cmake/EmbedRuleDocs.cmake) as a table keyed by
// rule id; this file looks them up and cuts out the summary and the sections.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Analysis/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"

using namespace tilecc;

namespace {
struct Explanation {
  const char *id;
  const char *markdown;
};

const Explanation kExplanations[] = {
#include "RuleExplanations.inc"
};
} // namespace

llvm::StringRef tilecc::ruleExplanation(Rule rule) {
  llvm::StringRef id = ruleInfo(rule).id;
  for (const Explanation &explanation : kExplanations)
    if (id == explanation.id)
      return explanation.markdown;
  return {};
}

llvm::StringRef tilecc::ruleSummary(Rule rule) {
  llvm::StringRef text = ruleExplanation(rule);
  // Skip the title and blank lines; the summary is the first paragraph, joined on one line in
  // the file by convention.
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    llvm::StringRef trimmed = line.trim();
    if (!trimmed.empty() && !trimmed.starts_with("#"))
      return trimmed;
    text = rest;
  }
  return {};
}

llvm::StringRef tilecc::ruleExplanationSection(Rule rule, llvm::StringRef title) {
  llvm::StringRef text = ruleExplanation(rule);
  std::string heading = ("## " + title).str();
  size_t start = 0;
  while (true) {
    start = text.find(heading, start);
    if (start == llvm::StringRef::npos)
      return {};
    // A heading starts a line and is the whole line.
    size_t end = start + heading.size();
    bool atLineStart = start == 0 || text[start - 1] == '\n';
    bool wholeLine = end == text.size() || text[end] == '\n' || text[end] == '\r';
    if (atLineStart && wholeLine)
      break;
    start = end;
  }
  llvm::StringRef body = text.drop_front(start + heading.size());
  size_t next = body.find("\n## ");
  return body.take_front(next).trim();
}

std::vector<llvm::StringRef> tilecc::explainedRuleIds() {
  std::vector<llvm::StringRef> ids;
  for (const Explanation &explanation : kExplanations)
    ids.push_back(explanation.id);
  return ids;
}

std::string tilecc::ruleMessageTemplate(Rule rule) {
  llvm::StringRef message = ruleInfo(rule).message;
  std::string text;
  for (size_t i = 0; i < message.size(); ++i) {
    if (message[i] == '%' && i + 1 < message.size() && llvm::isDigit(message[i + 1])) {
      text += "...";
      while (i + 1 < message.size() && llvm::isDigit(message[i + 1]))
        ++i;
      continue;
    }
    text += message[i];
  }
  return text;
}
