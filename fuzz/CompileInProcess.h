//===- CompileInProcess.h - `tilecc compile` of one input, in this process -*- C++ -*-===//
//
// What the tile-program fuzz targets share: a private working directory (the input, the
// output and the precompiled-header cache), and `tilecc compile` of a kernel file's text run
// in process on a thread with the tool's large stack. Errors in the input are the expected
// outcome; the call returns whatever the compile reports.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_FUZZ_COMPILEINPROCESS_H
#define TILECC_FUZZ_COMPILEINPROCESS_H

#include <string>

namespace tilecc::fuzz {

/// Registers LLVM's signal handlers and creates the working directory; call once, from
/// LLVMFuzzerInitialize (argv0 is the program's name).
void initializeCompileInProcess(const char *argv0);

/// Writes `text` as the working directory's kernel file and compiles it to CUDA.
void compileInProcess(const std::string &text);

} // namespace tilecc::fuzz

#endif
