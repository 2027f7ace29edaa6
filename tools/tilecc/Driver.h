//===- Driver.h - tilecc's subcommands --------------------------------*- C++ -*-===//
//
// `tilecc compile` (check, lower, emit CUDA C++ or IR), `tilecc build` (compile + nvcc + link
// tile_rt, or the host compiler alone with --cpu), `tilecc check` (the analyses alone, reported
// as clang text, SARIF or GitHub annotations, or compared with -verify expectations),
// `tilecc lsp` (the checks as a language server), `tilecc --explain [ID]`. Exit codes: 0 success, 1 the input has errors (or, for check,
// warnings under -Werror), 2 the tool failed.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TOOLS_TILECC_DRIVER_H
#define TILECC_TOOLS_TILECC_DRIVER_H

#include "tilecc/Frontend/Invocation.h"
#include "tilecc/Frontend/KernelDiscovery.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace tilecc::driver {

enum ExitCode { Success = 0, InputError = 1, ToolFailure = 2 };

enum class EmitKind { TileIR, TileGPUIR, SmemPlan, Cuda };

enum class ReportFormat { Clang, Sarif, Github };

struct Options {
  FrontendOptions frontend;
  std::string output;           // -o
  std::string depfile;          // -MF: Make-style list of the files the output depends on
  EmitKind emit = EmitKind::Cuda;
  bool cpuOnly = false;         // build --cpu
  std::vector<std::string> archs = {"sm_80", "sm_90a"};
  std::vector<std::string> linkerArgs;  // build: -L, -l, -Xlinker ...
  bool verbose = false;
  bool debugInfo = false;       // build -g: debug information (device code too, with nvcc -G)
  bool lineInfo = false;        // build -lineinfo: device line tables (for profilers)
  /// -fcolor-diagnostics / -fno-color-diagnostics; unset: colors when printing to a terminal.
  std::optional<bool> colors;
  ReportFormat format = ReportFormat::Clang;  // check --format=
  bool verify = false;                        // check -verify
  /// -Werror: the rules' warnings are already errors (setRuleSeverity); Clang's own warnings
  /// become errors through `-Werror` on the front end's command line.
  bool warningsAsErrors = false;
  /// lsp: how long a buffer must be still before it is checked (--debounce-ms=).
  unsigned debounceMs = 250;
};

/// Stack of the thread a command (or one check of `tilecc lsp`) runs on. The analyses and the
/// lowering recurse on the nesting of a kernel's expressions and statements; they refuse, with
/// an error, nesting deeper than they follow, and this leaves that much room.
constexpr unsigned kCommandStackBytes = 256u << 20;

/// The front end's options for `files`, with -Werror when asked for.
FrontendOptions frontendOptions(const Options &options, std::vector<std::string> files);

/// Keeps the diagnostics client attached to a parsed file (clang's text printer needs its
/// language options and preprocessor) while tilecc reports on it.
class DiagnosticScope {
public:
  explicit DiagnosticScope(clang::ASTUnit &ast) : diags(ast.getDiagnostics()) {
    diags.getClient()->BeginSourceFile(ast.getLangOpts(), &ast.getPreprocessor());
  }
  ~DiagnosticScope() { diags.getClient()->EndSourceFile(); }
  DiagnosticScope(const DiagnosticScope &) = delete;
  DiagnosticScope &operator=(const DiagnosticScope &) = delete;

private:
  clang::DiagnosticsEngine &diags;
};

/// Under -v, says on stderr how long each phase took: `lap("parse")` prints
/// `tilecc: time: parse 812 ms`, the time since the previous lap (or since construction).
class PhaseTimer {
public:
  explicit PhaseTimer(bool enabled);
  void lap(llvm::StringRef phase);

private:
  bool enabled;
  std::chrono::steady_clock::time_point last;
};

/// Prints `tilecc: error: <message>` in clang's style.
void toolError(const llvm::Twine &message);

/// True (after reporting it) when `output` names one of the input files: writing it would
/// destroy the source before it is read.
bool outputOverwritesInput(const Options &options, llvm::StringRef output);

/// tilecc's version (the project's), and the LLVM it was built with: "tilecc 0.1.0 (LLVM 19.1.7)".
std::string versionLine();
/// The project's version alone (SARIF's tool.driver.version).
const char *version();

int runCompile(const Options &options);
int runBuild(const Options &options);
int runCheck(const Options &options);
/// `tilecc lsp`: a language server on standard input and output (LanguageServer.cpp).
int runLanguageServer(const Options &options);
/// `tilecc --explain ID`; an empty id lists every rule.
int runExplain(llvm::StringRef id);

/// Writes the CUDA translation of `file` into `os` (used by both subcommands).
int compileToStream(const Options &options, llvm::raw_ostream &os);

/// An MLIR context with every dialect tilecc uses loaded, and an empty module in it: where
/// lowerKernels puts the kernels.
struct KernelModule {
  KernelModule();
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

/// Lowers `kernels` into `module` and, unless `tileIROnly`, runs the tile -> tilegpu pipeline for
/// the tightest of `archs`. What the GPU cannot take (a construct the lowering does not know, a
/// kernel over a target's registers or shared memory) is reported through `ast`'s diagnostics.
/// `compile` and `check` both run it, so `check` refuses everything `compile` refuses.
int lowerKernels(clang::ASTUnit &ast, llvm::ArrayRef<KernelInstance> kernels,
                 const std::vector<std::string> &archs, mlir::ModuleOp module, bool tileIROnly);

} // namespace tilecc::driver

#endif
