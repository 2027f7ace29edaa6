//===- LayoutAttrsTest.cpp - tilegpu layout attributes as linear layouts --------===//
//
// Each layout's toLinearLayout against the coordinates its definition gives (TileGPUOps.td,
// the PTX fragment layouts), computed here element by element.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/SmallSet.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace tilecc;
using namespace tilecc::tilegpu;
using llvm::SmallVector;

namespace {

std::string text(Attribute attr) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << attr;
  return s;
}

class LayoutAttrsTest : public ::testing::Test {
protected:
  LayoutAttrsTest() { ctx.loadDialect<TileGPUDialect>(); }
  MLIRContext ctx;
};

/// Coordinates of register r of thread (lane, warp) under a blocked layout, from its
/// definition: chunks of sizePerThread, lanes then warps along `order`, repeating over the
/// tile and wrapping where the pattern is larger than it.
SmallVector<int64_t> blockedCoords(BlockedLayoutAttr b, ArrayRef<int64_t> shape, int64_t r,
                                   int64_t lane, int64_t warp) {
  size_t rank = shape.size();
  SmallVector<int64_t> coords(rank);
  for (unsigned axis : b.getOrder()) {
    int64_t spt = b.getSizePerThread()[axis], tpw = b.getThreadsPerWarp()[axis],
            wpb = b.getWarpsPerBlock()[axis], cta = spt * tpw * wpb;
    int64_t along = spt * std::max<int64_t>(1, shape[axis] / cta);
    int64_t j = r % along;
    r /= along;
    int64_t l = lane % tpw, w = warp % wpb;
    lane /= tpw, warp /= wpb;
    coords[axis] = ((w * tpw + l) * spt + (j / spt) * cta + j % spt) % shape[axis];
  }
  return coords;
}

TEST_F(LayoutAttrsTest, BlockedMatchesItsDefinition) {
  struct Case {
    SmallVector<unsigned> spt, tpw, wpb, order;
    SmallVector<int64_t> shape;
  };
  Case cases[] = {
      {{4}, {32}, {4}, {0}, {1024}},               // rows of a softmax: 2 repeats
      {{4}, {32}, {4}, {0}, {256}},                // no repeat
      {{8}, {32}, {4}, {0}, {64}},                 // wraps: lanes and warps replicate
      {{1, 4}, {4, 8}, {4, 1}, {1, 0}, {64, 32}},  // 2-D, row-major
      {{1, 8}, {2, 16}, {1, 4}, {1, 0}, {1, 128}}, // a row broadcast's operand
      {{2, 1}, {8, 4}, {1, 2}, {0, 1}, {32, 16}},  // column-major order
  };
  for (const Case &c : cases) {
    auto attr = BlockedLayoutAttr::get(&ctx, c.spt, c.tpw, c.wpb, c.order);
    unsigned warps = attr.getNumWarps();
    LinearLayout l = attr.toLinearLayout(c.shape, warps);
    ASSERT_EQ(l.getInSize(kRegister), attr.getElemsPerThread(c.shape)) << l.str();
    EXPECT_TRUE(l.isSurjective()) << l.str();
    EXPECT_TRUE(l.hasDisjointBits()) << l.str();
    for (int64_t r = 0; r < l.getInSize(kRegister); ++r)
      for (int64_t lane = 0; lane < 32; ++lane)
        for (int64_t warp = 0; warp < warps; ++warp)
          ASSERT_EQ(l.outCoords(l.apply({uint64_t(r), uint64_t(lane), uint64_t(warp)})),
                    blockedCoords(attr, c.shape, r, lane, warp))
              << text(attr) << " register " << r << " lane " << lane << " warp " << warp;
  }
}

TEST_F(LayoutAttrsTest, BlockedReplicationIsTheFreeLaneAndWarpBits) {
  auto attr = BlockedLayoutAttr::get(&ctx, {8}, {32}, {4}, {0});
  LinearLayout l = attr.toLinearLayout({64}, 4);
  EXPECT_EQ(l.getFreeMask(kLane), 0b11000u); // lanes 8..31 hold copies of lanes 0..7
  EXPECT_EQ(l.getFreeMask(kWarp), 0b11u);
}

TEST_F(LayoutAttrsTest, MmaAccumulatorIsThePtxFragment) {
  // m16n8 accumulator: lane 4g + t holds (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1); warps
  // on a WM x WN grid; registers over the repeats along N, then M.
  auto attr = MmaLayoutAttr::get(&ctx, {2, 2});
  SmallVector<int64_t> shape{64, 32};
  LinearLayout l = attr.toLinearLayout(shape, 8);
  ASSERT_EQ(l.getInSize(kRegister), attr.getElemsPerThread(shape));
  int64_t rm = 64 / 32, rn = 32 / 16;
  for (int64_t r = 0; r < l.getInSize(kRegister); ++r)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (int64_t warp = 0; warp < 8; ++warp) {
        int64_t w = warp % 4, g = lane / 4, t = lane % 4, e = r % 4;
        int64_t row = (r / 4 / rn) % rm * 32 + (w / 2) * 16 + g + (e & 2) * 4;
        int64_t col = (r / 4) % rn * 16 + (w % 2) * 8 + 2 * t + (e & 1);
        ASSERT_EQ(l.outCoords(l.apply({uint64_t(r), uint64_t(lane), uint64_t(warp)})),
                  (SmallVector<int64_t>{row, col}))
            << "register " << r << " lane " << lane << " warp " << warp;
      }
  EXPECT_EQ(l.getFreeMask(kWarp), 0b100u); // warps 4..7 hold copies
}

TEST_F(LayoutAttrsTest, DotOperandsAreThePtxFragments) {
  auto parent = MmaLayoutAttr::get(&ctx, {2, 2});
  for (unsigned kw : {1u, 2u, 4u}) {
    int64_t ki = 8 * kw;
    // A: 64 x 2ki; a lane holds (g + 8 h, kw t + e % kw + 4 kw q) per 16 x ki tile.
    auto a = DotOperandLayoutAttr::get(&ctx, 0, parent, kw);
    SmallVector<int64_t> shapeA{64, 2 * ki};
    LinearLayout la = a.toLinearLayout(shapeA, 4);
    ASSERT_EQ(la.getInSize(kRegister), a.getElemsPerThread(shapeA));
    int64_t perA = ki / 2, rr = 64 / 32, rc = 2;
    for (int64_t r = 0; r < la.getInSize(kRegister); ++r)
      for (int64_t lane = 0; lane < 32; ++lane)
        for (int64_t warp = 0; warp < 4; ++warp) {
          int64_t e = r % perA, tc = r / perA % rc, tr = r / perA / rc % rr;
          int64_t g = lane / 4, t = lane % 4, wm = warp / 2;
          int64_t row = tr * 32 + wm * 16 + g + 8 * ((e / kw) & 1);
          int64_t col = tc * ki + kw * t + e % kw + 4 * kw * (e / kw / 2);
          ASSERT_EQ(la.outCoords(la.apply({uint64_t(r), uint64_t(lane), uint64_t(warp)})),
                    (SmallVector<int64_t>{row, col}))
              << "A kWidth " << kw << " register " << r << " lane " << lane;
        }
    // B: 2ki x 32; a lane holds (kw t + e % kw + 4 kw (e / kw), g) per ki x 8 tile.
    auto b = DotOperandLayoutAttr::get(&ctx, 1, parent, kw);
    SmallVector<int64_t> shapeB{2 * ki, 32};
    LinearLayout lb = b.toLinearLayout(shapeB, 4);
    ASSERT_EQ(lb.getInSize(kRegister), b.getElemsPerThread(shapeB));
    int64_t perB = ki / 4, brr = 2, brc = 32 / 16;
    for (int64_t r = 0; r < lb.getInSize(kRegister); ++r)
      for (int64_t lane = 0; lane < 32; ++lane)
        for (int64_t warp = 0; warp < 4; ++warp) {
          int64_t e = r % perB, tc = r / perB % brc, tr = r / perB / brc % brr;
          int64_t g = lane / 4, t = lane % 4, wn = warp % 2;
          int64_t row = tr * ki + kw * t + e % kw + 4 * kw * (e / kw);
          int64_t col = tc * 16 + wn * 8 + g;
          ASSERT_EQ(lb.outCoords(lb.apply({uint64_t(r), uint64_t(lane), uint64_t(warp)})),
                    (SmallVector<int64_t>{row, col}))
              << "B kWidth " << kw << " register " << r << " lane " << lane;
        }
  }
}

TEST_F(LayoutAttrsTest, SliceDropsTheAxisAndItsRegisters) {
  auto parent = BlockedLayoutAttr::get(&ctx, {1, 4}, {4, 8}, {4, 1}, {1, 0});
  auto slice = SliceLayoutAttr::get(&ctx, 1, parent);
  LinearLayout l = slice.toLinearLayout({64}, 4);
  LinearLayout p = parent.toLinearLayout({64, 32}, 4);
  // One register per row repeat (64 / 16 rows): the four column registers are gone.
  EXPECT_EQ(l.getInSize(kRegister), 4);
  // The eight lanes along the columns hold copies; lanes 8.. and warps spread the rows.
  EXPECT_EQ(l.getFreeMask(kLane), 0b00111u);
  EXPECT_EQ(l.getFreeMask(kWarp), 0u);
  // Each thread's rows are the rows of its parent's elements.
  for (int64_t r = 0; r < 4; ++r)
    for (int64_t lane = 0; lane < 32; ++lane)
      EXPECT_EQ(l.outCoords(l.apply({uint64_t(r), uint64_t(lane), 1}))[0],
                p.outCoords(p.apply({uint64_t(r * 4), uint64_t(lane), 1}))[0]);
}

TEST_F(LayoutAttrsTest, ReducingAndBroadcastingBackIsFree) {
  auto parent = BlockedLayoutAttr::get(&ctx, {1, 4}, {4, 8}, {4, 1}, {1, 0});
  LinearLayout full = parent.toLinearLayout({64, 32}, 4);
  LinearLayout rows = SliceLayoutAttr::get(&ctx, 1, parent).toLinearLayout({64}, 4);
  LinearLayout projected =
      full.removeOut(LinearLayout::axisName(1)).reshapeOuts(LinearLayout::tileDims({64}));
  EXPECT_EQ(classifyMovement(rows, projected), Movement::Registers);
}

TEST_F(LayoutAttrsTest, SharedSwizzleIsABijectionThatSpreadsAColumn) {
  auto plain = SharedLayoutAttr::get(&ctx, 1, 1, 1, {1, 0}, 0);
  LinearLayout p = plain.toLinearLayout({16, 64}, 0);
  for (uint64_t off = 0; off < 16 * 64; ++off)
    ASSERT_EQ(p.apply(kOffset, off), off); // row-major
  auto swizzled = SharedLayoutAttr::get(&ctx, 8, 1, 8, {1, 0}, 0);
  LinearLayout s = swizzled.toLinearLayout({16, 64}, 0);
  std::optional<LinearLayout> where = s.invert();
  ASSERT_TRUE(where);
  // Element (row, col) sits at group (col / 8) ^ (row % 8) of its row.
  for (int64_t row = 0; row < 16; ++row)
    for (int64_t col = 0; col < 64; ++col) {
      uint64_t off = where->applyFlat(s.flattenOut({row, col}));
      EXPECT_EQ(off, uint64_t(row * 64 + (((col / 8) ^ (row % 8)) * 8) + col % 8));
    }
  // The first 16 bytes of eight consecutive rows of a 16-bit tile land in distinct groups.
  llvm::SmallSet<uint64_t, 8> groups;
  for (int64_t row = 0; row < 8; ++row)
    groups.insert((where->applyFlat(s.flattenOut({row, 0})) % 64) / 8);
  EXPECT_EQ(groups.size(), 8u);
}

} // namespace

TEST_F(LayoutAttrsTest, LinearHoldsTheLayoutItWasMadeFrom) {
  auto blocked = BlockedLayoutAttr::get(&ctx, {1, 4}, {4, 8}, {4, 1}, {1, 0});
  LinearLayout l = blocked.toLinearLayout({64, 32}, 4);
  auto linear = LinearLayoutAttr::get(&ctx, l);
  EXPECT_TRUE(linear.fits({64, 32}));
  EXPECT_EQ(linear.toLinearLayout({64, 32}, 4), l);
  // It prints its bases as coordinates and parses back to the same attribute.
  EXPECT_EQ(parseAttribute(text(linear), &ctx), Attribute(linear));
}

TEST_F(LayoutAttrsTest, LinearUnderAReshapeWithAUnitAxisIsTheSameMap) {
  // Row sums of a 64 x 128 tile, seen as 1 x 64: every thread keeps its rows.
  auto parent = BlockedLayoutAttr::get(&ctx, {1, 8}, {2, 16}, {4, 1}, {1, 0});
  LinearLayout rows = SliceLayoutAttr::get(&ctx, 1, parent).toLinearLayout({64}, 4);
  auto linear = LinearLayoutAttr::get(&ctx, rows.reshapeOuts(LinearLayout::tileDims({1, 64})));
  LinearLayout seen = linear.toLinearLayout({1, 64}, 4);
  EXPECT_EQ(classifyMovement(rows, seen.reshapeOuts(LinearLayout::tileDims({64}))),
            Movement::None);
}

TEST_F(LayoutAttrsTest, LinearFitsOnlyTheTilesItCovers) {
  // Four registers along the columns and lanes down 32 rows: a 32 x 4 tile exactly.
  auto linear = LinearLayoutAttr::get(&ctx, 2, {0, 1, 0, 2}, {1, 0, 2, 0, 4, 0, 8, 0, 16, 0}, {});
  EXPECT_TRUE(linear.fits({32, 4}));
  EXPECT_FALSE(linear.fits({64, 4})); // half the rows would have no thread
  EXPECT_FALSE(linear.fits({32, 2})); // a basis past the last column
  EXPECT_FALSE(linear.fits({128}));   // another rank
  // As a slice's parent over a unit axis, coordinates past the extent wrap to 0: copies.
  LinearLayout column = linear.toLinearLayout({32, 1}, 1);
  EXPECT_EQ(column.getFreeMask(kRegister), 0b11u);
}
