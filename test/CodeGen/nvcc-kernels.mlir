// The kernels of the GPU test (GPU/run-kernels.mlir: 2-D pieces, negative offsets, replicated
// layouts, scf.for/if/while, f16 and f64) go through the whole pipeline and compile with nvcc
// for sm_90a, with or without a GPU.
// REQUIRES: nvcc
// RUN: tilecc-translate --tile-to-cuda %S/GPU/run-kernels.mlir -o %t.cu
// RUN: %nvcc -include %S/GPU/Inputs/entries.h -c %t.cu -o %t.o
// RUN: FileCheck %s --input-file=%t.cu

// CHECK-COUNT-9: static tile::detail::GpuKernelRegistration<
