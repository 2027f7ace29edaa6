//===- PCHLoad.cpp - parsing a file with its precompiled header ---------------===//
//
// A parse that reads the PCH before the main file (as -include-pch would), maps the PCH's copy of
// the leading block onto the file's own lines, skips the block's bytes and goes on from the line
// after it; and the diagnostics plumbing that keeps a refused PCH out of the user's sight.
//
//===----------------------------------------------------------------------===//
#include "PCHInternals.h"

#include "tilecc/Support/LLVMCompat.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclBase.h"
#include "clang/Basic/SourceManagerInternals.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;
using namespace tilecc;
using namespace tilecc::pch;
using namespace tilecc::pch::detail;

namespace {

/// Stands between a parse's diagnostics engine and the caller's consumer. While the PCH is read
/// it holds back what clang says (a PCH clang rejects is the cache's business, not the user's);
/// before that it records what it forwards; after a rejected attempt it skips what the attempt
/// already forwarded.
class Guard : public DiagnosticConsumer {
public:
  Guard(DiagnosticConsumer &next, std::unique_ptr<DiagnosticConsumer> owned,
        std::vector<std::string> skip, bool record)
      : next(next), owned(std::move(owned)), skip(std::move(skip)), record(record) {}

  void hold(bool on) {
    holding = on;
    record = false;
  }
  bool heldAny() const { return held; }
  std::vector<std::string> forwarded;

  void BeginSourceFile(const LangOptions &langOpts, const Preprocessor *pp) override {
    next.BeginSourceFile(langOpts, pp);
  }
  void EndSourceFile() override { next.EndSourceFile(); }
  void finish() override { next.finish(); }
  bool IncludeInDiagnosticCounts() const override { return next.IncludeInDiagnosticCounts(); }

  void HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic &info) override {
    if (holding) {
      held = true;
      return;
    }
    if (record || skipped < skip.size()) {
      llvm::SmallString<128> message;
      info.FormatDiagnostic(message);
      std::string text = std::to_string(static_cast<int>(level)) + " " + message.str().str();
      if (skipped < skip.size()) {
        if (skip[skipped] == text) {
          ++skipped;
          return;
        }
        skipped = skip.size();
      }
      if (record)
        forwarded.push_back(std::move(text));
    }
    DiagnosticConsumer::HandleDiagnostic(level, info);
    next.HandleDiagnostic(level, info);
  }

private:
  DiagnosticConsumer &next;
  std::unique_ptr<DiagnosticConsumer> owned;
  std::vector<std::string> skip;
  size_t skipped = 0;
  bool record;
  bool holding = false;
  bool held = false;
};

/// A diagnostics engine as clang::tooling makes one for a parse, its client wrapped in a Guard.
llvm::IntrusiveRefCntPtr<DiagnosticsEngine> guardedDiagnostics(DiagnosticOptions &options,
                                                               DiagnosticConsumer *consumer,
                                                               std::vector<std::string> skip,
                                                               bool record, Guard *&guard) {
  llvm::IntrusiveRefCntPtr<DiagnosticsEngine> diags =
      compat::createDiagnostics(options, consumer, /*ownClient=*/false);
  DiagnosticConsumer *next = diags->getClient();
  std::unique_ptr<DiagnosticConsumer> owned = diags->takeClient();
  guard = new Guard(*next, std::move(owned), std::move(skip), record);
  diags->setClient(guard, /*ShouldOwnClient=*/true);
  return diags;
}

/// Makes the PCH's copy of the block (the end of its predefines) read as the main file's own
/// lines, so that an include stack through them names the file's `#include` line as it would
/// without the PCH. False when the copy is not found.
bool mapBlockLines(SourceManager &sources, const LeadingBlock &block) {
  FileID copy;
  llvm::StringRef text;
  for (auto &entry : sources.getLineTable()) {
    if (!sources.isLoadedFileID(entry.first))
      continue;
    bool invalid = false;
    llvm::StringRef data = sources.getBufferData(entry.first, &invalid);
    if (!invalid && data.contains(kBlockMarker)) {
      copy = entry.first;
      text = data;
      break;
    }
  }
  if (copy.isInvalid())
    return false;
  size_t at = text.rfind(kBlockMarker);
  if (at == 0 || text.substr(at - 1) != blockText(block))
    return false;
  FileID main = sources.getMainFileID();
  std::string mainName = sources.getPresumedLoc(sources.getLocForStartOfFile(main)).getFilename();
  int name = sources.getLineTableFilenameID(mainName);
  SourceLocation start = sources.getLocForStartOfFile(copy);
  at = text.find('\n', at) + 1;
  for (const Include &include : block.includes) {
    // A line note gives the line after it its number.
    sources.AddLineNote(start.getLocWithOffset(at), include.line + 1, name,
                        /*IsFileEntry=*/false, /*IsFileExit=*/false, SrcMgr::C_User);
    at = text.find('\n', at) + 1;
  }
  return true;
}

/// Parses the main file with the PCH standing for its leading block.
class LoadPCHAction : public ASTFrontendAction {
public:
  LoadPCHAction(const PCH &pch, Guard &guard) : pch(pch), guard(guard) {}
  Attempt::Outcome outcome = Attempt::Used;

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, llvm::StringRef) override {
    SourceManager &sources = ci.getSourceManager();
    FileID main = sources.getMainFileID();
    std::optional<llvm::MemoryBufferRef> text =
        main.isValid() ? sources.getBufferOrNone(main) : std::nullopt;
    // The file clang reads must still start with the block the PCH was chosen for.
    std::optional<LeadingBlock> block = text ? findLeadingBlock(text->getBuffer()) : std::nullopt;
    if (!block || *block != pch.block) {
      outcome = Attempt::FileChanged;
      return nullptr;
    }
    guard.hold(true);
    llvm::IntrusiveRefCntPtr<ASTReader> reader = compat::readPrecompiledHeader(ci, pch.path);
    guard.hold(false);
    if (!reader || guard.heldAny()) {
      if (reader)
        ci.getASTContext().setExternalSource(nullptr);
      outcome = Attempt::Refused;
      return nullptr;
    }
    if (!mapBlockLines(sources, pch.block)) {
      ci.getASTContext().setExternalSource(nullptr);
      outcome = Attempt::Unmappable;
      return nullptr;
    }
    // The PCH stands for the block: lexing starts on the line after it.
    ci.getPreprocessor().setSkipMainFilePreamble(pch.block.end, /*StartOfLine=*/true);
    return std::make_unique<ASTConsumer>();
  }

private:
  const PCH &pch;
  Guard &guard;
};

} // namespace

Attempt pch::parseWithPCH(std::shared_ptr<CompilerInvocation> unit, const PCH &pch,
                          std::shared_ptr<PCHContainerOperations> pchOps,
                          DiagnosticConsumer *consumer) {
  Attempt attempt;
  auto invocation = std::make_shared<CompilerInvocation>(*unit);
  invocation->getHeaderSearchOpts().ValidateASTInputFilesContent = true;
  Guard *guard = nullptr;
  llvm::IntrusiveRefCntPtr<DiagnosticsEngine> diags = guardedDiagnostics(
      invocation->getDiagnosticOpts(), consumer, /*skip=*/{}, /*record=*/true, guard);
  LoadPCHAction action(pch, *guard);
  attempt.ast = compat::loadFromInvocationWithAction(invocation, std::move(pchOps), diags, action);
  attempt.outcome = action.outcome;
  if (attempt.outcome != Attempt::Used) {
    attempt.reported = guard->forwarded;
    attempt.ast.reset();
    return attempt;
  }
  if (attempt.ast) {
    // Walks from the TranslationUnitDecl cover the file's own declarations (see the header).
    ASTContext &context = attempt.ast->getASTContext();
    std::vector<Decl *> local;
    for (Decl *decl : context.getTranslationUnitDecl()->noload_decls())
      if (!decl->isFromASTFile())
        local.push_back(decl);
    context.setTraversalScope(local);
  }
  return attempt;
}

llvm::IntrusiveRefCntPtr<DiagnosticsEngine>
pch::diagnosticsAfterAttempt(DiagnosticOptions &options, DiagnosticConsumer *consumer,
                             std::vector<std::string> reported) {
  Guard *guard = nullptr;
  return guardedDiagnostics(options, consumer, std::move(reported), /*record=*/false, guard);
}

std::vector<std::string> pch::inputFiles(const ASTUnit &ast) {
  llvm::IntrusiveRefCntPtr<ASTReader> reader = ast.getASTReader();
  if (!reader)
    return {};
  return compat::precompiledHeaderInputs(*reader);
}
