//===- Formats.cpp - SARIF 2.1.0 and GitHub annotations for tilecc check ------===//
//
// SARIF: one run whose `tool.driver.rules` is the whole rule table (Rules.def, with the
// explanations of docs/rules/ as descriptions and help) and one result per reported diagnostic.
// File locations below the working directory are relative URIs against the base id %SRCROOT%
// (the working directory, in `originalUriBaseIds`), which is what code-scanning uploads expect
// when tilecc runs at the repository's root; others are absolute `file://` URIs. Columns are
// UTF-16 code units, SARIF's default `columnKind`.
//
// GitHub: one workflow command per diagnostic, `::error file=F,line=L,col=C,title=ID::MESSAGE`
// (`::warning`, `::notice` for a lone note); the notes follow the message on lines of their own.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "Driver.h"

#include "tilecc/Analysis/Diagnostics.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace tilecc;
using namespace tilecc::driver;

static const char kSarifSchema[] =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json";
static const char kSourceRoot[] = "%SRCROOT%";

static llvm::StringRef sarifLevel(ReportLevel level) {
  switch (level) {
  case ReportLevel::Error: return "error";
  case ReportLevel::Warning: return "warning";
  case ReportLevel::Note: return "note";
  }
  return "none";
}

static llvm::StringRef sarifLevel(Severity severity) {
  switch (severity) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  case Severity::Ignored: return "none";
  }
  return "none";
}

/// RFC 3986 percent-encoding of a path (slashes kept).
static std::string encodeUriPath(llvm::StringRef path) {
  std::string uri;
  for (char c : path) {
    auto byte = static_cast<unsigned char>(c);
    if (llvm::isAlnum(c) || llvm::StringRef("-._~/").contains(c)) {
      uri += c;
    } else {
      uri += '%';
      uri += llvm::hexdigit(byte >> 4, /*LowerCase=*/false);
      uri += llvm::hexdigit(byte & 0xF, /*LowerCase=*/false);
    }
  }
  return uri;
}

std::string tilecc::driver::fileUri(llvm::StringRef absolute, bool directory) {
  std::string uri = "file://" + encodeUriPath(absolute);
  if (directory && !llvm::StringRef(uri).ends_with("/"))
    uri += '/';
  return uri;
}

static void writePhysicalLocation(llvm::json::OStream &json, const ReportLocation &where) {
  json.attributeObject("physicalLocation", [&] {
    json.attributeObject("artifactLocation", [&] {
      std::string relative = displayPath(where.file);
      if (!llvm::sys::path::is_absolute(relative)) {
        json.attribute("uri", encodeUriPath(relative));
        json.attribute("uriBaseId", kSourceRoot);
      } else {
        json.attribute("uri", fileUri(relative, /*directory=*/false));
      }
    });
    json.attributeObject("region", [&] {
      json.attribute("startLine", where.line);
      if (where.utf16Column)
        json.attribute("startColumn", where.utf16Column);
    });
  });
}

std::string tilecc::driver::ruleHelpUri(llvm::StringRef id) {
  if (!findRule(id))
    return "";
  return (llvm::StringRef(TILECC_INFORMATION_URI).rtrim('/') + "/blob/main/docs/rules/" + id +
          ".md")
      .str();
}

static void writeRule(llvm::json::OStream &json, const RuleInfo &info) {
  json.object([&] {
    json.attribute("id", info.id);
    json.attribute("name", info.name);
    json.attribute("helpUri", ruleHelpUri(info.id));
    llvm::StringRef summary = ruleSummary(info.rule);
    json.attributeObject("shortDescription",
                         [&] { json.attribute("text", summary.empty() ? info.id : summary); });
    llvm::StringRef protects = ruleExplanationSection(info.rule, "What it protects against");
    std::string full = protects.str();
    // Paragraph text is wrapped in the Markdown source; SARIF viewers wrap it themselves.
    for (size_t i = 0; i < full.size(); ++i)
      if (full[i] == '\n' && (i + 1 == full.size() || full[i + 1] != '\n') &&
          (i == 0 || full[i - 1] != '\n'))
        full[i] = ' ';
    json.attributeObject("fullDescription", [&] {
      json.attribute("text", full.empty() ? ruleMessageTemplate(info.rule) : full);
    });
    llvm::StringRef explanation = ruleExplanation(info.rule);
    json.attributeObject("messageStrings", [&] {
      json.attributeObject("default",
                           [&] { json.attribute("text", ruleMessageTemplate(info.rule)); });
    });
    json.attributeObject("help", [&] {
      json.attribute("text", explanation.empty() ? ruleMessageTemplate(info.rule) : explanation);
      if (!explanation.empty())
        json.attribute("markdown", explanation);
    });
    json.attributeObject("defaultConfiguration",
                         [&] { json.attribute("level", sarifLevel(info.defaultSeverity)); });
  });
}

void tilecc::driver::writeSarif(llvm::raw_ostream &os,
                                llvm::ArrayRef<ReportedDiagnostic> diagnostics,
                                llvm::ArrayRef<std::string> toolErrors) {
  llvm::ArrayRef<RuleInfo> rules = allRules();
  llvm::json::OStream json(os, /*IndentSize=*/2);
  json.object([&] {
    json.attribute("$schema", kSarifSchema);
    json.attribute("version", "2.1.0");
    json.attributeArray("runs", [&] {
      json.object([&] {
        json.attributeObject("tool", [&] {
          json.attributeObject("driver", [&] {
            json.attribute("name", "tilecc");
            json.attribute("version", version());
            json.attribute("semanticVersion", version());
            json.attribute("fullName", versionLine());  // with the LLVM it was built with
            json.attribute("informationUri", TILECC_INFORMATION_URI);
            json.attributeArray("rules", [&] {
              for (const RuleInfo &info : rules)
                writeRule(json, info);
            });
          });
        });
        json.attributeArray("invocations", [&] {
          json.object([&] {
            json.attribute("executionSuccessful", toolErrors.empty());
            if (!toolErrors.empty())
              json.attributeArray("toolExecutionNotifications", [&] {
                for (const std::string &error : toolErrors)
                  json.object([&] {
                    json.attribute("level", "error");
                    json.attributeObject("message", [&] { json.attribute("text", error); });
                  });
              });
          });
        });
        llvm::SmallString<256> cwd;
        if (!llvm::sys::fs::current_path(cwd))
          json.attributeObject("originalUriBaseIds", [&] {
            json.attributeObject(kSourceRoot,
                                 [&] { json.attribute("uri", fileUri(cwd, /*directory=*/true)); });
          });
        json.attribute("columnKind", "utf16CodeUnits");
        json.attributeArray("results", [&] {
          for (const ReportedDiagnostic &diagnostic : diagnostics) {
            json.object([&] {
              json.attribute("ruleId", diagnostic.ruleId);
              if (diagnostic.isRule)
                if (std::optional<Rule> rule = findRule(diagnostic.ruleId))
                  json.attribute("ruleIndex", static_cast<int64_t>(*rule));
              json.attribute("level", sarifLevel(diagnostic.level));
              json.attributeObject("message", [&] { json.attribute("text", diagnostic.message); });
              if (diagnostic.location.valid())
                json.attributeArray("locations", [&] {
                  json.object([&] { writePhysicalLocation(json, diagnostic.location); });
                });
              bool anyNote = llvm::any_of(diagnostic.notes, [](const ReportNote &note) {
                return note.location.valid();
              });
              if (anyNote)
                json.attributeArray("relatedLocations", [&] {
                  int64_t id = 0;
                  for (const ReportNote &note : diagnostic.notes) {
                    if (!note.location.valid())
                      continue;
                    json.object([&] {
                      json.attribute("id", id++);
                      writePhysicalLocation(json, note.location);
                      json.attributeObject("message",
                                           [&] { json.attribute("text", note.message); });
                    });
                  }
                });
            });
          }
        });
      });
    });
  });
  os << "\n";
}

/// GitHub's escaping of a workflow command's message (@actions/core escapeData).
static std::string escapeData(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else
      out += c;
  }
  return out;
}

/// ... and of a property value (escapeProperty).
static std::string escapeProperty(llvm::StringRef text) {
  std::string out;
  for (char c : escapeData(text)) {
    if (c == ':')
      out += "%3A";
    else if (c == ',')
      out += "%2C";
    else
      out += c;
  }
  return out;
}

static std::string describe(const ReportLocation &where) {
  if (!where.valid())
    return "";
  return displayPath(where.file) + ":" + std::to_string(where.line) + ":" +
         std::to_string(where.column) + ": ";
}

void tilecc::driver::writeGithub(llvm::raw_ostream &os,
                                 llvm::ArrayRef<ReportedDiagnostic> diagnostics) {
  for (const ReportedDiagnostic &diagnostic : diagnostics) {
    llvm::StringRef command = diagnostic.level == ReportLevel::Error     ? "error"
                              : diagnostic.level == ReportLevel::Warning ? "warning"
                                                                         : "notice";
    os << "::" << command;
    const ReportLocation &where = diagnostic.location;
    llvm::SmallVector<std::string, 4> properties;
    if (where.valid()) {
      properties.push_back("file=" + escapeProperty(displayPath(where.file)));
      properties.push_back("line=" + std::to_string(where.line));
      if (where.column)
        properties.push_back("col=" + std::to_string(where.column));
    }
    properties.push_back("title=" + escapeProperty(diagnostic.ruleId));
    os << " " << llvm::join(properties, ",") << "::";
    std::string message = diagnostic.message;
    for (const ReportNote &note : diagnostic.notes)
      message += "\n" + describe(note.location) + "note: " + note.message;
    os << escapeData(message) << "\n";
  }
}
