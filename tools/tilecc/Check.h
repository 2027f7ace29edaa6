//===- Check.h - what tilecc check reports, and how -------------------*- C++ -*-===//
//
// `DiagnosticLog` sits between Clang's diagnostics engine and the output: it records every
// diagnostic (level, rule id, message, location, the notes attached to it) and forwards it to
// clang's text printer when the output format is `clang`. The records feed the SARIF and GitHub
// writers and the `-verify` comparison.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TOOLS_TILECC_CHECK_H
#define TILECC_TOOLS_TILECC_CHECK_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace tilecc::driver {

enum class ReportLevel { Note, Warning, Error };

struct ReportLocation {
  std::string file;       // as Clang names it (absolute for the input files); empty if unknown
  unsigned line = 0;      // 1-based; 0 if unknown
  unsigned column = 0;    // 1-based, in bytes (Clang's columns)
  unsigned utf16Column = 0;  // 1-based, in UTF-16 code units (SARIF's default column kind)
  bool valid() const { return !file.empty() && line != 0; }
};

struct ReportNote {
  ReportLocation location;
  std::string message;
};

struct ReportedDiagnostic {
  ReportLevel level = ReportLevel::Error;
  /// A tilecc rule id (`tile-...`, see Rules.def), or `clang-diagnostic-<warning flag>` /
  /// `clang-diagnostic-error` / `clang-diagnostic-warning` for Clang's own diagnostics.
  std::string ruleId;
  bool isRule = false;
  std::string message;  // without the trailing ` [rule-id]`
  ReportLocation location;
  /// Notes that follow the diagnostic: for the borrow checker the loan's origin and the later use.
  std::vector<ReportNote> notes;

  /// The message as printed (and as -verify matches it): with ` [rule-id]` for rules.
  std::string fullMessage() const;
};

class DiagnosticLog : public clang::DiagnosticConsumer {
public:
  /// `forward` (not owned, may be null) also receives every diagnostic.
  explicit DiagnosticLog(clang::DiagnosticConsumer *forward) : forward(forward) {}

  void BeginSourceFile(const clang::LangOptions &langOpts,
                       const clang::Preprocessor *pp) override;
  void EndSourceFile() override;
  void finish() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override;

  std::vector<ReportedDiagnostic> diagnostics;

private:
  clang::DiagnosticConsumer *forward;
};

/// SARIF 2.1.0: one run of tool `tilecc` with the whole rule table and one result per diagnostic
/// (notes as related locations). `toolErrors` become tool execution notifications.
void writeSarif(llvm::raw_ostream &os, llvm::ArrayRef<ReportedDiagnostic> diagnostics,
                llvm::ArrayRef<std::string> toolErrors);

/// GitHub Actions workflow commands: `::error file=F,line=L,col=C,title=ID::MESSAGE`, notes
/// appended to the message.
void writeGithub(llvm::raw_ostream &os, llvm::ArrayRef<ReportedDiagnostic> diagnostics);

/// `path` relative to the working directory when it lies below it, else unchanged.
std::string displayPath(llvm::StringRef path);

/// Compares the expectations written in `file`'s comments with `diagnostics` (see Verify.cpp for
/// the syntax); prints every mismatch to `os` and returns their number.
unsigned verifyExpectations(const clang::SourceManager &sm, clang::FileID file,
                            const clang::LangOptions &langOpts,
                            llvm::ArrayRef<ReportedDiagnostic> diagnostics, llvm::raw_ostream &os);

} // namespace tilecc::driver

#endif
