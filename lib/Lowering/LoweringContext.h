//===- LoweringContext.h - state shared by the kernel lowering -------*- C++ -*-===//
//
// Private to lib/Lowering. `KernelLowerer` walks one kernel's statements and expressions
// (KernelLowering.cpp), converts Clang types (TypeLowering.cpp) and lowers the tile library's
// intrinsics (TileIntrinsics.cpp). Values are SSA values or partitions (a view plus a tile
// shape, which exist only at compile time).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_LIB_LOWERING_LOWERINGCONTEXT_H
#define TILECC_LIB_LOWERING_LOWERINGCONTEXT_H

#include "tilecc/Analysis/Diagnostics.h"
#include "tilecc/Dialect/Tile/TileDialect.h"
#include "tilecc/Lowering/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include <variant>

namespace tilecc::lowering {

/// `x.partition<32, 64>()`: a tiled view of `view`.
struct Partition {
  mlir::Value view;
  llvm::SmallVector<int64_t, 4> tile;
};

using Lowered = std::variant<mlir::Value, Partition>;
using LoweredOr = mlir::FailureOr<Lowered>;

class KernelLowerer {
public:
  KernelLowerer(clang::ASTContext &context, mlir::ModuleOp module);

  mlir::LogicalResult lower(const KernelInstance &kernel);

  // Types (TypeLowering.cpp).
  mlir::Type convertScalarType(clang::QualType type);
  mlir::Type convertType(clang::QualType type, bool exclusive = false);
  bool isFloat(clang::QualType scalar);
  bool isUnsigned(clang::QualType scalar);
  /// The element type of a Tile, or the type itself for scalars.
  clang::QualType elementOf(clang::QualType type);
  /// Converts scalars or tiles elementwise between C++ arithmetic types.
  mlir::Value convert(mlir::Value value, clang::QualType from, clang::QualType to,
                      mlir::Location loc);

  // Statements and expressions (KernelLowering.cpp).
  mlir::LogicalResult lowerStmt(const clang::Stmt *stmt);
  LoweredOr lowerExpr(const clang::Expr *expr);
  mlir::FailureOr<mlir::Value> lowerValue(const clang::Expr *expr);
  /// A scalar expression as an `index` (for offsets and axes).
  mlir::FailureOr<mlir::Value> lowerIndex(const clang::Expr *expr);
  mlir::FailureOr<int64_t> constantInt(const clang::Expr *expr);
  LoweredOr inlineCall(const clang::FunctionDecl *fn, llvm::ArrayRef<const clang::Expr *> args,
                       const clang::Expr *object, const clang::Expr *call);

  // The tile library (TileIntrinsics.cpp).
  LoweredOr lowerTileCall(const clang::CallExpr *call, const clang::FunctionDecl *callee);
  LoweredOr lowerTileOperator(const clang::CXXOperatorCallExpr *call);
  LoweredOr lowerTileMember(const clang::CXXMemberCallExpr *call);
  /// A tile of `tileType`'s shape from a Tile or scalar operand of C++ type `from`.
  mlir::FailureOr<mlir::Value> asTile(const clang::Expr *operand, clang::QualType element,
                                      mlir::RankedTensorType tileType);

  mlir::Location loc(const clang::Stmt *stmt);
  mlir::Location loc(clang::SourceLocation location);
  mlir::LogicalResult unsupported(const clang::Stmt *stmt, llvm::StringRef what);
  mlir::LogicalResult error(clang::SourceLocation location, Rule rule, llvm::StringRef arg);

  mlir::Value indexConstant(int64_t v, mlir::Location l);
  mlir::Value toIndex(mlir::Value v, mlir::Location l);
  mlir::Value fromIndex(mlir::Value v, clang::QualType to, mlir::Location l);

  clang::ASTContext &ast;
  mlir::MLIRContext *ctx;
  mlir::ModuleOp module;
  mlir::OpBuilder builder;
  llvm::DenseMap<const clang::ValueDecl *, Lowered> values;
  /// The value a `return` in the function being inlined produced.
  std::optional<Lowered> returnValue;
  unsigned inlineDepth = 0;
};

} // namespace tilecc::lowering

#endif
