// Arrays over memory tile_rt does not own: borrow_external, and DLPack export/import, including
// a small producer/consumer of DLManagedTensor written against the DLPack ABI.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "tile/dlpack.hpp"
#include "tile/tile.hpp"

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

TEST(BorrowExternal, UsesTheCallersMemoryWithoutCopies) {
  std::vector<float> host(300, 1.5f);
  {
    auto a = tile::Array<float>::borrow_external(host.data(), {300}, {}, tile::cpu_device());
    EXPECT_EQ(a.data(), host.data());
    tile::launch<increment<128>>(a.partition_mut<128>()).sync();
  }  // nothing freed
  EXPECT_EQ(host[0], 2.5f);
  EXPECT_EQ(host[299], 2.5f);
}

TEST(BorrowExternal, RefusesStridedOrMisalignedMemory) {
  std::vector<float> host(64);
  EXPECT_THROW((void)tile::Array<float>::borrow_external(host.data(), {8, 8}, {1, 8}, tile::cpu_device()),
               tile::Error);
  EXPECT_NO_THROW(
      (void)tile::Array<float>::borrow_external(host.data(), {8, 8}, {8, 1}, tile::cpu_device()));
  auto* odd = reinterpret_cast<float*>(reinterpret_cast<char*>(host.data()) + 1);
  EXPECT_THROW((void)tile::Array<float>::borrow_external(odd, {4}, {}, tile::cpu_device()), tile::Error);
}

// ---- a foreign producer and consumer of DLManagedTensor (plain C-style, as another library) ----

struct Foreign {
  std::vector<int32_t> data;
  int64_t shape[2];
  int64_t strides[2];
  DLManagedTensor managed;
  bool* deleted;
};

DLManagedTensor* foreign_matrix(int64_t rows, int64_t cols, bool* deleted, int64_t col_stride = 1) {
  auto* f = new Foreign{std::vector<int32_t>(static_cast<std::size_t>(rows * cols)), {rows, cols},
                        {cols * col_stride, col_stride}, {}, deleted};
  for (std::size_t i = 0; i < f->data.size(); ++i) f->data[i] = static_cast<int32_t>(i);
  f->managed.dl_tensor = DLTensor{f->data.data(), DLDevice{kDLCPU, 0}, 2, DLDataType{kDLInt, 32, 1},
                                  f->shape, f->strides, 0};
  f->managed.manager_ctx = f;
  f->managed.deleter = [](DLManagedTensor* self) {
    auto* me = static_cast<Foreign*>(self->manager_ctx);
    *me->deleted = true;
    delete me;
  };
  return &f->managed;
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

TEST(DLPack, RefusesNonCompactStrides) {
  bool deleted = false;
  EXPECT_THROW((void)tile::from_dlpack<int32_t>(foreign_matrix(4, 4, &deleted, 2)), tile::Error);
  EXPECT_TRUE(deleted);
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
