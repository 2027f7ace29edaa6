//===- TileProgramFuzzer.cpp - tile programs through the whole compiler ---------===//
//
// The input is a kernel file: `tilecc compile` runs on it in process (parse, the kernel and
// host analyses, lowering, the tile -> tilegpu pipeline, CUDA emission), on a large stack as
// the tool runs its commands. Errors in the input are the expected outcome; a crash, a hang
// or an LLVM fatal error is a bug. Seeds: the lit tests' kernel files (test/Check, Lowering,
// Analysis, Driver).
//
//===----------------------------------------------------------------------===//
#include "Driver.h"
#include "FuzzTarget.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/thread.h"

#include <cstdlib>
#include <fstream>
#include <string>

namespace {
std::string workDir;
/// As tilecc's own commands (tools/tilecc/tilecc.cpp): the analyses nest this deep at most.
constexpr unsigned kStackBytes = 256u << 20;
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***argv) {
  // LLVM's signal handlers, registered here on the main thread: registered first inside the
  // compile thread, they would give that thread an alternate signal stack of their own.
  llvm::sys::PrintStackTraceOnErrorSignal((*argv)[0]);
  // A private directory for the input, the output and the precompiled-header cache.
  llvm::SmallString<128> dir;
  if (llvm::sys::fs::createUniqueDirectory("tilecc-fuzz", dir)) {
    std::fprintf(stderr, "cannot create a working directory\n");
    std::exit(2);
  }
  workDir = dir.str().str();
  setenv("TILECC_CACHE_DIR", (workDir + "/cache").c_str(), 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string file = workDir + "/input.tile.cpp";
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(data), std::streamsize(size));
  }
  tilecc::driver::Options options;
  options.frontend.files = {file};
  options.output = workDir + "/output.cu";
  llvm::thread worker(std::optional<unsigned>(kStackBytes),
                      [&] { (void)tilecc::driver::runCompile(options); });
  worker.join();
  return 0;
}
