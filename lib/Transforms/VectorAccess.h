//===- VectorAccess.h - the vector width of one global access --------*- C++ -*-===//
//
// tile-vectorize-accesses decides how many elements a thread moves per access of each
// global load and store, and whether the accesses are aligned; a pass that later changes the
// layout of a tile it stores decides that store again with the same rule.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TRANSFORMS_VECTORACCESS_H
#define TILECC_TRANSFORMS_VECTORACCESS_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace tilecc {

/// Sets `vector` and `aligned` on a tilegpu.global_load or global_store from its tile's
/// layout (see tile-vectorize-accesses); other ops are left alone. Fails, with an error on
/// the op, for a tile without a layout.
mlir::LogicalResult vectorizeAccess(mlir::Operation *op, unsigned numWarps);

} // namespace tilecc

#endif
