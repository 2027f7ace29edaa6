//===- LoopLoads.h - global loads of a loop that may be issued for a later step -*- C++ -*-===//
//
// What the pipelining passes share: the index arithmetic of a load in an scf.for body that
// depends only on the induction variable and values from outside the loop (`indexSlice`),
// and a copy of such a load for another step, reading nothing for a step the loop does not
// run (`cloneLoadAt`), the bytes a load's tile holds, and the clean-up of the arithmetic the
// replaced loads leave behind.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TRANSFORMS_PIPELINER_LOOPLOADS_H
#define TILECC_TRANSFORMS_PIPELINER_LOOPLOADS_H

#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

namespace tilecc::pipeliner {

/// The ops of `loop`'s body that compute `values` from the induction variable and values
/// from outside, in program order; nullopt when one is not pure or reads a loop value.
/// `usesIv` says whether the induction variable is among their inputs.
std::optional<llvm::SetVector<mlir::Operation *>>
indexSlice(mlir::scf::ForOp loop, mlir::ValueRange values, bool &usesIv);

/// A copy of `load` at induction variable `iv` (its index arithmetic `slice` cloned, `oldIv`
/// replaced) at `b`'s insertion point, reading nothing unless iv < `last` (the loop's upper
/// bound; no test when `last` is null, for a step the loop runs): its first bound is then its
/// first start.
tilegpu::GlobalLoadOp cloneLoadAt(mlir::OpBuilder &b, tilegpu::GlobalLoadOp load,
                                  const llvm::SetVector<mlir::Operation *> &slice,
                                  mlir::Value oldIv, mlir::Value iv, mlir::Value last);

/// Erases the ops of `slices` (index arithmetic of loads that were replaced) that nothing
/// uses any more, last first so that an op's users go before it.
void eraseUnusedSlices(const llvm::SetVector<mlir::Operation *> &slices);

/// The bytes of the tile `load` reads (each element once, however many threads hold it).
int64_t tileBytes(tilegpu::GlobalLoadOp load);

/// Whether `load` reads a shared view of the kernel (read-only for the whole kernel, so that
/// reading it for a later step early returns the same values).
bool readsSharedArgument(tilegpu::GlobalLoadOp load);

} // namespace tilecc::pipeliner

#endif
