//===- PrecompiledHeader.h - a cached precompiled <tile/tile.hpp> ------*- C++ -*-===//
//
// Parsing <tile/tile.hpp> and the standard headers behind it is most of the time tilecc takes
// on a file. A file whose code starts with a block of `#include` lines ending with
// `#include <tile/tile.hpp>` (only comments between them; the lines before tile.hpp naming
// system headers, e.g. `<cmath>`, `<vector>`) has that block read from a precompiled header
// (PCH) instead: built on the first run that needs it, kept in a cache directory and shared by
// every later run, in any tilecc process, with the same block, flags and header contents.
//
// Interface (used by buildASTs, Invocation.cpp):
//   findLeadingBlock(text)        the file's leading #include block, if it ends with tile.hpp
//   cacheDirectory()              $TILECC_CACHE_DIR, else $XDG_CACHE_HOME/tilecc, else
//                                 ~/.cache/tilecc (the user database's home without $HOME)
//   disabledByEnvironment()       TILECC_NO_PCH is set (and not "0")
//   prepare(unit, ...)            the cached PCH for a translation unit, built when missing or
//                                 stale; or nothing, and why (for `-v`)
//   parseWithPCH(unit, pch, ...)  the ASTUnit of the unit with the PCH loaded, or why it could
//                                 not be used (the caller then parses without it)
//   diagnosticsAfterAttempt(...)  the diagnostics engine for that parse
//   discard(pch)                  drops a PCH clang refused, so that the next run rebuilds it
//   inputFiles(ast)               the headers a parse read through its PCH (for depfiles)
//
// The sources: PrecompiledHeader.cpp (the leading block, the key, building, prepare),
// PCHCache.cpp (the cache directory's files), PCHLoad.cpp (loading into a parse).
//
// A parse with the PCH is the parse without it. The PCH holds the block's headers included in
// the block's order, each found as the file's own `#include` would find it, with the same
// flags (the PCH is built from the unit's own compiler invocation) and contents; the parse skips
// the block's bytes and goes on from the line after tile.hpp. Headers keep their names and their
// system-header status, and an include stack names the file's own `#include` line (the PCH's
// lines are mapped onto them). A header that warns under the given flags is not precompiled, so
// no diagnostic can be lost (the PCH also instantiates the templates its headers use, which a
// parse would instantiate at the end of the file). The ASTContext's traversal scope is set to
// the file's own top-level declarations: a RecursiveASTVisitor started at the
// TranslationUnitDecl walks what it walks without the PCH, minus the declarations of the tile
// library and the system headers (a file with a header of its own before tile.hpp gets no PCH),
// which it would otherwise have to deserialize.
//
// The cache holds, per key, `<key>.manifest` (the files the PCH was built from and a digest of
// their contents, or why the block cannot be precompiled) and `<key>-<digest>.pch`. The key
// hashes clang's version, the PCH's whole cc1 command line (language, target, defines, include
// paths, resource directory, warning flags), the block and the files its lines resolve to, and
// the working directory when an include path is relative; the digest hashes the contents of
// every file the PCH read, re-read on each use. Files are written under temporary names and
// renamed into place, and one builder per key holds a lock while the others wait, so concurrent
// tilecc processes never read a partial PCH. Nothing about the cache fails a compile: an
// unusable directory, a stale, corrupt or rejected PCH all end in an ordinary parse (and a
// rebuild where possible). Entries unused for 30 days are removed.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_FRONTEND_PRECOMPILEDHEADER_H
#define TILECC_FRONTEND_PRECOMPILEDHEADER_H

#include "clang/Frontend/ASTUnit.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilecc::pch {

/// One `#include` line of a file's leading block.
struct Include {
  std::string name;    // as written between the delimiters
  bool angled = true;  // <name>, else "name"
  unsigned line = 0;   // 1-based line of the directive
  bool operator==(const Include &) const = default;
};

/// The `#include` lines a file's code starts with, up to the first one naming tile/tile.hpp.
struct LeadingBlock {
  std::vector<Include> includes;  // the last one is tile/tile.hpp
  unsigned end = 0;               // offset of the line after it (or of the end of the file)
  bool operator==(const LeadingBlock &) const = default;
};

/// The leading block of `text`: `#include <...>` / `#include "..."` lines with only whitespace
/// and comments around them (and no line splices), the last naming tile/tile.hpp.
std::optional<LeadingBlock> findLeadingBlock(llvm::StringRef text);

/// See the file comment; empty when no directory can be named.
std::string cacheDirectory();

bool disabledByEnvironment();

/// A cached PCH one translation unit can load.
struct PCH {
  std::string path;
  std::string manifestPath;
  LeadingBlock block;
};

struct Preparation {
  std::optional<PCH> pch;
  /// What happened, for `-v`: "reused <pch>", "built <pch> in 2.31 s", or why none is used.
  std::string note;
};

/// The PCH for `unit` (a C++ parse of one main file, whose text is `mainText`): looked up in
/// `cacheDir` (an absolute path; empty: no cache), validated against the current headers, built
/// when missing or stale. `files` supplies the file system and working directory of the parse.
Preparation prepare(const clang::CompilerInvocation &unit, llvm::StringRef mainText,
                    clang::FileManager &files,
                    std::shared_ptr<clang::PCHContainerOperations> pchOps,
                    llvm::StringRef cacheDir);

struct Attempt {
  enum Outcome {
    Used,         // the parse read the PCH
    FileChanged,  // the file no longer starts with the block the PCH was chosen for
    Refused,      // clang did not accept the PCH (damaged, or stale in a way the cache missed)
    Unmappable,   // the PCH's copy of the block was not found (a clang that builds PCHs
                  // differently): include stacks could not name the file's lines
  };
  Outcome outcome = Used;
  /// The parse (possibly with errors in the source), or null: with Used, a failure of the parse
  /// itself, already reported; otherwise nothing about the PCH was reported, and `reported`
  /// lists what the consumer did receive (diagnostics issued before the PCH was read), which the
  /// parse without the PCH must not report again.
  std::unique_ptr<clang::ASTUnit> ast;
  std::vector<std::string> reported;
};

/// Parses `unit` with `pch` loaded, reporting to `consumer` (clang's text printer on stderr when
/// null) as clang::tooling's ASTUnit builder would.
Attempt parseWithPCH(std::shared_ptr<clang::CompilerInvocation> unit, const PCH &pch,
                     std::shared_ptr<clang::PCHContainerOperations> pchOps,
                     clang::DiagnosticConsumer *consumer);

/// The diagnostics engine for the parse that follows an attempt that did not use its PCH:
/// `consumer` (stderr when null), skipping the leading diagnostics the attempt already reported.
llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine>
diagnosticsAfterAttempt(clang::DiagnosticOptions &options, clang::DiagnosticConsumer *consumer,
                        std::vector<std::string> reported);

/// Makes the next run rebuild `pch` (clang refused it).
void discard(const PCH &pch);

/// The files the PCH loaded into `ast` was built from (none without a PCH).
std::vector<std::string> inputFiles(const clang::ASTUnit &ast);

} // namespace tilecc::pch

#endif
