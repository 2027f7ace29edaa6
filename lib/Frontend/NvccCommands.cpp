//===- NvccCommands.cpp - compile commands of nvcc read as Clang's -------------===//
#include "tilecc/Frontend/NvccCommands.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

using namespace clang::tooling;

namespace {

enum class Nvcc {
  Keep,        // a host flag: kept
  Drop,        // a device or driver option: dropped
  DropWithArg, // dropped with the argument after it
  Forward,     // -Xcompiler X: X's comma-separated flags kept
};

/// What to do with nvcc option `arg` (the part before `=` decides for `--opt=value`).
Nvcc classify(llvm::StringRef arg) {
  llvm::StringRef name = arg.split('=').first;
  bool joined = arg.contains('=');
  Nvcc withArg = joined ? Nvcc::Drop : Nvcc::DropWithArg;
  return llvm::StringSwitch<Nvcc>(name)
      .Cases("-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler",
             Nvcc::Drop)
      .Cases("-forward-unknown-to-host-linker", "--forward-unknown-to-host-linker", Nvcc::Drop)
      .Cases("--expt-relaxed-constexpr", "-expt-relaxed-constexpr", Nvcc::Drop)
      .Cases("--expt-extended-lambda", "-expt-extended-lambda", "--extended-lambda",
             "-extended-lambda", Nvcc::Drop)
      .Cases("-use_fast_math", "--use_fast_math", "-lineinfo", "--generate-line-info",
             Nvcc::Drop)
      .Cases("-G", "--device-debug", "--keep", "-keep", "-Wno-deprecated-gpu-targets",
             Nvcc::Drop)
      .Cases("-rdc", "--relocatable-device-code", "-dc", "--device-c", Nvcc::Drop)
      .Cases("-gencode", "--generate-code", "-arch", "--gpu-architecture", withArg)
      .Cases("-code", "--gpu-code", "-ccbin", "--compiler-bindir", withArg)
      .Cases("-Xptxas", "--ptxas-options", "-Xnvlink", "--nvlink-options", withArg)
      .Cases("-Xfatbin", "--fatbin-options", "-Xlinker", "--linker-options", withArg)
      .Cases("-diag-suppress", "--diag-suppress", "-t", "--threads", withArg)
      .Cases("-maxrregcount", "--maxrregcount", "--options-file", "-optf", withArg)
      .Cases("-Xcompiler", "--compiler-options", Nvcc::Forward)
      .Default(Nvcc::Keep);
}

bool isNvcc(const CommandLineArguments &args) {
  return !args.empty() && llvm::sys::path::stem(args.front()) == "nvcc";
}

} // namespace

CommandLineArguments tilecc::nvccToClang(const CommandLineArguments &args) {
  if (!isNvcc(args))
    return args;
  // Tile sources are host C++, whatever the file's extension.
  CommandLineArguments out{"clang++", "-x", "c++"};
  for (size_t i = 1; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    if (arg == "-x" || arg == "--x") { // the language: C++ (set above)
      ++i;
      continue;
    }
    if (arg.starts_with("-x=") || arg.starts_with("--x="))
      continue;
    // nvcc's joined spellings of the host compiler's separate ones.
    if (arg.starts_with("-isystem=") || arg.starts_with("-I=") || arg.starts_with("-D=") ||
        arg.starts_with("-include=")) {
      auto [flag, value] = arg.split('=');
      out.push_back(flag.str());
      out.push_back(value.str());
      continue;
    }
    if (arg.starts_with("--std=")) {
      out.push_back(("-std=" + arg.drop_front(6)).str());
      continue;
    }
    switch (classify(arg)) {
    case Nvcc::Keep:
      out.push_back(arg.str());
      break;
    case Nvcc::Drop:
      break;
    case Nvcc::DropWithArg:
      ++i;
      break;
    case Nvcc::Forward: {
      llvm::StringRef flags;
      if (arg.contains('='))
        flags = arg.split('=').second;
      else if (i + 1 < args.size())
        flags = args[++i];
      llvm::SmallVector<llvm::StringRef> parts;
      flags.split(parts, ',', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef part : parts)
        out.push_back(part.str());
      break;
    }
    }
  }
  return out;
}

namespace {

class NvccAsClang : public CompilationDatabase {
public:
  explicit NvccAsClang(std::unique_ptr<CompilationDatabase> base) : base(std::move(base)) {}

  std::vector<CompileCommand> getCompileCommands(llvm::StringRef file) const override {
    return translated(base->getCompileCommands(file));
  }
  std::vector<std::string> getAllFiles() const override { return base->getAllFiles(); }
  std::vector<CompileCommand> getAllCompileCommands() const override {
    return translated(base->getAllCompileCommands());
  }

private:
  static std::vector<CompileCommand> translated(std::vector<CompileCommand> commands) {
    for (CompileCommand &command : commands)
      command.CommandLine = tilecc::nvccToClang(command.CommandLine);
    return commands;
  }
  std::unique_ptr<CompilationDatabase> base;
};

} // namespace

std::unique_ptr<CompilationDatabase>
tilecc::nvccCommandsAsClang(std::unique_ptr<CompilationDatabase> base) {
  return std::make_unique<NvccAsClang>(std::move(base));
}
