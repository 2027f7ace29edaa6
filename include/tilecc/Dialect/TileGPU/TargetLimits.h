//===- TargetLimits.h - what a GPU target allows one tile program -----*- C++ -*-===//
//
// The per-block resources of the CUDA targets tilecc emits for, by `sm_XY` name. A build's
// kernels must run on every target it is compiled for, so the driver plans for the tightest
// of them (`getTargetLimits(archs)`).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_DIALECT_TILEGPU_TARGETLIMITS_H
#define TILECC_DIALECT_TILEGPU_TARGETLIMITS_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tilecc {

struct TargetLimits {
  /// Dynamic shared memory one block may use (the opt-in maximum).
  int64_t maxSharedBytes = 0;
  /// The target that sets this limit (the tightest one of a list).
  std::string arch;
};

/// The limits of one target ("sm_80", "sm_90a", ...), or nullopt for a name tilecc does not know.
std::optional<TargetLimits> getTargetLimits(llvm::StringRef arch);

/// The tightest limits over `archs`; fails naming the first unknown target in `unknown`.
mlir::FailureOr<TargetLimits> getTargetLimits(llvm::ArrayRef<std::string> archs,
                                              std::string &unknown);

/// The most dynamic shared memory a block may use on any target tilecc knows.
int64_t largestSharedBytes();

/// The targets tilecc knows, for messages ("sm_70, sm_75, ...").
std::string knownTargets();

} // namespace tilecc

#endif
