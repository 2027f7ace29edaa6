//===- RegisterPressure.h - registers the tile values of a kernel hold at once -*- C++ -*-===//
//
// `peakLiveRegisters` estimates the 32-bit registers per thread that the tile values of a
// function need at its busiest point, the number tile-assign-layouts sizes warps by and
// tilegpu-plan-occupancy sizes blocks per multiprocessor by. The model, in program order:
//
//  * a value is live from its definition up to, not including, its last use: an elementwise
//    op may reuse the registers of an operand it is the last use of, element by element;
//  * a use inside a loop the value is defined outside of lasts to the end of the loop;
//  * a tile loaded from global memory is live from the start of its block, since the CUDA
//    compiler issues independent loads as early as it can;
//  * an elementwise result (or a broadcast) whose one use is an elementwise op, a reduction
//    or such a broadcast, in the same block, holds nothing: the CUDA compiler computes it
//    element by element where that user needs it, so its operands live until the end of
//    such a chain instead;
//  * a broadcast holds the registers of its operand: its copies of an element are one register.
//
// `registersOf` gives the registers one value holds (zero for values not counted).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_DIALECT_TILEGPU_REGISTERPRESSURE_H
#define TILECC_DIALECT_TILEGPU_REGISTERPRESSURE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tilecc::tilegpu {

int64_t peakLiveRegisters(mlir::func::FuncOp func,
                          llvm::function_ref<int64_t(mlir::Value)> registersOf);

/// The registers a tile value holds under its distributed layout in a program of `numWarps`
/// warps: its distinct elements per thread (a broadcast copies none), packed into 32-bit
/// registers; zero for a value without a layout.
int64_t registersOfLayout(mlir::Value v, unsigned numWarps);

} // namespace tilecc::tilegpu

#endif
