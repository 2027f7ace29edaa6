//===- LanguageServer.cpp - tilecc lsp: the checks in an editor, beside clangd ---===//
//
//   tilecc lsp [-p BUILD_DIR] [--debounce-ms=N] [-W.. flags] [-- clang flags]
//
// A Language Server Protocol server on standard input and output. It runs `checkFile` (what
// `tilecc check` runs) on each open buffer, unsaved text included, once the buffer has been still
// for the debounce time (250 ms unless told), and publishes what it finds: rule ids as codes,
// the rule's explanation as `codeDescription`, ranges, the notes as related information. The
// fix-its of a diagnostic and of its notes are offered as quick-fix code actions.
//
// Flags come from compile_commands.json: `-p`, else the client's
// `initializationOptions.compilationDatabasePath`, else the nearest directory above the file
// holding compile_commands.json or build/compile_commands.json, as clangd looks for it.
//
// One thread reads the protocol; one worker analyses, a buffer at a time. A result is
// published only for the version it was computed from; a crash while checking a buffer is
// reported on that buffer and the server keeps running.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "Driver.h"
#include "JsonRpc.h"
#include "TextDocument.h"

#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <condition_variable>
#include <map>
#include <thread>

using namespace tilecc;
using namespace tilecc::driver;
namespace json = llvm::json;

namespace {

using Clock = std::chrono::steady_clock;

struct Document {
  std::string path;
  std::string text;
  int64_t version = 0;
  bool dirty = true;  // changed since it was last analysed
  Clock::time_point changed;
  /// The latest published analysis, for code actions: the version it saw and what it found.
  int64_t analysedVersion = -1;
  std::vector<ReportedDiagnostic> diagnostics;
};

// ---- conversions to the protocol's types ----------------------------------------------------

json::Object position(const ReportLocation &where) {
  return json::Object{{"line", where.line ? where.line - 1 : 0},
                      {"character", where.utf16Column ? where.utf16Column - 1 : 0}};
}

json::Object range(const ReportLocation &begin, const ReportLocation &end) {
  return json::Object{{"start", position(begin)}, {"end", position(end.valid() ? end : begin)}};
}

std::string absolute(llvm::StringRef file) {
  llvm::SmallString<256> path(file);
  llvm::sys::fs::make_absolute(path);
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  return path.str().str();
}

/// Whether `where` lies in the file at `path` (absolute), by name or, through symbolic links,
/// on disk.
bool inFile(const ReportLocation &where, llvm::StringRef path) {
  if (!where.valid())
    return false;
  std::string file = absolute(where.file);
  return file == path || llvm::sys::fs::equivalent(file, path);
}

json::Object lspDiagnostic(const ReportedDiagnostic &diagnostic, llvm::StringRef path) {
  json::Object result;
  std::string message = diagnostic.message;
  if (inFile(diagnostic.location, path)) {
    result["range"] = range(diagnostic.location, diagnostic.end);
  } else {
    // Elsewhere (a header): shown at the top of the buffer, saying where.
    result["range"] = range(ReportLocation(), ReportLocation());
    const ReportLocation &where = diagnostic.location;
    if (where.valid())
      message = "in " + displayPath(where.file) + ":" + std::to_string(where.line) + ":" +
                std::to_string(where.column) + ": " + message;
  }
  result["severity"] = diagnostic.level == ReportLevel::Error     ? 1
                       : diagnostic.level == ReportLevel::Warning ? 2
                                                                  : 3;
  result["source"] = "tilecc";
  result["code"] = diagnostic.ruleId;
  if (std::string help = ruleHelpUri(diagnostic.ruleId); !help.empty())
    result["codeDescription"] = json::Object{{"href", help}};
  result["message"] = message;
  json::Array related;
  for (const ReportNote &note : diagnostic.notes)
    if (note.location.valid())
      related.push_back(json::Object{
          {"location", json::Object{{"uri", fileUri(absolute(note.location.file))},
                                    {"range", range(note.location, note.location)}}},
          {"message", note.message}});
  if (!related.empty())
    result["relatedInformation"] = std::move(related);
  return result;
}

/// `(line, character)` of a protocol position, for ordering.
std::pair<int64_t, int64_t> key(const json::Object *position) {
  if (!position)
    return {0, 0};
  return {position->getInteger("line").value_or(0), position->getInteger("character").value_or(0)};
}

/// Whether two protocol ranges touch.
bool overlaps(const json::Object *a, const json::Object *b) {
  if (!a || !b)
    return false;
  return !(key(a->getObject("end")) < key(b->getObject("start")) ||
           key(b->getObject("end")) < key(a->getObject("start")));
}

/// "insert '&'", "remove 'x'", "change 'x' to 'y'": a one-edit fix's title, as clangd words it.
std::string describeEdit(llvm::StringRef text, const ReportFixIt &fixIt) {
  size_t from = offsetOf(text, {fixIt.begin.line - 1, fixIt.begin.utf16Column - 1});
  size_t to = offsetOf(text, {fixIt.end.line - 1, fixIt.end.utf16Column - 1});
  std::string old = to > from ? text.slice(from, to).str() : "";
  if (old.empty())
    return "insert '" + fixIt.text + "'";
  if (fixIt.text.empty())
    return "remove '" + old + "'";
  return "change '" + old + "' to '" + fixIt.text + "'";
}

/// Searches `file`'s directory and those above it for compile_commands.json (or
/// build/compile_commands.json); empty when there is none.
std::string findDatabase(llvm::StringRef file) {
  for (llvm::StringRef dir = llvm::sys::path::parent_path(file); !dir.empty();
       dir = llvm::sys::path::parent_path(dir)) {
    for (llvm::StringRef sub : {"", "build"}) {
      llvm::SmallString<256> candidate(dir);
      llvm::sys::path::append(candidate, sub, "compile_commands.json");
      if (llvm::sys::fs::exists(candidate))
        return llvm::sys::path::parent_path(candidate).str();
    }
  }
  return "";
}

// ---- the server -----------------------------------------------------------------------------

class LanguageServer {
public:
  LanguageServer(const Options &options, JsonRpcTransport &rpc)
      : options(options), rpc(rpc), debounce(options.debounceMs) {}

  /// Serves until `exit` or the end of the input; the process's exit status (0 after a
  /// `shutdown` request, else 1, as the protocol asks).
  int run();

private:
  /// False on `exit`.
  bool handle(json::Value message);
  void request(llvm::StringRef method, const json::Value &id, const json::Object *params);
  void notification(llvm::StringRef method, const json::Object *params);
  json::Value initialize(const json::Object *params);
  void didOpen(const json::Object *params);
  void didChange(const json::Object *params);
  void didClose(const json::Object *params);
  void changedOnDisk();
  json::Value codeActions(const json::Object *params);

  void analyseLoop();
  std::vector<ReportedDiagnostic> analyse(const std::string &path, const std::string &text);

  Options options;
  JsonRpcTransport &rpc;
  std::chrono::milliseconds debounce;
  bool initialized = false;
  bool shutdownRequested = false;

  std::mutex mutex;  // guards what follows
  std::condition_variable wake;
  bool stopping = false;
  std::map<std::string, Document> documents;  // by URI
};

int LanguageServer::run() {
  llvm::CrashRecoveryContext::Enable();
  std::thread worker([this] { analyseLoop(); });
  for (;;) {
    std::string error;
    std::optional<json::Value> message = rpc.read(error);
    if (!message) {
      if (error.empty())
        break;  // the input ended: as `exit`
      rpc.replyError(nullptr, RpcError::ParseError, error);
      continue;
    }
    if (!handle(std::move(*message)))
      break;
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wake.notify_all();
  worker.join();
  return shutdownRequested ? Success : InputError;
}

bool LanguageServer::handle(json::Value message) {
  json::Object *object = message.getAsObject();
  std::optional<llvm::StringRef> method = object ? object->getString("method") : std::nullopt;
  const json::Value *id = object ? object->get("id") : nullptr;
  if (!method) {
    if (id && !object->get("result") && !object->get("error"))
      rpc.replyError(*id, RpcError::InvalidRequest, "a request without a method");
    return true;  // a response to a request of ours (none are sent), or garbage
  }
  const json::Object *params = object->getObject("params");
  if (*method == "exit")
    return false;
  if (id)
    request(*method, *id, params);
  else
    notification(*method, params);
  return true;
}

void LanguageServer::request(llvm::StringRef method, const json::Value &id,
                             const json::Object *params) {
  if (method == "initialize") {
    rpc.reply(id, initialize(params));
    return;
  }
  if (!initialized) {
    rpc.replyError(id, RpcError::ServerNotInitialized, "the first request must be 'initialize'");
    return;
  }
  if (shutdownRequested) {
    rpc.replyError(id, RpcError::InvalidRequest, "the server is shutting down");
    return;
  }
  if (method == "shutdown") {
    shutdownRequested = true;
    rpc.reply(id, nullptr);
  } else if (method == "textDocument/codeAction") {
    rpc.reply(id, codeActions(params));
  } else {
    rpc.replyError(id, RpcError::MethodNotFound, ("no method '" + method + "'").str());
  }
}

void LanguageServer::notification(llvm::StringRef method, const json::Object *params) {
  if (!initialized || shutdownRequested)
    return;
  if (method == "textDocument/didOpen")
    didOpen(params);
  else if (method == "textDocument/didChange")
    didChange(params);
  else if (method == "textDocument/didClose")
    didClose(params);
  else if (method == "textDocument/didSave" || method == "workspace/didChangeWatchedFiles")
    changedOnDisk();
  // Others (initialized, $/cancelRequest, $/setTrace, ...) need nothing.
}

json::Value LanguageServer::initialize(const json::Object *params) {
  initialized = true;
  if (params && options.frontend.buildDir.empty())
    if (const json::Object *init = params->getObject("initializationOptions"))
      if (std::optional<llvm::StringRef> dir = init->getString("compilationDatabasePath"))
        options.frontend.buildDir = dir->str();
  return json::Object{
      {"capabilities",
       json::Object{
           {"textDocumentSync",
            json::Object{{"openClose", true},
                         {"change", 2},  // incremental
                         {"save", json::Object{{"includeText", false}}}}},
           {"codeActionProvider", json::Object{{"codeActionKinds", json::Array{"quickfix"}}}}}},
      {"serverInfo", json::Object{{"name", "tilecc"}, {"version", version()}}}};
}

void LanguageServer::didOpen(const json::Object *params) {
  const json::Object *item = params ? params->getObject("textDocument") : nullptr;
  std::optional<llvm::StringRef> uri = item ? item->getString("uri") : std::nullopt;
  std::optional<llvm::StringRef> text = item ? item->getString("text") : std::nullopt;
  if (!uri || !text)
    return;
  std::optional<std::string> path = uriToPath(*uri);
  if (!path)
    return;  // not a file: nothing tilecc can check
  std::lock_guard<std::mutex> lock(mutex);
  Document &document = documents[uri->str()];
  document = Document();
  document.path = absolute(*path);
  document.text = text->str();
  document.version = item->getInteger("version").value_or(0);
  document.changed = Clock::now();
  wake.notify_all();
}

void LanguageServer::didChange(const json::Object *params) {
  const json::Object *item = params ? params->getObject("textDocument") : nullptr;
  std::optional<llvm::StringRef> uri = item ? item->getString("uri") : std::nullopt;
  const json::Array *changes = params ? params->getArray("contentChanges") : nullptr;
  if (!uri || !changes)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = documents.find(uri->str());
  if (it == documents.end())
    return;
  Document &document = it->second;
  for (const json::Value &change : *changes) {
    const json::Object *edit = change.getAsObject();
    std::optional<llvm::StringRef> text = edit ? edit->getString("text") : std::nullopt;
    if (!text)
      continue;
    const json::Object *where = edit->getObject("range");
    if (!where) {
      document.text = text->str();
      continue;
    }
    auto at = [](const json::Object *p) {
      auto [line, character] = key(p);
      return TextPosition{static_cast<unsigned>(std::max<int64_t>(line, 0)),
                          static_cast<unsigned>(std::max<int64_t>(character, 0))};
    };
    applyChange(document.text, at(where->getObject("start")), at(where->getObject("end")),
                *text);
  }
  document.version = item->getInteger("version").value_or(document.version + 1);
  document.dirty = true;
  document.changed = Clock::now();
  wake.notify_all();
}

void LanguageServer::didClose(const json::Object *params) {
  const json::Object *item = params ? params->getObject("textDocument") : nullptr;
  std::optional<llvm::StringRef> uri = item ? item->getString("uri") : std::nullopt;
  if (!uri)
    return;
  std::lock_guard<std::mutex> lock(mutex);
  if (documents.erase(uri->str()))
    rpc.notify("textDocument/publishDiagnostics",
               json::Object{{"uri", *uri}, {"diagnostics", json::Array()}});
}

/// A saved or changed file may be a header of any open buffer: check them all again.
void LanguageServer::changedOnDisk() {
  std::lock_guard<std::mutex> lock(mutex);
  for (auto &[uri, document] : documents) {
    document.dirty = true;
    document.changed = Clock::now();
  }
  wake.notify_all();
}

json::Value LanguageServer::codeActions(const json::Object *params) {
  json::Array actions;
  const json::Object *item = params ? params->getObject("textDocument") : nullptr;
  std::optional<llvm::StringRef> uri = item ? item->getString("uri") : std::nullopt;
  const json::Object *asked = params ? params->getObject("range") : nullptr;
  if (!uri || !asked)
    return actions;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = documents.find(uri->str());
  if (it == documents.end() || it->second.analysedVersion != it->second.version)
    return actions;  // no analysis of this text: its fix-its would land in the wrong place
  const Document &document = it->second;
  auto action = [&](std::string title, llvm::ArrayRef<ReportFixIt> fixIts,
                    const json::Object &diagnostic, bool preferred) {
    json::Array edits;
    for (const ReportFixIt &fixIt : fixIts) {
      if (!inFile(fixIt.begin, document.path))
        return;
      edits.push_back(
          json::Object{{"range", range(fixIt.begin, fixIt.end)}, {"newText", fixIt.text}});
    }
    actions.push_back(json::Object{
        {"title", std::move(title)},
        {"kind", "quickfix"},
        {"diagnostics", json::Array{json::Object(diagnostic)}},
        {"isPreferred", preferred},
        {"edit", json::Object{{"changes", json::Object{{*uri, std::move(edits)}}}}}});
  };
  for (const ReportedDiagnostic &diagnostic : document.diagnostics) {
    json::Object lsp = lspDiagnostic(diagnostic, document.path);
    if (!overlaps(lsp.getObject("range"), asked))
      continue;
    if (!diagnostic.fixIts.empty())
      action(diagnostic.fixIts.size() == 1 ? describeEdit(document.text, diagnostic.fixIts[0])
                                           : "fix: " + diagnostic.message,
             diagnostic.fixIts, lsp, /*preferred=*/true);
    for (const ReportNote &note : diagnostic.notes)
      if (!note.fixIts.empty())
        action(note.message, note.fixIts, lsp, /*preferred=*/false);
  }
  return actions;
}

void LanguageServer::analyseLoop() {
  std::unique_lock<std::mutex> lock(mutex);
  while (!stopping) {
    auto due = documents.end();
    std::optional<Clock::time_point> earliest;
    Clock::time_point now = Clock::now();
    for (auto it = documents.begin(); it != documents.end(); ++it) {
      if (!it->second.dirty)
        continue;
      Clock::time_point at = it->second.changed + debounce;
      if (at <= now) {
        due = it;
        break;
      }
      earliest = earliest ? std::min(*earliest, at) : at;
    }
    if (due == documents.end()) {
      if (earliest)
        wake.wait_until(lock, *earliest);
      else
        wake.wait(lock);
      continue;
    }
    std::string uri = due->first, path = due->second.path, text = due->second.text;
    int64_t version = due->second.version;
    due->second.dirty = false;
    lock.unlock();
    std::vector<ReportedDiagnostic> found = analyse(path, text);
    lock.lock();
    auto it = documents.find(uri);
    if (it == documents.end() || it->second.version != version)
      continue;  // closed, or changed meanwhile: the newer text is analysed next
    json::Array published;
    for (const ReportedDiagnostic &diagnostic : found)
      published.push_back(lspDiagnostic(diagnostic, path));
    it->second.analysedVersion = version;
    it->second.diagnostics = std::move(found);
    rpc.notify("textDocument/publishDiagnostics",
               json::Object{{"uri", uri}, {"version", version}, {"diagnostics", std::move(published)}});
  }
}

std::vector<ReportedDiagnostic> LanguageServer::analyse(const std::string &path,
                                                        const std::string &text) {
  Options fileOptions = options;
  if (fileOptions.frontend.buildDir.empty())
    fileOptions.frontend.buildDir = findDatabase(path);
  DiagnosticLog log(nullptr);
  std::string failure;
  int status = ToolFailure;
  llvm::CrashRecoveryContext recovery;
  bool finished = recovery.RunSafelyOnThread(
      [&] { status = checkFile(fileOptions, {path, text}, log, llvm::nulls(), failure); },
      kCommandStackBytes);
  if (!finished)
    failure = "internal error (a crash) while checking this file; please report it with the "
              "input";
  if (!finished || status == ToolFailure) {
    ReportedDiagnostic error;
    error.ruleId = "tilecc-tool-failure";
    error.message = "tilecc could not check this file: " + failure;
    log.diagnostics.push_back(std::move(error));
  }
  return std::move(log.diagnostics);
}

} // namespace

int tilecc::driver::runLanguageServer(const Options &options) {
  JsonRpcTransport rpc(stdin, stdout);
  LanguageServer server(options, rpc);
  return server.run();
}
