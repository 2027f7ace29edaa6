//===- HostPlaces.h - what the host borrow checker tracks -------------*- C++ -*-===//
//
// The host side of the borrow checker (DESIGN §4) reasons about *places*: the storage an array,
// a partition, a partition ref or an operation lives in.
//
//  * `HostTypes` classifies types: the tile library's `Array`, `Partition`, `PartitionRef`, ops
//    (`DeviceOp` and the combinators of tile/op.hpp), `Future` and `Graph`, and other types that may carry loans (containers of ops, structs and closures
//    holding one) or contain arrays (structs with array fields).
//  * `PlaceTable` interns places: local variables and parameters, fields of another place
//    (`s.arr`), `*this`, "an element of container C" (the reference of a range-for over C), "the
//    element at index k of C" (where HostPositions.h knows k) and temporaries (one per
//    expression that produces a value that may carry loans).
//  * `PlaceResolver` maps an expression to the place it denotes (through parentheses, casts,
//    `std::move`, references bound to a place, range-for loop references, the value of an
//    optional or smart pointer, `c[k]`, `c.at(k)`, `c.front()` and `c.back()` of a followed
//    container), and answers whether
//    one place outlives another (the loan-outlives-array rule).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_HOSTPLACES_H
#define TILECC_ANALYSIS_HOSTPLACES_H

#include "tilecc/Analysis/HostPositions.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>
#include <vector>

namespace tilecc::host {

/// The tile library's host classes (and "some other tile:: class").
/// `DeviceOp` stands for every op type (launches, then/zip/shared/unzip); a `Future` holds an
/// issued op's loans until it is waited for or destroyed; a `Graph` holds them for its whole life.
/// A `Thread` (`std::thread`, `std::jthread`, the `std::future` of `std::async`) holds the loans
/// of the work it runs until it is joined, waited for or destroyed.
enum class HostKind : uint8_t {
  None,
  Array,
  Partition,
  PartitionRef,
  DeviceOp,
  Future,
  Graph,
  OtherTile,
  Thread
};

/// What the borrow checker needs to know about a type.
struct TypeFacts {
  HostKind kind = HostKind::None;
  /// Values of this type may hold loans: partitions, partition refs, ops, and anything that
  /// contains one (std::vector<DeviceOp<...>>, a struct with a PartitionRef field, a closure
  /// that captured an op by value).
  bool carriesLoans = false;
  /// Values of this type are, or contain, arrays that can be lent (`tile::Array`, a struct with
  /// an array field).
  bool containsArrays = false;

  bool tracked() const { return kind != HostKind::None || carriesLoans || containsArrays; }
  /// Array, Partition, PartitionRef, ops, futures, graphs: the types use-after-move applies to.
  bool isTileValue() const {
    return kind != HostKind::None && kind != HostKind::OtherTile && kind != HostKind::Thread;
  }
};

/// Classifies types (memoized; looks through references and cv-qualifiers).
class HostTypes {
public:
  TypeFacts classify(clang::QualType type);
  static HostKind hostKind(clang::QualType type);

private:
  TypeFacts classifyUncached(const clang::Type *canonical, unsigned depth);
  llvm::DenseMap<const clang::Type *, TypeFacts> memo;
};

using PlaceId = unsigned;
constexpr PlaceId NoPlace = ~0u;

/// `Element` is any element of a container (a range-for's reference), `NthElement` the element
/// at a known index; `Kept` is the work a function whose body is not visible was handed and may
/// run after it returns (an executor's queue).
enum class PlaceKind : uint8_t { Variable, Field, This, Element, NthElement, Temporary, Kept };

/// Where a place's storage lives, relative to the function being analyzed.
enum class Storage : uint8_t {
  Local,      ///< an automatic variable of this function
  ValueParam, ///< a parameter passed by value (destroyed after every local)
  Outer,      ///< outlives the function: globals, statics, `*this`, reference parameters,
              ///< variables of an enclosing function seen from a lambda
  Temporary,  ///< a temporary of one full-expression
};

struct Place {
  PlaceKind kind;
  PlaceId parent = NoPlace;
  const clang::VarDecl *var = nullptr;     ///< Variable
  const clang::FieldDecl *field = nullptr; ///< Field
  const clang::Expr *expr = nullptr;       ///< Temporary
  unsigned index = 0;                      ///< NthElement
  TypeFacts type;
  Storage storage = Storage::Local;
  /// As the user would write it: "a", "s.arr", "pending" (a field of *this).
  std::string name;
};

class PlaceTable {
public:
  PlaceId variable(const clang::VarDecl *var, TypeFacts type, Storage storage);
  PlaceId field(PlaceId parent, const clang::FieldDecl *field, TypeFacts type);
  /// `*this`; `type` (when given) is the class's classification.
  PlaceId thisObject(TypeFacts type = TypeFacts());
  PlaceId element(PlaceId container, TypeFacts type);
  PlaceId nthElement(PlaceId container, unsigned index, TypeFacts type);
  PlaceId temporary(const clang::Expr *expr, TypeFacts type);
  /// What the function called by `call` (named `callee`) keeps of the work it was handed.
  PlaceId kept(const clang::Expr *call, const std::string &callee);
  std::optional<PlaceId> findTemporary(const clang::Expr *expr) const;

  const Place &operator[](PlaceId id) const { return places[id]; }
  unsigned size() const { return static_cast<unsigned>(places.size()); }

  PlaceId root(PlaceId id) const;
  /// `inner` is `outer` or one of its fields (transitively) or elements.
  bool isWithin(PlaceId inner, PlaceId outer) const;
  /// One of the two is within the other.
  bool overlaps(PlaceId a, PlaceId b) const { return isWithin(a, b) || isWithin(b, a); }
  /// Calls `f` on `place` and every place within it.
  template <class F> void forEachWithin(PlaceId place, F &&f) const {
    f(place);
    for (PlaceId child : kids[place])
      forEachWithin(child, f);
  }

private:
  PlaceId add(Place place);
  std::vector<Place> places;
  std::vector<std::vector<PlaceId>> kids;
  llvm::DenseMap<const void *, PlaceId> roots; // VarDecl / Expr / nullptr for *this
  llvm::DenseMap<std::pair<PlaceId, const void *>, PlaceId> children;
  llvm::DenseMap<std::pair<PlaceId, unsigned>, PlaceId> nthChildren;
  llvm::DenseMap<const clang::Expr *, PlaceId> keptRoots;
};

/// A place expression: the place, and whether it was cast to an rvalue (`std::move(a)`).
struct PlaceRef {
  PlaceId place;
  bool rvalue;
};

/// Resolves expressions of one function body to places.
class PlaceResolver {
public:
  PlaceResolver(const clang::Decl *function, const clang::Stmt *body, PlaceTable &places,
                HostTypes &types);

  /// The place `expr` denotes, if it denotes one the checker models.
  std::optional<PlaceRef> resolve(const clang::Expr *expr) const;
  /// The place of a variable (its own storage; references resolved to their target).
  std::optional<PlaceId> placeOfVariable(const clang::VarDecl *var) const;
  /// The element place a range-for loop reference stands for, if any.
  std::optional<PlaceId> rangeElement(const clang::VarDecl *loopVar) const;
  /// Resolves element accesses and fills of the containers `positions` follows to the element
  /// at their index.
  void followPositions(ContainerPositions positions) { this->positions = std::move(positions); }
  /// The element a push_back/emplace_back call fills, or a pop_back removes, when its index is
  /// known.
  std::optional<PlaceId> elementOfCall(const clang::Expr *call) const;

  /// Does the storage of `holder` outlive the array place `array`? (A loan on `array` stored
  /// in `holder` would then outlive the array.)
  bool outlives(PlaceId holder, PlaceId array) const;

  Storage storageOf(const clang::VarDecl *var) const;
  const clang::Decl *function() const { return fn; }

  /// Skips parentheses, implicit casts, temporaries' wrappers and no-op casts down to the
  /// expression that produces the value.
  static const clang::Expr *skipWrappers(const clang::Expr *expr);
  /// `std::move(x)`, `std::forward<T>(x)`, `static_cast<T&&>(x)`: the operand, else null.
  static const clang::Expr *rvalueCastOperand(const clang::Expr *expr);
  /// `std::optional`, `std::unique_ptr`, `std::shared_ptr`: a holder of at most one value,
  /// which `*h`, `h->` and `h.value()` denote (as the holder's place).
  static bool holdsOneValue(clang::QualType type);

private:
  std::optional<PlaceRef> resolveImpl(const clang::Expr *expr, unsigned depth) const;
  /// The member of a std::pair a structured binding of it names.
  std::optional<PlaceRef> pairMember(const clang::BindingDecl *binding, bool rvalue,
                                     unsigned depth) const;
  std::optional<PlaceId> variableImpl(const clang::VarDecl *var, unsigned depth) const;
  void indexScopes(const clang::Stmt *stmt, const clang::Stmt *scope, unsigned depth);

  const clang::Decl *fn;
  PlaceTable &places;
  HostTypes &types;
  /// Local variable -> (innermost scope statement, declaration order).
  llvm::DenseMap<const clang::VarDecl *, std::pair<const clang::Stmt *, unsigned>> scopeOf;
  llvm::DenseMap<const clang::Stmt *, const clang::Stmt *> scopeParent;
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> rangeInit;
  unsigned declCounter = 0;
  ContainerPositions positions;
};

/// True for `std::pair<A, B>`, whose members structured bindings and constructions name.
bool isStdPair(clang::QualType type);

} // namespace tilecc::host

#endif
