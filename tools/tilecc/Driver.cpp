//===- Driver.cpp - what every subcommand shares ------------------------------===//
#include "Driver.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/WithColor.h"

using namespace tilecc;
using namespace tilecc::driver;

const char *tilecc::driver::version() { return TILECC_VERSION; }

std::string tilecc::driver::versionLine() {
  return std::string("tilecc ") + TILECC_VERSION + " (LLVM " LLVM_VERSION_STRING ")";
}

void tilecc::driver::toolError(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "tilecc") << message << "\n";
}

bool tilecc::driver::outputOverwritesInput(const Options &options, llvm::StringRef output) {
  if (output.empty() || output == "-")
    return false;
  for (const std::string &input : options.frontend.files)
    if (llvm::sys::fs::equivalent(input, output)) {
      toolError("the output '" + output + "' is the input file '" + input +
                "'; choose another output");
      return true;
    }
  return false;
}


PhaseTimer::PhaseTimer(bool enabled)
    : enabled(enabled), last(std::chrono::steady_clock::now()) {}

void PhaseTimer::lap(llvm::StringRef phase) {
  if (!enabled)
    return;
  auto now = std::chrono::steady_clock::now();
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now - last).count();
  llvm::errs() << "tilecc: time: " << phase << " " << ms << " ms\n";
  last = now;
}
