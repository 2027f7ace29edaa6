//===- tilecc-translate.cpp - print tilecc IR as CUDA -----------------------------===//
//
// mlir-translate for tilecc: `--tilegpu-to-cuda` prints a module in tilegpu form (the output
// of `buildTileToGPUPipeline`) as CUDA C++; `--tile-to-cuda` first runs that pipeline on a
// module in tile form. CodeGen is tested alone through this tool.
//
//===----------------------------------------------------------------------===//
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "tilecc/CodeGen/CudaEmitter.h"
#include "tilecc/InitAllDialects.h"
#include "tilecc/Transforms/Passes.h"

#include "llvm/Support/CommandLine.h"

static llvm::cl::opt<bool> noLineDirectives("tilecc-no-line",
                                            llvm::cl::desc("omit #line directives"),
                                            llvm::cl::init(false));
static llvm::cl::opt<bool> noInclude("tilecc-no-include",
                                     llvm::cl::desc("omit #include <device/tile_device.cuh>"),
                                     llvm::cl::init(false));

static tilecc::CudaEmitOptions options() {
  tilecc::CudaEmitOptions o;
  o.lineDirectives = !noLineDirectives;
  o.includeRuntimeHeader = !noInclude;
  return o;
}

int main(int argc, char **argv) {
  auto dialects = [](mlir::DialectRegistry &registry) {
    tilecc::registerAllDialects(registry);
  };
  mlir::TranslateFromMLIRRegistration toCuda(
      "tilegpu-to-cuda", "print tilegpu kernels as CUDA C++",
      [](mlir::ModuleOp module, llvm::raw_ostream &os) {
        return tilecc::emitCuda(module, os, options());
      },
      dialects);
  mlir::TranslateFromMLIRRegistration tileToCuda(
      "tile-to-cuda", "run the tile -> tilegpu pipeline, then print CUDA C++",
      [](mlir::ModuleOp module, llvm::raw_ostream &os) -> mlir::LogicalResult {
        mlir::PassManager pm(module->getContext());
        tilecc::buildTileToGPUPipeline(pm);
        if (mlir::failed(pm.run(module)))
          return mlir::failure();
        return tilecc::emitCuda(module, os, options());
      },
      dialects);
  return mlir::failed(mlir::mlirTranslateMain(argc, argv, "tilecc translation driver"));
}
