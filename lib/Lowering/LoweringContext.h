//===- LoweringContext.h - state shared by the kernel lowering -------*- C++ -*-===//
//
// Private to lib/Lowering. `KernelLowerer` walks one kernel's statements and expressions
// (KernelLowering.cpp), converts Clang types (TypeLowering.cpp) and lowers the tile library's
// intrinsics (TileIntrinsics.cpp) and structures control flow into `scf` (ControlFlow.cpp).
// Values are SSA values or partitions (a view plus a tile shape, which exist only at compile
// time).
//
// Variables are SSA: `values` maps each C++ variable to its current value, and an assignment
// rebinds it. Control flow joins these maps: an `if` yields every variable either branch
// changed, a loop carries every variable its body assigns. `return`, `break` and `continue` set
// flags (slots in the same map, keyed by their frame) that guard the statements after them.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_LIB_LOWERING_LOWERINGCONTEXT_H
#define TILECC_LIB_LOWERING_LOWERINGCONTEXT_H

#include "tilecc/Analysis/Diagnostics.h"
#include "tilecc/Analysis/KernelCalls.h"
#include "tilecc/Dialect/Tile/TileDialect.h"
#include "tilecc/Lowering/KernelLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <map>
#include <memory>
#include <variant>

namespace tilecc::lowering {

/// `x.partition<32, 64>()`: a tiled view of `view`.
struct Partition {
  mlir::Value view;
  llvm::SmallVector<int64_t, 4> tile;
};

struct Aggregate;
using AggregatePtr = std::shared_ptr<const Aggregate>;
using Lowered = std::variant<mlir::Value, Partition, AggregatePtr>;
using LoweredOr = mlir::FailureOr<Lowered>;

/// A value of a user's class of scalars, tiles and such classes (Aggregates.cpp): one value
/// per field, in declaration order. Expressions produce it; variables of such classes are
/// stored field by field (one key per field), so control flow joins and carries only scalars
/// and tiles.
struct Aggregate {
  const clang::CXXRecordDecl *record;
  llvm::SmallVector<Lowered, 4> fields;
};

/// The current value of every variable and slot in scope, in the order they were bound (which
/// fixes the order of scf results). Keys are `clang::ValueDecl`s or slot addresses.
using Env = llvm::MapVector<const void *, Lowered>;

/// Slots: pseudo-variables of the control flow. A flag slot is absent when false, holds a null
/// Value when certainly true, and an i1 otherwise; a value slot holds what a `return` returned.
enum class SlotKind { Flag, Value };

/// One function being lowered (the kernel, or a device function inlined into it).
struct FunctionFrame {
  char returned = 0; ///< flag slot: a `return` ran
  char result = 0;   ///< value slot: the value it returned
  clang::QualType returnType;
  mlir::Type resultType; ///< the lowered return type; null for void or partitions
  size_t loopBase = 0;   ///< loops below this index belong to callers
};

/// One loop being lowered.
struct LoopFrame {
  char broken = 0;    ///< flag slot: a `break` ran
  char continued = 0; ///< flag slot: a `continue` ran in this iteration
};

/// What a pre-scan of a loop finds (ControlFlow.cpp).
struct LoopScan {
  /// Variables in scope that the loop may assign (through device functions, lambdas and
  /// references too), in `values` order.
  llvm::SmallVector<const void *> assigned;
  bool breaks = false, continues = false, returns = false;
};

/// Whether the statements after the current one are skipped: never, always, or when an i1 is
/// true; `keys` are the flags involved.
struct PendingExit {
  bool any = false, definite = false;
  mlir::Value value;
  llvm::SmallVector<const void *, 3> keys;
};

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
  /// Assigns `value` to the variable `target` names (through references to local variables).
  mlir::LogicalResult assignTo(const clang::Expr *target, Lowered value);
  /// The variable a reference finally names.
  const clang::ValueDecl *resolve(const clang::ValueDecl *decl) const;
  LoweredOr lowerExpr(const clang::Expr *expr);
  mlir::FailureOr<mlir::Value> lowerValue(const clang::Expr *expr);
  /// A scalar expression as an `index` (for offsets and axes).
  mlir::FailureOr<mlir::Value> lowerIndex(const clang::Expr *expr);
  mlir::FailureOr<int64_t> constantInt(const clang::Expr *expr);
  LoweredOr inlineCall(const clang::FunctionDecl *fn, llvm::ArrayRef<const clang::Expr *> args,
                       const clang::Expr *object, const clang::Expr *call);
  /// Inlines `fn` called with already lowered scalar or tile arguments (a combiner lambda of a
  /// reduction called on the combiner region's block arguments).
  /// `argTypes` are the arguments' C++ types; the result is converted to `resultType`.
  LoweredOr inlineCallOn(const clang::FunctionDecl *fn, llvm::ArrayRef<mlir::Value> args,
                         llvm::ArrayRef<clang::QualType> argTypes, clang::QualType resultType,
                         const clang::Expr *call);
  /// Inlines `definition`'s body with its parameters bound to `lowered` values or, by
  /// reference, to the `aliased` variables; converts an arithmetic result to `resultType`.
  LoweredOr inlineBody(const clang::FunctionDecl *definition,
                       llvm::ArrayRef<std::optional<Lowered>> lowered,
                       llvm::ArrayRef<const clang::ValueDecl *> aliased,
                       clang::QualType resultType, const clang::Expr *call);

  // Variables and the user's classes (Aggregates.cpp).
  /// The class of `type` when its values lower as aggregates: a class of the user's (no
  /// virtual functions, no bases with fields, no destructor that runs) whose fields are
  /// scalars, tiles or such classes; null otherwise.
  const clang::CXXRecordDecl *aggregateRecord(clang::QualType type);
  /// Why values of `record` are not aggregates ("whose field 'x' is ..."); empty when they are.
  std::string notAggregate(const clang::CXXRecordDecl *record, clang::QualType type);
  /// "an object of class 'T', <why>", for an error message.
  std::string classNotValue(clang::QualType type);
  /// Binds the variable or slot `key` to `value`; an aggregate is stored field by field.
  void bind(const void *key, Lowered value);
  /// The value of `key` (an aggregate put together from its fields); nullopt when unbound.
  std::optional<Lowered> lookupVariable(const void *key);
  bool isBound(const void *key);
  /// Drops `key` and, for an aggregate, its fields.
  void unbind(const void *key);
  /// The key of field `field` of the aggregate stored at `base`.
  const void *fieldKey(const void *base, const clang::FieldDecl *field);
  /// The variable the key of a field belongs to (the key itself for a variable).
  const void *rootOf(const void *key) const;
  /// Whether `key` is `base` or a field of it, at any depth.
  bool isWithin(const void *key, const void *base) const;
  /// The key of what an lvalue names: `v`, `v.f`, `this->f`; null for anything else.
  const void *lvalueKey(const clang::Expr *expr);
  LoweredOr lowerMember(const clang::MemberExpr *member);
  LoweredOr lowerAggregateInit(const clang::InitListExpr *init);
  LoweredOr lowerAggregateConstruct(const clang::CXXConstructExpr *construct);
  /// The zero (value-initialized) value of a scalar, tile or aggregate type.
  LoweredOr zeroValue(clang::QualType type, const clang::Stmt *where);
  /// An aggregate with every field default-initialized (in-class initializers, else zero).
  LoweredOr defaultAggregate(const clang::CXXRecordDecl *record, const clang::Expr *where);
  /// Inlines a method of an aggregate or a constructor with `this` bound to `object`.
  LoweredOr inlineOnObject(const void *object, const KernelCall &call, const clang::Expr *expr);
  /// A method (or operator) of an aggregate called on an object: inlined with `this` bound to
  /// the object's variable, or to a temporary; nullopt when the object is no aggregate.
  std::optional<LoweredOr> lowerAggregateMethod(const KernelCall &call, const clang::Expr *expr);
  /// A constructor's member initializers, run on `this` before its body.
  mlir::LogicalResult lowerMemberInits(const clang::CXXConstructorDecl *ctor);

  // The tile library (TileIntrinsics.cpp).
  LoweredOr lowerTileCall(const clang::CallExpr *call, const clang::FunctionDecl *callee);
  LoweredOr lowerTileOperator(const clang::CXXOperatorCallExpr *call);
  LoweredOr lowerComplexScalarOperator(const clang::CXXOperatorCallExpr *call);
  LoweredOr lowerViewChoice(const clang::ConditionalOperator *cond);
  /// A view function, as a member or in its free form (`v.load(i)`, `tile::load(v, i)`), or
  /// another member of a tile class (shape(), the atomic updates).
  LoweredOr lowerViewOrMemberCall(const clang::CallExpr *call, const KernelCall &resolved);
  /// broadcast, reshape, permute, transpose, cat, extract (TileShapes.cpp); nullopt when
  /// `name` is none of them.
  std::optional<LoweredOr> lowerShapeCall(const clang::CallExpr *call,
                                          const clang::FunctionDecl *callee);
  /// sum, prod, max, min, argmax, argmin, reduce, cumsum, scan (TileReductions.cpp); nullopt
  /// when the call is none of them.
  std::optional<LoweredOr> lowerReductionCall(const clang::CallExpr *call,
                                              const clang::FunctionDecl *callee);
  /// A tile of `tileType`'s shape from a Tile or scalar operand of C++ type `from`.
  mlir::FailureOr<mlir::Value> asTile(const clang::Expr *operand, clang::QualType element,
                                      mlir::RankedTensorType tileType);
  /// Warns (tile-scalar-conversion) where `operand` is a constant scalar whose value changes
  /// as an `element` (ScalarOperands.cpp).
  void checkScalarOperand(const clang::Expr *operand, clang::QualType element);

  // Control flow (ControlFlow.cpp).
  /// Lowers statements in order; after one that may `return`/`break`/`continue`, the rest run
  /// under an scf.if on the flags.
  mlir::LogicalResult lowerSequence(llvm::ArrayRef<const clang::Stmt *> stmts);
  mlir::LogicalResult lowerIf(const clang::IfStmt *stmt,
                              llvm::ArrayRef<const clang::Stmt *> rest = {});
  mlir::LogicalResult lowerFor(const clang::ForStmt *stmt);
  mlir::LogicalResult lowerWhile(const clang::WhileStmt *stmt);
  mlir::LogicalResult lowerDo(const clang::DoStmt *stmt);
  mlir::LogicalResult lowerReturn(const clang::ReturnStmt *stmt);
  /// An scf.while for `while`, `do`/`while` (`doWhile`) and the `for`s scf.for cannot run.
  mlir::LogicalResult buildLoop(const clang::Stmt *stmt, bool doWhile, const clang::Expr *cond,
                                const clang::DeclStmt *condVar, const clang::Stmt *body,
                                const clang::Expr *inc);
  mlir::LogicalResult lowerJump(const clang::Stmt *stmt);
  /// `a && b`, `a || b` and `c ? a : b` whose later operands may not be evaluated eagerly.
  LoweredOr lowerShortCircuit(const clang::Expr *expr);
  /// Whether evaluating `expr` when C++ would not is harmless (no assignment, no call that is
  /// not a tile intrinsic, no integer division).
  bool speculatable(const clang::Expr *expr);
  /// Builds an scf.if whose results are the variables and slots either region changes.
  mlir::LogicalResult buildIf(mlir::Value cond, llvm::function_ref<mlir::LogicalResult()> thenFn,
                              llvm::function_ref<mlir::LogicalResult()> elseFn,
                              mlir::Location l, const clang::Stmt *where);
  /// Runs `fn` under `scf.if cond`, where the flags `known` are false.
  mlir::LogicalResult guard(mlir::Value cond, llvm::ArrayRef<const void *> known,
                            llvm::function_ref<mlir::LogicalResult()> fn, mlir::Location l,
                            const clang::Stmt *where);
  PendingExit pendingExit(mlir::Location l, bool includeContinue = true);
  mlir::Value materialize(const void *key, mlir::Type type, mlir::Location l);
  mlir::Value negate(mlir::Value flag, mlir::Location l);
  mlir::Value zeroOf(mlir::Type type, mlir::Location l);
  /// Drops the variables declared since `scope` was taken (slots stay).
  void popScope(const Env &scope);
  LoopScan scanLoop(llvm::ArrayRef<const clang::Stmt *> parts);
  FunctionFrame &function() { return *functions.back(); }
  LoopFrame *innermostLoop();

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
  Env values;
  /// Local references and reference parameters bound to a variable: name -> variable.
  llvm::DenseMap<const clang::ValueDecl *, const clang::ValueDecl *> aliases;
  llvm::DenseMap<const void *, SlotKind> slots;
  llvm::SmallVector<FunctionFrame *, 4> functions;
  llvm::SmallVector<LoopFrame *, 4> loops;
  /// The kernel and the bodies inlined into it (recursion and depth are refused alike).
  InlineStack inlining;
  /// Keys bound to aggregates (their fields are in `values`), and the class of each.
  llvm::DenseMap<const void *, const clang::CXXRecordDecl *> aggregateKeys;
  /// One key per (aggregate key, field), and the key each field key belongs to.
  std::map<std::pair<const void *, const clang::FieldDecl *>, std::unique_ptr<char>> fieldKeys;
  llvm::DenseMap<const void *, const void *> fieldBase;
  /// The objects of the methods and constructors being inlined, innermost last.
  llvm::SmallVector<const void *, 4> thisKeys;
  /// Keys of objects that exist only while a method or constructor runs on them.
  std::vector<std::unique_ptr<char>> temporaries;
};

/// Complex values (ComplexLowering.cpp). A complex<f32> scalar or tile is taken apart with
/// tile.real/tile.imag and built with tile.make_complex; its arithmetic is f32 arithmetic on
/// the parts with the CPU reference's formulas (tile/core.hpp: every product rounded on its
/// own, the textbook quotient, the magnitude computed in f64).
/// True for a complex scalar or tile type (false for a null type).
bool isComplex(mlir::Type type);
/// `re + i im` where the parts are f32 scalars or tiles of one shape.
mlir::Value makeComplex(mlir::OpBuilder &b, mlir::Value re, mlir::Value im, mlir::Location l);
mlir::Value realPart(mlir::OpBuilder &b, mlir::Value z, mlir::Location l);
mlir::Value imagPart(mlir::OpBuilder &b, mlir::Value z, mlir::Location l);
/// + - * / == != of complex operands; failure for any other operator.
mlir::FailureOr<mlir::Value> buildComplexBinary(mlir::OpBuilder &b, clang::BinaryOperatorKind op,
                                                mlir::Value lhs, mlir::Value rhs,
                                                mlir::Location l);
mlir::Value complexNegate(mlir::OpBuilder &b, mlir::Value z, mlir::Location l);
mlir::Value complexConj(mlir::OpBuilder &b, mlir::Value z, mlir::Location l);
/// |z| as float(sqrt(double(re)^2 + double(im)^2)).
mlir::Value complexAbs(mlir::OpBuilder &b, mlir::Value z, mlir::Location l);
/// The complex zero (or one) shaped like `type` (a complex scalar or tile type).
mlir::Value complexConstant(mlir::OpBuilder &b, mlir::Type type, float re, mlir::Location l);

} // namespace tilecc::lowering

#endif
