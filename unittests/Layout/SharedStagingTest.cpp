//===- SharedStagingTest.cpp - how exchanges lay tiles out in shared memory -----===//
//
// The staging offsets (padding and XOR swizzle), the bank model that counts shared-memory
// wavefronts, the vector width a staging leaves an access, and the boxes by which the tensor
// memory accelerator writes ring stages.
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

TEST_F(SharedStagingTest, LongRowsOfARingAreStoredInSwizzledBlocksOf128Bytes) {
  // A 32 x 128 f16 stage: 256-byte rows become two block columns of 32 rows x 64 elements.
  auto tile = RankedTensorType::get({32, 128}, Float16Type::get(&ctx));
  SharedLayoutAttr layout = ldmatrixBufferLayout(tile);
  EXPECT_EQ(layout.getBlock(), 64u);
  Staging s = bufferStaging(BufferType::get(&ctx, 2, tile, layout));
  EXPECT_EQ(s.block, 64);
  EXPECT_EQ(s.rows, 32);
  for (int64_t row = 0; row < 32; ++row)
    for (int64_t col = 0; col < 128; ++col) {
      int64_t off = s.offset(row * 128 + col);
      int64_t group = ((col % 64) / 8) ^ (row % 8);
      EXPECT_EQ(off, (col / 64) * 32 * 64 + row * 64 + group * 8 + col % 8);
    }
}

TEST_F(SharedStagingTest, ABufferLayoutsLinearFormAgreesWithItsStaging) {
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{32, 128}, {64, 32}, {16, 16}, {64, 256}}) {
    auto tile = RankedTensorType::get({rows, cols}, BFloat16Type::get(&ctx));
    SharedLayoutAttr layout = ldmatrixBufferLayout(tile);
    Staging s = bufferStaging(BufferType::get(&ctx, 1, tile, layout));
    LinearLayout linear = layout.toLinearLayout({rows, cols}, 0);
    std::optional<LinearLayout> where = linear.invert();
    ASSERT_TRUE(where);
    for (int64_t lin = 0; lin < rows * cols; ++lin)
      ASSERT_EQ(int64_t(where->applyFlat(linear.flattenOut({lin / cols, lin % cols}))),
                s.offset(lin))
          << rows << "x" << cols << " element " << lin;
  }
}

TEST_F(SharedStagingTest, WgmmaReadsRingsOfRowsOf32BytesOrMore) {
  auto f16 = Float16Type::get(&ctx);
  auto ring = [&](int64_t rows, int64_t cols) {
    auto tile = RankedTensorType::get({rows, cols}, f16);
    return BufferType::get(&ctx, 2, tile, ldmatrixBufferLayout(tile));
  };
  EXPECT_TRUE(warpgroupReadable(ring(128, 64), 0));
  EXPECT_TRUE(warpgroupReadable(ring(64, 256), 1));
  EXPECT_TRUE(warpgroupReadable(ring(64, 16), 0));
  EXPECT_FALSE(warpgroupReadable(ring(64, 8), 0)); // 16-byte rows: no swizzle mode reads them
  auto tile = RankedTensorType::get({64, 64}, f16);
  auto padded = SharedLayoutAttr::get(&ctx, 1, 1, 1, {1, 0}, 0);
  EXPECT_FALSE(warpgroupReadable(BufferType::get(&ctx, 2, tile, padded), 0));
}

TEST_F(SharedStagingTest, WgmmaReadsColumnMajorStagesAlongTheirFirstAxis) {
  auto f16 = Float16Type::get(&ctx);
  auto tile = RankedTensorType::get({64, 256}, f16);
  BufferType ring = BufferType::get(&ctx, 2, tile, ldmatrixBufferLayout(tile, 0));
  EXPECT_TRUE(columnMajor(ring));
  EXPECT_TRUE(warpgroupReadable(ring, 1)); // B stored K-major
  EXPECT_TRUE(warpgroupReadable(ring, 0)); // 16-bit A may be M-major
  // A column-major stage of 8-byte columns: no swizzle mode reads it.
  auto narrow = RankedTensorType::get({4, 64}, f16);
  EXPECT_FALSE(warpgroupReadable(BufferType::get(&ctx, 2, narrow, ldmatrixBufferLayout(narrow, 0)), 1));
}

TEST_F(SharedStagingTest, WgmmaReads8BitOperandsOnlyKMajor) {
  auto f8 = Float8E4M3FNType::get(&ctx);
  auto a = RankedTensorType::get({128, 128}, f8), b = RankedTensorType::get({128, 256}, f8);
  EXPECT_TRUE(warpgroupReadable(BufferType::get(&ctx, 2, a, ldmatrixBufferLayout(a)), 0));
  EXPECT_FALSE(warpgroupReadable(BufferType::get(&ctx, 2, a, ldmatrixBufferLayout(a, 0)), 0));
  EXPECT_TRUE(warpgroupReadable(BufferType::get(&ctx, 2, b, ldmatrixBufferLayout(b, 0)), 1));
  EXPECT_FALSE(warpgroupReadable(BufferType::get(&ctx, 2, b, ldmatrixBufferLayout(b)), 1));
}

TEST_F(SharedStagingTest, AColumnMajorStageStoresTheTilesTranspose) {
  // A 64 x 256 stage along its first axis: 256 stored rows of 64 elements (128 bytes, one
  // swizzle row each); element (r, c) is stored row c, column r.
  auto tile = RankedTensorType::get({64, 256}, BFloat16Type::get(&ctx));
  SharedLayoutAttr layout = ldmatrixBufferLayout(tile, 0);
  EXPECT_EQ(layout.getOrder()[0], 0u);
  Staging s = bufferStaging(BufferType::get(&ctx, 1, tile, layout));
  EXPECT_EQ(s.cols, 64);
  EXPECT_EQ(s.tileCols, 256);
  LinearLayout linear = layout.toLinearLayout({64, 256}, 0);
  std::optional<LinearLayout> where = linear.invert();
  ASSERT_TRUE(where);
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t c = 0; c < 256; ++c) {
      int64_t group = (r / 8) ^ (c % 8);
      ASSERT_EQ(s.offset(r * 256 + c), c * 64 + group * 8 + r % 8) << r << ", " << c;
      ASSERT_EQ(int64_t(where->applyFlat(linear.flattenOut({r, c}))), s.offset(r * 256 + c));
    }
}

/// The byte at which the tensor memory accelerator writes byte `b` of a box with rows of
/// `rowBytes` bytes in the swizzle of that width (the 16-byte group index XOR the row's phase,
/// over 1024-byte-aligned boxes; the hardware's 32-, 64- and 128-byte modes).
int64_t tensorMapSwizzled(int64_t b, int64_t rowBytes) {
  int64_t groups = rowBytes / 16; // 2, 4 or 8 groups per row: the bits XORed
  return b ^ (((b >> 7) & (groups - 1)) << 4);
}

TEST_F(SharedStagingTest, TensorMapBoxesWriteRingStagesExactly) {
  // Every ring layout wgmma reads: the stage, box by box, is what the copies write.
  auto bf16 = BFloat16Type::get(&ctx);
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{128, 64}, {64, 256}, {128, 32}, {32, 64},
                            {64, 16}, {256, 128}}) {
    auto tile = RankedTensorType::get({rows, cols}, bf16);
    SharedLayoutAttr layout = ldmatrixBufferLayout(tile);
    std::optional<TensorMapBox> box = tensorMapBox(tile, layout);
    ASSERT_TRUE(box) << rows << "x" << cols;
    EXPECT_FALSE(box->columnMajor);
    EXPECT_EQ(box->rows, rows);
    EXPECT_EQ(box->cols * box->blocks, cols);
    int64_t rowBytes = box->cols * 2;
    EXPECT_EQ(box->swizzleBytes, rowBytes);
    Staging s = bufferStaging(BufferType::get(&ctx, 1, tile, layout));
    for (int64_t lin = 0; lin < rows * cols; ++lin) {
      int64_t row = lin / cols, col = lin % cols;
      int64_t block = col / box->cols;
      int64_t inBox = (row * box->cols + col % box->cols) * 2;
      int64_t byte = block * rows * rowBytes + tensorMapSwizzled(inBox, rowBytes);
      ASSERT_EQ(byte, s.offset(lin) * 2) << rows << "x" << cols << " element " << lin;
    }
  }
}

TEST_F(SharedStagingTest, ColumnMajorTensorMapBoxesWriteTheirStagesExactly) {
  // A map of an array contiguous along its first axis writes a column-major stage: the box's
  // rows are the tile's columns.
  auto bf16 = BFloat16Type::get(&ctx);
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{64, 256}, {128, 128}, {32, 64}}) {
    auto tile = RankedTensorType::get({rows, cols}, bf16);
    SharedLayoutAttr layout = ldmatrixBufferLayout(tile, 0);
    std::optional<TensorMapBox> box = tensorMapBox(tile, layout);
    ASSERT_TRUE(box) << rows << "x" << cols;
    EXPECT_TRUE(box->columnMajor);
    EXPECT_EQ(box->rows, cols);
    EXPECT_EQ(box->cols * box->blocks, rows);
    int64_t rowBytes = box->cols * 2;
    Staging s = bufferStaging(BufferType::get(&ctx, 1, tile, layout));
    for (int64_t lin = 0; lin < rows * cols; ++lin) {
      int64_t storedRow = lin % cols, storedCol = lin / cols;
      int64_t block = storedCol / box->cols;
      int64_t inBox = (storedRow * box->cols + storedCol % box->cols) * 2;
      int64_t byte = block * cols * rowBytes + tensorMapSwizzled(inBox, rowBytes);
      ASSERT_EQ(byte, s.offset(lin) * 2) << rows << "x" << cols << " element " << lin;
    }
  }
}

TEST_F(SharedStagingTest, TensorMapBoxesRefuseLayoutsTheHardwareCannotWrite) {
  auto f16 = Float16Type::get(&ctx);
  auto tile = [&](int64_t rows, int64_t cols) { return RankedTensorType::get({rows, cols}, f16); };
  // Unswizzled rows of a multiple of 16 bytes: a plain box.
  auto plain = SharedLayoutAttr::get(&ctx, 1, 1, 1, {1, 0}, 0);
  std::optional<TensorMapBox> box = tensorMapBox(tile(64, 32), plain);
  ASSERT_TRUE(box);
  EXPECT_EQ(box->swizzleBytes, 0);
  // Rows of 8 bytes, more than 256 rows, a rank-3 tile.
  EXPECT_FALSE(tensorMapBox(tile(64, 4), plain));
  EXPECT_FALSE(tensorMapBox(tile(512, 64), ldmatrixBufferLayout(tile(512, 64))));
  auto cube = RankedTensorType::get({2, 64, 64}, f16);
  EXPECT_FALSE(tensorMapBox(cube, SharedLayoutAttr::get(&ctx, 8, 1, 8, {2, 1, 0}, 0)));
  // A swizzle whose phase does not follow the 128-byte pattern (a new phase every row of 64
  // bytes) is not one of the hardware's modes.
  EXPECT_FALSE(tensorMapBox(tile(64, 32), SharedLayoutAttr::get(&ctx, 8, 1, 4, {1, 0}, 0)));
  // Groups of 8 bytes are not the hardware's 16.
  EXPECT_FALSE(tensorMapBox(tile(64, 64), SharedLayoutAttr::get(&ctx, 4, 1, 8, {1, 0}, 0)));
}

} // namespace

TEST_F(SharedStagingTest, TensorMapStoresChunkAccumulatorsBy128ByteColumns) {
  auto f32 = Float32Type::get(&ctx);
  auto bf16 = BFloat16Type::get(&ctx);
  Attribute acc = MmaLayoutAttr::get(&ctx, {8, 1});
  // Two stages of 32 f32 (64 bf16) columns, in the 128-byte swizzle a tensor map writes.
  std::optional<BufferType> stages =
      tensorMapStoreStages(RankedTensorType::get({128, 256}, f32, acc), 8);
  ASSERT_TRUE(stages);
  EXPECT_EQ(stages->getStages(), 2u);
  EXPECT_EQ(stages->getTile().getShape(), (ArrayRef<int64_t>{128, 32}));
  std::optional<TensorMapBox> box = tensorMapBox(stages->getTile(), stages->getLayout());
  ASSERT_TRUE(box);
  EXPECT_EQ(box->swizzleBytes, 128);
  stages = tensorMapStoreStages(RankedTensorType::get({128, 256}, bf16, acc), 8);
  ASSERT_TRUE(stages);
  EXPECT_EQ(stages->getTile().getShape(), (ArrayRef<int64_t>{128, 64}));
}

TEST_F(SharedStagingTest, TensorMapStoresNeedEachThreadsColumnsInOneChunk) {
  auto f32 = Float32Type::get(&ctx);
  // Lanes along the row span 128 columns: which chunk a register is in depends on the thread.
  Attribute rows = BlockedLayoutAttr::get(&ctx, {1, 4}, {1, 32}, {8, 1}, {1, 0});
  EXPECT_FALSE(tensorMapStoreStages(RankedTensorType::get({128, 256}, f32, rows), 8));
  // Columns that are not whole chunks, and more rows than a box holds.
  Attribute acc = MmaLayoutAttr::get(&ctx, {8, 1});
  EXPECT_FALSE(tensorMapStoreStages(RankedTensorType::get({128, 16}, f32, acc), 8));
  EXPECT_FALSE(tensorMapStoreStages(RankedTensorType::get({512, 64}, f32, acc), 8));
}
