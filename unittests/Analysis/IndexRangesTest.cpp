//===- IndexRangesTest.cpp - interval and affine reasoning over tile indices --===//
#include "tilecc/Analysis/IndexRanges.h"

#include "gtest/gtest.h"

using namespace tilecc::index;

namespace {

int64_t lo(Interval i) { return static_cast<int64_t>(i.lo); }
int64_t hi(Interval i) { return static_cast<int64_t>(i.hi); }

/// Can a and b be equal (under their guards and `extra`)?
bool mayBeEqual(const SymbolTable &symbols, const IndexValue &a, const IndexValue &b,
                const Constraints &extra = {}) {
  for (const Piece &p : a.pieces)
    for (const Piece &q : b.pieces) {
      Constraints cs = extra;
      cs.append(p.guard.begin(), p.guard.end());
      cs.append(q.guard.begin(), q.guard.end());
      cs.push_back({p.expr - q.expr, Interval::point(0)});
      if (mayBeFeasible(symbols, cs))
        return true;
    }
  return false;
}

TEST(IndexRanges, SaturatingArithmetic) {
  EXPECT_EQ(satAdd(kInf, 5), kInf);
  EXPECT_EQ(satAdd(-kInf, 5), -kInf);
  EXPECT_EQ(satMul(kInf, -2), -kInf);
  EXPECT_EQ(satMul(Int(1) << 90, Int(1) << 90), kInf);
  EXPECT_EQ(floorDiv(-7, 2), -4);
  EXPECT_EQ(ceilDiv(-7, 2), -3);
  EXPECT_EQ(floorDiv(7, -2), -4);
  EXPECT_EQ(toString(-(Int(1) << 64)), "-18446744073709551616");
  EXPECT_EQ(Interval::of(0, 3).str(), "[0, 3]");
  EXPECT_EQ(Interval::atLeast(4).str(), "[4, +inf)");
}

TEST(IndexRanges, AffineTermsCancel) {
  SymbolTable t;
  SymbolId k = t.create("k", Interval::of(0, 3));
  Affine a = Affine::symbol(k).plus(1);
  Affine d = a - Affine::symbol(k);
  EXPECT_TRUE(d.isConstant());
  EXPECT_EQ(d.constant, 1);
  EXPECT_EQ(Affine::symbol(k).scaled(2).plus(-1).str(t), "2*k - 1");
  EXPECT_EQ(lo(a.range(t)), 1);
  EXPECT_EQ(hi(a.range(t)), 4);
}

TEST(IndexRanges, WrappingRemainderIsExact) {
  // k and (k + 1) % 4 are never equal for k in [0, 3]; an interval hull would say "maybe".
  SymbolTable t;
  IndexAlgebra alg(t);
  IndexValue k = IndexValue::ofSymbol(t.create("k", Interval::of(0, 3)));
  IndexValue next = alg.rem(alg.add(k, IndexValue::constant(1)), IndexValue::constant(4));
  EXPECT_EQ(next.pieces.size(), 2u);
  EXPECT_FALSE(mayBeEqual(t, k, next));
  // (k + 4) % 4 is k itself.
  IndexValue same = alg.rem(alg.add(k, IndexValue::constant(4)), IndexValue::constant(4));
  EXPECT_TRUE(mayBeEqual(t, k, same));
  EXPECT_EQ(lo(alg.range(next)), 0);
  EXPECT_EQ(hi(alg.range(next)), 3);
}

TEST(IndexRanges, RemainderFollowsTheDividendsSign) {
  SymbolTable t;
  IndexAlgebra alg(t);
  EXPECT_EQ(*alg.rem(IndexValue::constant(-5), IndexValue::constant(4)).asConstant(), -1);
  EXPECT_EQ(*alg.rem(IndexValue::constant(5), IndexValue::constant(-4)).asConstant(), 1);
  EXPECT_EQ(*alg.div(IndexValue::constant(-7), IndexValue::constant(2)).asConstant(), -3);
  IndexValue x = IndexValue::ofSymbol(t.create("x", Interval::of(-6, 6)));
  Interval r = alg.range(alg.rem(x, IndexValue::constant(4)));
  EXPECT_EQ(lo(r), -3);
  EXPECT_EQ(hi(r), 3);
}

TEST(IndexRanges, UnsignedWrapAroundIsModelled) {
  // uint32: 0xffffffff + 1 == 0, not 2^32.
  SymbolTable t;
  IndexAlgebra alg(t);
  IndexValue sum = alg.add(IndexValue::constant(0xffffffffLL), IndexValue::constant(1));
  EXPECT_EQ(*alg.wrapToType(sum, 32, /*isSigned=*/false).asConstant(), 0);
  EXPECT_EQ(*alg.wrapToType(IndexValue::constant(-1), 64, false).asConstant(), (Int(1) << 64) - 1);
  EXPECT_EQ(*alg.wrapToType(IndexValue::constant(128), 8, true).asConstant(), -128);
  // A value that may cross the boundary splits: u + 1 for u in [2^32 - 2, 2^32 - 1] is
  // 2^32 - 1 or 0, and may therefore equal 0.
  IndexValue u = IndexValue::ofSymbol(t.create("u", Interval::of(0xfffffffeLL, 0xffffffffLL)));
  IndexValue wrapped = alg.wrapToType(alg.add(u, IndexValue::constant(1)), 32, false);
  EXPECT_TRUE(mayBeEqual(t, wrapped, IndexValue::constant(0)));
  EXPECT_FALSE(mayBeEqual(t, wrapped, IndexValue::constant(5)));
  // In range: unchanged (still affine in u).
  IndexValue small = IndexValue::ofSymbol(t.create("s", Interval::of(0, 10)));
  EXPECT_NE(alg.wrapToType(small, 32, true).asAffine(), nullptr);
}

TEST(IndexRanges, DivisionAndShifts) {
  SymbolTable t;
  IndexAlgebra alg(t);
  IndexValue k = IndexValue::ofSymbol(t.create("k", Interval::of(0, 100)));
  // (2k) / 2 == k exactly.
  IndexValue twice = alg.mul(k, IndexValue::constant(2));
  IndexValue half = alg.div(twice, IndexValue::constant(2));
  const Affine *back = half.asAffine();
  ASSERT_NE(back, nullptr);
  EXPECT_TRUE(*back == *k.asAffine());
  // k / 2 is one symbol wherever it is computed, so k/2 and k/2 + 1 differ.
  IndexValue h1 = alg.div(k, IndexValue::constant(2)), h2 = alg.div(k, IndexValue::constant(2));
  EXPECT_TRUE(*h1.asAffine() == *h2.asAffine());
  EXPECT_FALSE(mayBeEqual(t, h1, alg.add(h2, IndexValue::constant(1))));
  EXPECT_EQ(hi(alg.range(h1)), 50);
  // x << 3 is 8x; x & 7 is x % 8 for x >= 0; x >> 1 is x / 2 for x >= 0.
  EXPECT_TRUE(*alg.shl(k, IndexValue::constant(3)).asAffine() == k.asAffine()->scaled(8));
  EXPECT_EQ(hi(alg.range(alg.bitAnd(k, IndexValue::constant(7)))), 7);
  EXPECT_TRUE(*alg.shr(k, IndexValue::constant(1)).asAffine() == *h1.asAffine());
}

TEST(IndexRanges, FeasibilityByPropagationAndEnumeration) {
  SymbolTable t;
  SymbolId x = t.create("x", Interval::of(0, 100)), y = t.create("y", Interval::of(0, 100));
  // x < y and y < x: bounds propagation narrows until empty.
  Constraints cs{{Affine::symbol(x) - Affine::symbol(y), Interval::atMost(-1)},
                 {Affine::symbol(y) - Affine::symbol(x), Interval::atMost(-1)}};
  EXPECT_FALSE(mayBeFeasible(t, cs));
  // 2x == 2y + 1 has no integer solution: small domains are enumerated.
  SymbolId a = t.create("a", Interval::of(0, 7)), b = t.create("b", Interval::of(0, 7));
  Constraints parity{{Affine::symbol(a).scaled(2) - Affine::symbol(b).scaled(2), Interval::point(1)}};
  EXPECT_FALSE(mayBeFeasible(t, parity));
  // Unbounded symbols: only what propagation proves (documented limit).
  SymbolId u = t.create("u", Interval::all()), v = t.create("v", Interval::all());
  Constraints open{{Affine::symbol(u).scaled(2) - Affine::symbol(v).scaled(2), Interval::point(1)}};
  EXPECT_TRUE(mayBeFeasible(t, open));
  // Bounds come back narrowed.
  llvm::DenseMap<SymbolId, Interval> bounds;
  Constraints narrow{{Affine::symbol(x), Interval::of(10, 20)}, {Affine::symbol(x) + Affine::symbol(y), Interval::atMost(15)}};
  ASSERT_TRUE(mayBeFeasible(t, narrow, &bounds));
  EXPECT_EQ(hi(bounds[y]), 5);
  EXPECT_EQ(lo(bounds[x]), 10);
  EXPECT_EQ(hi(bounds[x]), 15);
}

TEST(IndexRanges, TileBoxesOfDifferentShapes) {
  // Tile k of a 64-wide partition and tile 2k + 2 of a 32-wide one never meet; 2k + 1 does.
  SymbolTable t;
  IndexAlgebra alg(t);
  IndexValue k = IndexValue::ofSymbol(t.create("k", Interval::of(0, 3)));
  auto overlap = [&](const IndexValue &j) {
    Constraints cs{{k.asAffine()->scaled(64) - j.asAffine()->scaled(32), Interval::of(-63, 31)}};
    return mayBeFeasible(t, cs);
  };
  EXPECT_FALSE(overlap(alg.add(alg.mul(k, IndexValue::constant(2)), IndexValue::constant(2))));
  EXPECT_TRUE(overlap(alg.add(alg.mul(k, IndexValue::constant(2)), IndexValue::constant(1))));
}

TEST(IndexRanges, JoinKeepsBranchGuards) {
  // i = c ? 0 : 1 and j = c ? 1 : 0 are never equal: the pieces share the branch's choice.
  SymbolTable t;
  IndexAlgebra alg(t);
  SymbolId c = t.create("branch", Interval::of(0, 1));
  Constraints yes{{Affine::symbol(c), Interval::point(1)}}, no{{Affine::symbol(c), Interval::point(0)}};
  IndexValue zero = IndexValue::constant(0), one = IndexValue::constant(1);
  IndexValue i = alg.join({{&zero, yes}, {&one, no}});
  IndexValue j = alg.join({{&one, yes}, {&zero, no}});
  EXPECT_EQ(i.pieces.size(), 2u);
  EXPECT_FALSE(mayBeEqual(t, i, j));
  EXPECT_TRUE(mayBeEqual(t, i, one));
  // The range under a guard: i is 0 where the branch was taken.
  Interval r = alg.range(i, yes);
  EXPECT_EQ(lo(r), 0);
  EXPECT_EQ(hi(r), 0);
}

TEST(IndexRanges, TooManyPiecesBecomeOneSymbol) {
  SymbolTable t;
  IndexAlgebra alg(t);
  IndexValue x = IndexValue::ofSymbol(t.create("x", Interval::of(0, 1000)));
  // x % 4 over 250 periods: a symbol in [0, 3], the same one each time.
  IndexValue a = alg.rem(x, IndexValue::constant(4)), b = alg.rem(x, IndexValue::constant(4));
  ASSERT_NE(a.asAffine(), nullptr);
  EXPECT_TRUE(*a.asAffine() == *b.asAffine());
  EXPECT_EQ(hi(alg.range(a)), 3);
  // Joins beyond kMaxPieces collapse to their hull.
  IndexValue many = IndexValue::constant(0);
  for (int v = 1; v <= 12; ++v) {
    IndexValue c = IndexValue::constant(v);
    SymbolId s = t.create("branch", Interval::of(0, 1));
    Constraints g{{Affine::symbol(s), Interval::point(1)}};
    many = alg.join({{&many, {}}, {&c, g}});
  }
  EXPECT_LE(many.pieces.size(), IndexAlgebra::kMaxPieces);
  EXPECT_EQ(hi(alg.range(many)), 12);
}

TEST(IndexRanges, RenamingSeparatesIterations) {
  // Within one iteration k == k; across two iterations k and k' may differ.
  SymbolTable t;
  SymbolId k = t.create("k", Interval::of(0, 3), {0});
  SymbolId k2 = t.create("k'", Interval::of(0, 3), {0});
  llvm::DenseMap<SymbolId, SymbolId> map{{k, k2}};
  IndexValue v = IndexValue::ofSymbol(k);
  IndexValue next = IndexValue::ofAffine(Affine::symbol(k).plus(1));
  EXPECT_FALSE(mayBeEqual(t, v, next));
  EXPECT_TRUE(mayBeEqual(t, v, next.renamed(map)));
}

} // namespace
