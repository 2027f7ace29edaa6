//===- Check.cpp - tilecc check: the analyses alone, as a lint gate -----------===//
//
//   tilecc check FILES... [--format=clang|sarif|github] [-o FILE] [-verify]
//                [-W<id>] [-Wno-<id>] [-Werror] [-Werror=<id>] [-Wno-error=<id>]
//                [-I.. -D.. -std=.. -p BUILD_DIR] [-- clang flags]
//
// Parses each file, then runs every check (runChecks) on it unless Clang reported errors, then
// lowers its kernels and plans them for the targets as `compile` does (lowerKernels), so that
// what check accepts compiles. The
// diagnostics go through a DiagnosticLog: printed as clang prints them (stderr, or -o), or
// collected into one SARIF log or GitHub annotations (stdout, or -o), or compared with the
// file's expectations under -verify (Verify.cpp). Exit 0 when clean, 1 on findings (errors,
// including Clang's, and warnings under -Werror; under -verify, any mismatch), 2 on a tool
// failure.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "Driver.h"

#include "tilecc/Analysis/Checks.h"
#include "tilecc/Frontend/KernelDiscovery.h"
#include "tilecc/InitAllDialects.h"

#include "mlir/IR/MLIRContext.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"

#include <algorithm>

using namespace tilecc;
using namespace tilecc::driver;

int tilecc::driver::checkFile(const Options &options, const CheckInput &input,
                              DiagnosticLog &log, llvm::raw_ostream &verifyOut,
                              std::string &failure) {
  const std::string &file = input.file;
  if (!input.contents && !llvm::sys::fs::exists(file)) {
    failure = "no such file: '" + file + "'";
    return ToolFailure;
  }
  FrontendOptions frontend = frontendOptions(options, {file});
  frontend.diagnostics = &log;
  if (input.contents)
    frontend.unsavedFiles.push_back({file, *input.contents});
  PhaseTimer timer(options.verbose);
  std::vector<std::unique_ptr<clang::ASTUnit>> asts;
  std::string error;
  size_t first = log.diagnostics.size();
  if (!buildASTs(frontend, asts, error)) {
    failure = file + ": " + error;
    return ToolFailure;
  }
  timer.lap("parse");
  clang::ASTUnit &ast = *asts.front();
  clang::DiagnosticsEngine &diags = ast.getDiagnostics();
  bool clean = true;
  int status = Success;
  {
    DiagnosticScope scope(ast);
    if (!diags.hasErrorOccurred()) {
      clang::ASTContext &context = ast.getASTContext();
      std::vector<KernelInstance> kernels = discoverKernels(context);
      std::vector<const clang::FunctionDecl *> decls;
      for (const KernelInstance &kernel : kernels)
        decls.push_back(kernel.decl);
      clean = runChecks(context, decls);
      timer.lap("check");
      // What the analyses accept must also compile: lower it, and plan it for the targets.
      if (clean && !diags.hasErrorOccurred() && !kernels.empty()) {
        KernelModule module;
        int lowered =
            lowerKernels(ast, kernels, options.archs, *module.module, /*tileIROnly=*/false);
        if (lowered == ToolFailure) {
          failure = file + ": the kernels could not be lowered";
          status = ToolFailure;
        }
        clean = lowered == Success;
        timer.lap("lower");
      }
    }
  }
  bool failed = !clean || diags.hasErrorOccurred();
  if (options.verify) {
    const clang::SourceManager &sm = ast.getSourceManager();
    llvm::ArrayRef<ReportedDiagnostic> reported(log.diagnostics);
    failed = verifyExpectations(sm, sm.getMainFileID(), ast.getLangOpts(),
                                reported.drop_front(first), verifyOut) != 0;
  }
  if (status == Success && failed)
    status = InputError;
  return status;
}

int tilecc::driver::runCheck(const Options &options) {
  bool textReport = options.format == ReportFormat::Clang || options.verify;
  std::unique_ptr<llvm::ToolOutputFile> outputFile;
  if (outputOverwritesInput(options, options.output))
    return ToolFailure;
  if (!options.output.empty() && options.output != "-") {
    std::error_code ec;
    outputFile =
        std::make_unique<llvm::ToolOutputFile>(options.output, ec, llvm::sys::fs::OF_Text);
    if (ec) {
      toolError("cannot write '" + options.output + "': " + ec.message());
      return ToolFailure;
    }
  }
  llvm::raw_ostream &os = outputFile ? outputFile->os()
                          : textReport ? llvm::errs()
                                       : llvm::outs();

  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diagOptions =
      textDiagnosticOptions(options, os);
  std::unique_ptr<clang::TextDiagnosticPrinter> printer;
  if (options.format == ReportFormat::Clang && !options.verify)
    printer = std::make_unique<clang::TextDiagnosticPrinter>(os, diagOptions.get());
  DiagnosticLog log(printer.get(), &os, diagOptions.get());

  int status = Success;
  std::vector<std::string> toolErrors;
  for (const std::string &file : options.frontend.files) {
    // A file that cannot be checked is a tool failure; the others are still checked (and a
    // SARIF log still written, with the failure as a tool execution notification).
    std::string failure;
    int fileStatus = checkFile(options, {file, std::nullopt}, log, os, failure);
    if (fileStatus == ToolFailure) {
      toolError(failure);
      toolErrors.push_back(failure);
    }
    status = std::max(status, fileStatus);
  }

  if (options.format == ReportFormat::Sarif && !options.verify)
    writeSarif(os, log.diagnostics, toolErrors);
  else if (options.format == ReportFormat::Github && !options.verify)
    writeGithub(os, log.diagnostics);
  os.flush();
  if (outputFile) {
    if (outputFile->os().has_error()) {
      toolError("cannot write '" + options.output + "'");
      outputFile->os().clear_error();
      return ToolFailure;
    }
    outputFile->keep();
  }
  return status;
}
