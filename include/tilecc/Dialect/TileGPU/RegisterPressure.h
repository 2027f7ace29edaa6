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
//    compiler issues independent loads as early as it can (LoadIssue::Early); when a register
//    bound makes it schedule for fewer registers (LoadIssue::Late), from where it is loaded,
//    and a tile used only by elementwise ops whose chain ends in a store streams through one
//    vector access at a time;
//  * an elementwise result (or a broadcast) whose one use is an elementwise op, a reduction
//    or such a broadcast, in the same block, holds nothing: the CUDA compiler computes it
//    element by element where that user needs it, so its operands live until the end of
//    such a chain instead;
//  * a broadcast holds the registers of its operand: its copies of an element are one register.
//
// `registersOf` gives the registers one value holds (zero for values not counted).
//
// `blocksByRegisters` is the rule the occupancy plan and program sequencing share: how many
// blocks of a kernel fit a multiprocessor's registers when nvcc is held to them.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_DIALECT_TILEGPU_REGISTERPRESSURE_H
#define TILECC_DIALECT_TILEGPU_REGISTERPRESSURE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace tilecc::tilegpu {

/// How the CUDA compiler places a kernel's global loads: as early as their block allows (no
/// register bound), or late enough to hold the fewest registers (under a bound).
enum class LoadIssue { Early, Late };

int64_t peakLiveRegisters(mlir::func::FuncOp func,
                          llvm::function_ref<int64_t(mlir::Value)> registersOf,
                          LoadIssue issue = LoadIssue::Early);

/// Blocks of `threads` threads each (`numWarps` warps per program) whose registers fit one
/// multiprocessor: its 65536 registers over the estimate under a bound (LoadIssue::Late) plus
/// kRegisterHeadroom for addresses and temporaries; at least 1.
constexpr int64_t kRegistersPerSM = 65536;
constexpr int64_t kRegisterHeadroom = 16;
/// The fewest registers per thread an occupancy bound leaves a kernel that nvcc schedules
/// beyond the estimate (loops carrying prefetched tiles, the runs instance's vectors): a
/// tighter bound spills inside their loops.
constexpr int64_t kUnestimatedRegisters = 128;
int64_t blocksByRegisters(mlir::func::FuncOp func, unsigned numWarps, int64_t threads);

/// The registers a tile value holds under its distributed layout in a program of `numWarps`
/// warps: its distinct elements per thread (a broadcast copies none), packed into 32-bit
/// registers; zero for a value without a layout.
int64_t registersOfLayout(mlir::Value v, unsigned numWarps);

} // namespace tilecc::tilegpu

#endif
