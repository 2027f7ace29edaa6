//===- Compile.cpp - tilecc compile: C++ tile source -> CUDA C++ --------------===//
//
// Parse with Clang, discover kernel instantiations, run every check (runChecks: the kernel rules
// and both sides of the borrow checker), lower each kernel to the tile dialect, run the
// tile -> tilegpu pipeline and print CUDA C++ after the user's source.
//
//===----------------------------------------------------------------------===//
#include "Check.h"
#include "Driver.h"

#include "tilecc/Analysis/Checks.h"
#include "tilecc/Analysis/Diagnostics.h"
#include "tilecc/CodeGen/CudaEmitter.h"
#include "tilecc/Frontend/KernelDiscovery.h"
#include "tilecc/InitAllDialects.h"
#include "tilecc/Lowering/KernelLowering.h"
#include "tilecc/Transforms/Passes.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"

#include <algorithm>

using namespace tilecc;
using namespace tilecc::driver;

/// The source position of an MLIR location in Clang's source manager, or an invalid one.
static clang::SourceLocation clangLocation(clang::SourceManager &sm, mlir::Location loc) {
  if (auto name = llvm::dyn_cast<mlir::NameLoc>(loc))
    return clangLocation(sm, name.getChildLoc());
  if (auto call = llvm::dyn_cast<mlir::CallSiteLoc>(loc))
    return clangLocation(sm, call.getCallee());
  auto file = llvm::dyn_cast<mlir::FileLineColLoc>(loc);
  if (!file)
    return {};
  llvm::Expected<clang::FileEntryRef> entry =
      sm.getFileManager().getFileRef(file.getFilename().getValue());
  if (!entry) {
    llvm::consumeError(entry.takeError());
    return {};
  }
  return sm.translateFileLineCol(*entry, file.getLine(), file.getColumn());
}

/// Reports the pass pipeline's diagnostics (a kernel over its target's shared memory, ...)
/// through Clang's engine, so that they look like every other tilecc diagnostic.
static void forwardDiagnostics(clang::DiagnosticsEngine &diags, clang::SourceManager &sm,
                               mlir::Diagnostic &d) {
  auto level = d.getSeverity() == mlir::DiagnosticSeverity::Error
                   ? clang::DiagnosticsEngine::Error
                   : d.getSeverity() == mlir::DiagnosticSeverity::Warning
                         ? clang::DiagnosticsEngine::Warning
                         : clang::DiagnosticsEngine::Note;
  diags.Report(clangLocation(sm, d.getLocation()), diags.getCustomDiagID(level, "%0"))
      << d.str();
  for (mlir::Diagnostic &note : d.getNotes())
    diags.Report(clangLocation(sm, note.getLocation()),
                 diags.getCustomDiagID(clang::DiagnosticsEngine::Note, "%0"))
        << note.str();
}

static std::string absolutePath(llvm::StringRef path) {
  llvm::SmallString<256> abs(path);
  llvm::sys::fs::make_absolute(abs);
  llvm::sys::path::remove_dots(abs, /*remove_dot_dot=*/true);
  return abs.str().str();
}

/// `output: source header...`, for build systems that rebuild when any included file changes
/// (the headers behind a precompiled header included).
static bool writeDepfile(const Options &options, const clang::ASTUnit &ast) {
  std::error_code ec;
  llvm::raw_fd_ostream out(options.depfile, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    toolError("cannot write '" + options.depfile + "': " + ec.message());
    return false;
  }
  auto escape = [](llvm::StringRef path) {
    std::string escaped;
    for (char c : path) {
      if (c == ' ' || c == '#')
        escaped += '\\';
      if (c == '$')
        escaped += '$';
      escaped += c;
    }
    return escaped;
  };
  std::vector<std::string> files;
  for (const std::string &file : readFiles(ast))
    files.push_back(absolutePath(file));
  llvm::sort(files);
  files.erase(std::unique(files.begin(), files.end()), files.end());
  out << escape(options.output.empty() ? "-" : options.output) << ":";
  for (const std::string &file : files)
    out << " \\\n  " << escape(file);
  out << "\n";
  out.flush();
  if (std::error_code error = out.error()) {
    toolError("cannot write '" + options.depfile + "': " + error.message());
    out.clear_error();
    return false;
  }
  return true;
}

FrontendOptions tilecc::driver::frontendOptions(const Options &options,
                                                 std::vector<std::string> files) {
  FrontendOptions frontend = options.frontend;
  frontend.files = std::move(files);
  if (options.warningsAsErrors)
    frontend.compilerArgs.push_back("-Werror");
  return frontend;
}

static mlir::DialectRegistry tileccDialects() {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  return registry;
}

tilecc::driver::KernelModule::KernelModule() : context(tileccDialects()) {
  context.loadAllAvailableDialects();
  module = mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));
}

int tilecc::driver::lowerKernels(clang::ASTUnit &ast, llvm::ArrayRef<KernelInstance> kernels,
                                 const std::vector<std::string> &archs, mlir::ModuleOp module,
                                 bool tileIROnly) {
  clang::ASTContext &context = ast.getASTContext();
  for (const KernelInstance &kernel : kernels)
    if (failed(lowerKernel(context, kernel, module)))
      return InputError;
  if (failed(mlir::verify(module))) {
    toolError("the lowered tile IR does not verify (a tilecc bug)");
    return ToolFailure;
  }
  if (tileIROnly)
    return Success;

  // The kernels must fit every target the CUDA is built for: plan for the tightest.
  std::string unknown;
  mlir::FailureOr<TargetLimits> limits = getTargetLimits(archs, unknown);
  if (failed(limits)) {
    toolError(unknown.empty() ? std::string("--arch names no GPU target")
                              : "unknown GPU target '" + unknown + "' in --arch (tilecc knows " +
                                    knownTargets() + ")");
    return ToolFailure;
  }
  mlir::MLIRContext *mlirContext = module.getContext();
  mlirContext->printOpOnDiagnostic(false);
  clang::DiagnosticsEngine &diags = ast.getDiagnostics();
  mlir::ScopedDiagnosticHandler forward(mlirContext, [&](mlir::Diagnostic &d) {
    forwardDiagnostics(diags, ast.getSourceManager(), d);
    return mlir::success();
  });
  mlir::PassManager pm(mlirContext);
  buildTileToGPUPipeline(pm, *limits);
  if (failed(pm.run(module)))
    return InputError;
  return Success;
}

int tilecc::driver::compileToStream(const Options &options, llvm::raw_ostream &os) {
  PhaseTimer timer(options.verbose);
  // Diagnostics print as `tilecc check` prints them: an error raised inside the tile library's
  // headers at the user's line that caused it.
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> diagOptions =
      textDiagnosticOptions(options, llvm::errs());
  clang::TextDiagnosticPrinter printer(llvm::errs(), diagOptions.get());
  DiagnosticLog log(&printer, &llvm::errs(), diagOptions.get());
  FrontendOptions frontend = frontendOptions(options, options.frontend.files);
  frontend.diagnostics = &log;
  std::vector<std::unique_ptr<clang::ASTUnit>> asts;
  std::string error;
  if (!buildASTs(frontend, asts, error)) {
    toolError(error);
    return ToolFailure;
  }
  timer.lap("parse");
  clang::ASTUnit &ast = *asts.front();
  clang::DiagnosticsEngine &diags = ast.getDiagnostics();
  if (diags.hasErrorOccurred())
    return InputError;
  DiagnosticScope scope(ast);
  clang::ASTContext &context = ast.getASTContext();
  const clang::SourceManager &sm = context.getSourceManager();
  if (!options.depfile.empty() && !writeDepfile(options, ast))
    return ToolFailure;

  std::vector<KernelInstance> kernels = discoverKernels(context);
  if (kernels.empty())
    report(diags, sm.getLocForStartOfFile(sm.getMainFileID()), Rule::NoKernels);
  // The same analyses as `tilecc check`; nothing is emitted for a file with errors.
  std::vector<const clang::FunctionDecl *> decls;
  for (const KernelInstance &kernel : kernels)
    decls.push_back(kernel.decl);
  bool clean = runChecks(context, decls);
  timer.lap("check");
  if (!clean || diags.hasErrorOccurred())
    return InputError;

  KernelModule lowered;
  mlir::ModuleOp module = *lowered.module;
  if (int status = lowerKernels(ast, kernels, options.archs, module,
                                /*tileIROnly=*/options.emit == EmitKind::TileIR);
      status != Success)
    return status;
  timer.lap("lower");
  if (options.emit == EmitKind::TileIR || options.emit == EmitKind::TileGPUIR) {
    module.print(os);
    return Success;
  }
  if (options.emit == EmitKind::SmemPlan) {
    printSharedMemoryPlan(module, os);
    return Success;
  }

  clang::OptionalFileEntryRef file = sm.getFileEntryRefForID(sm.getMainFileID());
  std::string sourcePath = absolutePath(file ? file->getName() : options.frontend.files[0]);
  std::string prefix;
  llvm::raw_string_ostream text(prefix);
  text << "#line 1 \"" << sourcePath << "\"\n" << sm.getBufferData(sm.getMainFileID());
  if (!prefix.empty() && prefix.back() != '\n')
    text << "\n";
  text << "// ---- generated by tilecc: one __global__ kernel per instantiated entry ----\n";
  CudaEmitOptions emitOptions;
  emitOptions.firstLine = llvm::StringRef(prefix).count('\n') + 1;
  if (!options.output.empty() && options.output != "-")
    emitOptions.generatedFileName = absolutePath(options.output);
  if (!emitOptions.generatedFileName.empty())
    text << "#line " << emitOptions.firstLine + 1 << " \"" << emitOptions.generatedFileName
         << "\"\n";
  emitOptions.firstLine = llvm::StringRef(prefix).count('\n') + 1;
  std::string generated;
  llvm::raw_string_ostream generatedText(generated);
  if (failed(emitCuda(module, generatedText, emitOptions)))
    return InputError;
  timer.lap("emit");
  os << prefix << generated;
  return Success;
}

int tilecc::driver::runCompile(const Options &options) {
  std::string output = options.output.empty() ? "-" : options.output;
  if (outputOverwritesInput(options, output) || outputOverwritesInput(options, options.depfile))
    return ToolFailure;
  std::error_code ec;
  llvm::ToolOutputFile out(output, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    toolError("cannot write '" + output + "': " + ec.message());
    return ToolFailure;
  }
  int status = compileToStream(options, out.os());
  out.os().flush();
  if (std::error_code error = out.os().error()) {
    toolError("cannot write '" + output + "': " + error.message());
    out.os().clear_error();
    return ToolFailure;
  }
  if (status == Success)
    out.keep();
  return status;
}
