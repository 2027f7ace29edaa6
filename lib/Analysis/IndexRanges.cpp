//===- IndexRanges.cpp - interval and affine reasoning over tile indices ------===//
#include "tilecc/Analysis/IndexRanges.h"

#include "llvm/ADT/STLExtras.h"
#include <algorithm>

using namespace tilecc::index;

// ---- saturating 128-bit arithmetic --------------------------------------------------------------

static Int clampInf(Int v) { return v >= kInf ? kInf : (v <= -kInf ? -kInf : v); }
static bool isInf(Int v) { return v >= kInf || v <= -kInf; }

Int tilecc::index::satAdd(Int a, Int b) {
  if (a >= kInf || b >= kInf)
    return (a <= -kInf || b <= -kInf) ? 0 : kInf;
  if (a <= -kInf || b <= -kInf)
    return -kInf;
  return clampInf(a + b);
}

Int tilecc::index::satMul(Int a, Int b) {
  if (a == 0 || b == 0)
    return 0;
  bool negative = (a < 0) != (b < 0);
  if (isInf(a) || isInf(b))
    return negative ? -kInf : kInf;
  Int r;
  if (__builtin_mul_overflow(a, b, &r))
    return negative ? -kInf : kInf;
  return clampInf(r);
}

Int tilecc::index::floorDiv(Int a, Int b) {
  if (isInf(a))
    return ((a < 0) != (b < 0)) ? -kInf : kInf;
  Int q = a / b, r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
}

Int tilecc::index::ceilDiv(Int a, Int b) {
  if (isInf(a))
    return ((a < 0) != (b < 0)) ? -kInf : kInf;
  Int q = a / b, r = a % b;
  return (r != 0 && ((r < 0) == (b < 0))) ? q + 1 : q;
}

std::string tilecc::index::toString(Int v) {
  if (v >= kInf)
    return "+inf";
  if (v <= -kInf)
    return "-inf";
  bool negative = v < 0;
  unsigned __int128 u = negative ? static_cast<unsigned __int128>(-v) : static_cast<unsigned __int128>(v);
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  } while (u != 0);
  if (negative)
    digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

// ---- Interval ---------------------------------------------------------------------------------

Interval Interval::intersect(const Interval &o) const { return {std::max(lo, o.lo), std::min(hi, o.hi)}; }

Interval Interval::hull(const Interval &o) const {
  if (empty())
    return o;
  if (o.empty())
    return *this;
  return {std::min(lo, o.lo), std::max(hi, o.hi)};
}

Interval Interval::operator+(const Interval &o) const {
  if (empty() || o.empty())
    return {1, 0};
  return {satAdd(lo, o.lo), satAdd(hi, o.hi)};
}

Interval Interval::scaled(Int c) const {
  if (empty())
    return *this;
  if (c == 0)
    return point(0);
  Int a = satMul(lo, c), b = satMul(hi, c);
  return c > 0 ? Interval{a, b} : Interval{b, a};
}

std::string Interval::str() const {
  if (empty())
    return "(empty)";
  std::string l = lo <= -kInf ? "(-inf" : "[" + toString(lo);
  std::string h = hi >= kInf ? "+inf)" : toString(hi) + "]";
  return l + ", " + h;
}

static Interval product(const Interval &a, const Interval &b) {
  if (a.empty() || b.empty())
    return {1, 0};
  Int c[] = {satMul(a.lo, b.lo), satMul(a.lo, b.hi), satMul(a.hi, b.lo), satMul(a.hi, b.hi)};
  return {*std::min_element(std::begin(c), std::end(c)), *std::max_element(std::begin(c), std::end(c))};
}

// ---- SymbolTable --------------------------------------------------------------------------------

SymbolId SymbolTable::create(llvm::StringRef name, Interval range, llvm::ArrayRef<unsigned> loops) {
  SymbolInfo info{name.str(), range, {}};
  info.loops.assign(loops.begin(), loops.end());
  llvm::sort(info.loops);
  info.loops.erase(std::unique(info.loops.begin(), info.loops.end()), info.loops.end());
  symbols.push_back(std::move(info));
  return static_cast<SymbolId>(symbols.size() - 1);
}

std::optional<SymbolId> SymbolTable::memoized(llvm::StringRef key) const {
  auto it = memo.find(key);
  if (it == memo.end())
    return std::nullopt;
  return it->second;
}

// ---- Affine ------------------------------------------------------------------------------------

Affine Affine::constantOf(Int c) {
  Affine a;
  a.constant = c;
  return a;
}

Affine Affine::symbol(SymbolId s) {
  Affine a;
  a.terms.push_back({s, 1});
  return a;
}

static Affine combine(const Affine &x, const Affine &y, Int ySign) {
  Affine r;
  r.constant = satAdd(x.constant, satMul(ySign, y.constant));
  size_t i = 0, j = 0;
  while (i < x.terms.size() || j < y.terms.size()) {
    if (j == y.terms.size() || (i < x.terms.size() && x.terms[i].first < y.terms[j].first)) {
      r.terms.push_back(x.terms[i++]);
    } else if (i == x.terms.size() || y.terms[j].first < x.terms[i].first) {
      r.terms.push_back({y.terms[j].first, satMul(ySign, y.terms[j].second)});
      ++j;
    } else {
      Int c = satAdd(x.terms[i].second, satMul(ySign, y.terms[j].second));
      if (c != 0)
        r.terms.push_back({x.terms[i].first, c});
      ++i;
      ++j;
    }
  }
  return r;
}

Affine Affine::operator+(const Affine &o) const { return combine(*this, o, 1); }
Affine Affine::operator-(const Affine &o) const { return combine(*this, o, -1); }

Affine Affine::scaled(Int c) const {
  Affine r;
  if (c == 0)
    return r;
  r.constant = satMul(constant, c);
  for (auto [s, k] : terms)
    r.terms.push_back({s, satMul(k, c)});
  return r;
}

Affine Affine::plus(Int c) const {
  Affine r = *this;
  r.constant = satAdd(r.constant, c);
  return r;
}

bool Affine::divisibleBy(Int d) const {
  if (d == 0 || isInf(constant) || constant % d != 0)
    return false;
  return llvm::all_of(terms, [&](const auto &t) { return !isInf(t.second) && t.second % d == 0; });
}

Affine Affine::dividedExactly(Int d) const {
  Affine r;
  r.constant = constant / d;
  for (auto [s, k] : terms)
    r.terms.push_back({s, k / d});
  return r;
}

Interval Affine::range(const SymbolTable &symbols) const {
  Interval r = Interval::point(constant);
  for (auto [s, k] : terms)
    r = r + symbols[s].range.scaled(k);
  return r;
}

Interval Affine::range(const llvm::DenseMap<SymbolId, Interval> &ranges, const SymbolTable &symbols) const {
  Interval r = Interval::point(constant);
  for (auto [s, k] : terms) {
    auto it = ranges.find(s);
    r = r + (it != ranges.end() ? it->second : symbols[s].range).scaled(k);
  }
  return r;
}

Int Affine::evaluate(const llvm::DenseMap<SymbolId, Int> &values) const {
  Int r = constant;
  for (auto [s, k] : terms)
    r = satAdd(r, satMul(k, values.lookup(s)));
  return r;
}

Affine Affine::renamed(const llvm::DenseMap<SymbolId, SymbolId> &map) const {
  Affine r = constantOf(constant);
  for (auto [s, k] : terms) {
    auto it = map.find(s);
    Affine t = symbol(it != map.end() ? it->second : s).scaled(k);
    r = r + t;
  }
  return r;
}

std::string Affine::key() const {
  std::string k = toString(constant);
  for (auto [s, c] : terms)
    k += "+" + toString(c) + "*s" + std::to_string(s);
  return k;
}

std::string Affine::str(const SymbolTable &symbols) const {
  std::string out;
  for (auto [s, c] : terms) {
    Int mag = c < 0 ? -c : c;
    if (out.empty())
      out += c < 0 ? "-" : "";
    else
      out += c < 0 ? " - " : " + ";
    if (mag != 1)
      out += toString(mag) + "*";
    out += symbols[s].name;
  }
  if (out.empty())
    return toString(constant);
  if (constant != 0)
    out += (constant < 0 ? " - " : " + ") + toString(constant < 0 ? -constant : constant);
  return out;
}

Constraints tilecc::index::renamed(llvm::ArrayRef<Constraint> cs,
                                   const llvm::DenseMap<SymbolId, SymbolId> &map) {
  Constraints out;
  for (const Constraint &c : cs)
    out.push_back({c.expr.renamed(map), c.allowed});
  return out;
}

// ---- IndexValue --------------------------------------------------------------------------------

IndexValue IndexValue::constant(Int c) { return ofAffine(Affine::constantOf(c)); }
IndexValue IndexValue::ofSymbol(SymbolId s) { return ofAffine(Affine::symbol(s)); }

IndexValue IndexValue::ofAffine(Affine a) {
  IndexValue v;
  v.pieces.push_back({std::move(a), {}});
  return v;
}

const Affine *IndexValue::asAffine() const {
  if (pieces.size() != 1 || !pieces[0].guard.empty())
    return nullptr;
  return &pieces[0].expr;
}

std::optional<Int> IndexValue::asConstant() const {
  if (pieces.empty() || !pieces[0].expr.isConstant())
    return std::nullopt;
  for (const Piece &p : pieces)
    if (!p.expr.isConstant() || p.expr.constant != pieces[0].expr.constant)
      return std::nullopt;
  return pieces[0].expr.constant;
}

IndexValue IndexValue::renamed(const llvm::DenseMap<SymbolId, SymbolId> &map) const {
  IndexValue v;
  for (const Piece &p : pieces)
    v.pieces.push_back({p.expr.renamed(map), tilecc::index::renamed(p.guard, map)});
  return v;
}

void IndexValue::collectSymbols(llvm::SmallVectorImpl<SymbolId> &out) const {
  for (const Piece &p : pieces) {
    for (auto [s, k] : p.expr.terms)
      out.push_back(s);
    for (const Constraint &c : p.guard)
      for (auto [s, k] : c.expr.terms)
        out.push_back(s);
  }
}

std::string IndexValue::key() const {
  std::string k;
  for (const Piece &p : pieces) {
    k += "{" + p.expr.key();
    for (const Constraint &c : p.guard)
      k += "|" + c.expr.key() + "in" + toString(c.allowed.lo) + ":" + toString(c.allowed.hi);
    k += "}";
  }
  return k;
}

// ---- IndexAlgebra ------------------------------------------------------------------------------

Interval IndexAlgebra::typeRange(unsigned bits, bool isSigned) {
  if (bits >= 100)
    return Interval::all();
  if (bits == 0)
    return Interval::point(0);
  Int m = Int(1) << bits;
  return isSigned ? Interval{-(m / 2), m / 2 - 1} : Interval{0, m - 1};
}

llvm::SmallVector<unsigned, 2> IndexAlgebra::loopsOf(llvm::ArrayRef<const IndexValue *> values) const {
  llvm::SmallVector<SymbolId, 8> syms;
  for (const IndexValue *v : values)
    v->collectSymbols(syms);
  llvm::SmallVector<unsigned, 2> loops;
  for (SymbolId s : syms)
    loops.append(symbols[s].loops.begin(), symbols[s].loops.end());
  llvm::sort(loops);
  loops.erase(std::unique(loops.begin(), loops.end()), loops.end());
  return loops;
}

IndexValue IndexAlgebra::unknown(llvm::StringRef name, Interval range, llvm::ArrayRef<unsigned> loops) {
  return IndexValue::ofSymbol(symbols.create(name, range, loops));
}

IndexValue IndexAlgebra::opaque(llvm::StringRef op, llvm::ArrayRef<const IndexValue *> operands,
                                Interval range) {
  std::string key = op.str() + "(";
  for (const IndexValue *v : operands)
    key += v->key() + ",";
  key += ")";
  if (std::optional<SymbolId> s = symbols.memoized(key))
    return IndexValue::ofSymbol(*s);
  std::string name = op.str();
  if (operands.size() == 1)
    if (const Affine *a = operands[0]->asAffine())
      name += "(" + a->str(symbols) + ")";
  SymbolId s = symbols.create(name, range, loopsOf(operands));
  symbols.memoize(key, s);
  return IndexValue::ofSymbol(s);
}

IndexValue IndexAlgebra::collapse(const IndexValue &v, llvm::StringRef op) {
  return opaque(op, {&v}, range(v));
}

static void appendGuard(Constraints &guard, llvm::ArrayRef<Constraint> extra) {
  for (const Constraint &c : extra) {
    if (guard.size() >= IndexAlgebra::kMaxGuard)
      return;
    if (!llvm::is_contained(guard, c))
      guard.push_back(c);
  }
}

IndexValue IndexAlgebra::normalize(IndexValue v) {
  IndexValue out;
  for (Piece &p : v.pieces) {
    bool dead = llvm::any_of(p.guard, [](const Constraint &c) {
      return c.expr.isConstant() && !c.allowed.contains(c.expr.constant);
    });
    if (dead)
      continue;
    // Constant guards that hold say nothing.
    llvm::erase_if(p.guard, [](const Constraint &c) { return c.expr.isConstant(); });
    bool duplicate = llvm::any_of(out.pieces, [&](const Piece &q) {
      return q.expr == p.expr && q.guard.size() == p.guard.size() &&
             std::equal(q.guard.begin(), q.guard.end(), p.guard.begin());
    });
    if (!duplicate)
      out.pieces.push_back(std::move(p));
  }
  // Pieces with one expression: if one of them is unguarded, the value is that expression.
  if (out.pieces.size() > 1 &&
      llvm::all_of(out.pieces, [&](const Piece &p) { return p.expr == out.pieces[0].expr; }) &&
      llvm::any_of(out.pieces, [](const Piece &p) { return p.guard.empty(); })) {
    Affine e = out.pieces[0].expr;
    return IndexValue::ofAffine(e);
  }
  if (out.pieces.empty()) // every piece infeasible: unreachable code; any value will do
    return IndexValue::constant(0);
  if (out.pieces.size() > kMaxPieces)
    return collapse(out, "merge");
  return out;
}

template <class F>
static IndexValue crossPieces(const IndexValue &a, const IndexValue &b, F f) {
  IndexValue r;
  for (const Piece &p : a.pieces)
    for (const Piece &q : b.pieces) {
      Piece n{f(p.expr, q.expr), p.guard};
      appendGuard(n.guard, q.guard);
      r.pieces.push_back(std::move(n));
    }
  return r;
}

IndexValue IndexAlgebra::add(const IndexValue &a, const IndexValue &b) {
  return normalize(crossPieces(a, b, [](const Affine &x, const Affine &y) { return x + y; }));
}

IndexValue IndexAlgebra::sub(const IndexValue &a, const IndexValue &b) {
  return normalize(crossPieces(a, b, [](const Affine &x, const Affine &y) { return x - y; }));
}

IndexValue IndexAlgebra::neg(const IndexValue &a) {
  IndexValue r = a;
  for (Piece &p : r.pieces)
    p.expr = p.expr.scaled(-1);
  return r;
}

static IndexValue scaleValue(const IndexValue &a, Int c) {
  IndexValue r = a;
  for (Piece &p : r.pieces)
    p.expr = p.expr.scaled(c);
  return r;
}

IndexValue IndexAlgebra::mul(const IndexValue &a, const IndexValue &b) {
  if (std::optional<Int> c = b.asConstant())
    return normalize(scaleValue(a, *c));
  if (std::optional<Int> c = a.asConstant())
    return normalize(scaleValue(b, *c));
  return opaque("mul", {&a, &b}, product(range(a), range(b)));
}

Interval IndexAlgebra::range(const IndexValue &v, llvm::ArrayRef<Constraint> context) const {
  Interval result{1, 0};
  for (const Piece &p : v.pieces) {
    Constraints cs(context.begin(), context.end());
    cs.append(p.guard.begin(), p.guard.end());
    llvm::DenseMap<SymbolId, Interval> bounds;
    if (!mayBeFeasible(symbols, cs, &bounds))
      continue;
    Interval r = p.expr.range(bounds, symbols);
    // A constraint on the piece's own expression (up to a constant) bounds it directly.
    for (const Constraint &c : cs) {
      Affine d = p.expr - c.expr;
      if (d.isConstant())
        r = r.intersect(c.allowed + Interval::point(d.constant));
    }
    result = result.hull(r);
  }
  return result;
}

Interval IndexAlgebra::rangeHere(const IndexValue &v) const {
  return context ? range(v, *context) : range(v);
}

/// The segments of `range` on which x - q*m stays one expression: for C++'s % (truncRem) the
/// quotient is trunc(x / m); for wrap-around into `target` it is floor((x - target.lo) / m).
static bool segments(Interval range, Int m, bool truncRem, Interval target,
                     llvm::SmallVectorImpl<std::pair<Int, Interval>> &out, unsigned limit) {
  if (!range.finite() || range.empty())
    return false;
  auto add = [&](Int q, Interval seg) {
    seg = seg.intersect(range);
    if (!seg.empty())
      out.push_back({q, seg});
    return out.size() <= limit;
  };
  if (truncRem) {
    if (range.hi >= 0) {
      Int lo = std::max<Int>(range.lo, 0);
      if (range.hi / m - lo / m + 1 > limit)
        return false;
      for (Int q = lo / m; q <= range.hi / m; ++q)
        if (!add(q, {q * m, q * m + m - 1}))
          return false;
    }
    if (range.lo < 0) {
      Int hi = std::min<Int>(range.hi, -1);
      // For x < 0, trunc(x / m) = q covers [q*m - m + 1, q*m] (q < 0) and [-(m-1), -1] (q = 0).
      Int qlo = range.lo / m, qhi = hi / m;
      if (qhi - qlo + 1 > limit)
        return false;
      for (Int q = qlo; q <= qhi; ++q)
        if (!add(q, q == 0 ? Interval{-(m - 1), -1} : Interval{q * m - m + 1, q * m}))
          return false;
    }
    return true;
  }
  Int qlo = floorDiv(range.lo - target.lo, m), qhi = floorDiv(range.hi - target.lo, m);
  if (qhi - qlo + 1 > limit)
    return false;
  for (Int q = qlo; q <= qhi; ++q)
    if (!add(q, {target.lo + q * m, target.hi + q * m}))
      return false;
  return true;
}

IndexValue IndexAlgebra::periodic(const IndexValue &a, Int m, bool truncRem, Interval target,
                                  llvm::StringRef op) {
  IndexValue r;
  for (const Piece &p : a.pieces) {
    if (truncRem && p.expr.divisibleBy(m)) {
      r.pieces.push_back({Affine::constantOf(0), p.guard});
      continue;
    }
    Interval pr = rangeHere(IndexValue{{p}});
    if (pr.empty())
      continue;
    if (!truncRem && target.contains(pr)) {
      r.pieces.push_back(p);
      continue;
    }
    llvm::SmallVector<std::pair<Int, Interval>, 4> segs;
    if (segments(pr, m, truncRem, target, segs, 4)) {
      for (auto [q, seg] : segs) {
        Piece n{p.expr.plus(satMul(-q, m)), p.guard};
        if (!seg.contains(pr))
          appendGuard(n.guard, Constraint{p.expr, seg});
        r.pieces.push_back(std::move(n));
      }
      continue;
    }
    // Too many periods (or unbounded): the result is a function of the piece's expression.
    Interval full = p.expr.range(symbols);
    Interval res = target;
    if (truncRem) {
      if (full.lo >= 0)
        res = {0, m - 1};
      else if (full.hi <= 0)
        res = {-(m - 1), 0};
      else
        res = {-(m - 1), m - 1};
    }
    IndexValue single = IndexValue::ofAffine(p.expr);
    IndexValue sym = opaque(op.str() + "/" + toString(m), {&single}, res);
    r.pieces.push_back({sym.pieces[0].expr, p.guard});
  }
  return normalize(r);
}

IndexValue IndexAlgebra::wrapToType(const IndexValue &a, unsigned bits, bool isSigned) {
  if (bits >= 100)
    return a;
  Interval target = typeRange(bits, isSigned);
  if (target.contains(rangeHere(a)))
    return a;
  return periodic(a, Int(1) << bits, /*truncRem=*/false, target,
                  (isSigned ? "wrap_i" : "wrap_u") + std::to_string(bits));
}

IndexValue IndexAlgebra::rem(const IndexValue &a, const IndexValue &b) {
  if (std::optional<Int> c = b.asConstant(); c && *c != 0) {
    Int m = *c < 0 ? -*c : *c;
    return periodic(a, m, /*truncRem=*/true, Interval::all(), "rem");
  }
  Interval rb = range(b), ra = range(a);
  Int mag = std::max(rb.lo < 0 ? -rb.lo : rb.lo, rb.hi < 0 ? -rb.hi : rb.hi);
  Interval res = Interval::all();
  if (!isInf(mag) && mag > 0)
    res = {ra.lo >= 0 ? 0 : -(mag - 1), ra.hi <= 0 ? 0 : mag - 1};
  return opaque("rem", {&a, &b}, res);
}

IndexValue IndexAlgebra::div(const IndexValue &a, const IndexValue &b) {
  std::optional<Int> c = b.asConstant();
  if (!c || *c == 0) {
    Interval ra = range(a);
    Int mag = std::max(ra.lo < 0 ? -ra.lo : ra.lo, ra.hi < 0 ? -ra.hi : ra.hi);
    return opaque("div", {&a, &b}, Interval{-mag, mag});
  }
  Int d = *c;
  IndexValue r;
  for (const Piece &p : a.pieces) {
    if (p.expr.divisibleBy(d)) {
      r.pieces.push_back({p.expr.dividedExactly(d), p.guard});
      continue;
    }
    Interval pr = rangeHere(IndexValue{{p}});
    if (pr.empty())
      continue;
    Int m = d < 0 ? -d : d;
    // Piecewise-constant quotient over few segments of one sign.
    if (pr.finite() && (pr.lo >= 0 || pr.hi <= 0)) {
      llvm::SmallVector<std::pair<Int, Interval>, 4> segs;
      if (segments(pr, m, /*truncRem=*/true, Interval::all(), segs, 4)) {
        for (auto [q, seg] : segs) {
          Piece n{Affine::constantOf(d < 0 ? -q : q), p.guard};
          if (!seg.contains(pr))
            appendGuard(n.guard, Constraint{p.expr, seg});
          r.pieces.push_back(std::move(n));
        }
        continue;
      }
    }
    Interval full = p.expr.range(symbols);
    Interval res{full.lo / m, full.hi / m}; // trunc is monotone
    if (isInf(full.lo))
      res.lo = -kInf;
    if (isInf(full.hi))
      res.hi = kInf;
    if (d < 0)
      res = res.scaled(-1);
    IndexValue single = IndexValue::ofAffine(p.expr);
    IndexValue sym = opaque("div/" + toString(d), {&single}, res);
    r.pieces.push_back({sym.pieces[0].expr, p.guard});
  }
  return normalize(r);
}

IndexValue IndexAlgebra::shl(const IndexValue &a, const IndexValue &b) {
  if (std::optional<Int> c = b.asConstant(); c && *c >= 0 && *c < 100)
    return mul(a, IndexValue::constant(Int(1) << static_cast<int>(*c)));
  return opaque("shl", {&a, &b}, Interval::all());
}

IndexValue IndexAlgebra::shr(const IndexValue &a, const IndexValue &b) {
  Interval ra = range(a);
  if (std::optional<Int> c = b.asConstant(); c && *c >= 0 && *c < 100) {
    Int p = Int(1) << static_cast<int>(*c);
    if (ra.lo >= 0) // floor == trunc for non-negative values
      return div(a, IndexValue::constant(p));
    return opaque("shr", {&a, &b}, Interval{floorDiv(ra.lo, p), floorDiv(ra.hi, p)});
  }
  return opaque("shr", {&a, &b}, ra.lo >= 0 ? Interval{0, ra.hi} : Interval::all());
}

IndexValue IndexAlgebra::bitAnd(const IndexValue &a, const IndexValue &b) {
  std::optional<Int> mask = b.asConstant();
  const IndexValue *other = &a;
  if (!mask) {
    mask = a.asConstant();
    other = &b;
  }
  if (mask && *mask >= 0) {
    Interval r = rangeHere(*other);
    if (r.lo >= 0 && ((*mask + 1) & *mask) == 0)
      return rem(*other, IndexValue::constant(*mask + 1));
    return opaque("and", {&a, &b}, Interval{0, *mask});
  }
  Interval ra = range(a), rb = range(b);
  if (ra.lo >= 0 && rb.lo >= 0)
    return opaque("and", {&a, &b}, Interval{0, std::min(ra.hi, rb.hi)});
  return opaque("and", {&a, &b}, Interval::all());
}

IndexValue
IndexAlgebra::join(llvm::ArrayRef<std::pair<const IndexValue *, llvm::ArrayRef<Constraint>>> arms) {
  IndexValue r;
  for (auto [value, guard] : arms)
    for (const Piece &p : value->pieces) {
      Piece n = p;
      appendGuard(n.guard, guard);
      r.pieces.push_back(std::move(n));
    }
  return normalize(r);
}

// ---- the feasibility check ---------------------------------------------------------------------

namespace {
constexpr unsigned kMaxRounds = 64;
constexpr Int kEnumerationLimit = 4096;
} // namespace

bool tilecc::index::mayBeFeasible(const SymbolTable &symbols, llvm::ArrayRef<Constraint> cs,
                                  llvm::DenseMap<SymbolId, Interval> *boundsOut) {
  llvm::DenseMap<SymbolId, Interval> r;
  llvm::SmallVector<SymbolId, 8> vars;
  for (const Constraint &c : cs)
    for (auto [s, k] : c.expr.terms)
      if (r.try_emplace(s, symbols[s].range).second)
        vars.push_back(s);
  for (SymbolId s : vars)
    if (r[s].empty())
      return false;

  for (unsigned round = 0; round < kMaxRounds; ++round) {
    bool changed = false;
    for (const Constraint &c : cs) {
      if (c.allowed.empty())
        return false;
      if (c.expr.range(r, symbols).intersect(c.allowed).empty())
        return false;
      for (size_t i = 0; i < c.expr.terms.size(); ++i) {
        auto [s, a] = c.expr.terms[i];
        Interval rest = Interval::point(c.expr.constant);
        for (size_t j = 0; j < c.expr.terms.size(); ++j)
          if (j != i)
            rest = rest + r[c.expr.terms[j].first].scaled(c.expr.terms[j].second);
        // a*s in [allowed.lo - rest.hi, allowed.hi - rest.lo]
        Int lo = satAdd(c.allowed.lo, -rest.hi), hi = satAdd(c.allowed.hi, -rest.lo);
        Interval bound = a > 0 ? Interval{ceilDiv(lo, a), floorDiv(hi, a)}
                               : Interval{ceilDiv(hi, a), floorDiv(lo, a)};
        Interval &cur = r[s];
        Interval narrowed = cur.intersect(bound);
        if (narrowed.empty())
          return false;
        if (!(narrowed == cur)) {
          cur = narrowed;
          changed = true;
        }
      }
    }
    if (!changed)
      break;
  }
  if (boundsOut)
    *boundsOut = r;

  // Small remaining domains: decide exactly.
  Int count = 1;
  for (SymbolId s : vars) {
    const Interval &i = r[s];
    if (!i.finite())
      return true;
    count = satMul(count, i.hi - i.lo + 1);
    if (count > kEnumerationLimit)
      return true;
  }
  llvm::DenseMap<SymbolId, Int> value;
  for (SymbolId s : vars)
    value[s] = r[s].lo;
  while (true) {
    if (llvm::all_of(cs, [&](const Constraint &c) { return c.allowed.contains(c.expr.evaluate(value)); }))
      return true;
    size_t i = 0;
    for (; i < vars.size(); ++i) {
      Int &v = value[vars[i]];
      if (v < r[vars[i]].hi) {
        ++v;
        break;
      }
      v = r[vars[i]].lo;
    }
    if (i == vars.size())
      return false;
  }
}
