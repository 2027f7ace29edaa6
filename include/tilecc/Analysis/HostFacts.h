//===- HostFacts.h - the facts the host borrow checker reasons over ---*- C++ -*-===//
//
// `buildHostFacts` walks a function's CFG once and turns every element into a short list of
// facts over places and loans: what is lent (Issue), where loans go (Flow, Kill), what is
// moved (Move, Revive), which places are accessed how (Access), which holders are used later
// (Use, Def), and what leaves the function (Escape). All of the AST pattern matching happens
// while facts are built (lib/Analysis/HostFacts.cpp, HostCalls.cpp, HostLambdas.cpp); the
// dataflow analyses (LoanPropagation, HostLiveness) and the checker only read facts.
//
//  * A *loan* is created by `a.partition_mut<...>()` (exclusive), by passing an lvalue array to
//    `tile::launch` (shared; exclusive for a `tile::Atomic&` parameter), by calling a lambda that lends a captured array, or by an unknown
//    function that returns a PartitionRef/DeviceOp from a reference to an array (the C++
//    analogue of lifetime elision). It records the array place, its kind and its origin.
//  * Temporaries are places too (one per expression producing a value that may carry loans);
//    they are killed at the end of their full-expression.
//  * Lambdas called in the function are summarized: the accesses, moves and loans their body
//    performs on variables captured by reference are replayed where the lambda is called (or
//    passed to an unknown function, which may call it).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_HOSTFACTS_H
#define TILECC_ANALYSIS_HOSTFACTS_H

#include "tilecc/Analysis/HostPlaces.h"

#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tilecc::host {

using LoanId = unsigned;
constexpr LoanId NoLoan = ~0u;

enum class LoanKind : uint8_t { Shared, Exclusive };

struct Loan {
  PlaceId array;
  LoanKind kind;
  /// Where the loan was created (the `partition_mut` call, the launch argument, ...).
  clang::SourceLocation origin;
};

/// How the host touches an array (or a struct holding arrays).
enum class AccessKind : uint8_t {
  Read,          ///< to_host(), shape(), a const reference to an unknown function
  Write,         ///< a non-const method, a non-const reference to an unknown function, `&a`
  Assign,        ///< `a = ...` (also revives a moved array)
  LendShared,    ///< passed by lvalue to a launch
  LendExclusive, ///< `a.partition_mut<...>()`
  Move,          ///< `std::move(a).partition<...>()`, moved into a launch or a call
  Destroy,       ///< the end of the array's scope
};

/// Does an access of kind `access` conflict with a loan of kind `loan`? A shared loan
/// conflicts with writes; an exclusive one with everything.
bool conflicts(AccessKind access, LoanKind loan);

/// How a holder (op, partition, partition ref, container) is used.
enum class UseKind : uint8_t {
  Plain,   ///< read (grid(), shape(), passed by const reference)
  Consume, ///< sync(), moved away, passed to an unknown function or returned
  Destroy, ///< the holder's destructor
};

/// Where something happens, and how to describe it in a message.
struct Site {
  clang::SourceLocation loc;
  /// "read (to_host)", "moved into a partition", "the operation returned here", ...
  std::string what;
  /// For facts replayed from a lambda's body: the location inside the lambda.
  clang::SourceLocation inner;
  bool destroy = false;
};

struct Fact {
  enum class Kind : uint8_t {
    Access,    ///< place accessed as `access` (checked against held loans and moves)
    Issue,     ///< `loan` created, held by `place`
    Flow,      ///< loans of `place` flow into `to` (moved there when `transfer`)
    Kill,      ///< `place` (and everything within it) holds no loans any more
    Move,      ///< `place` is moved from (described by `site`)
    Revive,    ///< `place` holds a value again (declaration, assignment)
    Use,       ///< holder `place` used as `use`
    Def,       ///< `place` (re)defined: liveness stops here
    Escape,    ///< the value in `place` leaves the function (return)
    Discarded, ///< an operation created and dropped in the same full-expression
    Forget,    ///< the array `place` is gone (destroyed, or declared anew): loans on it end
  };
  Kind kind;
  PlaceId place = NoPlace;
  PlaceId to = NoPlace;
  /// Access inside a launch's argument list: the op temporary (its loans belong to "another
  /// argument of this launch").
  PlaceId launch = NoPlace;
  /// Issue: the loan. Access: the loan this access creates (not a conflict with itself).
  LoanId loan = NoLoan;
  AccessKind access = AccessKind::Read;
  UseKind use = UseKind::Plain;
  bool transfer = false;
  bool exemptMoved = false; ///< Access: allowed on a moved-from place (`a.valid()`)
  /// Flow: a store into a named place (remembered, so that a loan found there when its array
  /// is destroyed is reported where it was stored: tile-loan-outlives-array).
  bool checkStore = false;
  bool declaration = false; ///< Def: a variable's declaration (tile-unused-op is checked here)
  unsigned site = 0;
};

/// Everything the analyses need about one function body.
class HostFacts {
public:
  PlaceTable places;
  HostTypes types;
  std::vector<Loan> loans;
  std::vector<Site> sites;
  /// Facts per CFG block, indexed by block id, in execution order.
  std::vector<std::vector<Fact>> blocks;
  /// Facts applied on one edge only: (block id, successor index).
  std::map<std::pair<unsigned, unsigned>, std::vector<Fact>> edges;
  /// The function's place resolver (scopes, storage, outlives).
  std::unique_ptr<PlaceResolver> resolver;

  const std::vector<Fact> &factsOf(const clang::CFGBlock &block) const {
    return blocks[block.getBlockID()];
  }
  const std::vector<Fact> *edgeFacts(const clang::CFGBlock &from, unsigned succIndex) const {
    auto it = edges.find({from.getBlockID(), succIndex});
    return it == edges.end() ? nullptr : &it->second;
  }
  unsigned numFacts() const;

  /// Prints the facts block by block (for debugging and tests).
  void dump(llvm::raw_ostream &os, const clang::CFG &cfg) const;
};

/// The CFG options the checker builds its CFGs with.
clang::CFG::BuildOptions hostCFGOptions();

/// Builds the facts for `function` (its body's CFG is `cfg`). `parents` is the body's parent
/// map.
std::unique_ptr<HostFacts> buildHostFacts(clang::ASTContext &context, const clang::Decl *function,
                                          const clang::CFG &cfg, const clang::ParentMap &parents);

/// Does `body` mention any type the host checker tracks? (Functions that do not are skipped.)
bool mentionsHostTypes(const clang::Stmt *body, HostTypes &types);

} // namespace tilecc::host

#endif
