//===- TileProgramFuzzer.cpp - tile programs through the whole compiler ---------===//
//
// The input is a kernel file: `tilecc compile` runs on it in process (parse, the kernel and
// host analyses, lowering, the tile -> tilegpu pipeline, CUDA emission), on a large stack as
// the tool runs its commands. Errors in the input are the expected outcome; a crash, a hang
// or an LLVM fatal error is a bug. Seeds: the lit tests' kernel files (test/Check, Lowering,
// Analysis, Driver).
//
//===----------------------------------------------------------------------===//
#include "CompileInProcess.h"
#include "FuzzTarget.h"

#include <string>

extern "C" int LLVMFuzzerInitialize(int *, char ***argv) {
  tilecc::fuzz::initializeCompileInProcess((*argv)[0]);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tilecc::fuzz::compileInProcess(std::string(reinterpret_cast<const char *>(data), size));
  return 0;
}
