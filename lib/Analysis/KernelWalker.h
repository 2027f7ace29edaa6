//===- KernelWalker.h - abstract interpretation of a tile kernel -----*- C++ -*-===//
//
// Private to lib/Analysis. `KernelWalker` executes a kernel abstractly, once, in program order:
// integer values are IndexValues, pointers/references/views are sets of targets (view objects or
// variable slots), lambdas are closures over slots. Calls into device functions and lambdas are
// inlined; calls into namespace `tile` are the kernel language and are interpreted by name.
// Branches are walked one after the other and their variables merged with guards; loops are
// walked once, with every variable they assign replaced by a fresh unknown of the loop (and
// induction variables by init + step * trip). What the walk records goes into a KernelModel.
//
//   KernelWalker.cpp        state, statements and control flow
//   KernelWalkerExprs.cpp   expressions, casts, conditions
//   KernelWalkerCalls.cpp   calls, closures, the tile library, escapes and unchecked uses
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_LIB_ANALYSIS_KERNELWALKER_H
#define TILECC_LIB_ANALYSIS_KERNELWALKER_H

#include "tilecc/Analysis/KernelAccess.h"
#include "tilecc/Analysis/KernelCalls.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <memory>
#include <optional>

namespace tilecc::access::detail {

/// What a pointer, reference or view-typed expression may denote.
struct Target {
  enum Kind : uint8_t { ViewObject, Slot } kind = ViewObject;
  unsigned id = 0;
  /// The cast that made a view writable or changed its type (views only).
  clang::SourceLocation forged;
  bool sameObject(const Target &o) const { return kind == o.kind && id == o.id; }
};

struct Closure;
struct FieldValues;

/// An abstract value.
struct Value {
  /// Integers (and bools, enums): the value.
  std::optional<index::IndexValue> scalar;
  /// Pointers, references, views: what they may denote. Objects and lambdas: the pointers and
  /// references they hold (field-insensitive). Integers made from pointers keep them too.
  llvm::SmallVector<Target, 2> refs;
  /// Refs may also denote something the walk lost track of.
  bool unknownRefs = false;
  /// Views an object or lambda holds by value (moved into it).
  llvm::SmallVector<unsigned, 1> owned;
  std::shared_ptr<const Closure> closure;
  /// Objects: what each field holds, when known (the members above are their union).
  std::shared_ptr<const FieldValues> fields;

  static Value ofScalar(std::optional<index::IndexValue> v) {
    Value r;
    r.scalar = std::move(v);
    return r;
  }
  bool hasViewRefs() const;
  /// The same value without its integer part (a pointer, a view, an object).
  Value refsOnly() const;
  void addRef(const Target &t);
  void mergeRefs(const Value &o);
};

struct FieldValues {
  std::vector<std::pair<const clang::FieldDecl *, Value>> values;
  const Value *find(const clang::FieldDecl *field) const {
    for (const auto &[f, v] : values)
      if (f == field)
        return &v;
    return nullptr;
  }
};

/// A lambda object: the slots it captured by reference and the values it captured by copy.
struct Closure {
  const clang::CXXRecordDecl *lambda = nullptr;
  llvm::DenseMap<const clang::ValueDecl *, unsigned> byRef;
  std::vector<std::pair<const clang::ValueDecl *, Value>> byCopy;
  std::optional<Value> thisValue;
};

/// A variable (or temporary object) of the abstract execution.
struct Slot {
  Value value;
  llvm::SmallVector<unsigned, 8> scope;
  bool isStatic = false;
  bool addressTaken = false;
  std::string name;
  clang::QualType type;
};

struct Frame {
  const clang::FunctionDecl *fn = nullptr;
  llvm::DenseMap<const clang::ValueDecl *, unsigned> vars;
  std::optional<Value> thisValue;
  std::optional<Value> result;
  size_t pathAtEntry = 0;
  bool isKernel = false;
};

/// Truthiness of a condition as constraints (each a conjunction; empty: nothing known).
struct CondConstraints {
  index::Constraints whenTrue, whenFalse;
};

class KernelWalker {
public:
  KernelWalker(clang::ASTContext &context, KernelModel &model);
  void run(const clang::FunctionDecl *kernel);

  // ---- state (KernelWalker.cpp) --------------------------------------------------------------
  ProgramPoint point();
  bool outOfBudget();
  /// Enters one more level of expression or statement nesting at `loc`; false (recording the
  /// first such place in the model) past the deepest the walk follows.
  bool enterNesting(clang::SourceLocation loc);
  unsigned newSlot(clang::QualType type, llvm::StringRef name, Value init, bool isStatic = false);
  unsigned slotFor(const clang::ValueDecl *decl);
  Value read(unsigned slot) const { return slots[slot].value; }
  Value readAll(llvm::ArrayRef<unsigned> slots);
  void write(unsigned slot, Value v, bool strong = true);
  Value joinValues(const Value &a, llvm::ArrayRef<index::Constraint> ga, const Value &b,
                   llvm::ArrayRef<index::Constraint> gb);
  Value havocked(const Slot &slot, llvm::StringRef why);
  std::optional<index::Interval> typeRange(clang::QualType type) const;
  Value unknownOf(clang::QualType type, llvm::StringRef name);
  Value wrapTo(Value v, clang::QualType type);
  bool isViewType(clang::QualType type) const;
  bool isWritableViewType(clang::QualType type) const;
  unsigned createView(ViewKind kind, std::string name, const clang::ParmVarDecl *root, bool shared,
                      int parent, clang::SourceLocation origin, llvm::ArrayRef<int64_t> extent,
                      llvm::ArrayRef<int64_t> tile);

  // ---- statements (KernelWalker.cpp) ---------------------------------------------------------
  void walk(const clang::Stmt *stmt);
  void declare(const clang::VarDecl *var);
  /// Destroys the objects declared directly in `body`, last first, as its closing brace does.
  void destroyLocals(const clang::CompoundStmt *body);
  void walkIf(const clang::IfStmt *s);
  void walkLoop(const clang::Stmt *loop, const clang::Expr *cond, const clang::Expr *inc,
                const clang::Stmt *body, bool condFirst, const clang::VarDecl *loopVar,
                std::optional<Value> loopVarValue);
  llvm::DenseMap<unsigned, Value> iterate(const clang::Expr *cond, const clang::Expr *inc,
                                          const clang::Stmt *body, bool condFirst,
                                          const clang::VarDecl *loopVar,
                                          const std::optional<Value> &loopVarValue,
                                          llvm::ArrayRef<unsigned> modified,
                                          const llvm::DenseMap<unsigned, int> &directions,
                                          std::optional<unsigned> induction, index::Int step,
                                          const llvm::DenseMap<unsigned, Value> *carried);
  Value withCarriedRefs(Value havoc, const Value &before, const Value &end);
  Value survivors(const Value &v, size_t views, size_t slotCount);
  static size_t refCount(const Value &v);
  /// What a walk without recording (a loop's dry run) must undo.
  struct Snapshot {
    size_t views, accesses, axisUses, escapes, unchecked, atomicMisuses, loops, slots, path;
    unsigned seq;
    std::vector<Frame> frames;
    llvm::DenseMap<const clang::ValueDecl *, unsigned> globals;
  };
  Snapshot snapshot() const;
  void restore(const Snapshot &s);
  void walkSwitchLike(const clang::Stmt *body);
  void walkReturn(const clang::ReturnStmt *s);
  void collectModified(const clang::Stmt *stmt, llvm::SmallVectorImpl<unsigned> &slotsOut,
                       llvm::DenseMap<unsigned, int> *directions = nullptr);

  // ---- expressions (KernelWalkerExprs.cpp) ---------------------------------------------------
  Value eval(const clang::Expr *e);
  /// The slots an lvalue expression designates (empty when unknown).
  llvm::SmallVector<unsigned, 2> evalSlots(const clang::Expr *e);
  CondConstraints evalCondition(const clang::Expr *cond);
  Value evalCast(const clang::CastExpr *cast);
  Value evalUnary(const clang::UnaryOperator *op);
  Value evalBinary(const clang::BinaryOperator *op);
  Value evalAssign(const clang::Expr *e, const clang::Expr *lhs, const clang::Expr *rhs,
                   clang::BinaryOperatorKind op, bool isCompound);
  Value evalConditional(const clang::AbstractConditionalOperator *op);
  Value evalMember(const clang::MemberExpr *e);
  Value evalInitList(const clang::InitListExpr *e);
  Value arith(clang::BinaryOperatorKind op, const Value &a, const Value &b, clang::QualType type);
  void aggregateAdd(Value &agg, const Value &v, clang::QualType fieldType);
  /// Records what `field` of an object holds (strong: replaces; weak: joins with the old).
  void setField(Value &agg, const clang::FieldDecl *field, const Value &v, bool strong = true);
  Value fieldValue(const Value &object, const clang::FieldDecl *field, clang::QualType type);

  // ---- calls (KernelWalkerCalls.cpp) ---------------------------------------------------------
  Value evalCall(const clang::CallExpr *call);
  Value evalConstruct(const clang::CXXConstructExpr *e);
  Value evalLambda(const clang::LambdaExpr *e);
  Value evalTileCall(const clang::CallExpr *call, const KernelCall &resolved);
  Value inlineCall(const clang::FunctionDecl *fn, llvm::ArrayRef<const clang::Expr *> args,
                   std::optional<Value> thisValue, std::shared_ptr<const Closure> closure,
                   const clang::Expr *call, clang::SourceLocation at = {});
  /// Runs what the end of the lifetime of the object in `object` (of `type`) runs: its
  /// destructor's body, then its members' and bases' destructors.
  void destroy(clang::QualType type, unsigned object, clang::SourceLocation at);
  void recordAccess(const Value &view, AccessKind kind, const clang::Expr *expr,
                    llvm::ArrayRef<const clang::Expr *> indexExprs, bool unchecked);
  void recordAxisUse(const clang::Expr *expr, const clang::Expr *axisExpr, llvm::StringRef fn,
                     const index::IndexValue &axis, int rank, int view);
  void checkUnchecked(const clang::FunctionDecl *callee, clang::SourceLocation loc);
  /// Records a tile-atomic-only finding for each Atomic view `v` (the value of `subject`) denotes.
  void atomicMisuse(const Value &v, const clang::Expr *subject, clang::SourceLocation loc,
                    const std::string &what);
  /// A cast of an Atomic view to a type that is not an Atomic.
  void checkAtomicCast(const clang::CastExpr *cast, const Value &v);
  void checkEscapeInto(llvm::ArrayRef<unsigned> slots, const Value &v, clang::SourceLocation loc);
  void checkEscapeReturn(const Value &v, clang::SourceLocation loc);
  std::string viewName(const clang::Expr *e);

  clang::ASTContext &ctx;
  KernelModel &model;
  index::IndexAlgebra alg;

  std::vector<Slot> slots;
  std::vector<Frame> frames;
  llvm::DenseMap<const clang::ValueDecl *, unsigned> globals;
  index::Constraints path;
  llvm::SmallVector<unsigned, 4> loopStack;
  llvm::SmallVector<clang::SourceLocation, 2> callStack;
  llvm::SmallVector<unsigned, 8> scope;
  unsigned nextScope = 1;
  unsigned seq = 0;
  unsigned steps = 0;
  /// Expressions and statements being walked, one inside the other.
  unsigned nesting = 0;
  /// Branch journals: the value each slot had before the arm being walked first wrote it.
  std::vector<llvm::DenseMap<unsigned, Value>> journals;
  /// The kernel and the bodies inlined into it (recursion and depth are refused alike).
  InlineStack inlining;
  /// Nesting of loop dry runs (bounded: each doubles the walk of its body).
  unsigned dryRuns = 0;
  /// The statements of a function body with a goto that are walked as a loop (from the first
  /// label on).
  llvm::ArrayRef<const clang::Stmt *> loopStmts;
  /// The temporaries of each full-expression being evaluated, destroyed at its end.
  std::vector<std::vector<std::pair<clang::QualType, Value>>> temporaries;
  /// Views that got a variable's name.
  llvm::DenseSet<unsigned> named;
};

} // namespace tilecc::access::detail

#endif
