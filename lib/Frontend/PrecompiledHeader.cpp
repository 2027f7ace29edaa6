//===- PrecompiledHeader.cpp - a cached precompiled <tile/tile.hpp> -----------===//
//
// See PrecompiledHeader.h. In order: the leading block, the cache's location, the PCH's command
// line and key, building, and prepare(). The cache's files are PCHCache.cpp's, loading a PCH
// into a parse is PCHLoad.cpp's.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Frontend/PrecompiledHeader.h"

#include "PCHInternals.h"

#include "tilecc/Support/LLVMCompat.h"

#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>

using namespace clang;
using namespace tilecc;
using namespace tilecc::pch;
using namespace tilecc::pch::detail;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

//===----------------------------------------------------------------------===//
// The leading include
//===----------------------------------------------------------------------===//

static bool isHorizontalSpace(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }

std::optional<LeadingBlock> pch::findLeadingBlock(llvm::StringRef text) {
  const size_t n = text.size();
  // A backslash followed by spaces and a line end splices two lines (clang accepts the spaces).
  auto splicesAt = [&](size_t at) {
    if (at >= n || text[at] != '\\')
      return false;
    size_t next = at + 1;
    while (next < n && isHorizontalSpace(text[next]))
      ++next;
    return next == n || text[next] == '\n' || text[next] == '\r';
  };
  auto hasSplice = [&](size_t begin, size_t end) {
    for (size_t at = begin; at < end; ++at)
      if (splicesAt(at))
        return true;
    return false;
  };
  // Lines as clang counts them: \n, \r\n and a lone \r each end one.
  unsigned line = 1;
  auto countLines = [&](size_t begin, size_t end) {
    for (size_t at = begin; at < end; ++at)
      if (text[at] == '\n' || (text[at] == '\r' && (at + 1 >= n || text[at + 1] != '\n')))
        ++line;
  };

  LeadingBlock block;
  size_t at = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (true) {
    // Whitespace and comments.
    while (at < n) {
      if (isHorizontalSpace(text[at]) || text[at] == '\n' || text[at] == '\r') {
        countLines(at, at + 1);
        ++at;
      } else if (text.substr(at).starts_with("//")) {
        size_t end = std::min(text.find_first_of("\r\n", at), n);
        if (hasSplice(at, end))
          return std::nullopt;
        at = end;
      } else if (text.substr(at).starts_with("/*")) {
        size_t end = text.find("*/", at + 2);
        if (end == llvm::StringRef::npos || hasSplice(at, end))
          return std::nullopt;
        countLines(at, end);
        at = end + 2;
      } else {
        break;
      }
    }
    if (at >= n || text[at] != '#')
      return std::nullopt;

    // `#`, `include`, the name, then only spaces and comments up to the line end.
    size_t lineEnd = std::min(text.find_first_of("\r\n", at), n);
    llvm::StringRef rest = text.slice(at + 1, lineEnd);
    if (rest.contains('\\'))
      return std::nullopt;
    rest = rest.ltrim(" \t\f\v");
    if (!rest.consume_front("include") || rest.empty() ||
        !(isHorizontalSpace(rest.front()) || rest.front() == '<' || rest.front() == '"'))
      return std::nullopt;
    rest = rest.ltrim(" \t\f\v");
    Include include;
    include.line = line;
    include.angled = rest.consume_front("<");
    if (!include.angled && !rest.consume_front("\""))
      return std::nullopt;
    size_t close = rest.find(include.angled ? '>' : '"');
    if (close == 0 || close == llvm::StringRef::npos)
      return std::nullopt;
    include.name = rest.take_front(close).str();
    rest = rest.drop_front(close + 1);
    while (!(rest = rest.ltrim(" \t\f\v")).empty() && !rest.starts_with("//")) {
      if (!rest.consume_front("/*"))
        return std::nullopt;
      size_t end = rest.find("*/");
      if (end == llvm::StringRef::npos)
        return std::nullopt;  // a comment running past the line would continue the directive
      rest = rest.drop_front(end + 2);
    }
    bool last = include.name == "tile/tile.hpp";
    block.includes.push_back(std::move(include));
    at = lineEnd;
    if (last) {
      if (at < n)
        at += text.substr(at).starts_with("\r\n") ? 2 : 1;
      block.end = static_cast<unsigned>(at);
      return block;
    }
  }
}

//===----------------------------------------------------------------------===//
// Where the cache lives
//===----------------------------------------------------------------------===//

static std::optional<std::string> environment(const char *name) {
  std::optional<std::string> value = llvm::sys::Process::GetEnv(name);
  if (value && value->empty())
    return std::nullopt;
  return value;
}

std::string pch::cacheDirectory() {
  llvm::SmallString<256> dir;
  if (std::optional<std::string> chosen = environment("TILECC_CACHE_DIR")) {
    dir = *chosen;
  } else {
    // $XDG_CACHE_HOME, else $HOME/.cache, else the user database's home directory + /.cache.
    if (!path::cache_directory(dir))
      return "";
    path::append(dir, "tilecc");
  }
  if (fs::make_absolute(dir))
    return "";
  return dir.str().str();
}

bool pch::disabledByEnvironment() {
  std::optional<std::string> value = environment("TILECC_NO_PCH");
  return value && *value != "0";
}

//===----------------------------------------------------------------------===//
// The PCH's command line and its key
//===----------------------------------------------------------------------===//

namespace {

/// What one line of the block includes: the file header search finds, as it names it, and
/// whether it is a user, system or extern "C" system header.
struct Resolved {
  std::string path;
  SrcMgr::CharacteristicKind kind = SrcMgr::C_User;
};

} // namespace

/// Finds what each line of `block` includes, as the main file `mainFile` would. Fails (with
/// `why`) on a line whose header is not found, is found beside the main file (the PCH is
/// included from elsewhere), or, before tile.hpp, is not a system header.
static std::optional<std::vector<Resolved>> resolveBlock(const CompilerInvocation &unit,
                                                         llvm::StringRef mainFile,
                                                         const LeadingBlock &block,
                                                         FileManager &files, std::string &why) {
  CompilerInstance ci;
  ci.setInvocation(std::make_shared<CompilerInvocation>(unit));
  IgnoringDiagConsumer quiet;
  compat::createDiagnostics(ci, &quiet);
  ci.createFileManager(&files.getVirtualFileSystem());
  ci.createSourceManager(ci.getFileManager());
  if (!ci.createTarget()) {
    why = "the target is not supported";
    return std::nullopt;
  }
  ci.createPreprocessor(TU_Complete);
  HeaderSearch &search = ci.getPreprocessor().getHeaderSearchInfo();
  std::vector<Resolved> resolved;
  for (const Include &include : block.includes) {
    std::string written = include.angled ? "<" + include.name + ">" : "\"" + include.name + "\"";
    if (!include.angled) {
      // "name" is looked for beside the including file first.
      llvm::SmallString<256> beside(path::parent_path(mainFile));
      path::append(beside, include.name);
      if (files.getVirtualFileSystem().exists(beside)) {
        why = "#include " + written + " names a file beside the source";
        return std::nullopt;
      }
    }
    auto found = compat::lookupHeader(search, include.name, include.angled);
    if (!found) {
      why = "#include " + written + " is not found";
      return std::nullopt;
    }
    bool tile = &include == &block.includes.back();
    if (!tile && found->second == SrcMgr::C_User) {
      why = "#include " + written + " before <tile/tile.hpp> is not a system header";
      return std::nullopt;
    }
    resolved.push_back({found->first.getName().str(), found->second});
  }
  return resolved;
}

/// `unit`'s options, set to precompile the leading block (the input is set by the build).
static std::shared_ptr<CompilerInvocation> pchInvocation(const CompilerInvocation &unit) {
  auto invocation = std::make_shared<CompilerInvocation>(unit);
  FrontendOptions &frontend = invocation->getFrontendOpts();
  frontend.ProgramAction = frontend::GeneratePCH;
  frontend.Inputs.clear();
  frontend.OutputFile.clear();
  frontend.DisableFree = false;
  invocation->getLangOpts().IsHeaderFile = true;
  invocation->getLangOpts().PCHInstantiateTemplates = true;
  // Lets a header whose modification time changed but whose contents did not still load. The
  // PCH records no modification times at all: clang finds a header's `#pragma once` and include
  // guard in a PCH by its size and time, so a header touched since (a fresh checkout) would
  // otherwise be entered a second time.
  invocation->getHeaderSearchOpts().ValidateASTInputFilesContent = true;
  frontend.IncludeTimestamps = false;
  // Code generation only: the unit's file name and working directory must not split the cache.
  CodeGenOptions &codegen = invocation->getCodeGenOpts();
  codegen.MainFileName.clear();
  codegen.DebugCompilationDir.clear();
  codegen.CoverageCompilationDir.clear();
  invocation->getDependencyOutputOpts() = DependencyOutputOptions();
  return invocation;
}

/// Options that only change how diagnostics are shown (a PCH is built without any); `separate`:
/// the option's value is the next argument.
static bool isPresentationOption(llvm::StringRef arg, bool &separate) {
  static const char *const withValue[] = {
      "-ferror-limit",           "-ftemplate-backtrace-limit", "-fconstexpr-backtrace-limit",
      "-fmacro-backtrace-limit", "-fspell-checking-limit",     "-ftabstop",
      "-fdiagnostics-format"};
  separate = llvm::is_contained(withValue, arg);
  if (separate)
    return true;
  for (const char *prefix :
       {"-fcolor-diagnostics", "-fno-color-diagnostics", "-fmessage-length=", "-fdiagnostics-",
        "-fno-diagnostics-", "-fcaret-diagnostics-max-lines", "-fno-caret-diagnostics",
        "-fno-show-column", "-fno-show-source-location", "-fshow-", "-fno-show-"})
    if (arg.starts_with(prefix))
      return true;
  return false;
}

/// Whether the meaning of the invocation's paths depends on the working directory.
static bool usesRelativePaths(const CompilerInvocation &invocation) {
  auto relative = [](llvm::StringRef p) { return !p.empty() && path::is_relative(p); };
  const HeaderSearchOptions &search = invocation.getHeaderSearchOpts();
  if (relative(search.Sysroot) || relative(search.ResourceDir))
    return true;
  for (const HeaderSearchOptions::Entry &entry : search.UserEntries)
    if (relative(entry.Path))
      return true;
  return false;
}

static std::string keyFor(const CompilerInvocation &pchInvocation, const LeadingBlock &block,
                          const std::vector<Resolved> &resolved, llvm::StringRef workingDir) {
  Hasher hash;
  // Bump the number whenever what goes into a PCH (pchInvocation, blockText) changes.
  hash.add("tilecc precompiled header 2");
  hash.add(getClangFullVersion());
  std::vector<std::string> args = pchInvocation.getCC1CommandLine();
  for (size_t i = 0; i < args.size(); ++i) {
    bool separate = false;
    if (isPresentationOption(args[i], separate)) {
      i += separate;
      continue;
    }
    hash.add(args[i]);
  }
  // The lines (not where they are: the PCH maps them onto each file's own lines).
  for (size_t i = 0; i < block.includes.size(); ++i) {
    hash.add(block.includes[i].angled ? "<>" : "\"\"");
    hash.add(block.includes[i].name);
    hash.add(resolved[i].path);
    hash.add(std::to_string(resolved[i].kind));
  }
  hash.add(workingDir);
  return hash.hex();
}

const char tilecc::pch::detail::kBlockMarker[] =
    "// tilecc: the leading #include lines of the source file";

std::string tilecc::pch::detail::blockText(const LeadingBlock &block) {
  std::string text = std::string("\n") + kBlockMarker + "\n";
  for (const Include &include : block.includes)
    text += include.angled ? "#include <" + include.name + ">\n"
                           : "#include \"" + include.name + "\"\n";
  return text;
}

//===----------------------------------------------------------------------===//
// Building
//===----------------------------------------------------------------------===//

namespace {

/// Counts what a PCH build reports and keeps the first diagnostic, as clang would print it.
class BuildDiagnostics : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic &info) override {
    if (count++)
      return;
    llvm::raw_string_ostream os(first);
    if (info.getLocation().isValid() && info.hasSourceManager()) {
      PresumedLoc where = info.getSourceManager().getPresumedLoc(info.getLocation());
      if (where.isValid())
        os << where.getFilename() << ":" << where.getLine() << ":" << where.getColumn() << ": ";
    }
    switch (level) {
    case DiagnosticsEngine::Note:
      os << "note: ";
      break;
    case DiagnosticsEngine::Remark:
      os << "remark: ";
      break;
    case DiagnosticsEngine::Warning:
      os << "warning: ";
      break;
    default:
      os << "error: ";
      break;
    }
    llvm::SmallString<128> message;
    info.FormatDiagnostic(message);
    os << message;
  }

  unsigned count = 0;
  std::string first;
};

/// Precompiles an empty main file whose predefines end with the block's lines (so that they are
/// looked up as from a file with no directory of its own: the include path alone).
class BuildPCHAction : public GeneratePCHAction {
public:
  explicit BuildPCHAction(std::string lines) : lines(std::move(lines)) {}

protected:
  bool BeginSourceFileAction(CompilerInstance &ci) override {
    if (!GeneratePCHAction::BeginSourceFileAction(ci) || !ci.hasPreprocessor())
      return false;
    Preprocessor &pp = ci.getPreprocessor();
    pp.setPredefines(pp.getPredefines() + lines);
    return true;
  }

private:
  std::string lines;
};

} // namespace

/// Runs `invocation` (a GeneratePCH action writing its OutputFile) on `block`. Fills `manifest`
/// with the files read and their digest; false, with `why`, when the build failed or said
/// anything (then `manifest.reason` is set when the failure belongs in the cache).
static bool buildPCH(std::shared_ptr<CompilerInvocation> invocation, const LeadingBlock &block,
                     FileManager &files, std::shared_ptr<PCHContainerOperations> pchOps,
                     Manifest &manifest, std::string &why) {
  static const char kMainName[] = "<tilecc leading includes>";
  FrontendOptions &frontend = invocation->getFrontendOpts();
  frontend.Inputs.clear();
  frontend.Inputs.emplace_back(llvm::MemoryBufferRef("", kMainName),
                               InputKind(Language::CXX).getHeader());
  CompilerInstance ci(std::move(pchOps));
  ci.setInvocation(std::move(invocation));
  BuildDiagnostics diagnostics;
  compat::createDiagnostics(ci, &diagnostics);
  ci.setVerboseOutputStream(llvm::nulls());  // no "N warnings generated"
  ci.createFileManager(&files.getVirtualFileSystem());
  ci.createSourceManager(ci.getFileManager());
  llvm::IntrusiveRefCntPtr<SourceManager> sources(&ci.getSourceManager());
  BuildPCHAction action(blockText(block));
  bool built = ci.ExecuteAction(action);

  // Every file the build entered, with the contents clang read.
  std::vector<std::pair<std::string, llvm::StringRef>> read;
  for (auto it = sources->fileinfo_begin(); it != sources->fileinfo_end(); ++it)
    if (std::optional<llvm::StringRef> data = it->second->getBufferDataIfLoaded())
      read.emplace_back(it->first.getName().str(), *data);
  llvm::sort(read);
  Hasher hash;
  manifest.inputs.clear();
  for (const auto &[name, contents] : read) {
    if (name.find('\n') != std::string::npos) {
      why = "a header's path contains a line break";
      return false;
    }
    hash.addFile(name, contents);
    manifest.inputs.push_back(name);
  }
  manifest.digest = hash.hex();

  if (diagnostics.count) {
    why = manifest.reason =
        "the header does not precompile silently with these flags: " + diagnostics.first;
    return false;
  }
  if (!built || manifest.inputs.empty()) {
    why = "clang could not write the precompiled header";
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// prepare
//===----------------------------------------------------------------------===//

Preparation pch::prepare(const CompilerInvocation &unit, llvm::StringRef mainText,
                         FileManager &files, std::shared_ptr<PCHContainerOperations> pchOps,
                         llvm::StringRef cacheDir) {
  Preparation result;
  auto notUsed = [&](const llvm::Twine &why) {
    result.note = ("not used: " + why).str();
    return result;
  };

  const FrontendOptions &frontend = unit.getFrontendOpts();
  if (frontend.Inputs.size() != 1 || !frontend.Inputs.front().isFile())
    return notUsed("the input is not one file");
  InputKind kind = frontend.Inputs.front().getKind();
  const LangOptions &lang = unit.getLangOpts();
  if (kind.getLanguage() != Language::CXX || kind.getFormat() != InputKind::Source ||
      kind.isPreprocessed() || kind.isHeaderUnit() || lang.ObjC || lang.CUDA || lang.HIP ||
      lang.OpenCL)
    return notUsed("the file is not parsed as plain C++");
  // (LangOpts.Modules is on for every C++20 parse; module maps and module files are what count.)
  if (lang.ImplicitModules || !frontend.ModuleMapFiles.empty() || !frontend.ModuleFiles.empty() ||
      !unit.getHeaderSearchOpts().PrebuiltModuleFiles.empty())
    return notUsed("the flags use Clang modules");
  const PreprocessorOptions &preprocessor = unit.getPreprocessorOpts();
  if (!preprocessor.Includes.empty() || !preprocessor.MacroIncludes.empty() ||
      !preprocessor.ImplicitPCHInclude.empty() || !preprocessor.ChainedIncludes.empty() ||
      !preprocessor.RemappedFiles.empty() || !preprocessor.RemappedFileBuffers.empty() ||
      preprocessor.PrecompiledPreambleBytes.first != 0)
    return notUsed("the flags include or remap files (-include, -imacros, -include-pch)");
  if (!unit.getHeaderSearchOpts().VFSOverlayFiles.empty())
    return notUsed("the flags overlay the file system (-ivfsoverlay)");

  std::optional<LeadingBlock> block = findLeadingBlock(mainText);
  if (!block)
    return notUsed("the file's code does not start with #include lines ending with "
                   "#include <tile/tile.hpp>");
  llvm::vfs::FileSystem &vfs = files.getVirtualFileSystem();
  std::string why;
  std::optional<std::vector<Resolved>> resolved =
      resolveBlock(unit, frontend.Inputs.front().getFile(), *block, files, why);
  if (!resolved)
    return notUsed(why);
  if (cacheDir.empty())
    return notUsed("no cache directory (set TILECC_CACHE_DIR)");
  if (std::error_code ec = fs::create_directories(cacheDir))
    return notUsed("cannot create the cache directory '" + cacheDir + "': " + ec.message());

  std::shared_ptr<CompilerInvocation> invocation = pchInvocation(unit);
  std::string workingDir;
  if (usesRelativePaths(*invocation))
    if (llvm::ErrorOr<std::string> cwd = vfs.getCurrentWorkingDirectory())
      workingDir = *cwd;
  std::string key = keyFor(*invocation, *block, *resolved, workingDir);
  llvm::SmallString<256> manifestPath(cacheDir), lockPath(cacheDir);
  path::append(manifestPath, key + ".manifest");
  path::append(lockPath, key);

  auto use = [&](const Lookup &found, llvm::StringRef how) {
    llvm::SmallString<256> pchPath(cacheDir);
    path::append(pchPath, found.manifest.pchName);
    touch(manifestPath);
    result.pch = PCH{pchPath.str().str(), manifestPath.str().str(), *block};
    result.note = (how + " " + pchPath).str();
    return result;
  };

  Lookup found = lookUp(cacheDir, manifestPath, vfs);
  if (found.state == Lookup::Usable)
    return use(found, "reused");
  if (found.state == Lookup::Unusable)
    return notUsed(found.manifest.reason);

  // Build it, one process per key at a time: the others wait for it and use the result.
  compat::FileLock lock(lockPath);
  switch (lock.state()) {
  case compat::FileLock::HeldByOther:
    lock.waitForRelease(/*seconds=*/300);
    found = lookUp(cacheDir, manifestPath, vfs);
    if (found.state == Lookup::Usable)
      return use(found, "reused (built by another tilecc)");
    if (found.state == Lookup::Unusable)
      return notUsed(found.manifest.reason);
    return notUsed("another tilecc was building it and did not finish");
  case compat::FileLock::Owned:
    // Another process may have finished between the first look and the lock.
    found = lookUp(cacheDir, manifestPath, vfs);
    if (found.state == Lookup::Usable)
      return use(found, "reused (built by another tilecc)");
    break;
  case compat::FileLock::Unavailable:
    break;  // build without the lock: the renames keep readers safe
  }

  auto start = std::chrono::steady_clock::now();
  llvm::SmallString<256> building;
  int fd;
  if (fs::createUniqueFile(cacheDir + "/" + key + "-%%%%%%%%.pch-tmp", fd, building))
    return notUsed("cannot write to the cache directory '" + cacheDir + "'");
  (void)llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  invocation->getFrontendOpts().OutputFile = building.str().str();
  std::optional<Manifest> previous = readManifest(manifestPath);
  Manifest manifest;
  bool built = buildPCH(invocation, *block, files, pchOps, manifest, why);
  if (!built) {
    fs::remove(building);
    if (!manifest.reason.empty() && writeAtomically(manifestPath, renderManifest(manifest)))
      if (previous && previous->usable && !previous->pchName.empty()) {
        llvm::SmallString<256> old(cacheDir);
        path::append(old, previous->pchName);
        fs::remove(old);
      }
    return notUsed(why);
  }

  manifest.usable = true;
  manifest.pchName = key + "-" + manifest.digest.substr(0, 16) + ".pch";
  llvm::SmallString<256> pchPath(cacheDir);
  path::append(pchPath, manifest.pchName);
  fs::file_status status;
  if (fs::status(building, status) || fs::rename(building, pchPath)) {
    fs::remove(building);
    return notUsed("cannot write to the cache directory '" + cacheDir + "'");
  }
  manifest.pchSize = status.getSize();
  std::optional<std::string> pchDigest = fileDigest(pchPath);
  if (!pchDigest) {
    fs::remove(pchPath);
    return notUsed("cannot read back the precompiled header '" + pchPath.str().str() + "'");
  }
  manifest.pchDigest = *pchDigest;
  if (!writeAtomically(manifestPath, renderManifest(manifest))) {
    fs::remove(pchPath);
    return notUsed("cannot write to the cache directory '" + cacheDir + "'");
  }
  if (previous && previous->usable && previous->pchName != manifest.pchName) {
    llvm::SmallString<256> old(cacheDir);
    path::append(old, previous->pchName);
    fs::remove(old);
  }
  prune(cacheDir);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.pch = PCH{pchPath.str().str(), manifestPath.str().str(), *block};
  result.note = llvm::formatv("built {0} in {1:f2} s", pchPath.str(), seconds).str();
  return result;
}
