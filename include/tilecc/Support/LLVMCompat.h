//===- LLVMCompat.h - the LLVM-version-specific corner of tilecc ------*- C++ -*-===//
//
// Everything that differs between LLVM releases lives here, so porting to a newer LLVM touches
// one file. Written against LLVM/Clang/MLIR 19.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_SUPPORT_LLVMCOMPAT_H
#define TILECC_SUPPORT_LLVMCOMPAT_H

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Serialization/ASTReader.h"
#include "clang/Serialization/InMemoryModuleCache.h"
#include "clang/Serialization/ModuleFile.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/LockFileManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include <optional>
#include <string>
#include <vector>

namespace tilecc::compat {

/// A diagnostic id for a run-time format string (clang's template overload takes only literals;
/// LLVM 20 replaces this API with CustomDiagDesc).
inline unsigned customDiagID(clang::DiagnosticsEngine &diags,
                             clang::DiagnosticsEngine::Level level, llvm::StringRef format) {
  return diags.getDiagnosticIDs()->getCustomDiagID(
      static_cast<clang::DiagnosticIDs::Level>(level), format);
}

/// A diagnostics engine for `options` reporting to `client` (clang's text printer on stderr when
/// null). LLVM 20 adds a file system parameter.
inline llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine>
createDiagnostics(clang::DiagnosticOptions &options, clang::DiagnosticConsumer *client,
                  bool ownClient) {
  return clang::CompilerInstance::createDiagnostics(&options, client, ownClient);
}

/// `ci`'s own diagnostics engine, reporting to `client` (not owned).
inline void createDiagnostics(clang::CompilerInstance &ci, clang::DiagnosticConsumer *client) {
  ci.createDiagnostics(client, /*ShouldOwnClient=*/false);
}

/// What clang::tooling's ASTBuilderAction does: parse `invocation` into an ASTUnit.
inline std::unique_ptr<clang::ASTUnit>
loadFromInvocation(std::shared_ptr<clang::CompilerInvocation> invocation,
                   std::shared_ptr<clang::PCHContainerOperations> pchOps,
                   llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> diags,
                   clang::FileManager *files) {
  return clang::ASTUnit::LoadFromCompilerInvocation(std::move(invocation), std::move(pchOps),
                                                    std::move(diags), files);
}

/// The same, running `action` (an ASTFrontendAction) instead of ASTUnit's own; null when the
/// action fails to begin or to execute.
inline std::unique_ptr<clang::ASTUnit>
loadFromInvocationWithAction(std::shared_ptr<clang::CompilerInvocation> invocation,
                             std::shared_ptr<clang::PCHContainerOperations> pchOps,
                             llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> diags,
                             clang::FrontendAction &action) {
  return std::unique_ptr<clang::ASTUnit>(clang::ASTUnit::LoadFromCompilerInvocationAction(
      std::move(invocation), std::move(pchOps), std::move(diags), &action));
}

/// Looks `name` up the way `#include <name>` (angled) or `#include "name"` from a file whose own
/// directory does not hold it would; returns the file and whether it is a user, system or
/// extern "C" system header.
inline std::optional<std::pair<clang::FileEntryRef, clang::SrcMgr::CharacteristicKind>>
lookupHeader(clang::HeaderSearch &search, llvm::StringRef name, bool angled) {
  clang::ConstSearchDirIterator dir = nullptr;
  clang::OptionalFileEntryRef file = search.LookupFile(
      name, clang::SourceLocation(), angled, /*FromDir=*/nullptr, &dir, /*Includers=*/{},
      /*SearchPath=*/nullptr, /*RelativePath=*/nullptr, /*RequestingModule=*/nullptr,
      /*SuggestedModule=*/nullptr, /*IsMapped=*/nullptr, /*IsFrameworkFound=*/nullptr);
  if (!file)
    return std::nullopt;
  return std::make_pair(*file, search.getFileDirFlavor(*file));
}

/// Reads the precompiled header `path` into `ci`'s ASTContext (its preprocessor and AST context
/// made, the main file not yet entered) as `-include-pch` does, but asks the reader not to
/// complain: a PCH that is missing, out of date or built differently just yields null, and `ci`
/// is left without an external source (and must not parse: drop the attempt).
inline llvm::IntrusiveRefCntPtr<clang::ASTReader> readPrecompiledHeader(clang::CompilerInstance &ci,
                                                                        llvm::StringRef path) {
  clang::HeaderSearchOptions &search = ci.getHeaderSearchOpts();
  llvm::IntrusiveRefCntPtr<clang::ASTReader> reader(new clang::ASTReader(
      ci.getPreprocessor(), ci.getModuleCache(), &ci.getASTContext(), ci.getPCHContainerReader(),
      ci.getFrontendOpts().ModuleFileExtensions, search.Sysroot,
      clang::DisableValidationForModuleKind::None, /*AllowASTWithCompilerErrors=*/false,
      /*AllowConfigurationMismatch=*/false, search.ModulesValidateSystemHeaders,
      search.ValidateASTInputFilesContent, /*UseGlobalIndex=*/false));
  // Mapped rather than read: a parse touches a small part of the file (clang reads module files
  // into memory, as another build may rewrite them in place; the cache only ever renames).
  if (auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                                /*RequiresNullTerminator=*/false,
                                                /*IsVolatile=*/false))
    ci.getModuleCache().addPCM(path, std::move(*buffer));
  // Declarations read eagerly need the external source in place.
  ci.getASTContext().setExternalSource(reader);
  unsigned quiet = clang::ASTReader::ARR_Missing | clang::ASTReader::ARR_OutOfDate |
                   clang::ASTReader::ARR_VersionMismatch |
                   clang::ASTReader::ARR_ConfigurationMismatch;
  if (reader->ReadAST(path, clang::serialization::MK_PCH, clang::SourceLocation(), quiet) !=
      clang::ASTReader::Success) {
    ci.getASTContext().setExternalSource(nullptr);
    return nullptr;
  }
  ci.getPreprocessor().setPredefines(reader->getSuggestedPredefines());
  ci.setASTReader(reader);
  return reader;
}

/// The files the precompiled header loaded by `reader` was built from, as it names them.
inline std::vector<std::string> precompiledHeaderInputs(clang::ASTReader &reader) {
  std::vector<std::string> files;
  clang::serialization::ModuleManager &modules = reader.getModuleManager();
  if (modules.size() == 0)
    return files;
  reader.visitInputFileInfos(modules.getPrimaryModule(), /*IncludeSystem=*/true,
                             [&](const clang::serialization::InputFileInfo &info, bool) {
                               files.push_back(info.Filename);
                             });
  return files;
}

/// A lock on a file name shared between processes: the first to ask owns it, the others may wait
/// until it is released (LLVM 20 replaces LockFileManager's getState with tryLock).
class FileLock {
public:
  enum State { Owned, HeldByOther, Unavailable };
  explicit FileLock(llvm::StringRef path) : lock(path) {}
  State state() {
    switch (lock.getState()) {
    case llvm::LockFileManager::LFS_Owned:
      return Owned;
    case llvm::LockFileManager::LFS_Shared:
      return HeldByOther;
    case llvm::LockFileManager::LFS_Error:
      break;
    }
    return Unavailable;
  }
  /// Waits until the holder releases the lock (or dies), at most `seconds`.
  void waitForRelease(unsigned seconds) { (void)lock.waitForUnlock(seconds); }

private:
  llvm::LockFileManager lock;
};

} // namespace tilecc::compat

#endif
