//===- LaunchTargets.h - only kernels are launched -------------------*- C++ -*-===//
//
// `tile::launch<f>(...)` runs f once per tile program, on the GPU from the CUDA tilecc compiles
// and on the CPU backend by calling f. tilecc checks and compiles only TILE_KERNEL functions,
// so a launch of any other function would run a body nobody checked
// (tile-launch-not-kernel). `checkLaunchTargets` reports each such launch in the given host
// functions.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_LAUNCHTARGETS_H
#define TILECC_ANALYSIS_LAUNCHTARGETS_H

#include "clang/AST/ASTContext.h"
#include "tilecc/Analysis/LaunchSites.h"

#include "llvm/ADT/ArrayRef.h"

namespace tilecc {

/// Reports tile-launch-not-kernel for every launch of a function that is not a TILE_KERNEL
/// among the host functions' launch sites (each location once). Returns true when there was
/// none.
bool checkLaunchTargets(clang::ASTContext &context, llvm::ArrayRef<LaunchSites> sites);

} // namespace tilecc

#endif
