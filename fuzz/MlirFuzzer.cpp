//===- MlirFuzzer.cpp - IR text through each pass and the translator ------------===//
//
// The input is MLIR text in tilecc's dialects. When it parses and verifies, a copy of it goes
// through the CUDA translator as given, through each of tilecc's passes alone, and through
// the whole tile -> tilegpu pipeline and then the translator. Diagnostics are the expected
// outcome of input a pass does not take; a crash, a hang, an LLVM fatal error, or IR a pass
// leaves that does not verify is a bug. Seeds: the lit tests' .mlir files.
//
// MLIR 19's parser itself is not robust to all malformed text: an `scf.for` whose iter_args
// take a value defined later inside its body crashes it, and its error recovery can free an
// op twice (valgrind shows it in mlir::Operation::dropAllReferences under parseAsmSourceFile).
// Those are libMLIR's bugs; only tilecc-opt and tilecc-translate parse IR text.
//
//===----------------------------------------------------------------------===//
#include <string>

#include "FuzzTarget.h"

#include "tilecc/CodeGen/CudaEmitter.h"
#include "tilecc/InitAllDialects.h"
#include "tilecc/Transforms/Passes.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

namespace {

/// Each pass of Passes.td, as a pipeline nested in the module.
const char *const kPipelines[] = {
    "tile-version-unit-strides",
    "func.func(tile-widen-f8)",
    "func.func(tile-assign-layouts)",
    "func.func(tile-infer-layouts)",
    "func.func(convert-tile-to-tilegpu)",
    "func.func(tile-vectorize-accesses)",
    "func.func(tile-specialize-launch)",
    "func.func(tilegpu-sequence-programs)",
    "func.func(tile-pipeline-mma-operands)",
    "func.func(tile-tensor-map-copies)",
    "func.func(tile-tensor-map-stores)",
    "func.func(tilegpu-persistent-programs)",
    "func.func(tile-warpgroup-mma)",
    "func.func(tile-prefetch-loop-loads)",
    "func.func(tile-mma-layouts)",
    "func.func(tilegpu-plan-shared-memory)",
    "func.func(tilegpu-plan-occupancy)",
    "func.func(tilegpu-place-barriers)",
};

mlir::DialectRegistry &registry() {
  static mlir::DialectRegistry r = [] {
    mlir::DialectRegistry d;
    tilecc::registerAllDialects(d);
    return d;
  }();
  return r;
}

/// Runs `pm` on a copy of `module`; a pass that succeeds must leave IR that verifies.
void runOnCopy(mlir::ModuleOp module, mlir::PassManager &pm, llvm::StringRef what) {
  mlir::OwningOpRef<mlir::ModuleOp> copy(module.clone());
  if (mlir::succeeded(pm.run(*copy)) && mlir::failed(mlir::verify(*copy)))
    llvm::report_fatal_error(llvm::Twine(what) + " succeeded but left IR that does not verify");
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  tilecc::registerTileccPasses();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext context(registry());
  context.loadAllAvailableDialects();
  context.printOpOnDiagnostic(false);
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic &) { return mlir::success(); });
  // MLIR's lexer reads the byte after the text (a file's buffer ends in a null, as
  // tilecc-opt and tilecc-translate read it); libFuzzer's input does not.
  const std::string text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;
  {
    mlir::OwningOpRef<mlir::ModuleOp> copy((*module).clone());
    std::string cuda;
    llvm::raw_string_ostream os(cuda);
    (void)tilecc::emitCuda(*copy, os);
  }
  for (const char *pipeline : kPipelines) {
    mlir::PassManager pm(&context);
    pm.enableVerifier(false); // checked by runOnCopy, with the pass named
    if (mlir::failed(mlir::parsePassPipeline(pipeline, pm)))
      llvm::report_fatal_error(llvm::Twine("cannot parse the pipeline ") + pipeline);
    runOnCopy(*module, pm, pipeline);
  }
  mlir::PassManager pm(&context);
  tilecc::buildTileToGPUPipeline(pm);
  mlir::OwningOpRef<mlir::ModuleOp> lowered((*module).clone());
  if (mlir::succeeded(pm.run(*lowered))) {
    std::string cuda;
    llvm::raw_string_ostream os(cuda);
    (void)tilecc::emitCuda(*lowered, os);
  }
  return 0;
}
