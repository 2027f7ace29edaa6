//===- ParseHelper.h - parse a snippet with the tile header for tests -*- C++ -*-===//
#ifndef TILECC_UNITTESTS_ANALYSIS_PARSEHELPER_H
#define TILECC_UNITTESTS_ANALYSIS_PARSEHELPER_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include <memory>
#include <string>

namespace tilecc::testing {

/// Parses `code` (after `#include <tile/tile.hpp>`) as C++20.
inline std::unique_ptr<clang::ASTUnit> parseTileCode(const std::string &code) {
  return clang::tooling::buildASTFromCodeWithArgs(
      "#include <tile/tile.hpp>\n" + code,
      {"-std=c++20", "-isystem", TILECC_TILE_INCLUDE, "-resource-dir=" TILECC_CLANG_RESOURCE_DIR},
      "input.cpp");
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
