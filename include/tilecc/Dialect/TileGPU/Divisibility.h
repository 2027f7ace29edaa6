//===- Divisibility.h - powers of two that provably divide an index -*- C++ -*-===//
//
// `knownDivisor(v)` is the largest power of two that divides every value an integer or index
// SSA value can take, proven from the arithmetic that computes it: constants, sums,
// differences, products, shifts, casts, selects, min/max, and `scf.for` induction variables
// (lower bound and step). Anything else (a kernel argument, an array extent, a loaded value,
// a loop-carried value) is divisible by what `assumed` says of it, else only by 1: a launch
// specialization assumes array extents divisible by tile sizes. tile-vectorize-accesses uses
// it to prove that a tile's offset along its fastest axis is a multiple of the vector width,
// tile-specialize-launch to prove tiles whole or empty under the specialization's facts.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_DIALECT_TILEGPU_DIVISIBILITY_H
#define TILECC_DIALECT_TILEGPU_DIVISIBILITY_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>

namespace tilecc::tilegpu {

/// The divisor (a power of two) assumed of a value the arithmetic does not explain.
using AssumedDivisor = llvm::function_ref<int64_t(mlir::Value)>;

/// The largest power of two known to divide `v` (zero counts as divisible by everything),
/// at most kMaxKnownDivisor.
int64_t knownDivisor(mlir::Value v, AssumedDivisor assumed = nullptr);

inline constexpr int64_t kMaxKnownDivisor = int64_t(1) << 30;

} // namespace tilecc::tilegpu

#endif
