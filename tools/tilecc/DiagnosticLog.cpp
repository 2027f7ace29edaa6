//===- DiagnosticLog.cpp - recording Clang's and tilecc's diagnostics ---------===//
#include "Check.h"

#include "tilecc/Analysis/Diagnostics.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace tilecc;
using namespace tilecc::driver;

std::string ReportedDiagnostic::fullMessage() const {
  return isRule ? message + " [" + ruleId + "]" : message;
}

/// Where clang's text printer puts a diagnostic: the file location (a macro argument's spelling,
/// else the expansion), through #line directives.
static ReportLocation describe(const clang::SourceManager &sm, clang::SourceLocation loc) {
  ReportLocation where;
  if (loc.isInvalid())
    return where;
  clang::SourceLocation fileLoc = sm.getFileLoc(loc);
  clang::PresumedLoc presumed = sm.getPresumedLoc(fileLoc);
  if (presumed.isInvalid())
    return where;
  where.file = presumed.getFilename();
  where.line = presumed.getLine();
  where.column = presumed.getColumn();
  where.utf16Column = where.column;
  // Count UTF-16 code units before the column: one per character, two beyond the BMP.
  bool invalid = false;
  const char *at = sm.getCharacterData(fileLoc, &invalid);
  unsigned bytes = sm.getSpellingColumnNumber(fileLoc, &invalid) - 1;
  if (!invalid && at) {
    unsigned units = 0;
    for (const char *c = at - bytes; c < at; ++c) {
      auto byte = static_cast<unsigned char>(*c);
      if ((byte & 0xC0) == 0x80)
        continue;  // continuation byte
      units += byte >= 0xF0 ? 2 : 1;
    }
    where.utf16Column = units + 1;
  }
  return where;
}

void DiagnosticLog::BeginSourceFile(const clang::LangOptions &langOpts,
                                    const clang::Preprocessor *pp) {
  if (forward)
    forward->BeginSourceFile(langOpts, pp);
}

void DiagnosticLog::EndSourceFile() {
  if (forward)
    forward->EndSourceFile();
}

void DiagnosticLog::finish() {
  if (forward)
    forward->finish();
}

void DiagnosticLog::HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                                     const clang::Diagnostic &info) {
  DiagnosticConsumer::HandleDiagnostic(level, info);
  if (forward)
    forward->HandleDiagnostic(level, info);
  if (level == clang::DiagnosticsEngine::Ignored || level == clang::DiagnosticsEngine::Remark)
    return;

  llvm::SmallString<256> text;
  info.FormatDiagnostic(text);
  ReportLocation location;
  if (info.hasSourceManager())
    location = describe(info.getSourceManager(), info.getLocation());

  if (level == clang::DiagnosticsEngine::Note && !diagnostics.empty()) {
    diagnostics.back().notes.push_back({std::move(location), text.str().str()});
    return;
  }

  ReportedDiagnostic diagnostic;
  diagnostic.level = level == clang::DiagnosticsEngine::Note      ? ReportLevel::Note
                     : level == clang::DiagnosticsEngine::Warning ? ReportLevel::Warning
                                                                  : ReportLevel::Error;
  diagnostic.location = std::move(location);
  llvm::StringRef message = text.str();
  // tilecc's rules end their message with ` [rule-id]` (Diagnostics.cpp).
  if (message.ends_with("]")) {
    size_t open = message.rfind(" [");
    if (open != llvm::StringRef::npos) {
      llvm::StringRef id = message.slice(open + 2, message.size() - 1);
      if (findRule(id)) {
        diagnostic.isRule = true;
        diagnostic.ruleId = id.str();
        message = message.take_front(open);
      }
    }
  }
  diagnostic.message = message.str();
  if (!diagnostic.isRule) {
    llvm::StringRef flag = clang::DiagnosticIDs::getWarningOptionForDiag(info.getID());
    if (!flag.empty())
      diagnostic.ruleId = ("clang-diagnostic-" + flag).str();
    else
      diagnostic.ruleId = level == clang::DiagnosticsEngine::Warning ? "clang-diagnostic-warning"
                                                                      : "clang-diagnostic-error";
  }
  diagnostics.push_back(std::move(diagnostic));
}

std::string tilecc::driver::displayPath(llvm::StringRef path) {
  llvm::SmallString<256> cwd;
  if (path.empty() || !llvm::sys::path::is_absolute(path) || llvm::sys::fs::current_path(cwd))
    return path.str();
  llvm::SmallString<256> normalized(path);
  llvm::sys::path::remove_dots(normalized, /*remove_dot_dot=*/true);
  llvm::StringRef rest = normalized.str();
  if (!rest.consume_front(cwd) || !(rest.empty() || llvm::sys::path::is_separator(rest[0])))
    return normalized.str().str();
  rest = rest.ltrim('/');
  return rest.empty() ? "." : rest.str();
}
