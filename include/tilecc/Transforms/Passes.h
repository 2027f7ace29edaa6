//===- Passes.h - tilecc's MLIR passes -------------------------------*- C++ -*-===//
//
// Pass constructors and registration for the tile -> tilegpu pipeline (see Passes.td), and
// `buildTileToGPUPipeline`, the sequence the driver runs on lowered kernels.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TRANSFORMS_PASSES_H
#define TILECC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"
#include "tilecc/Dialect/TileGPU/TargetLimits.h"

namespace tilecc {

#define GEN_PASS_DECL
#include "tilecc/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilecc/Transforms/Passes.h.inc"

/// f8 widening, canonicalize, layout assignment, tile -> tilegpu, cse, shared-memory planning
/// within the limits of `targets` (the tightest of the targets the CUDA is built for).
void buildTileToGPUPipeline(mlir::OpPassManager &pm, const TargetLimits &targets = {232448, "sm_90"});

/// Prints each kernel's shared-memory plan (after tilegpu-plan-shared-memory): its total, and
/// for each op that stages tiles, the bytes it occupies, the staged tile and the source line.
void printSharedMemoryPlan(mlir::ModuleOp module, llvm::raw_ostream &os);

} // namespace tilecc

#endif
