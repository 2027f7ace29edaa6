//===- IndexRanges.h - interval and affine reasoning over tile indices -*- C++ -*-===//
//
// The arithmetic the kernel access checker uses to decide whether two tile indices can be equal
// and whether an index can be in range. Nothing here knows Clang: the checker translates index
// expressions into these values (KernelWalker.cpp).
//
//  * A *symbol* stands for one run-time integer the analysis cannot compute: a kernel's scalar
//    parameter, `tile::block_id(a)`, a loop's trip counter, the result of an operation it does
//    not model. Each has a range (`Interval`) and the loops in whose iterations it changes; two
//    uses of one symbol are the same value (within one iteration of those loops).
//  * An `Affine` expression is `c0 + c1*s1 + ... + cn*sn` with integer coefficients.
//  * An `IndexValue` is piecewise affine: a list of pieces, each an affine expression with a
//    guard (constraints under which the value is that piece). The value is always one of its
//    pieces; `x % 4` with x in [0, 7] is {x when x in [0, 3]; x - 4 when x in [4, 7]}, which is
//    how wrap-around index arithmetic stays exact. Values a piece list cannot describe become a
//    fresh symbol whose range is the hull of what they can be (sound, less precise).
//  * `mayBeFeasible` decides a conjunction of constraints `lo <= affine <= hi`: it narrows the
//    symbols' ranges by bounds propagation and, when the remaining ranges are small, enumerates
//    them exactly. It answers false only with a proof; true means "may be satisfiable".
//
// All arithmetic is on 128-bit integers saturating at +-kInf, so C++'s 64-bit values (signed or
// unsigned) and their sums never overflow here. Integer wrap-around of the analysed program is
// modelled explicitly (`wrapToType`).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_INDEXRANGES_H
#define TILECC_ANALYSIS_INDEXRANGES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilecc::index {

using Int = __int128;
/// "Unbounded": every bound at or beyond +-kInf means infinity.
constexpr Int kInf = Int(1) << 100;

Int satAdd(Int a, Int b);
Int satMul(Int a, Int b);
/// Floor and ceiling of a / b for b != 0, infinity-aware.
Int floorDiv(Int a, Int b);
Int ceilDiv(Int a, Int b);
std::string toString(Int v);

/// A closed integer interval [lo, hi]; empty when lo > hi.
struct Interval {
  Int lo = -kInf, hi = kInf;

  static Interval all() { return {}; }
  static Interval point(Int v) { return {v, v}; }
  static Interval of(Int lo, Int hi) { return {lo, hi}; }
  static Interval atLeast(Int lo) { return {lo, kInf}; }
  static Interval atMost(Int hi) { return {-kInf, hi}; }

  bool empty() const { return lo > hi; }
  bool isPoint() const { return lo == hi; }
  bool finite() const { return lo > -kInf && hi < kInf; }
  bool contains(Int v) const { return lo <= v && v <= hi; }
  bool contains(const Interval &o) const { return lo <= o.lo && o.hi <= hi; }
  Interval intersect(const Interval &o) const;
  Interval hull(const Interval &o) const;
  Interval operator+(const Interval &o) const;
  Interval scaled(Int c) const;
  bool operator==(const Interval &o) const { return lo == o.lo && hi == o.hi; }
  /// "[0, 3]", "[4, +inf)", ...
  std::string str() const;
};

using SymbolId = unsigned;

struct SymbolInfo {
  std::string name;
  Interval range;
  /// The loop instances in whose iterations this value changes (see KernelAccess.h).
  llvm::SmallVector<unsigned, 2> loops;
};

class SymbolTable {
public:
  SymbolId create(llvm::StringRef name, Interval range, llvm::ArrayRef<unsigned> loops = {});
  const SymbolInfo &operator[](SymbolId id) const { return symbols[id]; }
  size_t size() const { return symbols.size(); }
  /// Symbols standing for a pure function of other values are shared: the same operation on the
  /// same operands gives the same symbol (`i / 2` twice is one value).
  std::optional<SymbolId> memoized(llvm::StringRef key) const;
  void memoize(llvm::StringRef key, SymbolId id) { memo[key] = id; }

private:
  std::vector<SymbolInfo> symbols;
  llvm::StringMap<SymbolId> memo;
};

/// c + sum(coeff * symbol); terms sorted by symbol, no zero coefficients.
struct Affine {
  llvm::SmallVector<std::pair<SymbolId, Int>, 2> terms;
  Int constant = 0;

  static Affine constantOf(Int c);
  static Affine symbol(SymbolId s);
  bool isConstant() const { return terms.empty(); }
  Affine operator+(const Affine &o) const;
  Affine operator-(const Affine &o) const;
  Affine scaled(Int c) const;
  Affine plus(Int c) const;
  /// Every coefficient and the constant divisible by d.
  bool divisibleBy(Int d) const;
  Affine dividedExactly(Int d) const;
  Interval range(const SymbolTable &symbols) const;
  Interval range(const llvm::DenseMap<SymbolId, Interval> &ranges, const SymbolTable &symbols) const;
  Int evaluate(const llvm::DenseMap<SymbolId, Int> &values) const;
  Affine renamed(const llvm::DenseMap<SymbolId, SymbolId> &map) const;
  bool operator==(const Affine &o) const { return constant == o.constant && terms == o.terms; }
  /// Canonical text, for memoization ("3+2*s4-1*s7").
  std::string key() const;
  /// Readable text with symbol names ("k + 4").
  std::string str(const SymbolTable &symbols) const;
};

/// lo <= expr <= hi.
struct Constraint {
  Affine expr;
  Interval allowed;
  bool operator==(const Constraint &o) const { return expr == o.expr && allowed == o.allowed; }
};
using Constraints = llvm::SmallVector<Constraint, 4>;

/// Renames the symbols of constraints.
Constraints renamed(llvm::ArrayRef<Constraint> cs, const llvm::DenseMap<SymbolId, SymbolId> &map);

struct Piece {
  Affine expr;
  Constraints guard;
};

/// A piecewise-affine integer value.
struct IndexValue {
  llvm::SmallVector<Piece, 2> pieces;

  static IndexValue constant(Int c);
  static IndexValue ofSymbol(SymbolId s);
  static IndexValue ofAffine(Affine a);
  /// The single unguarded affine expression, if the value is one.
  const Affine *asAffine() const;
  std::optional<Int> asConstant() const;
  IndexValue renamed(const llvm::DenseMap<SymbolId, SymbolId> &map) const;
  /// Every symbol the value mentions (expressions and guards).
  void collectSymbols(llvm::SmallVectorImpl<SymbolId> &out) const;
  std::string key() const;
};

/// The operations of the analysed program on IndexValues. Results that leave the piecewise-affine
/// form become (memoized) symbols created in `symbols`; `loops` is the loop nest the walker is in
/// when a value with no operands (an unknown) is made.
class IndexAlgebra {
public:
  explicit IndexAlgebra(SymbolTable &symbols) : symbols(symbols) {}

  /// Pieces beyond this are merged into one symbol.
  static constexpr unsigned kMaxPieces = 8;
  /// Guards are truncated to this many constraints (dropping a guard constraint is sound).
  static constexpr unsigned kMaxGuard = 8;

  /// Constraints known to hold where the operations are evaluated (the walker's branch and
  /// loop conditions). They decide whether a conversion wraps or how a remainder splits; the
  /// ranges of the symbols made for opaque results never depend on them.
  void setContext(const Constraints *constraints) { context = constraints; }

  SymbolTable &table() { return symbols; }
  const SymbolTable &table() const { return symbols; }

  IndexValue unknown(llvm::StringRef name, Interval range, llvm::ArrayRef<unsigned> loops);

  IndexValue add(const IndexValue &a, const IndexValue &b);
  IndexValue sub(const IndexValue &a, const IndexValue &b);
  IndexValue neg(const IndexValue &a);
  IndexValue mul(const IndexValue &a, const IndexValue &b);
  /// C++ truncating division and remainder.
  IndexValue div(const IndexValue &a, const IndexValue &b);
  IndexValue rem(const IndexValue &a, const IndexValue &b);
  IndexValue shl(const IndexValue &a, const IndexValue &b);
  IndexValue shr(const IndexValue &a, const IndexValue &b);
  IndexValue bitAnd(const IndexValue &a, const IndexValue &b);
  /// Any other operation: a symbol ranging over `range`, memoized on the operation and operands.
  IndexValue opaque(llvm::StringRef op, llvm::ArrayRef<const IndexValue *> operands, Interval range);
  /// The value converted to an integer type of `bits` bits: modulo 2^bits into the type's range
  /// (what C++ does for unsigned types and conversions; signed overflow is taken to wrap too).
  IndexValue wrapToType(const IndexValue &a, unsigned bits, bool isSigned);
  /// One of the values, each under its extra guard (a branch merge, `c ? a : b`).
  IndexValue join(llvm::ArrayRef<std::pair<const IndexValue *, llvm::ArrayRef<Constraint>>> arms);

  /// The hull of what the value can be where `context` holds; empty when provably infeasible.
  Interval range(const IndexValue &v, llvm::ArrayRef<Constraint> context = {}) const;

  static Interval typeRange(unsigned bits, bool isSigned);

private:
  IndexValue collapse(const IndexValue &v, llvm::StringRef op);
  IndexValue normalize(IndexValue v);
  /// x mod m folded into [base, base + m - 1] (q chosen per piece), split into pieces when the
  /// value spans few periods; `truncRem` selects C++ % semantics instead.
  IndexValue periodic(const IndexValue &a, Int m, bool truncRem, Interval target, llvm::StringRef op);
  llvm::SmallVector<unsigned, 2> loopsOf(llvm::ArrayRef<const IndexValue *> values) const;
  Interval rangeHere(const IndexValue &v) const;

  SymbolTable &symbols;
  const Constraints *context = nullptr;
};

/// Bounds propagation over `cs`; false when the constraints are provably unsatisfiable. With
/// `bounds`, receives the narrowed range of every symbol the constraints mention.
bool mayBeFeasible(const SymbolTable &symbols, llvm::ArrayRef<Constraint> cs,
                   llvm::DenseMap<SymbolId, Interval> *bounds = nullptr);

} // namespace tilecc::index

#endif
