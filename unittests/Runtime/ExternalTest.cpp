// Arrays over memory tile_rt does not own: borrow_external, and DLPack export/import, including
// a small producer/consumer of DLManagedTensor written against the DLPack ABI; strided
// (column-major, padded) external memory and the rules its strides must follow.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tile/dlpack.hpp"
#include "tile/tile.hpp"

#include "ErrorMatchers.h"

namespace {

using tile::dyn;
using tile::Tensor;

template <int B>
TILE_KERNEL void twice(Tensor<float, B>& z, const Tensor<float, dyn>& x) {
  z.store(tile::load_tile_like(x, z) * 2.0f);
}
template <int B>
TILE_KERNEL void increment(Tensor<float, B>& z) {
  z.store(z.load() + 1.0f);
}
/// z = x * 10 + z's old value.
template <int BM, int BN>
TILE_KERNEL void mix2d(Tensor<int32_t, BM, BN>& z, const Tensor<int32_t, dyn, dyn>& x) {
  z.store(tile::load_tile_like(x, z) * 10 + z.load());
}

/// rows x cols values 100 * i + j stored column-major: element (i, j) at j * rows + i.
std::vector<int32_t> column_major(int64_t rows, int64_t cols) {
  std::vector<int32_t> v(static_cast<std::size_t>(rows * cols));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) v[static_cast<std::size_t>(j * rows + i)] = static_cast<int32_t>(100 * i + j);
  return v;
}
/// The same values row-major: what to_host gives.
std::vector<int32_t> row_major(int64_t rows, int64_t cols) {
  std::vector<int32_t> v;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) v.push_back(static_cast<int32_t>(100 * i + j));
  return v;
}

TEST(BorrowExternal, UsesTheCallersMemoryWithoutCopies) {
  std::vector<float> host(300, 1.5f);
  {
    auto a = tile::unchecked::borrow_external<float>(host.data(), {300}, {}, tile::cpu_device());
    EXPECT_EQ(a.data(), host.data());
    tile::launch<increment<128>>(a.partition_mut<128>()).sync();
  }  // nothing freed
  EXPECT_EQ(host[0], 2.5f);
  EXPECT_EQ(host[299], 2.5f);
}

TEST(BorrowExternal, AnOwnerKeepsTheMemoryAliveAsLongAsTheArray) {
  auto memory = std::make_shared<std::vector<float>>(256, 1.5f);
  std::weak_ptr<std::vector<float>> watch = memory;
  float* data = memory->data();
  {
    auto a = tile::Array<float>::borrow_external(data, {256}, {}, tile::cpu_device(), std::move(memory));
    EXPECT_FALSE(watch.expired());  // the array holds the owner
    tile::launch<increment<128>>(a.partition_mut<128>()).sync();
    EXPECT_EQ(a.to_host(), std::vector<float>(256, 2.5f));
  }
  EXPECT_TRUE(watch.expired());  // released with the array
}

TEST(BorrowExternal, RefusesAnEmptyOwner) {
  std::vector<float> host(4);
  EXPECT_HAS(error_of([&] {
               (void)tile::Array<float>::borrow_external(host.data(), {4}, {}, tile::cpu_device(),
                                                          std::shared_ptr<int>());
             }),
             "tile::Array::borrow_external: the owner is empty; it must hold the memory");
}

// Arrays over one memory, on the default device (the GPU where there is one): the memory of
// an array tile_rt made, borrowed twice.
struct Aliases {
  tile::Array<float> backing = tile::zeros<float>({128});
  tile::Array<float> whole = tile::unchecked::borrow_external<float>(backing.data(), {64}, {}, backing.device());
  tile::Array<float> upper = tile::unchecked::borrow_external<float>(backing.data() + 32, {32}, {}, backing.device());
  tile::Array<float> apart = tile::unchecked::borrow_external<float>(backing.data() + 64, {64}, {}, backing.device());
};

TEST(BorrowExternal, AnExclusiveLoanCoversEveryArrayOverTheSameBytes) {
  Aliases m;
  {
    auto parts = m.whole.partition_mut<8>();
    EXPECT_HAS(error_of([&] { (void)m.upper.view(); }),
               "its memory is also borrowed exclusively through another array over the same memory "
               "(borrow_external, from_dlpack) and the bytes overlap; it cannot be shared");
    EXPECT_HAS(error_of([&] { (void)m.upper.to_host(); }), "it cannot be read until that borrow ends");
    auto v = m.apart.view();  // other bytes
    (void)v;
  }
  auto v = m.upper.view();  // the borrow ended
  (void)v;
}

TEST(BorrowExternal, LoansOverOneMemoryConflictOnlyWhereTheirBytesMeet) {
  Aliases m;
  auto low = m.whole.slice_mut(0, 0, 32);  // the bytes before `upper`
  auto v = m.upper.view();
  EXPECT_HAS(error_of([&] { (void)m.whole.slice_mut(0, 40, 48); }),
             "its memory is also borrowed through another array over the same memory (borrow_external, "
             "from_dlpack) and the bytes overlap; it cannot be borrowed exclusively until that borrow ends");
  auto far = m.upper.slice(0, 0, 8);  // shared with shared: fine
  (void)low, (void)v, (void)far;
}

TEST(BorrowExternal, APendingOpHoldsItsLoanOverEveryArrayOverTheSameBytes) {
  Aliases m;
  auto op = tile::launch<increment<8>>(m.whole.partition_mut<8>());
  EXPECT_HAS(error_of([&] { (void)tile::launch<twice<8>>(tile::zeros<float>({32}).partition<8>(), m.upper); }),
             "through another array over the same memory");
  std::move(op).sync();
  auto z = tile::launch<twice<8>>(tile::zeros<float>({32}).partition<8>(), m.upper).sync().unpartition();
  EXPECT_EQ(z.to_host(), std::vector<float>(32, 2.0f));  // after the increment
}

TEST(BorrowExternal, ArraysOverOneMemoryStayLinkedWhenOneGoes) {
  tile::Array<float> backing = tile::zeros<float>({16});
  auto a = tile::unchecked::borrow_external<float>(backing.data(), {16}, {}, backing.device());
  std::optional<tile::Array<float>> b = tile::unchecked::borrow_external<float>(backing.data(), {16}, {}, backing.device());
  auto c = tile::unchecked::borrow_external<float>(backing.data() + 8, {8}, {}, backing.device());
  b.reset();
  auto parts = a.partition_mut<8>();
  EXPECT_HAS(error_of([&] { (void)c.view(); }), "through another array over the same memory");
}

TEST(BorrowExternal, RefusesMisalignedMemory) {
  std::vector<float> host(64);
  EXPECT_NO_THROW(
      (void)tile::unchecked::borrow_external<float>(host.data(), {8, 8}, {8, 1}, tile::cpu_device()));
  auto* odd = reinterpret_cast<float*>(reinterpret_cast<char*>(host.data()) + 1);
  EXPECT_HAS(error_of([&] { (void)tile::unchecked::borrow_external<float>(odd, {4}, {}, tile::cpu_device()); }),
             "tile::unchecked::borrow_external: the data pointer is not aligned to the element type");
}

// ---- strided external memory -------------------------------------------------------------------

TEST(BorrowExternal, ColumnMajorMemoryKeepsItsStridesAndReadsInIndexOrder) {
  std::vector<int32_t> host = column_major(3, 4);
  auto a = tile::unchecked::borrow_external<int32_t>(host.data(), {3, 4}, {1, 3}, tile::cpu_device());
  EXPECT_EQ(a.shape(), (tile::Shape{3, 4}));
  EXPECT_EQ(a.strides(), (tile::Shape{1, 3}));
  EXPECT_EQ(a.data(), host.data());
  EXPECT_EQ(a.to_host(), row_major(3, 4));  // row-major order of the indices, not of memory
  EXPECT_EQ(a.view().to_host(), row_major(3, 4));
  // A slice of it: rows 1..2, columns 1 and 3.
  EXPECT_EQ(a.slice({{1, 3}, {1, 4, 2}}).to_host(), (std::vector<int32_t>{101, 103, 201, 203}));
}

TEST(BorrowExternal, PaddedRowsSpanOnlyTheirElements) {
  // 2 x 3 elements in rows of 5: the two values after each row are padding, never touched.
  std::vector<int32_t> host = {0, 1, 2, -7, -7, 10, 11, 12, -7, -7};
  {
    auto a = tile::unchecked::borrow_external<int32_t>(host.data(), {2, 3}, {5, 1}, tile::cpu_device());
    EXPECT_EQ(a.strides(), (tile::Shape{5, 1}));
    EXPECT_EQ(a.to_host(), (std::vector<int32_t>{0, 1, 2, 10, 11, 12}));
    auto x = tile::from_host(std::vector<int32_t>{1, 2, 3, 4, 5, 6}, {2, 3}, tile::cpu_device());
    tile::launch<mix2d<2, 2>>(a.partition_mut<2, 2>(), x).sync();
  }
  EXPECT_EQ(host, (std::vector<int32_t>{10, 21, 32, -7, -7, 50, 61, 72, -7, -7}));
}

TEST(BorrowExternal, LaunchOverColumnMajorArrays) {
  // z (column-major, exclusive, tiles cut at its edges) = x (column-major, shared) * 10 + z.
  const int64_t rows = 6, cols = 10;
  std::vector<int32_t> zs = column_major(rows, cols), xs(static_cast<std::size_t>(rows * cols));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) xs[static_cast<std::size_t>(j * rows + i)] = static_cast<int32_t>(i + j);
  {
    auto z = tile::unchecked::borrow_external<int32_t>(zs.data(), {rows, cols}, {1, rows}, tile::cpu_device());
    const auto x = tile::unchecked::borrow_external<int32_t>(xs.data(), {rows, cols}, {1, rows}, tile::cpu_device());
    tile::launch<mix2d<4, 4>>(z.partition_mut<4, 4>(), x).sync();
    const auto h = z.to_host();
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        EXPECT_EQ(h[static_cast<std::size_t>(i * cols + j)], (i + j) * 10 + 100 * i + j) << i << " " << j;
  }
  // The memory itself is still column-major.
  EXPECT_EQ(zs[static_cast<std::size_t>(3 * rows + 2)], (2 + 3) * 10 + 203);
}

TEST(BorrowExternal, RefusesStridesThatAddressAnElementTwice) {
  std::vector<float> host(64);
  auto borrow = [&](tile::Shape shape, tile::Strides strides) {
    return error_of([&] { (void)tile::unchecked::borrow_external<float>(host.data(), shape, strides, tile::cpu_device()); });
  };
  // Rows of 4 elements 2 apart: row i + 1 starts inside row i.
  std::string msg = borrow({4, 4}, {2, 1});
  EXPECT_HAS(msg, "tile::unchecked::borrow_external: the strides [2, 1] of the shape [4, 4] address some elements twice");
  EXPECT_HAS(msg, "axis 1 spans 4 elements (stride 1 times extent 4) but axis 0 steps by 2");
  EXPECT_HAS(msg, "each axis of extent > 1 needs a stride of at least the previous stride times the previous extent");
  EXPECT_HAS(borrow({4, 4}, {1, 2}), "axis 0 spans 4 elements (stride 1 times extent 4) but axis 1 steps by 2");
  EXPECT_HAS(borrow({2, 3}, {3, 3}), "address some elements twice");  // equal strides
  // A broadcast axis (stride 0).
  msg = borrow({3, 4}, {0, 1});
  EXPECT_HAS(msg, "axis 0 has extent 3 but stride 0");
  EXPECT_HAS(msg, "tile::Array holds no broadcast axes");
  EXPECT_HAS(borrow({4}, {0}), "axis 0 has extent 4 but stride 0");
  EXPECT_HAS(borrow({4, 4}, {4}), "the strides [4] have rank 1 but the shape [4, 4] has rank 2");
  // Axes of extent 1 may carry any stride, and gaps are fine.
  EXPECT_EQ(borrow({1, 4}, {0, 1}), "(no error)");
  EXPECT_EQ(borrow({4, 1}, {16, 7}), "(no error)");
  EXPECT_EQ(borrow({2, 2, 2}, {1, 16, 2}), "(no error)");
}

TEST(BorrowExternal, RefusesNegativeStrides) {
  std::vector<float> host(16);
  const std::string msg = error_of(
      [&] { (void)tile::unchecked::borrow_external<float>(host.data() + 3, {4}, {-1}, tile::cpu_device()); });
  EXPECT_HAS(msg, "tile::unchecked::borrow_external: axis 0 has the negative stride -1 (strides [-1])");
  EXPECT_HAS(msg, "tile::Array takes non-negative strides only");
  EXPECT_HAS(error_of([&] {
               (void)tile::unchecked::borrow_external<float>(host.data(), {4, 4}, {4, -1}, tile::cpu_device());
             }),
             "axis 1 has the negative stride -1");
}

TEST(BorrowExternal, ReshapeNeedsCompactRowMajorData) {
  std::vector<int32_t> host = column_major(2, 3);
  auto a = tile::unchecked::borrow_external<int32_t>(host.data(), {2, 3}, {1, 2}, tile::cpu_device());
  EXPECT_HAS(error_of([&] { (void)std::move(a).reshape({6}); }),
             "tile::Array::reshape: the array's strides [1, 2] are not the compact row-major strides [3, 1] of "
             "its shape [2, 3]; only compact row-major data can be reshaped without copying: copy it");
  EXPECT_TRUE(a.valid());  // the refusal left the array alone
  EXPECT_EQ(a.to_host(), row_major(2, 3));
  // Compact row-major external memory (whatever the strides of its extent-1 axes) can.
  auto b = tile::unchecked::borrow_external<int32_t>(host.data(), {1, 6}, {99, 1}, tile::cpu_device());
  auto c = std::move(b).reshape({3, 2});
  EXPECT_EQ(c.strides(), (tile::Shape{2, 1}));
  EXPECT_EQ(c.to_host()[5], host[5]);
}

// ---- a foreign producer and consumer of DLManagedTensor (plain C-style, as another library) ----

struct Foreign {
  std::vector<int32_t> data;
  int64_t shape[2];
  int64_t strides[2];
  DLManagedTensor managed;
  bool* deleted;
};

/// A foreign rows x cols tensor over `data` with the given strides (null: none given).
DLManagedTensor* foreign_strided(std::vector<int32_t> data, int64_t rows, int64_t cols, const int64_t* strides,
                                 bool* deleted) {
  auto* f = new Foreign{std::move(data), {rows, cols}, {}, {}, deleted};
  if (strides) {
    f->strides[0] = strides[0];
    f->strides[1] = strides[1];
  }
  f->managed.dl_tensor = DLTensor{f->data.data(), DLDevice{kDLCPU, 0}, 2, DLDataType{kDLInt, 32, 1},
                                  f->shape, strides ? f->strides : nullptr, 0};
  f->managed.manager_ctx = f;
  f->managed.deleter = [](DLManagedTensor* self) {
    auto* me = static_cast<Foreign*>(self->manager_ctx);
    *me->deleted = true;
    delete me;
  };
  return &f->managed;
}

/// A foreign rows x cols tensor holding 0, 1, 2, ... with the strides {cols * col_stride,
/// col_stride}.
DLManagedTensor* foreign_matrix(int64_t rows, int64_t cols, bool* deleted, int64_t col_stride = 1) {
  std::vector<int32_t> data(static_cast<std::size_t>(rows * cols));
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<int32_t>(i);
  const int64_t strides[2] = {cols * col_stride, col_stride};
  return foreign_strided(std::move(data), rows, cols, strides, deleted);
}

TEST(DLPack, ImportsWithoutCopiesAndCallsTheDeleterOnce) {
  bool deleted = false;
  DLManagedTensor* t = foreign_matrix(3, 5, &deleted);
  void* foreign_data = t->dl_tensor.data;
  {
    tile::Array<int32_t> a = tile::from_dlpack<int32_t>(t);
    EXPECT_EQ(a.data(), foreign_data);
    EXPECT_EQ(a.shape(), (tile::Shape{3, 5}));
    EXPECT_EQ(a.to_host()[14], 14);
    EXPECT_FALSE(deleted);
  }
  EXPECT_TRUE(deleted);
}

TEST(DLPack, RefusesAnotherElementTypeAndReleasesTheTensor) {
  bool deleted = false;
  try {
    (void)tile::from_dlpack<float>(foreign_matrix(2, 2, &deleted));
    FAIL() << "expected tile::Error";
  } catch (const tile::Error& e) {
    EXPECT_NE(std::string(e.what()).find("holds int32 elements, not float32"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(deleted);
}

TEST(DLPack, ImportsAColumnMajorTensorWithItsStrides) {
  bool deleted = false;
  const int64_t strides[2] = {1, 3};  // a transposed PyTorch tensor, say
  DLManagedTensor* t = foreign_strided(column_major(3, 5), 3, 5, strides, &deleted);
  const void* where = t->dl_tensor.data;
  {
    auto a = tile::from_dlpack<int32_t>(t);
    EXPECT_EQ(a.data(), where);
    EXPECT_EQ(a.strides(), (tile::Shape{1, 3}));
    EXPECT_EQ(a.to_host(), row_major(3, 5));
  }
  EXPECT_TRUE(deleted);
  // Null strides: compact row-major.
  deleted = false;
  auto b = tile::from_dlpack<int32_t>(foreign_strided(row_major(2, 3), 2, 3, nullptr, &deleted));
  EXPECT_EQ(b.strides(), (tile::Shape{3, 1}));
  EXPECT_EQ(b.to_host(), row_major(2, 3));
}

TEST(DLPack, RefusesOverlappingAndNegativeStridesAndReleasesTheTensor) {
  bool deleted = false;
  const int64_t broadcast[2] = {0, 1};
  EXPECT_HAS(error_of([&] {
               (void)tile::from_dlpack<int32_t>(foreign_strided(std::vector<int32_t>(4), 4, 4, broadcast, &deleted));
             }),
             "tile::from_dlpack: axis 0 has extent 4 but stride 0");
  EXPECT_TRUE(deleted);
  deleted = false;
  const int64_t overlapping[2] = {2, 1};
  EXPECT_HAS(error_of([&] {
               (void)tile::from_dlpack<int32_t>(foreign_strided(std::vector<int32_t>(16), 4, 4, overlapping, &deleted));
             }),
             "tile::from_dlpack: the strides [2, 1] of the shape [4, 4] address some elements twice");
  EXPECT_TRUE(deleted);
  deleted = false;
  const int64_t flipped[2] = {4, -1};
  EXPECT_HAS(error_of([&] {
               (void)tile::from_dlpack<int32_t>(foreign_strided(std::vector<int32_t>(16), 4, 4, flipped, &deleted));
             }),
             "tile::from_dlpack: axis 1 has the negative stride -1");
  EXPECT_TRUE(deleted);
}

TEST(DLPack, ExportsTheStridesOfAStridedArray) {
  bool deleted = false;
  std::vector<int32_t> values = column_major(4, 2);
  const int64_t strides[2] = {1, 4};
  auto a = tile::from_dlpack<int32_t>(foreign_strided(values, 4, 2, strides, &deleted));
  DLManagedTensor* t = tile::to_dlpack(std::move(a));
  ASSERT_NE(t->dl_tensor.strides, nullptr);
  EXPECT_EQ(t->dl_tensor.ndim, 2);
  EXPECT_EQ(t->dl_tensor.shape[0], 4);
  EXPECT_EQ(t->dl_tensor.shape[1], 2);
  EXPECT_EQ(t->dl_tensor.strides[0], 1);
  EXPECT_EQ(t->dl_tensor.strides[1], 4);
  EXPECT_EQ(t->dl_tensor.byte_offset, 0u);
  // The consumer reads element (i, j) at strides[0] * i + strides[1] * j.
  const auto* p = static_cast<const int32_t*>(t->dl_tensor.data);
  EXPECT_EQ(p[1 * 3 + 4 * 1], 301);
  // And importing it back gives the same array.
  auto back = tile::from_dlpack<int32_t>(t);
  EXPECT_EQ(back.strides(), (tile::Shape{1, 4}));
  EXPECT_EQ(back.to_host(), row_major(4, 2));
  EXPECT_FALSE(deleted);  // the original tensor lives in the array until `back` goes
}

TEST(DLPack, ExportsRowMajorStridesOfAnArrayTileRtMade) {
  auto x = tile::zeros<float>({3, 7}, tile::cpu_device());
  DLManagedTensor* t = tile::to_dlpack(std::move(x));
  ASSERT_NE(t->dl_tensor.strides, nullptr);
  EXPECT_EQ(t->dl_tensor.strides[0], 7);
  EXPECT_EQ(t->dl_tensor.strides[1], 1);
  t->deleter(t);
}

TEST(DLPack, ExportedArraysRoundTripAndFeedALaunch) {
  auto x = tile::full<float>({1000}, 3.0f);
  const float* where = x.data();
  DLManagedTensor* t = tile::to_dlpack(std::move(x));
  EXPECT_FALSE(x.valid());
  EXPECT_EQ(t->dl_tensor.ndim, 1);
  EXPECT_EQ(t->dl_tensor.shape[0], 1000);
  EXPECT_EQ(t->dl_tensor.dtype.code, kDLFloat);
  EXPECT_EQ(t->dl_tensor.dtype.bits, 32);
  EXPECT_EQ(t->dl_tensor.device.device_type, tile::default_device().is_gpu() ? kDLCUDA : kDLCPU);
  auto back = tile::from_dlpack<float>(t);
  EXPECT_EQ(back.data(), where);
  auto z = tile::launch<twice<256>>(tile::zeros<float>({1000}).partition<256>(), back).sync().unpartition();
  EXPECT_EQ(z.to_host()[999], 6.0f);
}

TEST(DLPack, StreamsAreIgnoredForCpuArrays) {
  // A CPU tensor has no stream to order: the exchange passes it through unchanged.
  int not_a_stream = 0;
  auto x = tile::full<float>({8}, 1.5f, tile::cpu_device());
  DLManagedTensor* t = tile::to_dlpack(std::move(x), &not_a_stream);
  auto back = tile::from_dlpack<float>(t, &not_a_stream);
  EXPECT_EQ(back.to_host()[7], 1.5f);
}

}  // namespace
