//===- HostFactBuilder.h - the fact builder's internals -------*- C++ -*-===//
//
// Private to lib/Analysis: the builder that turns a CFG into host facts (HostFacts.h), shared by
// HostFacts.cpp (the walk: operands, declarations, destruction, full-expressions), HostCalls.cpp
// (calls: the tile API, launches, unknown functions) and HostLambdas.cpp (lambda summaries).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_LIB_ANALYSIS_HOSTFACTBUILDER_H
#define TILECC_LIB_ANALYSIS_HOSTFACTBUILDER_H

#include "tilecc/Analysis/HostFacts.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/CFG.h"
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace tilecc::host::detail {

using namespace clang;

/// `tile::launch<K>` or `tile::autotune<Ks...>`: a call that makes a kernel's op.
inline bool isTileLaunch(const FunctionDecl *fn) {
  return fn && fn->getIdentifier() &&
         (fn->getName() == "launch" || fn->getName() == "autotune") && isInTileNamespace(fn);
}

inline std::string calleeName(const FunctionDecl *fn) {
  if (!fn)
    return "the called function";
  if (const auto *ctor = dyn_cast<CXXConstructorDecl>(fn))
    return ctor->getParent()->getNameAsString();
  return fn->getNameAsString();
}

/// "read (to_host)" -> "read (to_host, in the lambda called here)".
inline std::string viaLambda(const std::string &what) {
  if (!what.empty() && what.back() == ')')
    return what.substr(0, what.size() - 1) + ", in the lambda called here)";
  return what + " (in the lambda called here)";
}

enum class Passing { Value, ConstRef, MutRef };

inline Passing passingOf(QualType param) {
  if (param.isNull() || !param->isLValueReferenceType())
    return Passing::Value; // by value or by rvalue reference: the argument is moved in
  return param->getPointeeType().isConstQualified() ? Passing::ConstRef : Passing::MutRef;
}

/// A lambda's effect on what it captured by reference, replayed where it is called.
struct LambdaSummary {
  std::vector<Fact> facts;
  std::vector<LoanId> innerLoans;
  std::vector<PlaceId> receivers;
  /// The body consumes, on every path, each capture it holds by value that carries loans.
  bool consumesHeld = false;
};

/// The facts of a body other than the function's own (a lambda's, a helper's), built the same
/// way: its CFG, the resolver of its places, and the facts of each block and edge.
struct BodyFacts {
  std::unique_ptr<CFG> cfg;
  std::unique_ptr<ParentMap> parents;
  std::unique_ptr<PlaceResolver> resolver;
  std::vector<std::vector<Fact>> blocks;
  std::map<std::pair<unsigned, unsigned>, std::vector<Fact>> edges;
};

/// What a function of the translation unit does to its reference parameters and, for a method
/// or a constructor, to its object (HostSummaries.cpp).
struct CallSummary {
  /// The holder index that stands for the object of a method (the object a constructor makes).
  static constexpr unsigned Object = ~0u;
  /// Per parameter: consumed on every path (its loans end with the call).
  std::vector<bool> consumed;
  /// The object's fields a method consumes on every path (a method that waits for its futures).
  std::vector<const FieldDecl *> consumedFields;
  /// The holder (a parameter, or the Object or one of its fields) may come back with a loan of
  /// that kind on the array parameter: work the callee started on one argument, stored in
  /// another or in its object.
  struct Store {
    unsigned holder;
    const FieldDecl *field; ///< with Object: the field that receives it (null: the object)
    unsigned array;
    LoanKind kind;
  };
  std::vector<Store> stores;
};

/// What the builders of one function (and of the lambdas it calls) share.
struct Shared {
  ASTContext &ctx;
  HostFacts &out;
  const Decl *topFunction;
  std::map<const LambdaExpr *, std::unique_ptr<LambdaSummary>> summaries;
  /// Per function of the translation unit: the parameters it consumes (HostSummaries.cpp).
  std::map<const FunctionDecl *, CallSummary> callSummaries;
  unsigned summaryDepth = 0;
  std::map<std::tuple<const Expr *, PlaceId, LoanKind>, LoanId> exprLoans;
  std::map<std::pair<const Expr *, LoanId>, LoanId> replayedLoans;
  unsigned lambdaDepth = 0;
};

/// A method that waits for the work a holder started, so that its loans are returned:
/// `join()`, `get()` or `wait()` of a thread or std::future, `wait()` of a tile::Future.
inline bool waitsForWork(HostKind holder, llvm::StringRef method) {
  return (holder == HostKind::Thread && (method == "join" || method == "get" || method == "wait")) ||
         (holder == HostKind::Future && method == "wait");
}

struct Operand {
  enum Kind { None, Place, Temp } kind = None;
  PlaceId id = NoPlace;
  bool rvalue = false;
  const LambdaExpr *lambda = nullptr;
};

class FactBuilder {
public:
  FactBuilder(Shared &shared, const Decl *function, const CFG &cfg, const ParentMap &parents,
              PlaceResolver &resolver, std::vector<std::vector<Fact>> &blocks,
              std::map<std::pair<unsigned, unsigned>, std::vector<Fact>> &edges)
      : S(shared), places(shared.out.places), types(shared.out.types), fn(function), cfg(cfg),
        parents(parents), resolver(resolver), blocks(blocks), edges(edges) {}

  void build();

private:
  // ---- emitting ----
  unsigned site(SourceLocation loc, std::string what, bool destroy = false) {
    S.out.sites.push_back(Site{loc, std::move(what), SourceLocation(), destroy});
    return static_cast<unsigned>(S.out.sites.size() - 1);
  }
  void emit(const Fact &f) { cur->push_back(f); }
  void access(PlaceId p, AccessKind k, unsigned s, LoanId self = NoLoan, PlaceId launch = NoPlace,
              bool exempt = false) {
    Fact f{Fact::Kind::Access};
    f.place = p;
    f.access = k;
    f.site = s;
    f.loan = self;
    f.launch = launch;
    f.exemptMoved = exempt;
    emit(f);
  }
  void issue(LoanId loan, PlaceId holder) {
    Fact f{Fact::Kind::Issue};
    f.loan = loan;
    f.place = holder;
    emit(f);
  }
  void flow(PlaceId from, PlaceId to, bool transfer, unsigned s = 0) {
    if (places[from].kind == PlaceKind::Element) {
      // Any element of a container may hold any of the container's loans; the others keep them.
      from = places[from].parent;
      transfer = false;
    }
    if (from == to)
      return;
    Fact f{Fact::Kind::Flow};
    f.place = from;
    f.to = to;
    f.transfer = transfer;
    f.checkStore = places[to].storage != Storage::Temporary;
    f.site = s;
    emit(f);
  }
  void kill(PlaceId p) {
    Fact f{Fact::Kind::Kill};
    f.place = p;
    emit(f);
  }
  void forget(PlaceId p) {
    Fact f{Fact::Kind::Forget};
    f.place = p;
    emit(f);
  }
  void move(PlaceId p, unsigned s) {
    Fact f{Fact::Kind::Move};
    f.place = p;
    f.site = s;
    emit(f);
  }
  void revive(PlaceId p) {
    Fact f{Fact::Kind::Revive};
    f.place = p;
    emit(f);
  }
  void use(PlaceId p, UseKind k, unsigned s) {
    Fact f{Fact::Kind::Use};
    f.place = p;
    f.use = k;
    f.site = s;
    emit(f);
  }
  void def(PlaceId p, bool declaration, unsigned s) {
    Fact f{Fact::Kind::Def};
    f.place = p;
    f.declaration = declaration;
    f.site = s;
    emit(f);
  }

  LoanId loanFor(const Expr *creator, PlaceId array, LoanKind kind, SourceLocation loc) {
    auto key = std::make_tuple(creator, array, kind);
    auto it = S.exprLoans.find(key);
    if (it != S.exprLoans.end())
      return it->second;
    S.out.loans.push_back(Loan{array, kind, loc});
    LoanId id = static_cast<LoanId>(S.out.loans.size() - 1);
    S.exprLoans[key] = id;
    return id;
  }

  // ---- operands ----
  bool producesTemp(const Expr *e) const;
  PlaceId tempOf(const Expr *e) { return places.temporary(e, types.classify(e->getType())); }
  Operand operand(const Expr *e);
  /// A method's object: its operand, or for a local whose loan-carrying members are all
  /// references (a guard, a handle) the place that stands for it (referenceHolder).
  Operand objectOperand(const Expr *e);
  const LambdaExpr *lambdaOf(const Expr *e) const;
  const Stmt *consumerOf(const Stmt *s) const;
  std::string moveTarget(const Expr *e, unsigned depth = 0) const;

  void readPlace(PlaceId p, unsigned s);
  void writePlace(PlaceId p, unsigned s);
  void moveOut(PlaceId p, unsigned accessSite, unsigned moveSite);
  void flowInto(const Expr *init, PlaceId dest, unsigned s, unsigned depth = 0);

  // ---- elements ----
  void visitElement(const CFGElement &element);
  void visitStmt(const Stmt *stmt);
  void declareVar(const VarDecl *var);
  void destroyVar(const VarDecl *var, const Stmt *trigger);
  void memberInit(const CXXCtorInitializer *init);
  void returnValue(const ReturnStmt *ret);
  void memberCall(const CXXMemberCallExpr *call);
  void operatorCall(const CXXOperatorCallExpr *call);
  void plainCall(const CallExpr *call);
  void construct(const CXXConstructExpr *construct);
  void launch(const CallExpr *call);
  void initList(const InitListExpr *list);
  /// A std::pair of two values made in a declaration: its members receive the values
  /// (flowInto), not the pair as a whole.
  bool pairBuiltInPlace(const CXXConstructExpr *c) const;
  /// `new T{...}`: what the object holds is kept for the rest of the function.
  void newObject(const CXXNewExpr *made);
  void lambda(const LambdaExpr *lambda);
  void conditional(const AbstractConditionalOperator *cond);
  void assign(const Operand &lhs, const Expr *rhs, const Expr *call);
  void genericCall(const Expr *call, const FunctionDecl *callee, const FunctionProtoType *proto,
                   const Operand *object, bool objectConst, bool objectRvalue,
                   llvm::ArrayRef<const Expr *> args, const std::string &name,
                   const std::string &moveWhat);
  void checkDiscarded(const Expr *op);
  void enterHandler(const CXXCatchStmt *handler);
  bool isFullExprRoot(const Stmt *stmt) const;
  void endFullExpr(const Stmt *root);
  void collectTemps(const Stmt *stmt, llvm::SmallVectorImpl<PlaceId> &temps, unsigned depth);
  const CXXMemberCallExpr *partitionMutCall(const Expr *e) const;
  bool consumedByLaunch(const Expr *e) const;
  /// `call` takes an element of a std container by non-const reference (`v[i]`, `v.at(i)`,
  /// `v.front()`, `v.back()`) for a use that only reads it: the object of a const method, or
  /// an argument bound to a const reference. Such a call reads the container.
  bool readsAnElement(const Expr *call, const CXXMethodDecl *method) const;
  std::optional<PlaceId> consumedRangeContainer(const CXXForRangeStmt *range);
  std::optional<PlaceId> consumedIndexedContainer(const ForStmt *loop);

  // ---- lambdas ----
  /// Replays `lambda`'s summary at `call` (reported at `at` when given); `closure`: the place
  /// of the closure called, if any.
  void applyLambda(const LambdaExpr *lambda, const Expr *call, PlaceId closure = NoPlace,
                   SourceLocation at = {});
  /// Whether an object of `type` holds, in a member at any depth, a closure of `lambda`'s
  /// type: a call returning one keeps the lambda rather than running it.
  static bool holdsClosure(QualType type, const LambdaExpr *lambda);
  /// Whether the destructor of `type` (visible here) calls its member closure of `lambda`'s
  /// type in a statement of its own, on every path (`~Finally() { f(); }`).
  static bool destructorRunsClosure(QualType type, const LambdaExpr *lambda);
  /// A lambda started on another thread by `call` (a `std::thread`'s constructor,
  /// `std::async`): the arrays its body reads are lent shared, those it writes exclusively, to
  /// `holder` (the thread or future) until it is joined or waited for.
  void lendToThread(const LambdaExpr *lambda, const Expr *call, PlaceId holder);
  /// std::function, std::move_only_function, std::packaged_task: a holder of a callable that
  /// runs it when called (or handed to whoever calls it), not when it is made.
  static bool wrapsCallable(QualType type);
  /// `std::ref(a)` / `std::cref(a)` given to a thread's constructor or `std::async` (`arg`):
  /// `a` is lent to `holder`, exclusively through std::ref of a non-const array, else shared.
  void lendRefToThread(const Expr *arg, const Expr *call, PlaceId holder);
  void lendForThread(PlaceId array, bool writes, const Expr *call, PlaceId holder,
                     llvm::StringRef how);
  const LambdaSummary &summaryFor(const LambdaExpr *lambda);
  /// The facts of `fn`'s body (null when it has no CFG); `scope` is the function whose
  /// variables the body's places are classified against; `depth` counts the nesting.
  std::unique_ptr<BodyFacts> buildBodyFacts(const FunctionDecl *fn, const Decl *scope,
                                            unsigned &depth);
  /// What `callee` does to its reference parameters; empty without a visible body.
  const CallSummary &summarizeCall(const FunctionDecl *callee);

  // ---- reference members ----
  /// Records what the reference members of the object in `object` refer to, from its
  /// initializer (an aggregate's braces, or a constructor binding them to its parameters).
  void bindReferenceMembers(PlaceId object, const Expr *init);
  /// The place of a local object whose type holds no loans itself but has reference members
  /// to holders (a scope guard), else NoPlace.
  PlaceId referenceHolder(const VarDecl *var);
  /// The place `field` of the object in `object` names: what a reference member was bound to,
  /// else the field itself (NoPlace for a reference member bound to something unknown).
  PlaceId memberPlace(PlaceId object, const FieldDecl *field);
  /// Applies the object's destructor (when the translation unit holds its body): the reference
  /// members it consumes end their referents' loans.
  void runDestructor(PlaceId object, QualType type);

  Shared &S;
  PlaceTable &places;
  HostTypes &types;
  const Decl *fn;
  const CFG &cfg;
  const ParentMap &parents;
  PlaceResolver &resolver;
  std::vector<std::vector<Fact>> &blocks;
  std::map<std::pair<unsigned, unsigned>, std::vector<Fact>> &edges;
  std::vector<Fact> *cur = nullptr;
  /// (object, reference member) -> the place it refers to.
  std::map<std::pair<PlaceId, const FieldDecl *>, PlaceId> referents;
  /// A lambda a call kept in the object it returns (a scope guard), and the place that holds
  /// what the lambda touches until the object runs it.
  struct KeptLambda {
    const LambdaExpr *lambda = nullptr;
    const Expr *call = nullptr;
    PlaceId keeper = NoPlace;
  };
  llvm::DenseMap<const Expr *, KeptLambda> keptByCall;
  llvm::DenseMap<const VarDecl *, KeptLambda> keptByVariable;
};

} // namespace tilecc::host::detail

#endif
