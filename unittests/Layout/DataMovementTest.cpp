//===- DataMovementTest.cpp - the views of cat and extract ----------------------===//
//
// A cat and an extract move elements between tiles of different shapes; DataMovement.h sees
// them as movements between linear layouts of one tile (the operands stacked, or the
// source's first sub-tile). These tests check those views element by element against the
// ops' definitions, and the decisions made on them.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/TileGPU/DataMovement.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace tilecc;
using namespace tilecc::tilegpu;
using llvm::SmallVector;

namespace {

class DataMovementTest : public ::testing::Test {
protected:
  DataMovementTest() { ctx.loadDialect<TileGPUDialect>(); }
  /// Rows of 4-element chunks: 8 lanes along the columns, 4 along the rows, `warps` warps
  /// down the rows.
  LinearLayout rows(ArrayRef<int64_t> shape, unsigned warps = 2) {
    return BlockedLayoutAttr::get(&ctx, {1, 4}, {4, 8}, {warps, 1}, {1, 0})
        .toLinearLayout(shape, warps);
  }
  MLIRContext ctx;
};

TEST_F(DataMovementTest, CatViewNamesTheOperandAndItsElement) {
  LinearLayout result = rows({16, 64});
  LinearLayout view = catView(result, 1);
  EXPECT_EQ(view.getOutShape(), (SmallVector<int64_t>{2, 16, 32}));
  for (uint64_t r = 0; r < uint64_t(result.getInSize(kRegister)); ++r)
    for (uint64_t lane = 0; lane < 32; ++lane)
      for (uint64_t warp = 0; warp < 2; ++warp) {
        SmallVector<int64_t> c = result.outCoords(result.apply({r, lane, warp}));
        SmallVector<int64_t> v = view.outCoords(view.apply({r, lane, warp}));
        EXPECT_EQ(v, (SmallVector<int64_t>{c[1] / 32, c[0], c[1] % 32}));
      }
}

TEST_F(DataMovementTest, StackedOperandsAddTheSecondOperandAsTheHighestRegisterBit) {
  LinearLayout operand = rows({16, 32});
  LinearLayout stacked = stackedOperands(operand);
  int64_t n = operand.getInSize(kRegister);
  EXPECT_EQ(stacked.getInSize(kRegister), 2 * n);
  for (uint64_t r = 0; r < uint64_t(n); ++r)
    for (uint64_t lane = 0; lane < 32; ++lane) {
      SmallVector<int64_t> c = operand.outCoords(operand.apply({r, lane, 1}));
      EXPECT_EQ(stacked.outCoords(stacked.apply({r, lane, 1})),
                (SmallVector<int64_t>{0, c[0], c[1]}));
      EXPECT_EQ(stacked.outCoords(stacked.apply({r + uint64_t(n), lane, 1})),
                (SmallVector<int64_t>{1, c[0], c[1]}));
    }
}

TEST_F(DataMovementTest, ACatAlongRepeatedRegistersStaysInItsThreads) {
  // The operands' 32 columns are one pattern of lanes; the result repeats it, so every thread
  // already holds its result elements: register r of the second half is the rhs's register.
  LinearLayout operand = rows({16, 32}), result = rows({16, 64});
  LinearLayout stacked = stackedOperands(operand), view = catView(result, 1);
  ASSERT_EQ(classifyMovement(stacked, view), Movement::Registers);
  SmallVector<int64_t> bases = registerBases(stacked, view);
  int64_t n = operand.getInSize(kRegister);
  for (int64_t r = 0; r < result.getInSize(kRegister); ++r) {
    int64_t from = 0;
    for (size_t b = 0; b < bases.size(); ++b)
      if ((r >> b) & 1)
        from ^= bases[b];
    SmallVector<int64_t> c = result.outCoords(result.apply({uint64_t(r), 5, 1}));
    SmallVector<int64_t> s = stacked.outCoords(stacked.apply({uint64_t(from), 5, 1}));
    EXPECT_EQ(s, (SmallVector<int64_t>{c[1] / 32, c[0], c[1] % 32}));
    EXPECT_EQ(from >= n, c[1] >= 32);
  }
}

TEST_F(DataMovementTest, ACatAcrossLanesMovesElements) {
  // Operands of 16 columns hold copies in half their lanes; joined to 32 columns, those lanes
  // need the other operand's elements, which other threads hold.
  LinearLayout operand = rows({16, 16}), result = rows({16, 32});
  EXPECT_NE(classifyMovement(stackedOperands(operand), catView(result, 1)), Movement::Registers);
}

TEST_F(DataMovementTest, ExtractViewIsTheFirstSubTile) {
  LinearLayout result = rows({8, 32});
  LinearLayout view = extractView(result, {16, 128});
  for (uint64_t r = 0; r < uint64_t(result.getInSize(kRegister)); ++r)
    for (uint64_t lane = 0; lane < 32; ++lane)
      EXPECT_EQ(view.outCoords(view.apply({r, lane, 0})),
                result.outCoords(result.apply({r, lane, 0})));
}

TEST_F(DataMovementTest, SubTilesHeldInRegistersAreChosenByRegister) {
  // A [16 x 128] tile whose lanes and warps cover [8 x 32]: its sub-tiles of that shape are
  // its register repeats. Sub-tile f (row-major over 2 x 4) adds the registers that hold the
  // element at (8 * (f / 4), 32 * (f % 4)) of the thread's first.
  LinearLayout source = rows({16, 128}), result = rows({8, 32});
  ASSERT_EQ(classifyMovement(source, extractView(result, {16, 128})), Movement::Registers);
  std::optional<SmallVector<int64_t>> index = subTileRegisters(source, result);
  ASSERT_TRUE(index);
  ASSERT_EQ(index->size(), 3u);
  for (int64_t f = 0; f < 8; ++f) {
    int64_t reg = 0;
    for (size_t b = 0; b < index->size(); ++b)
      if ((f >> b) & 1)
        reg ^= (*index)[b];
    EXPECT_EQ(source.outCoords(source.apply({uint64_t(reg), 0, 0})),
              (SmallVector<int64_t>{8 * (f / 4), 32 * (f % 4)}));
  }
}

TEST_F(DataMovementTest, SubTilesSpreadOverLanesAreNotInRegisters) {
  // Sub-tiles of 16 columns in a tile whose 8 lanes cover 32: the second sub-tile is in other
  // lanes.
  EXPECT_FALSE(subTileRegisters(rows({8, 32}), rows({8, 16})));
}

} // namespace
