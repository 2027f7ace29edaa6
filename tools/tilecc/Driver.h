//===- Driver.h - tilecc's subcommands --------------------------------*- C++ -*-===//
//
// `tilecc compile` (check, lower, emit CUDA C++ or IR), `tilecc build` (compile + nvcc + link
// tile_rt, or the host compiler alone with --cpu). Exit codes: 0 success, 1 the input has
// errors, 2 the tool failed.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TOOLS_TILECC_DRIVER_H
#define TILECC_TOOLS_TILECC_DRIVER_H

#include "tilecc/Frontend/Invocation.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace tilecc::driver {

enum ExitCode { Success = 0, InputError = 1, ToolFailure = 2 };

enum class EmitKind { TileIR, TileGPUIR, Cuda };

struct Options {
  FrontendOptions frontend;
  std::string output;           // -o
  std::string depfile;          // -MF: Make-style list of the files the output depends on
  EmitKind emit = EmitKind::Cuda;
  bool cpuOnly = false;         // build --cpu
  std::vector<std::string> archs = {"sm_80", "sm_90a"};
  std::vector<std::string> linkerArgs;  // build: -L, -l, -Xlinker ...
  bool verbose = false;
};

/// Prints `tilecc: error: <message>` in clang's style.
void toolError(const llvm::Twine &message);

int runCompile(const Options &options);
int runBuild(const Options &options);

/// Writes the CUDA translation of `file` into `os` (used by both subcommands).
int compileToStream(const Options &options, llvm::raw_ostream &os);

} // namespace tilecc::driver

#endif
