//===- tilecc-opt.cpp - run tilecc passes on IR text ---------------------------===//
//
// mlir-opt for tilecc's dialects: parses tile/tilegpu IR, runs the passes named on the command
// line (tilecc's and upstream ones such as --canonicalize and --cse) and prints the result.
// Every pass is tested alone through this tool.
//
//===----------------------------------------------------------------------===//
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "tilecc/InitAllDialects.h"
#include "tilecc/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tilecc::registerAllDialects(registry);
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerLoopInvariantCodeMotionPass();
  tilecc::registerTileccPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilecc pass driver\n", registry));
}
