//===- LaunchArguments.h - a launch's arguments fit the kernel's parameters -*- C++ -*-===//
//
// `tile::launch<k>(args...)` binds each argument to a parameter of k: a partition to an exclusive
// `Tensor&` (same element type, same rank, a tile shape equal to the parameter's static dims),
// an array or a shared view to a `const Tensor&` or an `Atomic&` (same element type), a scalar to
// a scalar. The runtime checks the same when the op is built; what the types already decide is
// reported here, at compile time (tile-launch-argument): the number of arguments, what kind of
// argument each parameter takes, element types, ranks and tile shapes. Array extents are known
// only at run time and stay the runtime's.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_LAUNCHARGUMENTS_H
#define TILECC_ANALYSIS_LAUNCHARGUMENTS_H

#include "clang/AST/ASTContext.h"
#include "tilecc/Analysis/LaunchSites.h"

#include "llvm/ADT/ArrayRef.h"

namespace tilecc {

/// Reports tile-launch-argument for each launch call among the host functions' launch sites
/// (instantiated code; each location once) whose arguments do not fit the kernel. Returns true
/// when there was none.
bool checkLaunchArguments(clang::ASTContext &context, llvm::ArrayRef<LaunchSites> sites);

} // namespace tilecc

#endif
