//===- ParseHelper.h - parse a snippet with the tile header for tests -*- C++ -*-===//
#ifndef TILECC_UNITTESTS_ANALYSIS_PARSEHELPER_H
#define TILECC_UNITTESTS_ANALYSIS_PARSEHELPER_H

#include "tilecc/Frontend/Invocation.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/ASTUnit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>

namespace tilecc::testing {

/// Parses `code` (after `#include <tile/tile.hpp>`) as tilecc parses a file: C++20, the tile
/// header read from the precompiled-header cache (built by the first parse that needs it).
/// The code is written to `input.cpp` in a directory of this process. Null when Clang could not
/// run; an AST with errors otherwise.
inline std::unique_ptr<clang::ASTUnit> parseTileCode(const std::string &code) {
  static const std::string file = [] {
    llvm::SmallString<128> dir;
    if (llvm::sys::fs::createUniqueDirectory("tilecc-unittest", dir))
      return std::string();
    llvm::sys::path::append(dir, "input.cpp");
    return dir.str().str();
  }();
  std::error_code ec;
  {
    llvm::raw_fd_ostream out(file, ec);
    if (ec)
      return nullptr;
    out << "#include <tile/tile.hpp>\n" << code;
  }
  tilecc::FrontendOptions options;
  options.files = {file};
  std::vector<std::unique_ptr<clang::ASTUnit>> asts;
  std::string error;
  if (!tilecc::buildASTs(options, asts, error) || asts.empty())
    return nullptr;
  return std::move(asts.front());
}

/// The first function definition named `name`.
inline const clang::FunctionDecl *findFunction(clang::ASTContext &context, llvm::StringRef name) {
  for (const clang::Decl *decl : context.getTranslationUnitDecl()->decls())
    if (const auto *fn = llvm::dyn_cast<clang::FunctionDecl>(decl))
      if (fn->getName() == name && fn->hasBody())
        return fn;
  return nullptr;
}

} // namespace tilecc::testing

#endif
