//===- MmaCarry.h - accumulators an scf.for carries in fragment registers --*- C++ -*-===//
//
// An mma pass that gives an accumulator a fragment layout leaves conversions around it; a
// loop that carries the accumulator from one step to the next should carry the fragments,
// and an accumulator the loop only carries may stay in flight from one step to the next;
// an operand the loop does not compute is read the same way every step.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TRANSFORMS_MMACARRY_H
#define TILECC_TRANSFORMS_MMACARRY_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tilecc {

/// Carries in the mma layout each value `loop` yields as a conversion out of an mma layout:
/// its initial value is converted before the loop, its uses in the body and after the loop
/// read it through conversions, which the conversion folding then removes.
void carryInMmaLayout(mlir::scf::ForOp loop);

/// True when the loop around `mma` only carries its result: every use is the loop's yield,
/// directly or through one layout conversion.
bool onlyCarried(mlir::Operation *mma);

/// True when `operand`, seen through the layout conversions `loop` makes of it, is computed
/// in the loop's body: false for a tile loaded or computed before the loop, which every step
/// multiplies as it is.
bool variesInLoop(mlir::scf::ForOp loop, mlir::Value operand);

} // namespace tilecc

#endif
