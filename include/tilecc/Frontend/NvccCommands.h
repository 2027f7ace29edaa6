//===- NvccCommands.h - compile commands of nvcc read as Clang's ------*- C++ -*-===//
//
// A compile_commands.json written by CMake for a project with CUDA lists its .cu files (the
// CUDA tilecc_add_kernels generates, among them) with nvcc's command lines; a kernel file
// without an entry of its own takes the flags of its nearest neighbour, which may be one of
// those. tilecc parses tile sources as host C++, so an nvcc command is read as the host
// compile it stands for: the host compiler's flags (-I, -D, -std, -O, and what -Xcompiler
// passes), nvcc's spellings of them (-isystem=DIR), and none of its device options.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_FRONTEND_NVCCCOMMANDS_H
#define TILECC_FRONTEND_NVCCCOMMANDS_H

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"

#include <memory>

namespace tilecc {

/// Rewrites a command line whose compiler is nvcc into Clang's C++ command line for the same
/// host compile (other command lines pass unchanged).
clang::tooling::CommandLineArguments nvccToClang(const clang::tooling::CommandLineArguments &args);

/// `base` with every nvcc command line read by nvccToClang (before a missing file's command
/// is inferred from its neighbours', so that the host flags, -std among them, carry over).
std::unique_ptr<clang::tooling::CompilationDatabase>
nvccCommandsAsClang(std::unique_ptr<clang::tooling::CompilationDatabase> base);

} // namespace tilecc

#endif
