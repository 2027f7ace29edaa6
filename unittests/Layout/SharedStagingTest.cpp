//===- SharedStagingTest.cpp - how exchanges lay tiles out in shared memory -----===//
//
// The staging offsets (padding and XOR swizzle), the bank model that counts shared-memory
// wavefronts, and the vector width a staging leaves an access.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/TileGPU/SharedStaging.h"

#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <set>

using namespace mlir;
using namespace tilecc;
using namespace tilecc::tilegpu;

namespace {

class SharedStagingTest : public ::testing::Test {
protected:
  SharedStagingTest() { ctx.loadDialect<TileGPUDialect>(); }
  /// One warp over a 32 x 32 tile: `vec` consecutive elements of a row per thread, the lanes
  /// along the row first.
  LinearLayout rowsOf(int64_t vec) {
    unsigned along = unsigned(32 / vec);
    return BlockedLayoutAttr::get(&ctx, {1, unsigned(vec)}, {32 / along, along}, {1, 1}, {1, 0})
        .toLinearLayout({32, 32}, 1);
  }
  /// One warp over a 32 x 32 tile: lane k holds column-major elements of row k.
  LinearLayout columns() {
    return BlockedLayoutAttr::get(&ctx, {1, 1}, {32, 1}, {1, 1}, {0, 1})
        .toLinearLayout({32, 32}, 1);
  }
  static Staging plain() {
    Staging s;
    s.cols = 32;
    return s;
  }
  MLIRContext ctx;
};

TEST_F(SharedStagingTest, SwizzlePermutesGroupsWithinEachRow) {
  Staging s = plain();
  s.vec = 4;
  s.perPhase = 1;
  s.maxPhase = 8;
  for (int64_t row = 0; row < 32; ++row) {
    std::set<int64_t> offsets;
    for (int64_t col = 0; col < 32; ++col) {
      int64_t off = s.offset(row * 32 + col);
      EXPECT_EQ(off / 32, row);
      EXPECT_EQ(off % 4, col % 4); // a group stays whole
      offsets.insert(off);
    }
    EXPECT_EQ(offsets.size(), 32u);
  }
  EXPECT_EQ(s.offset(1 * 32 + 0), 32 + 4); // row 1's first group goes to position 1
}

TEST_F(SharedStagingTest, PaddingShiftsEachRow) {
  Staging s = plain();
  s.pad = 1;
  EXPECT_EQ(s.offset(3 * 32 + 5), 3 * 33 + 5);
  EXPECT_EQ(s.bufferElements(32 * 32), 32 * 33);
}

TEST_F(SharedStagingTest, ARowMajorWarpWriteTakesOneWavefrontPerWord) {
  // 32 lanes write 32 consecutive floats: one wavefront per register.
  EXPECT_EQ(sharedWavefronts(rowsOf(1), plain(), 4, 1, true), 32);
  // 16-byte vectors: four phases of eight lanes, each conflict free, per vector.
  EXPECT_EQ(sharedWavefronts(rowsOf(4), plain(), 4, 4, true), 8 * 4);
}

TEST_F(SharedStagingTest, AColumnReadConflictsInAPlainBufferAndNotInAPaddedOne) {
  // Lane k reads row k of one column: every lane in bank `column` of a plain buffer.
  EXPECT_EQ(sharedWavefronts(columns(), plain(), 4, 1, false), 32 * 32);
  Staging padded = plain();
  padded.pad = 1;
  EXPECT_EQ(sharedWavefronts(columns(), padded, 4, 1, false), 32);
  Staging swizzled = plain();
  swizzled.maxPhase = 32;
  EXPECT_EQ(sharedWavefronts(columns(), swizzled, 4, 1, false), 32);
}

TEST_F(SharedStagingTest, LanesReadingOneWordShareIt) {
  // Every lane of a replicated layout reads the same element: a broadcast, no conflict.
  LinearLayout all = BlockedLayoutAttr::get(&ctx, {1, 1}, {1, 32}, {1, 1}, {1, 0})
                         .toLinearLayout({1, 1}, 1);
  Staging s;
  EXPECT_EQ(sharedWavefronts(all, s, 4, 1, false), 1);
}

TEST_F(SharedStagingTest, VectorsKeepToTheStagingsAlignment) {
  EXPECT_EQ(stagedVector(rowsOf(4), plain(), 4), 4);
  Staging padded = plain();
  padded.pad = 1; // rows 33 floats apart: no 16-byte access stays aligned
  EXPECT_EQ(stagedVector(rowsOf(4), padded, 4), 1);
  Staging swizzled = plain();
  swizzled.vec = 2;
  swizzled.maxPhase = 4; // groups of 2 floats move independently
  EXPECT_EQ(stagedVector(rowsOf(4), swizzled, 4), 2);
  // Registers that step down a column are not one access.
  LinearLayout down = BlockedLayoutAttr::get(&ctx, {1, 1}, {1, 32}, {1, 1}, {0, 1})
                          .toLinearLayout({32, 32}, 1);
  EXPECT_EQ(stagedVector(down, plain(), 4), 1);
}

} // namespace
