//===- FuzzTarget.h - the entry point every fuzz target defines ------*- C++ -*-===//
//
// Each target defines libFuzzer's `LLVMFuzzerTestOneInput`. Built with clang and
// TILECC_FUZZ=ON it links libFuzzer; otherwise StandaloneMain.cpp drives it: the seed corpus,
// then random mutations of it for a bounded time (the smoke runs CI makes).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_FUZZ_FUZZTARGET_H
#define TILECC_FUZZ_FUZZTARGET_H

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);

#endif
