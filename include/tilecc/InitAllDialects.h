//===- InitAllDialects.h - the dialects tilecc's IR uses -------------*- C++ -*-===//
#ifndef TILECC_INITALLDIALECTS_H
#define TILECC_INITALLDIALECTS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"

namespace tilecc {
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<tile::TileDialect, tilegpu::TileGPUDialect, mlir::arith::ArithDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect, mlir::func::FuncDialect>();
}
} // namespace tilecc

#endif
