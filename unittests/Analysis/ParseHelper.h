//===- ParseHelper.h - parse a snippet with the tile header for tests -*- C++ -*-===//
#ifndef TILECC_UNITTESTS_ANALYSIS_PARSEHELPER_H
#define TILECC_UNITTESTS_ANALYSIS_PARSEHELPER_H

#include "tilecc/Frontend/Invocation.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/ASTUnit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>

namespace tilecc::testing {

/// Parses `code` (after `#include <tile/tile.hpp>`) as tilecc parses a file: C++20, the tile
/// header read from the precompiled-header cache (built by the first parse that needs it).
/// The code lives in a temporary file for the parse. Null when Clang could not run; an AST
/// with errors otherwise.
inline std::unique_ptr<clang::ASTUnit> parseTileCode(const std::string &code) {
  int fd = -1;
  llvm::SmallString<128> file;
  if (llvm::sys::fs::createTemporaryFile("tilecc-unittest", "cpp", fd, file))
    return nullptr;
  llvm::FileRemover remover(file);
  {
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
    out << "#include <tile/tile.hpp>\n" << code;
  }
  tilecc::FrontendOptions options;
  options.files = {file.str().str()};
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
