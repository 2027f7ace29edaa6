//===- CompileInProcess.cpp - `tilecc compile` of one input, in this process -------===//
#include "CompileInProcess.h"

#include "Driver.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/thread.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace {
std::string workDir;
/// As tilecc's own commands (tools/tilecc/tilecc.cpp): the analyses nest this deep at most.
constexpr unsigned kStackBytes = 256u << 20;
} // namespace

void tilecc::fuzz::initializeCompileInProcess(const char *argv0) {
  // LLVM's signal handlers, registered here on the main thread: registered first inside the
  // compile thread, they would give that thread an alternate signal stack of their own.
  llvm::sys::PrintStackTraceOnErrorSignal(argv0);
  llvm::SmallString<128> dir;
  if (llvm::sys::fs::createUniqueDirectory("tilecc-fuzz", dir)) {
    std::fprintf(stderr, "cannot create a working directory\n");
    std::exit(2);
  }
  workDir = dir.str().str();
  setenv("TILECC_CACHE_DIR", (workDir + "/cache").c_str(), 1);
}

void tilecc::fuzz::compileInProcess(const std::string &text) {
  const std::string file = workDir + "/input.tile.cpp";
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(text.data(), std::streamsize(text.size()));
  }
  tilecc::driver::Options options;
  options.frontend.files = {file};
  options.output = workDir + "/output.cu";
  llvm::thread worker(std::optional<unsigned>(kStackBytes),
                      [&] { (void)tilecc::driver::runCompile(options); });
  worker.join();
}
