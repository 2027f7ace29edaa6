//===- KernelDiscovery.h - which kernels a translation unit compiles --*- C++ -*-===//
//
// Finds the entries (functions marked TILE_KERNEL) of a parsed translation unit and the
// instantiations to compile: every non-template kernel defined here, every specialization that
// `tile::launch<K>` or `tile::autotune<Ks...>` names in this file, and every explicit
// instantiation.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_FRONTEND_KERNELDISCOVERY_H
#define TILECC_FRONTEND_KERNELDISCOVERY_H

#include "tilecc/Lowering/KernelLowering.h"
#include "clang/AST/ASTContext.h"
#include <vector>

namespace tilecc {

std::vector<KernelInstance> discoverKernels(clang::ASTContext &context);

} // namespace tilecc

#endif
