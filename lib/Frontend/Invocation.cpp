//===- Invocation.cpp - parsing user files with Clang -------------------------===//
#include "tilecc/Frontend/Invocation.h"

#include "tilecc/Frontend/NvccCommands.h"
#include "tilecc/Frontend/PrecompiledHeader.h"
#include "tilecc/Support/LLVMCompat.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace clang::tooling;
using namespace tilecc;

static std::string executableDir() {
  static int anchor;
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, &anchor);
  return llvm::sys::path::parent_path(exe).str();
}

/// `<exe>/../<installed>` when that exists (an installed tilecc), else `<fallback>`.
static std::string locate(llvm::StringRef installed, llvm::StringRef probe,
                          llvm::StringRef fallback) {
  llvm::SmallString<256> path(executableDir());
  llvm::sys::path::append(path, "..", installed);
  llvm::SmallString<256> file(path);
  llvm::sys::path::append(file, probe);
  if (llvm::sys::fs::exists(file)) {
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
    return path.str().str();
  }
  return fallback.str();
}

std::string tilecc::tileIncludeDir() {
  return locate("include", "tile/tile.hpp", TILECC_SOURCE_DIR "/include");
}

std::string tilecc::tileRuntimeDir() {
  return locate("share/tilecc/runtime", "device/tile_device.cuh", TILECC_SOURCE_DIR "/runtime");
}

std::string tilecc::tileLibraryDir() {
  return locate("lib", "libtile_rt.a", TILECC_BINARY_DIR "/lib");
}

namespace {

/// What clang::tooling's ASTBuilderAction does (one ASTUnit per compile command), reading a
/// file's leading #include block from the precompiled-header cache when the file allows it.
class ASTBuilder : public ToolAction {
public:
  /// `usePCH`: try the cache in `cacheDir` (absolute; empty: none).
  ASTBuilder(const tilecc::FrontendOptions &options, bool usePCH, std::string cacheDir,
             std::vector<std::unique_ptr<ASTUnit>> &asts)
      : options(options), usePCH(usePCH), cacheDir(std::move(cacheDir)), asts(asts) {}

  bool runInvocation(std::shared_ptr<CompilerInvocation> invocation, FileManager *files,
                     std::shared_ptr<PCHContainerOperations> pchOps,
                     DiagnosticConsumer *consumer) override {
    std::vector<std::string> reported;
    if (usePCH) {
      llvm::StringRef mainFile = invocation->getFrontendOpts().Inputs.empty()
                                     ? llvm::StringRef()
                                     : invocation->getFrontendOpts().Inputs[0].getFile();
      pch::Preparation preparation;
      if (auto text = files->getBufferForFile(mainFile); text && !mainFile.empty())
        preparation = pch::prepare(*invocation, (*text)->getBuffer(), *files, pchOps, cacheDir);
      else
        preparation.note = "not used: the file cannot be read";
      note(mainFile, preparation.note);
      if (preparation.pch) {
        pch::Attempt attempt = pch::parseWithPCH(invocation, *preparation.pch, pchOps, consumer);
        switch (attempt.outcome) {
        case pch::Attempt::Used:
          if (!attempt.ast)
            return false;
          asts.push_back(std::move(attempt.ast));
          return true;
        // Never the user's problem: parse without it.
        case pch::Attempt::FileChanged:
          note(mainFile, "not used: the file changed while it was read");
          break;
        case pch::Attempt::Refused:
          pch::discard(*preparation.pch);  // built again next time
          note(mainFile, "clang refused " + preparation.pch->path + "; parsed without it");
          break;
        case pch::Attempt::Unmappable:
          note(mainFile, "not used: its copy of the #include lines was not found in it");
          break;
        }
        reported = std::move(attempt.reported);
      }
    }
    llvm::IntrusiveRefCntPtr<DiagnosticsEngine> diags =
        reported.empty()
            ? compat::createDiagnostics(invocation->getDiagnosticOpts(), consumer, false)
            : pch::diagnosticsAfterAttempt(invocation->getDiagnosticOpts(), consumer,
                                           std::move(reported));
    std::unique_ptr<ASTUnit> ast =
        compat::loadFromInvocation(std::move(invocation), std::move(pchOps), diags, files);
    if (!ast)
      return false;
    asts.push_back(std::move(ast));
    return true;
  }

private:
  void note(llvm::StringRef file, const llvm::Twine &text) {
    if (options.verbose)
      llvm::errs() << "tilecc: " << file << ": precompiled header: " << text << "\n";
  }

  const tilecc::FrontendOptions &options;
  bool usePCH;
  std::string cacheDir;
  std::vector<std::unique_ptr<ASTUnit>> &asts;
};

} // namespace

std::vector<std::string> tilecc::readFiles(const ASTUnit &ast) {
  std::vector<std::string> files;
  const SourceManager &sm = ast.getSourceManager();
  for (auto it = sm.fileinfo_begin(); it != sm.fileinfo_end(); ++it)
    files.push_back(it->first.getName().str());
  for (std::string &file : pch::inputFiles(ast))
    files.push_back(std::move(file));
  return files;
}

bool tilecc::buildASTs(const FrontendOptions &options,
                       std::vector<std::unique_ptr<ASTUnit>> &asts, std::string &error) {
  auto unsaved = [&](llvm::StringRef file) {
    return llvm::any_of(options.unsavedFiles, [&](const auto &buffer) {
      return buffer.first == file;
    });
  };
  for (const std::string &file : options.files)
    if (!unsaved(file) && !llvm::sys::fs::exists(file)) {
      error = "no such file: '" + file + "'";
      return false;
    }

  std::unique_ptr<CompilationDatabase> database;
  if (!options.buildDir.empty()) {
    llvm::SmallString<256> path(options.buildDir);
    llvm::sys::path::append(path, "compile_commands.json");
    database =
        JSONCompilationDatabase::loadFromFile(path, error, JSONCommandLineSyntax::AutoDetect);
    if (!database)
      return false;
    // As Clang's own JSON database plugin composes it, with nvcc's command lines (CUDA
    // targets) read as the host compiles they stand for first: a file without an entry (a
    // kernel file whose target compiles the CUDA generated from it) then takes the host flags
    // of the nearest file that has one, as clangd does.
    database = inferTargetAndDriverMode(
        inferMissingCompileCommands(nvccCommandsAsClang(std::move(database))));
    // Clang's tool changes into each command's directory and aborts where it cannot.
    for (const std::string &file : options.files)
      for (const CompileCommand &command : database->getCompileCommands(file))
        if (!llvm::sys::fs::is_directory(command.Directory)) {
          error = path.str().str() + ": the command for '" + file + "' runs in '" +
                  command.Directory + "', which is not a directory";
          return false;
        }
  } else {
    database = std::make_unique<FixedCompilationDatabase>(".", std::vector<std::string>{});
  }

  bool hasStd = false;
  for (const std::string &arg : options.compilerArgs)
    hasStd |= llvm::StringRef(arg).starts_with("-std=");

  ClangTool tool(*database, options.files);
  for (const auto &[file, text] : options.unsavedFiles)
    tool.mapVirtualFile(file, text);
  // Flags compile_commands.json may carry for other compilers must not stop Clang.
  tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      {"-Wno-unknown-warning-option", "-Wno-unused-command-line-argument",
       "-Wno-unknown-attributes", "-D__TILECC__=1", "-isystem", tileIncludeDir(),
       "-resource-dir=" TILECC_CLANG_RESOURCE_DIR},
      ArgumentInsertPosition::END));
  std::vector<std::string> userArgs = options.compilerArgs;
  if (!hasStd && options.buildDir.empty())
    userArgs.insert(userArgs.begin(), "-std=c++20");
  tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(userArgs, ArgumentInsertPosition::END));
  if (options.buildDir.empty())
    tool.appendArgumentsAdjuster(
        getInsertArgumentAdjuster({"-x", "c++"}, ArgumentInsertPosition::BEGIN));

  if (options.diagnostics)
    tool.setDiagnosticConsumer(options.diagnostics);
  // The cache directory is resolved here: ClangTool changes the working directory to each
  // compile command's.
  bool usePCH = options.precompiledHeader && !pch::disabledByEnvironment();
  ASTBuilder builder(options, usePCH, usePCH ? pch::cacheDirectory() : "", asts);
  int status = tool.run(&builder);
  if (asts.size() != options.files.size()) {
    if (error.empty())
      error = status == 2 ? "no compile command for some of the files"
                          : "Clang could not parse the input";
    return false;
  }
  return true;
}
