//===- tilecc.cpp - the tilecc command line -----------------------------------===//
//
//   tilecc compile X.tile.cpp -o X.cu [--emit=tile-ir|tilegpu-ir|smem-plan|cuda] [-I.. -D.. -std=..]
//                  [-p BUILD_DIR] [-W.. flags] [-- extra clang flags]
//   tilecc build X.tile.cpp -o X [--cpu] [--arch=sm_90a,...] [-L.. -l..]
//   tilecc check FILES... [--format=clang|sarif|github] [-o FILE] [-verify] [-W.. flags]
//   tilecc lsp [-p BUILD_DIR] [--debounce-ms=N] [-W.. flags] [-- clang flags]
//   tilecc --explain [ID]
//   tilecc --version
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "tilecc/Analysis/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/WithColor.h"

using namespace tilecc;
using namespace tilecc::driver;

static const char kUsage[] = R"(OVERVIEW: tilecc - safe, fast GPU tile kernels in C++

USAGE: tilecc compile FILE -o OUT.cu [options] [-- clang flags]
       tilecc build FILE -o EXE [--cpu] [options]
       tilecc check FILES... [--format=clang|sarif|github] [-o FILE] [-verify] [options]
       tilecc lsp [-p BUILD_DIR] [--debounce-ms=N] [-W.. flags] [-- clang flags]
       tilecc --explain [ID]
       tilecc --version

OPTIONS:
  -h, --help              this text (also after a command)
  -o FILE                 output file (compile: default standard output; check: the report,
                          default standard error for clang and -verify, else standard output)
  --emit=KIND             compile output: cuda (default), tile-ir, tilegpu-ir, or smem-plan
                          (each kernel's warps and shared-memory buffers)
  --format=FORMAT         check report: clang (default), sarif (SARIF 2.1.0), github
                          (workflow commands: ::error file=...,line=...::message)
  -verify                 check: compare the diagnostics with the file's expected-error,
                          expected-warning and expected-note comments
  -W<id>, -Wno-<id>       enable / disable the warning rule <id> (tilecc --explain lists them)
  -Werror, -Werror=<id>   make every warning (Clang's included) / rule <id> an error;
                          -Wno-error=<id> keeps <id> a warning under -Werror
  -I DIR, -D NAME[=V], -U NAME, -isystem DIR, -std=STD
                          passed to the C++ front end (and to nvcc for build)
  -p BUILD_DIR, -p=DIR    read flags from BUILD_DIR/compile_commands.json (lsp: else the
                          client's initializationOptions.compilationDatabasePath, else the
                          nearest compile_commands.json or build/compile_commands.json above
                          the file)
  --debounce-ms=N         lsp: check a buffer once it has been still for N ms (default 250)
  -MF FILE                compile: write a Make depfile of every header the source includes
  --no-pch                parse <tile/tile.hpp> from source, not from the cached precompiled
                          header (also TILECC_NO_PCH=1; the cache is in $TILECC_CACHE_DIR, else
                          $XDG_CACHE_HOME/tilecc or ~/.cache/tilecc)
  --cpu                   build: check, then use the host C++ compiler only (CPU backend)
  --arch=LIST             GPU targets, default sm_80,sm_90a (compile: kernels must fit the
                          tightest one's shared memory; build: nvcc's targets)
  -L DIR, -l LIB          build: extra linker inputs
  -g                      build: debug information (with nvcc also for device code: -G)
  -lineinfo               build: line tables for device code (profilers, compute-sanitizer)
  -fcolor-diagnostics, -fno-color-diagnostics
                          colors in diagnostics always / never (default: on a terminal)
  -v                      say whether each file's precompiled header was reused or built (or
                          why none was used) and how long each phase took (parse, check,
                          lower, emit); build: also print the commands it runs

EXIT STATUS: 0 clean, 1 errors in the input (check: also warnings under -Werror, or -verify
mismatches), 2 tool failure; lsp: 0 after a shutdown request, 1 when the input
ends or exit comes without one.
)";

namespace {
/// -W<id>, -Wno-<id>, -Werror=<id>, -Wno-error=<id>, -Werror, applied after all are read.
struct SeverityFlags {
  enum Kind { Enable, Disable, ErrorOn, ErrorOff };
  std::vector<std::pair<Kind, Rule>> flags;
  bool warningsAsErrors = false;

  /// False (with a message) for an id that is not a rule.
  bool parse(llvm::StringRef arg) {
    if (arg == "-Werror") {
      warningsAsErrors = true;
      return true;
    }
    llvm::StringRef id = arg.drop_front(2);
    Kind kind = Enable;
    if (id.consume_front("error="))
      kind = ErrorOn;
    else if (id.consume_front("no-error="))
      kind = ErrorOff;
    else if (id.consume_front("no-"))
      kind = Disable;
    std::optional<Rule> rule = findRule(id);
    if (!rule) {
      toolError("unknown rule id '" + id + "' in '" + arg +
                "' (tilecc --explain lists the rules; pass Clang's warning flags after '--')");
      return false;
    }
    flags.push_back({kind, *rule});
    return true;
  }

  /// Installs the severities; rules that are errors by default stay errors (they are the
  /// safety guarantees: the escape hatch is TILE_UNSAFE, not a flag).
  bool apply() const {
    std::vector<bool> keepWarning(allRules().size());
    for (auto [kind, rule] : flags) {
      const RuleInfo &info = ruleInfo(rule);
      bool isError = info.defaultSeverity == Severity::Error;
      switch (kind) {
      case Enable:
        if (ruleSeverity(rule) == Severity::Ignored)
          setRuleSeverity(rule, isError ? Severity::Error : Severity::Warning);
        break;
      case Disable:
      case ErrorOff:
        if (isError) {
          toolError("'" + info.id + "' is an error and cannot be " +
                    (kind == Disable ? "disabled" : "made a warning") +
                    " (see tilecc --explain " + info.id + ")");
          return false;
        }
        if (kind == Disable) {
          setRuleSeverity(rule, Severity::Ignored);
        } else {
          if (ruleSeverity(rule) == Severity::Error)
            setRuleSeverity(rule, Severity::Warning);
          keepWarning[static_cast<size_t>(rule)] = true;
        }
        break;
      case ErrorOn:
        setRuleSeverity(rule, Severity::Error);
        keepWarning[static_cast<size_t>(rule)] = false;
        break;
      }
    }
    if (warningsAsErrors)
      for (const RuleInfo &info : allRules())
        if (ruleSeverity(info.rule) == Severity::Warning &&
            !keepWarning[static_cast<size_t>(info.rule)])
          setRuleSeverity(info.rule, Severity::Error);
    return true;
  }
};
} // namespace

/// Splits `-Ifoo` / `-I foo` style options; returns false with a message on bad usage.
static bool parseArgs(int argc, char **argv, int first, llvm::StringRef command,
                      Options &options) {
  SeverityFlags severities;
  auto needsValue = [&](int &i, llvm::StringRef flag, std::string &value) {
    llvm::StringRef arg = argv[i];
    if (arg.size() > flag.size()) {
      value = arg.drop_front(flag.size()).str();
      return true;
    }
    if (i + 1 >= argc) {
      toolError("option '" + flag + "' needs a value");
      return false;
    }
    value = argv[++i];
    return true;
  };
  bool isCheck = command == "check";
  bool isServer = command == "lsp";
  for (int i = first; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    std::string value;
    if (arg == "--") {
      for (++i; i < argc; ++i)
        options.frontend.compilerArgs.push_back(argv[i]);
      break;
    }
    if (arg == "-o") {
      if (!needsValue(i, "-o", options.output))
        return false;
    } else if (arg == "-MF" && !isCheck) {
      if (!needsValue(i, "-MF", options.depfile))
        return false;
    } else if (arg.consume_front("--emit=")) {
      if (arg == "cuda")
        options.emit = EmitKind::Cuda;
      else if (arg == "tile-ir")
        options.emit = EmitKind::TileIR;
      else if (arg == "tilegpu-ir")
        options.emit = EmitKind::TileGPUIR;
      else if (arg == "smem-plan")
        options.emit = EmitKind::SmemPlan;
      else {
        toolError("unknown --emit kind '" + arg +
                  "' (expected cuda, tile-ir, tilegpu-ir or smem-plan)");
        return false;
      }
    } else if (isCheck && arg.consume_front("--format=")) {
      if (arg == "clang")
        options.format = ReportFormat::Clang;
      else if (arg == "sarif")
        options.format = ReportFormat::Sarif;
      else if (arg == "github")
        options.format = ReportFormat::Github;
      else {
        toolError("unknown --format '" + arg + "' (expected clang, sarif or github)");
        return false;
      }
    } else if (isCheck && (arg == "-verify" || arg == "--verify")) {
      options.verify = true;
    } else if (arg.starts_with("-W") && arg.size() > 2) {
      if (!severities.parse(arg))
        return false;
    } else if (isServer && arg.consume_front("--debounce-ms=")) {
      if (arg.getAsInteger(10, options.debounceMs) || options.debounceMs > 60000) {
        toolError("--debounce-ms takes a number of milliseconds up to 60000");
        return false;
      }
    } else if (arg == "--cpu") {
      options.cpuOnly = true;
    } else if (arg.consume_front("--arch=")) {
      options.archs.clear();
      llvm::SmallVector<llvm::StringRef> archs;
      arg.split(archs, ',', -1, false);
      for (llvm::StringRef a : archs)
        options.archs.push_back(a.str());
    } else if (arg == "-g") {
      options.debugInfo = true;
    } else if (arg == "-lineinfo") {
      options.lineInfo = true;
    } else if (arg == "-fcolor-diagnostics" || arg == "-fno-color-diagnostics") {
      options.colors = arg == "-fcolor-diagnostics";
      options.frontend.compilerArgs.push_back(arg.str());  // Clang's own diagnostics too
    } else if (arg == "-v") {
      options.verbose = true;
      options.frontend.verbose = true;
    } else if (arg == "--no-pch") {
      options.frontend.precompiledHeader = false;
    } else if (arg == "-p" || arg.starts_with("-p=")) {
      if (!needsValue(i, arg == "-p" ? "-p" : "-p=", options.frontend.buildDir))
        return false;
    } else if (arg == "-pthread" || arg == "-pedantic" || arg == "-pedantic-errors") {
      options.frontend.compilerArgs.push_back(arg.str()); // compiler flags, not `-p thread`
    } else if (arg.starts_with("-I") || arg.starts_with("-D") || arg.starts_with("-U")) {
      std::string flag = arg.take_front(2).str();
      if (!needsValue(i, flag, value))
        return false;
      options.frontend.compilerArgs.push_back(flag + value);
    } else if (arg == "-isystem") {
      if (!needsValue(i, "-isystem", value))
        return false;
      options.frontend.compilerArgs.push_back("-isystem");
      options.frontend.compilerArgs.push_back(value);
    } else if (arg.starts_with("-std=")) {
      options.frontend.compilerArgs.push_back(arg.str());
    } else if (arg.starts_with("-L") || arg.starts_with("-l")) {
      std::string flag = arg.take_front(2).str();  // -lLIB or -l LIB, -LDIR or -L DIR
      if (!needsValue(i, flag, value))
        return false;
      options.linkerArgs.push_back(flag + value);
    } else if (arg.starts_with("-") && arg != "-") {
      toolError("unknown option '" + arg + "'");
      return false;
    } else {
      options.frontend.files.push_back(arg.str());
    }
  }
  if (isServer && !options.frontend.files.empty()) {
    toolError("lsp takes no input files: the editor opens them");
    return false;
  }
  if (!isServer && options.frontend.files.empty()) {
    toolError("no input file");
    return false;
  }
  if (!isCheck && !isServer && options.frontend.files.size() != 1) {
    toolError("expected one input file");
    return false;
  }
  if (options.verify && options.format != ReportFormat::Clang) {
    toolError("-verify reports mismatches as text; it cannot be combined with --format");
    return false;
  }
  if (!severities.apply())
    return false;
  options.warningsAsErrors = severities.warningsAsErrors;
  return true;
}

/// Runs `command` on a thread of kCommandStackBytes. A crash in it, tilecc's or Clang's, is
/// a tool failure that names the input files, not a stack dump.
static int runGuarded(const Options &options, llvm::function_ref<int()> command) {
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  int status = ToolFailure;
  if (recovery.RunSafelyOnThread([&] { status = command(); }, kCommandStackBytes))
    return status;
  toolError("internal error (a crash) while processing " +
            llvm::join(options.frontend.files, ", ") + "; please report it with the input");
  return ToolFailure;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (argc < 2) {
    llvm::errs() << kUsage;
    return ToolFailure;
  }
  llvm::StringRef command = argv[1];
  if (command == "-h" || command == "--help" || command == "help") {
    llvm::outs() << kUsage;
    return Success;
  }
  if (command == "--version" || command == "version") {
    llvm::outs() << versionLine() << "\n";
    return Success;
  }
  Options options;
  if (llvm::StringRef inlineId = command; command == "--explain" ||
                                           inlineId.consume_front("--explain=")) {
    bool separate = command == "--explain";
    llvm::StringRef id = separate ? (argc > 2 ? llvm::StringRef(argv[2]) : "") : inlineId;
    if (argc > (separate ? 3 : 2)) {
      toolError("--explain takes one rule id");
      return ToolFailure;
    }
    return runExplain(id);
  }
  if (command == "compile" || command == "build" || command == "check" || command == "lsp") {
    for (int i = 2; i < argc && llvm::StringRef(argv[i]) != "--"; ++i)
      if (llvm::StringRef(argv[i]) == "--help" || llvm::StringRef(argv[i]) == "-h") {
        llvm::outs() << kUsage;
        return Success;
      }
    if (!parseArgs(argc, argv, 2, command, options))
      return ToolFailure;
    if (command == "lsp")
      return runLanguageServer(options);  // guards each check itself
    return runGuarded(options, [&] {
      if (command == "check")
        return runCheck(options);
      return command == "compile" ? runCompile(options) : runBuild(options);
    });
  }
  toolError("unknown command '" + command + "'; see 'tilecc --help'");
  return ToolFailure;
}
