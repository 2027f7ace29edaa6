//===- KernelLowering.h - instantiated Clang AST -> tile IR ------------*- C++ -*-===//
//
// Lowers one instantiated tile kernel (and, inlined, the device functions and lambdas it calls)
// to a `func.func` in the tile dialect, with `arith`/`math` for scalars and elementwise tile
// math. Calls into namespace `tile` are recognised as the kernel language's intrinsics; other
// calls with a visible body are inlined. Constructs it cannot translate are reported through
// the rule table at their source location, and the function returns failure.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_LOWERING_KERNELLOWERING_H
#define TILECC_LOWERING_KERNELLOWERING_H

#include "mlir/IR/BuiltinOps.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include <string>

namespace tilecc {

/// One kernel instantiation to compile.
struct KernelInstance {
  const clang::FunctionDecl *decl;
  /// The C++ spelling for messages, e.g. `add<128>`.
  std::string displayName;
  /// A C++ expression for the kernel's address, valid at the end of the user's file.
  std::string entryExpr;
  /// The MLIR/CUDA symbol, e.g. `add_128`.
  std::string symbol;
};

mlir::LogicalResult lowerKernel(clang::ASTContext &context, const KernelInstance &kernel,
                                mlir::ModuleOp module);

} // namespace tilecc

#endif
