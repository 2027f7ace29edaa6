//===- CudaEmitter.h - tilegpu IR to CUDA C++ ------------------------*- C++ -*-===//
//
// Prints the kernels of a module in tilegpu form (after `buildTileToGPUPipeline`) as CUDA C++:
// for every function carrying `tile.kernel`, the layout aliases, a `__global__` kernel whose
// statements carry `#line` directives back to the user's source, a host launcher with the
// `tile::detail::GpuEntry` signature, and its registration in `tile::detail::GpuKernel<ENTRY>`.
// The text needs `#include <device/tile_device.cuh>` (emitted unless disabled) and compiles with
// `-I<tilecc>/runtime -I<tilecc>/include` after the user's source, which declares the entries.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_CODEGEN_CUDAEMITTER_H
#define TILECC_CODEGEN_CUDAEMITTER_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tilecc {

struct CudaEmitOptions {
  /// Start the output with `#include <device/tile_device.cuh>`.
  bool includeRuntimeHeader = true;
  /// Map kernel statements to the user's source with `#line` directives.
  bool lineDirectives = true;
  /// When set, the name of the file the output is written into: after each kernel body a
  /// `#line` directive maps the following (generated) lines back to that file.
  std::string generatedFileName;
  /// The line of `generatedFileName` at which this output begins (for the directives above).
  unsigned firstLine = 1;
};

/// Prints every `tile.kernel` function of `module` (in tilegpu form) as CUDA C++ to `os`.
/// Unsupported ops or types are reported as errors on the op (through the context's diagnostic
/// handler) and make the result a failure; nothing is written to `os` in that case.
mlir::LogicalResult emitCuda(mlir::ModuleOp module, llvm::raw_ostream &os,
                             const CudaEmitOptions &options);
mlir::LogicalResult emitCuda(mlir::ModuleOp module, llvm::raw_ostream &os);

} // namespace tilecc

#endif
