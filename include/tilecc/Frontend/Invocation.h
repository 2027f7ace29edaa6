//===- Invocation.h - parsing user files with Clang --------------------*- C++ -*-===//
//
// Builds Clang ASTs for tile sources the way tilecc sees them: C++20 by default, tilecc's own
// headers and Clang's resource directory found without help, plus the user's -I/-D/-std flags,
// the flags after `--`, or the file's entry in a compile_commands.json (`-p BUILD_DIR`). A file
// that starts with `#include <tile/tile.hpp>` reads that header from a cached precompiled header
// (PrecompiledHeader.h) unless `precompiledHeader` is off or TILECC_NO_PCH is set; the AST,
// the diagnostics and everything derived from them are the same either way.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_FRONTEND_INVOCATION_H
#define TILECC_FRONTEND_INVOCATION_H

#include "clang/Frontend/ASTUnit.h"
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tilecc {

struct FrontendOptions {
  std::vector<std::string> files;
  /// -I, -D, -U, -std=, -isystem and everything after `--`.
  std::vector<std::string> compilerArgs;
  /// Directory holding compile_commands.json, if any.
  std::string buildDir;
  /// (absolute path, text) of files whose text replaces what is on disk: an editor's unsaved
  /// buffers. Such a file need not exist on disk.
  std::vector<std::pair<std::string, std::string>> unsavedFiles;
  /// Receives the diagnostics of parsing and, through the ASTs' engines, of everything reported
  /// later; not owned. Null: clang's text printer on stderr.
  clang::DiagnosticConsumer *diagnostics = nullptr;
  /// Use the precompiled-header cache for files that allow it (--no-pch turns it off).
  bool precompiledHeader = true;
  /// Say on stderr, for each file, whether a precompiled header was reused or built, or why not.
  bool verbose = false;
};

/// Directories tilecc ships (found relative to the executable, else the source tree).
std::string tileIncludeDir();
std::string tileRuntimeDir();
std::string tileLibraryDir();

/// Parses every file; diagnostics go to `options.diagnostics`, else to stderr in clang's format.
/// Returns false on a tool failure (no compilation database, unreadable file); ASTs with errors
/// are still returned.
bool buildASTs(const FrontendOptions &options, std::vector<std::unique_ptr<clang::ASTUnit>> &asts,
               std::string &error);

/// Every file the parse of `ast` read, by the names Clang gave them: the main file, its headers,
/// and the headers behind the precompiled header it loaded (which it did not read itself).
std::vector<std::string> readFiles(const clang::ASTUnit &ast);

} // namespace tilecc

#endif
