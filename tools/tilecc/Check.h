//===- Check.h - what tilecc check reports, and how -------------------*- C++ -*-===//
//
// `DiagnosticLog` sits between Clang's diagnostics engine and the output: it records every
// diagnostic (level, rule id, message, the range it points at, the notes attached to it, the
// fix-its of both) and forwards it to clang's text printer when the output format is `clang`.
// The records feed the SARIF and GitHub writers, the `-verify` comparison and `tilecc lsp`.
//
// `checkFile` is the check of one file that `tilecc check` and `tilecc lsp` share.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TOOLS_TILECC_CHECK_H
#define TILECC_TOOLS_TILECC_CHECK_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <vector>

namespace tilecc::driver {

struct Options;  // Driver.h

enum class ReportLevel { Note, Warning, Error };

struct ReportLocation {
  std::string file;       // reportedFileName: absolute unless named by #line; empty if unknown
  unsigned line = 0;      // 1-based; 0 if unknown
  unsigned column = 0;    // 1-based, in bytes (Clang's columns)
  unsigned utf16Column = 0;  // 1-based, in UTF-16 code units (SARIF's default column kind)
  bool inTileLibrary = false;  // in one of the tile library's headers
  bool valid() const { return !file.empty() && line != 0; }
};

/// A Clang fix-it: replace the text from `begin` up to `end` (one file; equal for an insertion)
/// with `text`.
struct ReportFixIt {
  ReportLocation begin;
  ReportLocation end;
  std::string text;
};

struct ReportNote {
  ReportLocation location;
  std::string message;
  std::vector<ReportFixIt> fixIts;
};

struct ReportedDiagnostic {
  ReportLevel level = ReportLevel::Error;
  /// A tilecc rule id (`tile-...`, see Rules.def), or `clang-diagnostic-<warning flag>` /
  /// `clang-diagnostic-error` / `clang-diagnostic-warning` for Clang's own diagnostics.
  std::string ruleId;
  bool isRule = false;
  std::string message;  // without the trailing ` [rule-id]`
  ReportLocation location;
  /// Where the source range the diagnostic points at ends (in `location`'s file): the end of its
  /// highlighted ranges, else of the token at `location`; invalid when unknown.
  ReportLocation end;
  std::vector<ReportFixIt> fixIts;
  /// Notes that follow the diagnostic: for the borrow checker the loan's origin and the later use.
  std::vector<ReportNote> notes;
  /// The diagnostic arose inside the tile library's headers (a static_assert of a misuse, say)
  /// and is reported at the user's line that instantiated it; its first note says where in the
  /// library it arose.
  bool relocated = false;

  /// The message as printed (and as -verify matches it): with ` [rule-id]` for rules.
  std::string fullMessage() const;
};

/// With a text printer to forward to, an error or warning raised inside the tile library's
/// headers is printed (with `text`, on `textOptions`) at the first line of user code that its
/// instantiation notes name, with "the tile library reports it here" as a note at the header
/// line and the other notes after it, as the log records it.
class DiagnosticLog : public clang::DiagnosticConsumer {
public:
  /// `forward` (not owned, may be null) also receives every diagnostic; `text` and
  /// `textOptions` are where it prints and how (needed to print a relocated diagnostic).
  explicit DiagnosticLog(clang::DiagnosticConsumer *forward, llvm::raw_ostream *text = nullptr,
                         clang::DiagnosticOptions *textOptions = nullptr)
      : forward(forward), text(text), textOptions(textOptions) {}

  void BeginSourceFile(const clang::LangOptions &langOpts,
                       const clang::Preprocessor *pp) override;
  void EndSourceFile() override;
  void finish() override;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override;

  std::vector<ReportedDiagnostic> diagnostics;

private:
  /// A diagnostic printed later, and the notes that followed it.
  struct HeldText {
    clang::FullSourceLoc location;
    clang::DiagnosticsEngine::Level level;
    std::string message;
    std::vector<clang::CharSourceRange> ranges;
    std::vector<clang::FixItHint> fixIts;
  };
  void printHeld();

  clang::DiagnosticConsumer *forward;
  llvm::raw_ostream *text;
  clang::DiagnosticOptions *textOptions;
  clang::LangOptions langOpts;  // of the file being reported on: how its tokens end
  /// A tile-library diagnostic being held for relocation (first), with its notes.
  std::vector<HeldText> held;
  /// The user line the last tile-library diagnostic was moved to: later errors and warnings
  /// on that line are the same mistake's follow-ups (a failed static_assert leaves a void or
  /// invalid value behind) and are left out, with their notes, of the log and the text alike.
  /// The log decides (HandleDiagnostic, when a note first names a user line); the held text
  /// diagnostic follows that decision when it is printed.
  std::pair<std::string, unsigned> cascadeLine;
  /// The notes arriving now belong to a follow-up.
  bool skippingNotes = false;
  /// The held diagnostic is a follow-up: printHeld drops it.
  bool heldIsFollowUp = false;
};

/// How tilecc prints Clang's text diagnostics to `os`: presumed locations, option names, and
/// colors as -f[no-]color-diagnostics says (by default when `os` is a terminal).
llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> textDiagnosticOptions(const Options &options,
                                                                         llvm::raw_ostream &os);

/// One file for `checkFile`: its path, and its text when that replaces what is on disk (an
/// editor's unsaved buffer).
struct CheckInput {
  std::string file;
  std::optional<std::string> contents;
};

/// Checks one file as `tilecc check` does: parse, every analysis, then lowering and planning for
/// `options.archs`, so that what it accepts compiles. The diagnostics are recorded in `log`;
/// under `options.verify` they are compared with the file's expectations, mismatches printed to
/// `verifyOut`. Returns Success, InputError (findings or mismatches), or ToolFailure with the
/// reason in `failure`.
int checkFile(const Options &options, const CheckInput &input, DiagnosticLog &log,
              llvm::raw_ostream &verifyOut, std::string &failure);

/// `file://` URI of an absolute path (percent-encoded; a trailing slash for a directory).
std::string fileUri(llvm::StringRef absolute, bool directory = false);

/// Where a rule's explanation is published (docs/rules/<id>.md under the information URI);
/// empty for ids that are not tilecc rules.
std::string ruleHelpUri(llvm::StringRef id);

/// SARIF 2.1.0: one run of tool `tilecc` with the whole rule table and one result per diagnostic
/// (notes as related locations). `toolErrors` become tool execution notifications.
void writeSarif(llvm::raw_ostream &os, llvm::ArrayRef<ReportedDiagnostic> diagnostics,
                llvm::ArrayRef<std::string> toolErrors);

/// GitHub Actions workflow commands: `::error file=F,line=L,col=C,title=ID::MESSAGE`, notes
/// appended to the message.
void writeGithub(llvm::raw_ostream &os, llvm::ArrayRef<ReportedDiagnostic> diagnostics);

/// The file name diagnostics report for `fileLoc`'s file: Clang's presumed name, made absolute
/// (against the directory the compile command ran in) unless a #line directive gave it.
std::string reportedFileName(const clang::SourceManager &sm, clang::SourceLocation fileLoc);

/// `path` relative to the working directory when it lies below it, else unchanged.
std::string displayPath(llvm::StringRef path);

/// Compares the expectations written in `file`'s comments with `diagnostics` (see Verify.cpp for
/// the syntax); prints every mismatch to `os` and returns their number.
unsigned verifyExpectations(const clang::SourceManager &sm, clang::FileID file,
                            const clang::LangOptions &langOpts,
                            llvm::ArrayRef<ReportedDiagnostic> diagnostics, llvm::raw_ostream &os);

} // namespace tilecc::driver

#endif
