//===- Verify.cpp - tilecc check -verify: expectations written in the source --===//
//
// `tilecc check -verify FILE...` compares what Clang and tilecc's checks report for each file
// with the expectations written in the file's comments, and succeeds (exit 0) only when they
// match exactly: every expectation is met and nothing else is reported. Mismatches are printed
// as errors and exit 1. This follows Clang's -verify (which cannot be used directly: it only
// sees what is reported while the file is parsed, and tilecc's analyses run afterwards).
//
// Syntax: in any `//` or `/* */` comment of the file being checked,
//
//   expected-error {{text}}       an error on this line whose message contains `text`
//   expected-warning {{text}}     a warning
//   expected-note {{text}}        a note (a note attached to an error, such as the origin of a
//                                 loan or its later use, is matched on its own line)
//   expected-no-diagnostics       nothing at all is reported (no other directive may appear)
//
// The message matched is the one printed, including the trailing ` [rule-id]` of tilecc's rules,
// so `{{[tile-use-after-move]}}` checks the rule id alone. Right after the kind, `@` moves the
// expected line:
//
//   expected-error@+N {{...}}     N lines below the directive's line (@-N: above)
//   expected-error@N {{...}}      on line N
//   expected-error@* {{...}}      on any line of this file
//   expected-error@FILE:N {{...}} on line N (or `*`) of another file, e.g. a header, whose path
//                                 ends with FILE
//
// then an optional count: `2` (exactly twice), `2+` (at least twice), `0-1` (at most once).
// `{{{text}}}` delimits text that contains `}}`. `expected-error-re {{a {{[0-9]+}} b}}` takes
// the parts inside the inner `{{...}}` as regular expressions (llvm::Regex, extended syntax) and
// the rest literally; a pattern matches anywhere in the message.
//
// Only the main file's comments are read. A file without any directive is an error (write
// `expected-no-diagnostics`), as in Clang.
//
//===----------------------------------------------------------------------===//
#include "Check.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"
#include <limits>
#include <optional>

using namespace tilecc;
using namespace tilecc::driver;

namespace {

constexpr unsigned kUnbounded = std::numeric_limits<unsigned>::max();

struct Directive {
  ReportLevel level = ReportLevel::Error;
  bool regex = false;
  std::string fileSuffix;  // empty: the main file
  bool anyLine = false;
  unsigned line = 0;
  unsigned min = 1, max = 1;
  std::string text;
  std::optional<llvm::Regex> pattern;
};

struct Seen {
  ReportLevel level;
  const ReportLocation *location;
  std::string text;
  bool matched = false;
};

llvm::StringRef kindName(ReportLevel level) {
  switch (level) {
  case ReportLevel::Error: return "error";
  case ReportLevel::Warning: return "warning";
  case ReportLevel::Note: return "note";
  }
  return "";
}

/// Reads the directives of one file and remembers what is malformed.
class DirectiveParser {
public:
  DirectiveParser(const clang::SourceManager &sm, llvm::raw_ostream &os) : sm(sm), os(os) {}

  void parseComment(llvm::StringRef comment, clang::SourceLocation start) {
    size_t pos = 0;
    while ((pos = comment.find("expected-", pos)) != llvm::StringRef::npos) {
      size_t begin = pos;
      pos += 9;
      if (begin > 0 && (llvm::isAlnum(comment[begin - 1]) || comment[begin - 1] == '_' ||
                        comment[begin - 1] == '-'))
        continue;
      size_t kindEnd = pos;
      while (kindEnd < comment.size() &&
             (llvm::isAlpha(comment[kindEnd]) || comment[kindEnd] == '-'))
        ++kindEnd;
      llvm::StringRef kind = comment.slice(pos, kindEnd);
      clang::SourceLocation at = start.getLocWithOffset(begin);
      if (kind == "no-diagnostics") {
        if (!directives.empty())
          problem(at, "expected-no-diagnostics directive cannot follow other expected directives");
        noDiagnostics = true;
        pos = kindEnd;
        continue;
      }
      Directive directive;
      if (kind.consume_back("-re"))
        directive.regex = true;
      if (kind == "error")
        directive.level = ReportLevel::Error;
      else if (kind == "warning")
        directive.level = ReportLevel::Warning;
      else if (kind == "note")
        directive.level = ReportLevel::Note;
      else
        continue;  // prose that happens to contain "expected-"
      if (noDiagnostics) {
        problem(at, "expected directive cannot follow 'expected-no-diagnostics' directive");
        pos = kindEnd;
        continue;
      }
      std::string spelling = ("expected-" + comment.slice(pos, kindEnd)).str();
      pos = kindEnd;
      unsigned directiveLine = sm.getPresumedLoc(at).getLine();
      directive.line = directiveLine;
      if (pos < comment.size() && comment[pos] == '@') {
        ++pos;
        if (!parseLocation(comment, pos, directiveLine, directive)) {
          problem(at, "invalid line number in '" + spelling + "' directive");
          continue;
        }
      }
      skipSpace(comment, pos);
      if (pos < comment.size() && llvm::isDigit(comment[pos])) {
        directive.min = directive.max = readNumber(comment, pos);
        if (pos < comment.size() && comment[pos] == '+') {
          ++pos;
          directive.max = kUnbounded;
        } else if (pos < comment.size() && comment[pos] == '-') {
          ++pos;
          if (pos >= comment.size() || !llvm::isDigit(comment[pos])) {
            problem(at, "invalid count in '" + spelling + "' directive");
            continue;
          }
          directive.max = readNumber(comment, pos);
        }
        if (directive.max == 0 || directive.max < directive.min) {
          problem(at, "invalid count in '" + spelling + "' directive");
          continue;
        }
        skipSpace(comment, pos);
      }
      if (!comment.substr(pos).starts_with("{{")) {
        problem(at, "cannot find start ('{{') of expected string in '" + spelling + "'");
        continue;
      }
      size_t braces = 2;
      if (!directive.regex)
        while (pos + braces < comment.size() && comment[pos + braces] == '{')
          ++braces;
      std::string open(braces, '{'), close(braces, '}');
      size_t contentBegin = pos + braces;
      size_t contentEnd = findClose(comment, contentBegin, open, close);
      if (contentEnd == llvm::StringRef::npos) {
        problem(at, "cannot find end ('" + close + "') of expected string in '" + spelling + "'");
        pos = contentBegin;
        continue;
      }
      directive.text = comment.slice(contentBegin, contentEnd).trim().str();
      pos = contentEnd + braces;
      if (directive.regex) {
        std::string regex = toRegex(directive.text);
        directive.pattern.emplace(regex);
        std::string error;
        if (!directive.pattern->isValid(error)) {
          problem(at, "invalid regular expression in '" + spelling + "': " + error);
          continue;
        }
      }
      directives.push_back(std::move(directive));
    }
  }

  std::vector<Directive> directives;
  bool noDiagnostics = false;
  unsigned problems = 0;

private:
  static void skipSpace(llvm::StringRef text, size_t &pos) {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t'))
      ++pos;
  }

  static unsigned readNumber(llvm::StringRef text, size_t &pos) {
    unsigned value = 0;
    while (pos < text.size() && llvm::isDigit(text[pos]))
      value = value * 10 + unsigned(text[pos++] - '0');
    return value;
  }

  static bool parseLocation(llvm::StringRef text, size_t &pos, unsigned directiveLine,
                            Directive &directive) {
    if (pos >= text.size())
      return false;
    char c = text[pos];
    if (c == '*') {
      ++pos;
      directive.anyLine = true;
      return true;
    }
    if (c == '+' || c == '-') {
      ++pos;
      if (pos >= text.size() || !llvm::isDigit(text[pos]))
        return false;
      unsigned offset = readNumber(text, pos);
      if (c == '-' && offset >= directiveLine)
        return false;
      directive.line = c == '+' ? directiveLine + offset : directiveLine - offset;
      return true;
    }
    if (llvm::isDigit(c)) {
      directive.line = readNumber(text, pos);
      return directive.line != 0;
    }
    // FILE:N or FILE:*
    size_t colon = pos;
    while (colon < text.size() && text[colon] != ':' && text[colon] != ' ' && text[colon] != '\t')
      ++colon;
    if (colon >= text.size() || text[colon] != ':' || colon == pos)
      return false;
    directive.fileSuffix = text.slice(pos, colon).str();
    pos = colon + 1;
    if (pos < text.size() && text[pos] == '*') {
      ++pos;
      directive.anyLine = true;
      return true;
    }
    if (pos >= text.size() || !llvm::isDigit(text[pos]))
      return false;
    directive.line = readNumber(text, pos);
    return directive.line != 0;
  }

  /// The position of the `close` that ends the text starting at `pos`, with nesting.
  static size_t findClose(llvm::StringRef text, size_t pos, llvm::StringRef open,
                          llvm::StringRef close) {
    unsigned depth = 1;
    while (pos < text.size()) {
      if (text.substr(pos).starts_with(close)) {
        if (--depth == 0)
          return pos;
        pos += close.size();
      } else if (text.substr(pos).starts_with(open)) {
        ++depth;
        pos += open.size();
      } else {
        ++pos;
      }
    }
    return llvm::StringRef::npos;
  }

  /// `literal {{regex}} literal` as one regular expression.
  static std::string toRegex(llvm::StringRef text) {
    std::string regex;
    while (!text.empty()) {
      size_t open = text.find("{{");
      if (open == llvm::StringRef::npos) {
        regex += llvm::Regex::escape(text);
        break;
      }
      regex += llvm::Regex::escape(text.take_front(open));
      text = text.drop_front(open + 2);
      size_t close = text.find("}}");
      if (close == llvm::StringRef::npos) {
        regex += llvm::Regex::escape(text);
        break;
      }
      regex += "(" + text.take_front(close).str() + ")";
      text = text.drop_front(close + 2);
    }
    return regex;
  }

  void problem(clang::SourceLocation at, const llvm::Twine &message) {
    clang::PresumedLoc where = sm.getPresumedLoc(at);
    os << where.getFilename() << ":" << where.getLine() << ":" << where.getColumn()
       << ": error: " << message << "\n";
    ++problems;
  }

  const clang::SourceManager &sm;
  llvm::raw_ostream &os;
};

bool sameFile(llvm::StringRef file, llvm::StringRef suffix) {
  if (!file.ends_with(suffix))
    return false;
  return file.size() == suffix.size() || file[file.size() - suffix.size() - 1] == '/';
}

bool matches(const Directive &directive, llvm::StringRef mainFile, const Seen &seen) {
  if (seen.level != directive.level || seen.matched)
    return false;
  const ReportLocation &where = *seen.location;
  if (directive.fileSuffix.empty() ? where.file != mainFile
                                   : !sameFile(where.file, directive.fileSuffix))
    return false;
  if (!directive.anyLine && where.line != directive.line)
    return false;
  if (directive.pattern)
    return directive.pattern->match(seen.text);
  return llvm::StringRef(seen.text).contains(directive.text);
}

} // namespace

unsigned tilecc::driver::verifyExpectations(const clang::SourceManager &sm, clang::FileID file,
                                            const clang::LangOptions &langOpts,
                                            llvm::ArrayRef<ReportedDiagnostic> diagnostics,
                                            llvm::raw_ostream &os) {
  DirectiveParser parser(sm, os);
  bool invalid = false;
  llvm::StringRef buffer = sm.getBufferData(file, &invalid);
  if (invalid) {
    os << "error: cannot read the expectations of the main file\n";
    return 1;
  }
  // The raw lexer finds the comments (and skips string literals that look like them).
  clang::Lexer lexer(file, sm.getBufferOrFake(file), sm, langOpts);
  lexer.SetCommentRetentionState(true);
  clang::Token token;
  do {
    lexer.LexFromRawLexer(token);
    if (token.is(clang::tok::comment)) {
      unsigned offset = sm.getFileOffset(token.getLocation());
      parser.parseComment(buffer.substr(offset, token.getLength()), token.getLocation());
    }
  } while (token.isNot(clang::tok::eof));
  unsigned problems = parser.problems;
  std::string mainFile = reportedFileName(sm, sm.getLocForStartOfFile(file));

  std::vector<Seen> seen;
  for (const ReportedDiagnostic &diagnostic : diagnostics) {
    seen.push_back({diagnostic.level, &diagnostic.location, diagnostic.fullMessage()});
    for (const ReportNote &note : diagnostic.notes)
      seen.push_back({ReportLevel::Note, &note.location, note.message});
  }

  if (parser.directives.empty() && !parser.noDiagnostics && parser.problems == 0) {
    os << "error: no expected directives found: consider use of 'expected-no-diagnostics'\n";
    ++problems;
  }

  std::vector<const Directive *> unmet;
  for (const Directive &directive : parser.directives) {
    unsigned found = 0;
    for (Seen &candidate : seen) {
      if (found == directive.max)
        break;
      if (matches(directive, mainFile, candidate)) {
        candidate.matched = true;
        ++found;
      }
    }
    if (found < directive.min)
      unmet.push_back(&directive);
  }

  auto lineText = [](const ReportLocation &where) {
    return where.valid() ? "File " + where.file + " Line " + std::to_string(where.line)
                         : std::string("File <unknown>");
  };
  for (ReportLevel level : {ReportLevel::Error, ReportLevel::Warning, ReportLevel::Note}) {
    std::string kind = ("'expected-" + kindName(level) + "'").str();
    bool header = false;
    for (const Directive *directive : unmet) {
      if (directive->level != level)
        continue;
      if (!header)
        os << "error: " << kind << " diagnostics expected but not seen:\n";
      header = true;
      std::string file = directive->fileSuffix.empty() ? mainFile : directive->fileSuffix;
      std::string line = directive->anyLine ? "*" : std::to_string(directive->line);
      os << "  File " << file << " Line " << line << (directive->regex ? " (regex)" : "") << ": "
         << directive->text << "\n";
      ++problems;
    }
    header = false;
    for (const Seen &diagnostic : seen) {
      if (diagnostic.level != level || diagnostic.matched)
        continue;
      if (!header)
        os << "error: " << kind << " diagnostics seen but not expected:\n";
      header = true;
      os << "  " << lineText(*diagnostic.location) << ": " << diagnostic.text << "\n";
      ++problems;
    }
  }
  return problems;
}
