//===- Plugin.cpp - tilecc's analyses as a Clang plugin --------------------------===//
//
// `clang++ -fplugin=libtileccPlugin.so ...` runs tilecc's kernel rules and borrow checker
// inside an ordinary Clang compile, after parsing and before code generation, and reports
// through Clang's own diagnostics: the same messages, rule ids, notes and fix-its as
// `tilecc check`, so Clang's `-verify` checks them as it checks its own. What `tilecc check`
// does beyond the analyses (lowering the kernels to prove they compile for the GPU) is not done
// here. Plugin arguments (`-fplugin-arg-tilecc-<arg>`): `help`.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Analysis/Checks.h"
#include "tilecc/Frontend/KernelDiscovery.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <vector>

namespace {

class TileccConsumer : public clang::ASTConsumer {
public:
  void HandleTranslationUnit(clang::ASTContext &context) override {
    // As `tilecc check`: the analyses read a translation unit that Clang accepted.
    if (context.getDiagnostics().hasErrorOccurred())
      return;
    std::vector<const clang::FunctionDecl *> kernels;
    for (const tilecc::KernelInstance &kernel : tilecc::discoverKernels(context))
      kernels.push_back(kernel.decl);
    tilecc::runChecks(context, kernels);
  }
};

class TileccAction : public clang::PluginASTAction {
protected:
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &,
                                                        llvm::StringRef) override {
    return std::make_unique<TileccConsumer>();
  }

  bool ParseArgs(const clang::CompilerInstance &ci,
                 const std::vector<std::string> &args) override {
    for (const std::string &arg : args) {
      if (arg == "help") {
        llvm::errs() << "tilecc plugin: runs tilecc's kernel rules and borrow checker; "
                        "`tilecc --explain RULE` explains a rule\n";
        continue;
      }
      clang::DiagnosticsEngine &diags = ci.getDiagnostics();
      diags.Report(diags.getCustomDiagID(clang::DiagnosticsEngine::Error,
                                         "tilecc plugin: unknown argument '%0'"))
          << arg;
      return false;
    }
    return true;
  }

  // Runs with every compile that loads the plugin, before the main action (code generation).
  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static clang::FrontendPluginRegistry::Add<TileccAction>
    registration("tilecc", "tilecc's kernel rules and borrow checker");
