//===- LinearLayoutTest.cpp - the GF(2) layout algebra --------------------------===//
#include "tilecc/Layout/LinearLayout.h"

#include <gtest/gtest.h>

using namespace tilecc;
using llvm::SmallVector;

namespace {

using Dim = LinearLayout::Dim;

/// A 4 x 8 tile over one warp: two consecutive elements per thread along the columns, four
/// lanes along the columns, eight along the rows (the blocked layout spt [1,2], tpw [8,4]).
LinearLayout rowMajorWarp() {
  // Output bits: dim1 is bits 0..2, dim0 bits 3..4; coordinates (row, col) flatten to 8*row+col.
  return LinearLayout({{"register", 1}, {"lane", 5}, {"warp", 0}},
                      LinearLayout::tileDims({4, 8}),
                      {{1}, {2, 4, 8, 16, 0}, {}});
}

TEST(LinearLayoutTest, ApplyIsTheXorOfTheBasesOfTheSetBits) {
  LinearLayout l = rowMajorWarp();
  EXPECT_EQ(l.apply(kRegister, 1), 1u);
  EXPECT_EQ(l.apply(kLane, 0b00011), 6u); // lanes 1 and 2 of a row: columns 2 + 4
  EXPECT_EQ(l.apply({1, 0b00101, 0}), 1u ^ 2u ^ 8u);
  EXPECT_EQ(l.outCoords(l.apply({1, 0b00101, 0})), (SmallVector<int64_t>{1, 3}));
  EXPECT_EQ(l.flattenOut({3, 5}), 29u);
}

TEST(LinearLayoutTest, ReplicatingBitsAreFree) {
  LinearLayout l = rowMajorWarp();
  EXPECT_EQ(l.getFreeMask(kLane), 0b10000u);
  EXPECT_EQ(l.getFreeMask(kRegister), 0u);
  EXPECT_TRUE(l.isSurjective());
  EXPECT_FALSE(l.isInjective());
  EXPECT_TRUE(l.hasDisjointBits());
}

TEST(LinearLayoutTest, XorSwizzleIsNotDisjoint) {
  // Offset bits 0..1 are columns, 2..3 rows, and each row bit also flips a column bit.
  LinearLayout s({{"offset", 4}}, LinearLayout::tileDims({4, 4}), {{1, 2, 4 | 1, 8 | 2}});
  EXPECT_TRUE(s.isInjective());
  EXPECT_TRUE(s.isSurjective());
  EXPECT_FALSE(s.hasDisjointBits());
}

TEST(LinearLayoutTest, InvertGivesTheInverseMap) {
  LinearLayout s({{"offset", 4}}, LinearLayout::tileDims({4, 4}), {{1, 2, 4 | 1, 8 | 2}});
  std::optional<LinearLayout> inv = s.invert();
  ASSERT_TRUE(inv);
  for (uint64_t x = 0; x < 16; ++x)
    EXPECT_EQ(inv->applyFlat(s.apply(kOffset, x)), x) << "offset " << x;
  EXPECT_EQ(s.compose(*inv), LinearLayout({{"offset", 4}}, {{"offset", 4}}, {{1, 2, 4, 8}}));
}

TEST(LinearLayoutTest, InvertRefusesAMapThatReplicates) {
  EXPECT_FALSE(rowMajorWarp().invert());
}

TEST(LinearLayoutTest, PseudoinversePrefersEarlierInputs) {
  // Column 1 is reached by the register and by lane bit 0: the inverse takes the register.
  LinearLayout l({{"register", 1}, {"lane", 2}}, LinearLayout::tileDims({4}), {{1}, {1, 2}});
  std::optional<LinearLayout> inv = l.pseudoinvert();
  ASSERT_TRUE(inv);
  // Inputs flatten row-major: register is the high bit, lane the two low bits.
  EXPECT_EQ(inv->applyFlat(1), 0b100u);
  EXPECT_EQ(inv->applyFlat(2), 0b010u);
  for (uint64_t x = 0; x < 4; ++x)
    EXPECT_EQ(l.apply({(inv->applyFlat(x) >> 2) & 1, inv->applyFlat(x) & 3}), x);
}

TEST(LinearLayoutTest, PseudoinverseNeedsASurjection) {
  LinearLayout l({{"register", 1}}, LinearLayout::tileDims({4}), {{1}});
  EXPECT_FALSE(l.pseudoinvert());
}

TEST(LinearLayoutTest, ComposeAppliesTheOuterMapToEachBasis) {
  LinearLayout inner({{"register", 2}}, {{"x", 2}}, {{2, 1}});
  LinearLayout outer({{"x", 2}}, LinearLayout::tileDims({4}), {{1, 3}});
  LinearLayout c = inner.compose(outer);
  for (uint64_t r = 0; r < 4; ++r)
    EXPECT_EQ(c.apply({r}), outer.apply({inner.apply({r})}));
}

TEST(LinearLayoutTest, ReshapeKeepsTheFlatBits) {
  LinearLayout l = rowMajorWarp();
  LinearLayout flat = l.reshapeOuts(LinearLayout::tileDims({32}));
  EXPECT_EQ(flat.getBases(kLane), l.getBases(kLane));
  EXPECT_EQ(flat.getOutShape(), (SmallVector<int64_t>{32}));
}

TEST(LinearLayoutTest, PermuteSwapsCoordinates) {
  LinearLayout t = rowMajorWarp().permuteOuts({1, 0});
  EXPECT_EQ(t.getOutShape(), (SmallVector<int64_t>{8, 4}));
  // Register 1 was column 1; after the transpose it is row 1: flat 4.
  EXPECT_EQ(t.outCoords(t.apply(kRegister, 1)), (SmallVector<int64_t>{1, 0}));
  EXPECT_EQ(t.permuteOuts({1, 0}), rowMajorWarp());
}

TEST(LinearLayoutTest, RemoveAndInsertOutputs) {
  LinearLayout l = rowMajorWarp();
  LinearLayout rows = l.removeOut("dim1");
  EXPECT_EQ(rows.getOutShape(), (SmallVector<int64_t>{4}));
  EXPECT_EQ(rows.getBases(kRegister), (llvm::ArrayRef<uint64_t>{0}));
  EXPECT_EQ(rows.getBases(kLane), (llvm::ArrayRef<uint64_t>{0, 0, 1, 2, 0}));
  LinearLayout back = rows.insertOut(1, {"dim1", 0});
  EXPECT_EQ(back.getOutShape(), (SmallVector<int64_t>{4, 1}));
  EXPECT_EQ(rows.removeZeroBases(kRegister).getInBits(kRegister), 0u);
}

TEST(LinearLayoutTest, SameMappingIsNoMovement) {
  EXPECT_EQ(classifyMovement(rowMajorWarp(), rowMajorWarp()), Movement::None);
}

TEST(LinearLayoutTest, RegistersOnlyWhenEveryThreadKeepsItsElements) {
  // Two registers (columns 0 and 1) swapped: the same elements per thread.
  LinearLayout a({{"register", 2}, {"lane", 5}, {"warp", 0}}, LinearLayout::tileDims({2, 64}),
                 {{1, 2}, {4, 8, 16, 32, 64}, {}});
  LinearLayout b({{"register", 2}, {"lane", 5}, {"warp", 0}}, LinearLayout::tileDims({2, 64}),
                 {{2, 1}, {4, 8, 16, 32, 64}, {}});
  EXPECT_EQ(classifyMovement(a, b), Movement::Registers);
  EXPECT_EQ(registerBases(a, b), (SmallVector<int64_t>{2, 1}));
}

TEST(LinearLayoutTest, DiffersOnlyWithinAWarpIsAShuffle) {
  // The same warp halves, lanes and registers exchanged inside each.
  LinearLayout a({{"register", 1}, {"lane", 5}, {"warp", 1}}, LinearLayout::tileDims({128}),
                 {{1}, {2, 4, 8, 16, 32}, {64}});
  LinearLayout b({{"register", 1}, {"lane", 5}, {"warp", 1}}, LinearLayout::tileDims({128}),
                 {{32}, {1, 2, 4, 8, 16}, {64}});
  EXPECT_EQ(classifyMovement(a, b), Movement::WarpShuffle);
  // Exchanging which warp holds which half crosses warps.
  LinearLayout c({{"register", 1}, {"lane", 5}, {"warp", 1}}, LinearLayout::tileDims({128}),
                 {{64}, {1, 2, 4, 8, 16}, {32}});
  EXPECT_EQ(classifyMovement(a, c), Movement::SharedMemory);
}

/// The XOR of the entries of `bases` selected by the set bits of `x`.
uint64_t span(llvm::ArrayRef<int64_t> bases, uint64_t x) {
  uint64_t v = 0;
  for (auto [bit, b] : llvm::enumerate(bases))
    if ((x >> bit) & 1)
      v ^= uint64_t(b);
  return v;
}

/// Every element of every thread of `dst` is where shuffleMap says it is in `src`.
void expectShuffleFinds(const LinearLayout &src, const LinearLayout &dst) {
  ShuffleMap map = shuffleMap(src, dst);
  unsigned laneBits = dst.getInBits(kLane);
  for (uint64_t w = 0; w < uint64_t(dst.getInSize(kWarp)); ++w)
    for (uint64_t l = 0; l < uint64_t(dst.getInSize(kLane)); ++l)
      for (uint64_t r = 0; r < uint64_t(dst.getInSize(kRegister)); ++r) {
        uint64_t thread = l | (w << laneBits);
        uint64_t reg = span(map.regFromReg, r) ^ span(map.regFromThread, thread);
        uint64_t lane = span(map.laneFromReg, r) ^ span(map.laneFromThread, thread);
        EXPECT_EQ(src.apply({reg, lane, w}), dst.apply({r, l, w}))
            << "register " << r << " lane " << l << " warp " << w;
      }
}

TEST(LinearLayoutTest, ShuffleMapFindsEveryElementInItsWarp) {
  LinearLayout a({{"register", 1}, {"lane", 5}, {"warp", 1}}, LinearLayout::tileDims({128}),
                 {{1}, {2, 4, 8, 16, 32}, {64}});
  LinearLayout b({{"register", 1}, {"lane", 5}, {"warp", 1}}, LinearLayout::tileDims({128}),
                 {{32}, {1, 2, 4, 8, 16}, {64}});
  expectShuffleFinds(a, b);
  ShuffleMap map = shuffleMap(a, b);
  // Register 1 of b (element 32) is register 0 of lane 16; lane bit 0 (element 1) is a's
  // register 1: the register a lane reads depends on its lane.
  EXPECT_EQ(map.regFromReg, (SmallVector<int64_t>{0}));
  EXPECT_EQ(map.laneFromReg, (SmallVector<int64_t>{16}));
  EXPECT_EQ(map.regFromThread, (SmallVector<int64_t>{1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(map.laneFromThread, (SmallVector<int64_t>{0, 1, 2, 4, 8, 0}));
}

TEST(LinearLayoutTest, ShuffleMapFollowsWarpsThatSwapHalvesOfTheirElements) {
  // Both warps hold 64 elements; b's warp 1 starts 32 elements later within a's warp tile
  // pattern, which the warp's own lanes still cover.
  LinearLayout a({{"register", 1}, {"lane", 5}, {"warp", 1}}, LinearLayout::tileDims({2, 64}),
                 {{1}, {2, 4, 8, 16, 32}, {64}});
  LinearLayout b({{"register", 1}, {"lane", 5}, {"warp", 1}}, LinearLayout::tileDims({2, 64}),
                 {{1}, {4, 2, 8, 16, 32}, {64 | 32}});
  ASSERT_EQ(classifyMovement(a, b), Movement::WarpShuffle);
  expectShuffleFinds(a, b);
  ShuffleMap map = shuffleMap(a, b);
  EXPECT_EQ(map.regFromThread, (SmallVector<int64_t>{0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(map.laneFromThread, (SmallVector<int64_t>{2, 1, 4, 8, 16, 16}));
}

TEST(LinearLayoutTest, ABroadcastProjectionIsFreeWhenThreadsHoldTheirSources) {
  // A [4] tile replicated over lanes 2..4 (a reduction's result), broadcast to [4 x 8] along
  // the columns held by those lanes: the projection of the [4 x 8] layout onto the rows.
  LinearLayout rows({{"register", 0}, {"lane", 5}, {"warp", 0}}, LinearLayout::tileDims({4}),
                    {{}, {1, 2, 0, 0, 0}, {}});
  LinearLayout full({{"register", 1}, {"lane", 5}, {"warp", 0}}, LinearLayout::tileDims({4, 8}),
                    {{1}, {8, 16, 2, 4, 0}, {}});
  LinearLayout projected = full.removeOut("dim1");
  EXPECT_EQ(classifyMovement(rows, projected), Movement::Registers);
  EXPECT_EQ(registerBases(rows, projected), (SmallVector<int64_t>{0}));
}

} // namespace
