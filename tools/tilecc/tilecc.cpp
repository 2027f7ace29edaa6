//===- tilecc.cpp - the tilecc command line -----------------------------------===//
//
//   tilecc compile X.tile.cpp -o X.cu [--emit=tile-ir|tilegpu-ir|cuda] [-I.. -D.. -std=..]
//                  [-p BUILD_DIR] [-- extra clang flags]
//   tilecc build X.tile.cpp -o X [--cpu] [--arch=sm_90a,...] [-L.. -l..]
//
//===----------------------------------------------------------------------===//
#include "Driver.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"

using namespace tilecc;
using namespace tilecc::driver;

static const char kUsage[] = R"(OVERVIEW: tilecc - safe, fast GPU tile kernels in C++

USAGE: tilecc compile FILE -o OUT.cu [options] [-- clang flags]
       tilecc build FILE -o EXE [--cpu] [options]

OPTIONS:
  -o FILE                 output file (default: standard output for compile)
  --emit=KIND             compile output: cuda (default), tile-ir, tilegpu-ir
  -I DIR, -D NAME[=V], -U NAME, -isystem DIR, -std=STD
                          passed to the C++ front end (and to nvcc for build)
  -p BUILD_DIR            read flags from BUILD_DIR/compile_commands.json
  -MF FILE                compile: write a Make depfile of every header the source includes
  --cpu                   build: use the host C++ compiler only (CPU backend)
  --arch=LIST             build: GPU targets, default sm_80,sm_90a
  -L DIR, -l LIB          build: extra linker inputs
  -v                      build: print the commands it runs
)";

void tilecc::driver::toolError(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "tilecc") << message << "\n";
}

/// Splits `-Ifoo` / `-I foo` style options; returns false with a message on bad usage.
static bool parseArgs(int argc, char **argv, int first, Options &options) {
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
    } else if (arg == "-MF") {
      if (!needsValue(i, "-MF", options.depfile))
        return false;
    } else if (arg.consume_front("--emit=")) {
      if (arg == "cuda")
        options.emit = EmitKind::Cuda;
      else if (arg == "tile-ir")
        options.emit = EmitKind::TileIR;
      else if (arg == "tilegpu-ir")
        options.emit = EmitKind::TileGPUIR;
      else {
        toolError("unknown --emit kind '" + arg + "' (expected cuda, tile-ir or tilegpu-ir)");
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
    } else if (arg == "-v") {
      options.verbose = true;
    } else if (arg.starts_with("-p")) {
      if (!needsValue(i, "-p", options.frontend.buildDir))
        return false;
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
      options.linkerArgs.push_back(arg.str());
    } else if (arg.starts_with("-") && arg != "-") {
      toolError("unknown option '" + arg + "'");
      return false;
    } else {
      options.frontend.files.push_back(arg.str());
    }
  }
  if (options.frontend.files.size() != 1) {
    toolError(options.frontend.files.empty() ? "no input file" : "expected one input file");
    return false;
  }
  return true;
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
  Options options;
  if (command == "compile" || command == "build") {
    if (!parseArgs(argc, argv, 2, options))
      return ToolFailure;
    return command == "compile" ? runCompile(options) : runBuild(options);
  }
  toolError("unknown command '" + command + "'; see 'tilecc --help'");
  return ToolFailure;
}
