//===- DiagnosticLog.cpp - recording Clang's and tilecc's diagnostics ---------===//
#include "Check.h"
#include "Driver.h"

#include <algorithm>
#include <utility>

#include "tilecc/Analysis/Diagnostics.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Frontend/TextDiagnostic.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace tilecc;
using namespace tilecc::driver;

llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions>
tilecc::driver::textDiagnosticOptions(const Options &options, llvm::raw_ostream &os) {
  // Clang's own defaults for its printer (its driver turns these on).
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diagOptions(new clang::DiagnosticOptions);
  diagOptions->ShowPresumedLoc = true;
  diagOptions->ShowOptionNames = true;
  diagOptions->ShowColors = options.colors.value_or(os.has_colors());
  return diagOptions;
}

std::string ReportedDiagnostic::fullMessage() const {
  return isRule ? message + " [" + ruleId + "]" : message;
}

std::string tilecc::driver::reportedFileName(const clang::SourceManager &sm,
                                             clang::SourceLocation fileLoc) {
  clang::PresumedLoc presumed = sm.getPresumedLoc(fileLoc);
  if (presumed.isInvalid())
    return "";
  llvm::StringRef name = presumed.getFilename();
  if (llvm::sys::path::is_absolute(name))
    return name.str();
  // Relative to the directory the compile command ran in, which Clang resolved when it opened
  // the file; a name from a #line directive stays as written.
  if (clang::OptionalFileEntryRef entry = sm.getFileEntryRefForID(sm.getFileID(fileLoc)))
    if (entry->getName() == name && !entry->getFileEntry().tryGetRealPathName().empty())
      return entry->getFileEntry().tryGetRealPathName().str();
  return name.str();
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
  where.file = reportedFileName(sm, fileLoc);
  where.inTileLibrary = isInTileLibraryFile(sm, fileLoc);
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

/// The file location just past the end of `range` (a token range ends after its last token).
static clang::SourceLocation endOf(const clang::SourceManager &sm,
                                   const clang::LangOptions &langOpts,
                                   clang::CharSourceRange range) {
  clang::SourceLocation end = sm.getFileLoc(range.getEnd());
  if (range.isTokenRange() && end.isValid()) {
    clang::SourceLocation after = clang::Lexer::getLocForEndOfToken(end, 0, sm, langOpts);
    if (after.isValid())
      return after;
  }
  return end;
}

/// The end of what the diagnostic at `loc` points at: the furthest end of its ranges in `loc`'s
/// file, else the end of the token at `loc`.
static ReportLocation rangeEnd(const clang::SourceManager &sm, const clang::LangOptions &langOpts,
                               const clang::Diagnostic &info) {
  clang::SourceLocation loc = sm.getFileLoc(info.getLocation());
  if (loc.isInvalid())
    return {};
  clang::FileID file = sm.getFileID(loc);
  clang::SourceLocation end;
  for (const clang::CharSourceRange &range : info.getRanges()) {
    clang::SourceLocation begin = sm.getFileLoc(range.getBegin());
    clang::SourceLocation rangeEnd = endOf(sm, langOpts, range);
    if (begin.isInvalid() || rangeEnd.isInvalid() || sm.getFileID(begin) != file ||
        sm.getFileID(rangeEnd) != file || sm.isBeforeInTranslationUnit(rangeEnd, loc))
      continue;
    if (end.isInvalid() || sm.isBeforeInTranslationUnit(end, rangeEnd))
      end = rangeEnd;
  }
  if (end.isInvalid())
    end = endOf(sm, langOpts, clang::CharSourceRange::getTokenRange(loc));
  return describe(sm, end);
}

static std::vector<ReportFixIt> fixItsOf(const clang::SourceManager &sm,
                                         const clang::LangOptions &langOpts,
                                         const clang::Diagnostic &info) {
  std::vector<ReportFixIt> fixIts;
  for (const clang::FixItHint &hint : info.getFixItHints()) {
    if (hint.isNull() || hint.RemoveRange.getBegin().isMacroID() ||
        hint.RemoveRange.getEnd().isMacroID())
      continue;
    ReportFixIt fixIt;
    fixIt.begin = describe(sm, hint.RemoveRange.getBegin());
    fixIt.end = describe(sm, endOf(sm, langOpts, hint.RemoveRange));
    fixIt.text = hint.CodeToInsert;
    if (hint.InsertFromRange.isValid())
      fixIt.text = clang::Lexer::getSourceText(hint.InsertFromRange, sm, langOpts).str();
    if (fixIt.begin.valid() && fixIt.end.valid() && fixIt.begin.file == fixIt.end.file)
      fixIts.push_back(std::move(fixIt));
  }
  return fixIts;
}

void DiagnosticLog::BeginSourceFile(const clang::LangOptions &langOpts,
                                    const clang::Preprocessor *pp) {
  this->langOpts = langOpts;
  if (forward)
    forward->BeginSourceFile(langOpts, pp);
}

void DiagnosticLog::EndSourceFile() {
  printHeld();
  if (forward)
    forward->EndSourceFile();
}

void DiagnosticLog::finish() {
  printHeld();
  if (forward)
    forward->finish();
}

/// Appends the warning flag that controls the diagnostic as clang's text printer shows it:
/// ` [-Wflag]`, or ` [-Werror,-Wflag]` for a warning made an error.
static void appendOptionName(clang::DiagnosticsEngine::Level level, const clang::Diagnostic &info,
                             llvm::SmallVectorImpl<char> &message) {
  llvm::StringRef option = clang::DiagnosticIDs::getWarningOptionForDiag(info.getID());
  if (option.empty())
    return;
  bool promoted = (level == clang::DiagnosticsEngine::Error ||
                   level == clang::DiagnosticsEngine::Fatal) &&
                  !clang::DiagnosticIDs::isDefaultMappingAsError(info.getID());
  llvm::raw_svector_ostream os(message);
  os << " [" << (promoted ? "-Werror," : "") << "-W" << option << "]";
}

/// Prints the held tile-library diagnostic: at the first note's location outside the library
/// (that note itself left out), with a note at the library line; else where it arose.
void DiagnosticLog::printHeld() {
  if (held.empty())
    return;
  std::vector<HeldText> items = std::move(held);
  held.clear();
  const clang::SourceManager &sm = items.front().location.getManager();
  auto inUserCode = [&](const HeldText &note) {
    return note.location.isValid() && !isInTileLibraryFile(sm, note.location);
  };
  auto user = std::find_if(items.begin() + 1, items.end(), inUserCode);
  clang::TextDiagnostic printer(*text, langOpts, textOptions);
  auto print = [&](const HeldText &d, llvm::StringRef message, clang::DiagnosticsEngine::Level level) {
    printer.emitDiagnostic(d.location, level, message, d.ranges, d.fixIts);
  };
  const HeldText &main = items.front();
  if (user == items.end()) {
    for (const HeldText &d : items)
      print(d, d.message, d.level);
    return;
  }
  if (std::exchange(heldIsFollowUp, false))
    return;  // a follow-up of the diagnostic already printed for this line
  printer.emitDiagnostic(user->location, main.level, main.message, user->ranges, {});
  print(main, "the tile library reports it here", clang::DiagnosticsEngine::Note);
  for (auto it = items.begin() + 1; it != items.end(); ++it)
    if (it != user)
      print(*it, it->message, it->level);
}

void DiagnosticLog::HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                                     const clang::Diagnostic &info) {
  DiagnosticConsumer::HandleDiagnostic(level, info);
  ReportLocation location;
  if (info.hasSourceManager())
    location = describe(info.getSourceManager(), info.getLocation());
  bool isNote = level == clang::DiagnosticsEngine::Note;
  if (!isNote) {
    if (forward)
      printHeld();
    heldIsFollowUp = false;
    skippingNotes = !location.inTileLibrary && location.valid() &&
                    std::make_pair(location.file, location.line) == cascadeLine;
  }
  if (forward) {
    // An error or warning inside the tile library is held, with its notes, and printed at the
    // user's line (printHeld); the printer still counts it.
    bool inLibrary = text && textOptions && info.hasSourceManager() &&
                     info.getLocation().isValid() &&
                     isInTileLibraryFile(info.getSourceManager(), info.getLocation());
    if (skippingNotes) {
      forward->clang::DiagnosticConsumer::HandleDiagnostic(level, info);  // the counts
    } else if ((isNote && !held.empty()) ||
        (inLibrary && (level == clang::DiagnosticsEngine::Error ||
                       level == clang::DiagnosticsEngine::Fatal ||
                       level == clang::DiagnosticsEngine::Warning))) {
      llvm::SmallString<256> message;
      info.FormatDiagnostic(message);
      if (textOptions->ShowOptionNames)
        appendOptionName(level, info, message);
      HeldText item{clang::FullSourceLoc(info.getLocation(), info.getSourceManager()), level,
                    message.str().str(),
                    std::vector<clang::CharSourceRange>(info.getRanges().begin(),
                                                        info.getRanges().end()),
                    std::vector<clang::FixItHint>(info.getFixItHints().begin(),
                                                  info.getFixItHints().end())};
      held.push_back(std::move(item));
      forward->clang::DiagnosticConsumer::HandleDiagnostic(level, info);  // the counts
    } else {
      forward->HandleDiagnostic(level, info);
    }
  }
  if (level == clang::DiagnosticsEngine::Ignored || level == clang::DiagnosticsEngine::Remark ||
      skippingNotes)
    return;

  llvm::SmallString<256> text;
  info.FormatDiagnostic(text);
  std::vector<ReportFixIt> fixIts;
  if (info.hasSourceManager())
    fixIts = fixItsOf(info.getSourceManager(), langOpts, info);

  if (level == clang::DiagnosticsEngine::Note && !diagnostics.empty()) {
    ReportedDiagnostic &last = diagnostics.back();
    // An error or warning inside the tile library moves to the first line outside it that its
    // instantiation notes name: the user's call, where editors and CI annotations show it.
    if (last.level != ReportLevel::Note && !last.relocated && last.location.inTileLibrary &&
        location.valid() && !location.inTileLibrary) {
      last.notes.insert(last.notes.begin(),
                        {std::move(last.location), "the tile library reports it here", {}});
      if (std::make_pair(location.file, location.line) == cascadeLine) {
        diagnostics.pop_back();  // a follow-up of the diagnostic moved to this line
        skippingNotes = heldIsFollowUp = true;
        return;
      }
      cascadeLine = {location.file, location.line};
      last.location = std::move(location);
      last.end = rangeEnd(info.getSourceManager(), langOpts, info);
      last.relocated = true;
      return;
    }
    last.notes.push_back({std::move(location), text.str().str(), std::move(fixIts)});
    return;
  }

  ReportedDiagnostic diagnostic;
  diagnostic.fixIts = std::move(fixIts);
  if (info.hasSourceManager() && location.valid())
    diagnostic.end = rangeEnd(info.getSourceManager(), langOpts, info);
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
