//===- Invocation.cpp - parsing user files with Clang -------------------------===//
#include "tilecc/Frontend/Invocation.h"

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
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

bool tilecc::buildASTs(const FrontendOptions &options,
                       std::vector<std::unique_ptr<ASTUnit>> &asts, std::string &error) {
  for (const std::string &file : options.files)
    if (!llvm::sys::fs::exists(file)) {
      error = "no such file: '" + file + "'";
      return false;
    }

  std::unique_ptr<CompilationDatabase> database;
  if (!options.buildDir.empty()) {
    database = JSONCompilationDatabase::loadFromDirectory(options.buildDir, error);
    if (!database)
      return false;
  } else {
    database = std::make_unique<FixedCompilationDatabase>(".", std::vector<std::string>{});
  }

  bool hasStd = false;
  for (const std::string &arg : options.compilerArgs)
    hasStd |= llvm::StringRef(arg).starts_with("-std=");

  ClangTool tool(*database, options.files);
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
  int status = tool.buildASTs(asts);
  if (asts.size() != options.files.size()) {
    if (error.empty())
      error = status == 2 ? "no compile command for some of the files"
                          : "Clang could not parse the input";
    return false;
  }
  return true;
}
