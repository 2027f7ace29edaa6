// tile::launch on the default device (the CPU backend here): grids, pieces, scalars, results,
// ownership and borrows, and every launch-time error.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "tile/tile.hpp"

#include "ErrorMatchers.h"

namespace {

using tile::dyn;
using tile::Tensor;

// ---- kernels -----------------------------------------------------------------------------------

template <int B>
TILE_KERNEL void add(Tensor<float, B>& z, const Tensor<float, dyn>& x, const Tensor<float, dyn>& y) {
  z.store(tile::load_tile_like(x, z) + tile::load_tile_like(y, z));
}

template <int B>
TILE_KERNEL void axpy(Tensor<float, B>& z, float a, const Tensor<float, dyn>& x, double b) {
  z.store(a * tile::load_tile_like(x, z) + static_cast<float>(b));
}

template <int BM, int BN>
TILE_KERNEL void plus_one_2d(Tensor<int32_t, BM, BN>& z, const Tensor<int32_t, dyn, dyn>& x) {
  z.store(tile::load_tile_like(x, z) + 1);
}

template <int BM, int BN>
TILE_KERNEL void grid_coords(Tensor<int32_t, BM, BN>& id, Tensor<int32_t, BM, BN>& count) {
  id.store(tile::full<int32_t, BM, BN>(static_cast<int32_t>(tile::block_id(0) * 1000 + tile::block_id(1))));
  count.store(
      tile::full<int32_t, BM, BN>(static_cast<int32_t>(tile::num_blocks(0) * 1000 + tile::num_blocks(1))));
}

TILE_KERNEL void fill4d(Tensor<int32_t, 2, 2, 2, 2>& z) {
  const int64_t id = ((tile::block_id(0) * tile::num_blocks(1) + tile::block_id(1)) * tile::num_blocks(2) +
                      tile::block_id(2)) *
                         tile::num_blocks(3) +
                     tile::block_id(3);
  z.store(tile::full<int32_t, 2, 2, 2, 2>(static_cast<int32_t>(id)));
}

template <int B>
TILE_KERNEL void two_outputs(Tensor<float, B>& twice, Tensor<int32_t, B>& rounded,
                             const Tensor<float, dyn>& x) {
  auto t = tile::load_tile_like(x, twice);
  twice.store(t * 2.0f);
  rounded.store(tile::cast<int32_t>(t));
}

template <int B>
TILE_KERNEL void increment(Tensor<float, B>& z) {
  z.store(z.load() + 1.0f);
}

template <int B>
TILE_KERNEL void nested_tiles(Tensor<float, B>& z, const Tensor<float, dyn>& x) {
  // Each piece handled as B/4-element sub-tiles through a nested mutable view.
  auto zp = z.template partition_mut<B / 4>();  // z has a dependent type: `.template`
  auto xp = x.template partition<B / 4>();
  const int64_t first = tile::block_id() * 4;
  for (int64_t i = 0; i < tile::num_tiles(zp, 0); ++i) zp.store(xp.load(first + i) * 10.0f, i);
}

template <int B>
TILE_KERNEL void dyn_piece(Tensor<float, dyn>& z) {
  // An exclusive parameter with a run-time extent: each program learns its piece's length.
  const float n = static_cast<float>(z.shape(0));
  z.template partition_mut<B>().store(tile::full<float, B>(n), 0);
}

template <int B>
TILE_KERNEL void half_add(Tensor<tile::f16, B>& z, const Tensor<tile::f16, dyn>& x, tile::f16 s) {
  z.store(tile::load_tile_like(x, z) + s);
}

template <int B>
TILE_KERNEL void static_shared(Tensor<float, B>& z, const Tensor<float, 8>& x) {
  z.store(tile::load_tile_like(x, z));
}

std::atomic<int> g_calls{0};
TILE_KERNEL void no_outputs(const Tensor<float, dyn>& x, int32_t k) {
  if (x.shape(0) == k) ++g_calls;
}

template <int B>
TILE_KERNEL void throws_in_program(Tensor<float, B>& z) {
  if (tile::block_id() == 3) throw std::runtime_error("program 3 failed");
  z.store(tile::ones<float, B>());
}

namespace ns {
template <int B, class T>
TILE_KERNEL void copy(Tensor<T, B>& z, const Tensor<T, dyn>& x) {
  z.store(tile::load_tile_like(x, z));
}
}  // namespace ns

// ---- helpers -------------------------------------------------------------------------------------

std::vector<float> iota_vec(int64_t n, float start = 0) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = start + static_cast<float>(i);
  return v;
}

// ---- launches that run ---------------------------------------------------------------------------

TEST(Launch, OneDimensionalLengthNoTileDivides) {
  for (int64_t n : {1, 127, 128, 129, 1000, 4097}) {
    auto x = tile::from_host(iota_vec(n));
    auto y = tile::full<float>({n}, 0.5f);
    auto z = tile::zeros<float>({n});
    auto op = tile::launch<add<128>>(std::move(z).partition<128>(), x, y);
    EXPECT_EQ(op.grid_rank(), 1);
    EXPECT_EQ(op.grid()[0], (n + 127) / 128);
    const auto h = std::move(op).sync().unpartition().to_host();
    ASSERT_EQ(static_cast<int64_t>(h.size()), n);
    for (int64_t i = 0; i < n; ++i)
      ASSERT_EQ(h[static_cast<std::size_t>(i)], static_cast<float>(i) + 0.5f) << n << " " << i;
  }
}

TEST(Launch, NothingRunsBeforeSync) {
  auto x = tile::ones<float>({300});
  auto z = tile::zeros<float>({300});
  {
    auto op = tile::launch<increment<128>>(z.partition_mut<128>());
    (void)op;  // dropped without sync: runs nothing, returns the loan
  }
  EXPECT_EQ(z.to_host(), std::vector<float>(300, 0.0f));
  auto op = tile::launch<increment<128>>(z.partition_mut<128>());
  EXPECT_HAS(error_of([&] { (void)z.to_host(); }), "borrowed exclusively");
  std::move(op).sync();
  EXPECT_EQ(z.to_host(), std::vector<float>(300, 1.0f));
}

TEST(Launch, ScalarsAreConvertedToTheParameterType) {
  auto x = tile::from_host(iota_vec(200));
  auto z = tile::zeros<float>({200});
  // a: int -> float, b: float -> double.
  auto h = tile::launch<axpy<64>>(std::move(z).partition<64>(), 3, x, 0.25f).sync().unpartition().to_host();
  for (int i = 0; i < 200; ++i) EXPECT_EQ(h[i], 3.0f * i + 0.25f);
}

TEST(Launch, TwoDimensionalGridWithEdgePieces) {
  const int64_t rows = 37, cols = 71;
  std::vector<int32_t> v(rows * cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) v[i * cols + j] = static_cast<int32_t>(i * 1000 + j);
  auto x = tile::from_host(v, {rows, cols});
  auto z = tile::full<int32_t>({rows, cols}, -1);
  auto op = tile::launch<plus_one_2d<8, 16>>(std::move(z).partition<8, 16>(), x);
  EXPECT_EQ(op.grid_rank(), 2);
  EXPECT_EQ(op.grid()[0], 5);
  EXPECT_EQ(op.grid()[1], 5);
  const auto h = std::move(op).sync().unpartition().to_host();
  for (std::size_t k = 0; k < h.size(); ++k) ASSERT_EQ(h[k], v[k] + 1) << k;
}

TEST(Launch, ProgramCoordinatesAreRowMajor) {
  auto id = tile::zeros<int32_t>({10, 20});
  auto count = tile::zeros<int32_t>({10, 20});
  auto [pid, pcount] =
      tile::launch<grid_coords<4, 8>>(std::move(id).partition<4, 8>(), std::move(count).partition<4, 8>())
          .sync();
  const auto hid = std::move(pid).unpartition().to_host();
  const auto hcount = std::move(pcount).unpartition().to_host();
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 20; ++j) {
      EXPECT_EQ(hid[i * 20 + j], (i / 4) * 1000 + j / 8);
      EXPECT_EQ(hcount[i * 20 + j], 3 * 1000 + 3);
    }
}

TEST(Launch, FourDimensionalGrid) {
  auto z = tile::zeros<int32_t>({3, 4, 2, 5});
  const auto h = tile::launch<fill4d>(std::move(z).partition<2, 2, 2, 2>()).sync().unpartition().to_host();
  // grid [2, 2, 1, 3]; element (a, b, c, d) belongs to program (a/2, b/2, c/2, d/2).
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 2; ++c)
        for (int d = 0; d < 5; ++d)
          EXPECT_EQ(h[((a * 4 + b) * 2 + c) * 5 + d], ((a / 2 * 2 + b / 2) * 1 + c / 2) * 3 + d / 2);
}

TEST(Launch, SeveralOwnedPartitionsComeBackAsATuple) {
  auto x = tile::from_host(std::vector<float>{0.5f, 1.5f, -2.5f, 3.0f, 4.75f});
  auto op = tile::launch<two_outputs<4>>(tile::zeros<float>({5}).partition<4>(),
                                         tile::zeros<int32_t>({5}).partition<4>(), x);
  auto result = std::move(op).sync();
  static_assert(
      std::is_same_v<decltype(result), std::tuple<tile::Partition<float, 4>, tile::Partition<int32_t, 4>>>);
  EXPECT_EQ(std::move(std::get<0>(result)).unpartition().to_host(), (std::vector<float>{1, 3, -5, 6, 9.5f}));
  EXPECT_EQ(std::move(std::get<1>(result)).unpartition().to_host(), (std::vector<int32_t>{0, 1, -2, 3, 4}));
}

TEST(Launch, PartitionRefWritesInPlaceAndReturnsNothing) {
  auto z = tile::from_host(iota_vec(1000));
  auto op = tile::launch<increment<256>>(z.partition_mut<256>());
  static_assert(std::is_void_v<decltype(std::move(op).sync())>);
  std::move(op).sync();
  const auto h = z.to_host();
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(h[i], i + 1.0f);
}

TEST(Launch, NestedTiledViews) {
  auto x = tile::from_host(iota_vec(1000));
  auto z = tile::full<float>({1000}, -1.0f);
  const auto h =
      tile::launch<nested_tiles<64>>(std::move(z).partition<64>(), x).sync().unpartition().to_host();
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(h[i], 10.0f * i);
}

TEST(Launch, DynamicExclusiveDimensionGetsTheClippedExtent) {
  auto z = tile::zeros<float>({100});
  const auto h = tile::launch<dyn_piece<32>>(std::move(z).partition<32>()).sync().unpartition().to_host();
  for (int i = 0; i < 100; ++i) EXPECT_EQ(h[i], i < 96 ? 32.0f : 4.0f);
}

TEST(Launch, HalfPrecision) {
  std::vector<tile::f16> v;
  for (int i = 0; i < 50; ++i) v.push_back(tile::f16(static_cast<float>(i)));
  auto x = tile::from_host(v);
  auto z = tile::zeros<tile::f16>({50});
  const auto h = tile::launch<half_add<16>>(std::move(z).partition<16>(), x, tile::f16(0.5f))
                     .sync()
                     .unpartition()
                     .to_host();
  for (int i = 0; i < 50; ++i) EXPECT_EQ(static_cast<float>(h[i]), i + 0.5f);
}

TEST(Launch, SharedArrayMovedIntoTheOp) {
  auto z = tile::zeros<float>({10});
  const auto h =
      tile::launch<add<8>>(std::move(z).partition<8>(), tile::ones<float>({10}), tile::ones<float>({10}))
          .sync()
          .unpartition()
          .to_host();
  EXPECT_EQ(h, std::vector<float>(10, 2.0f));
}

TEST(Launch, StaticSharedDimensionThatMatches) {
  auto x = tile::from_host(iota_vec(8));
  const auto h = tile::launch<static_shared<4>>(tile::zeros<float>({8}).partition<4>(), x)
                     .sync()
                     .unpartition()
                     .to_host();
  EXPECT_EQ(h, iota_vec(8));
}

TEST(Launch, NoExclusiveArgumentRunsOneProgram) {
  g_calls = 0;
  auto x = tile::zeros<float>({7});
  auto op = tile::launch<no_outputs>(x, 7);
  static_assert(std::is_void_v<decltype(std::move(op).sync())>);
  std::move(op).sync();
  EXPECT_EQ(g_calls.load(), 1);
}

TEST(Launch, ManyProgramsRunInParallel) {
  const int64_t n = 1 << 20;
  auto x = tile::ones<float>({n});
  auto y = tile::ones<float>({n});
  const auto h =
      tile::launch<add<16>>(tile::zeros<float>({n}).partition<16>(), x, y).sync().unpartition().to_host();
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(h[static_cast<std::size_t>(i)], 2.0f);
}

TEST(Launch, ExceptionFromAProgramIsRethrownFromSync) {
  auto op = tile::launch<throws_in_program<4>>(tile::zeros<float>({64}).partition<4>());
  EXPECT_THROW(
      {
        try {
          std::move(op).sync();
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "program 3 failed");
          throw;
        }
      },
      std::runtime_error);
}

TEST(Launch, SyncTwiceIsAnError) {
  auto z = tile::zeros<float>({4});
  auto op = tile::launch<increment<4>>(z.partition_mut<4>());
  std::move(op).sync();
  EXPECT_HAS(error_of([&] { std::move(op).sync(); }), "already run");  // NOLINT(bugprone-use-after-move)
}

TEST(Launch, KernelNames) {
  using Op = decltype(tile::launch<add<128>>(std::declval<tile::Partition<float, 128>>(),
                                             std::declval<const tile::Array<float>&>(),
                                             std::declval<const tile::Array<float>&>()));
  EXPECT_EQ(Op::kernel_name(), "add<128>");
  // Qualified names keep their namespaces (GCC and clang spell the anonymous one differently).
  EXPECT_HAS((tile::detail::kernel_name<ns::copy<4, int32_t>>()), "ns::copy<4, int>");
  EXPECT_HAS(tile::detail::kernel_name<fill4d>(), "fill4d");
  EXPECT_HAS(tile::detail::kernel_display_name("const char* f() [with auto K = add<128>]", nullptr),
             "add<128>");
  EXPECT_EQ(tile::detail::kernel_display_name("const char *f() [K = &add]",
                                              "N4tile6detail9KernelTagIXadL_Z3addILi128EEvRiEEEE"),
            "add<128>");
}

TEST(Launch, TemplatedElementTypes) {
  auto x = tile::arange<int64_t>(10);
  const auto h = tile::launch<ns::copy<4, int64_t>>(tile::zeros<int64_t>({10}).partition<4>(), x)
                     .sync()
                     .unpartition()
                     .to_host();
  EXPECT_EQ(h, x.to_host());
}

// ---- launch-time errors ---------------------------------------------------------------------------

TEST(LaunchError, ArgumentCount) {
  auto x = tile::ones<float>({10});
  const auto msg = error_of([&] { (void)tile::launch<add<8>>(tile::zeros<float>({10}).partition<8>(), x); });
  EXPECT_HAS(msg, "tile::launch<add<8>>");
  EXPECT_HAS(msg, "takes 3 arguments but 2 were given");
}

TEST(LaunchError, ExclusiveParameterNeedsAPartition) {
  auto x = tile::ones<float>({10});
  auto z = tile::zeros<float>({10});
  const auto msg = error_of([&] { (void)tile::launch<add<8>>(z, x, x); });
  EXPECT_HAS(msg, "tile::launch<add<8>>: argument 1 (Tensor<float, 8>&)");
  EXPECT_HAS(msg, "exclusive parameter (Tensor&) takes a partition");
  EXPECT_HAS(msg, "an Array<float>");
  EXPECT_EQ(z.to_host().size(), 10u);  // the refused launch returned its loans
}

TEST(LaunchError, SharedParameterNeedsAnArray) {
  auto x = tile::ones<float>({10});
  auto y = tile::ones<float>({10});
  const auto msg = error_of(
      [&] { (void)tile::launch<add<8>>(tile::zeros<float>({10}).partition<8>(), y.partition_mut<8>(), x); });
  EXPECT_HAS(msg, "argument 2 (const Tensor<float, dyn>&)");
  EXPECT_HAS(msg, "shared parameter (const Tensor&) takes an array");
  EXPECT_HAS(msg, "a PartitionRef<float, 8>");
  EXPECT_EQ(y.to_host().size(), 10u);  // the PartitionRef's borrow ended with the refused launch
}

TEST(LaunchError, ScalarParameterNeedsAValue) {
  auto x = tile::ones<float>({10});
  const auto msg =
      error_of([&] { (void)tile::launch<axpy<8>>(tile::zeros<float>({10}).partition<8>(), x, x, 1.0); });
  EXPECT_HAS(msg, "argument 2 (float)");
  EXPECT_HAS(msg, "scalar parameter takes a value convertible to float");
}

TEST(LaunchError, RankMismatch) {
  auto x = tile::ones<float>({10});
  auto m = tile::ones<float>({4, 4});
  std::string msg = error_of([&] {
    (void)tile::launch<add<8>>(tile::zeros<float>({8, 8}).partition<8, 8>(), x, x);
  });
  EXPECT_HAS(msg, "argument 1 (Tensor<float, 8>&)");
  EXPECT_HAS(msg, "rank mismatch: the partition has rank 2 but the parameter has rank 1");
  msg = error_of([&] { (void)tile::launch<add<8>>(tile::zeros<float>({10}).partition<8>(), x, m); });
  EXPECT_HAS(msg, "argument 3 (const Tensor<float, dyn>&)");
  EXPECT_HAS(msg, "rank mismatch: the array [4, 4] has rank 2 but the parameter has rank 1");
}

TEST(LaunchError, TileShapeDiffersFromStaticDims) {
  auto x = tile::ones<float>({10});
  const auto msg =
      error_of([&] { (void)tile::launch<add<8>>(tile::zeros<float>({10}).partition<4>(), x, x); });
  EXPECT_HAS(msg, "argument 1 (Tensor<float, 8>&)");
  EXPECT_HAS(msg, "tile shape [4] differs from the parameter's static shape [8]");
}

TEST(LaunchError, StaticSharedDimensionDiffersFromTheArray) {
  auto x = tile::ones<float>({10});
  const auto msg =
      error_of([&] { (void)tile::launch<static_shared<4>>(tile::zeros<float>({8}).partition<4>(), x); });
  EXPECT_HAS(msg, "argument 2 (const Tensor<float, 8>&)");
  EXPECT_HAS(msg, "static dimension 0 of the parameter is 8 but the array's extent is 10");
}

TEST(LaunchError, ElementTypeMismatch) {
  auto xd = tile::ones<double>({10});
  auto x = tile::ones<float>({10});
  std::string msg =
      error_of([&] { (void)tile::launch<add<8>>(tile::zeros<float>({10}).partition<8>(), x, xd); });
  EXPECT_HAS(msg, "argument 3 (const Tensor<float, dyn>&)");
  EXPECT_HAS(msg, "element type mismatch: the array holds double but the parameter is a tensor of float");
  msg = error_of([&] { (void)tile::launch<add<8>>(tile::zeros<int32_t>({10}).partition<8>(), x, x); });
  EXPECT_HAS(msg, "argument 1 (Tensor<float, 8>&)");
  EXPECT_HAS(msg,
             "element type mismatch: the partition holds int32_t but the parameter is a tensor of float");
}

TEST(LaunchError, ExclusiveGridsDisagree) {
  auto x = tile::ones<float>({100});
  const auto msg = error_of([&] {
    (void)tile::launch<two_outputs<8>>(tile::zeros<float>({100}).partition<8>(),
                                       tile::zeros<int32_t>({50}).partition<8>(), x);
  });
  EXPECT_HAS(msg, "argument 2 (Tensor<int32_t, 8>&)");
  EXPECT_HAS(msg, "the partition grid [7] differs from the grid [13] of argument 1");
}

TEST(LaunchError, SameArrayExclusiveAndShared) {
  auto a = tile::ones<float>({16});
  auto y = tile::ones<float>({16});
  std::string msg = error_of([&] { (void)tile::launch<add<8>>(a.partition_mut<8>(), a, y); });
  EXPECT_HAS(msg, "argument 2 (const Tensor<float, dyn>&)");
  EXPECT_HAS(msg, "same array is lent exclusively as argument 1 (Tensor<float, 8>&)");
  msg = error_of([&] { (void)tile::launch<add<8>>(a.partition_mut<8>(), y, a); });
  EXPECT_HAS(msg, "argument 3 (const Tensor<float, dyn>&)");
  EXPECT_HAS(msg, "same array is lent exclusively as argument 1");
  // The array is usable again after the refused launches.
  EXPECT_EQ(a.to_host(), std::vector<float>(16, 1.0f));
}

TEST(LaunchError, MovedFromArrays) {
  auto x = tile::ones<float>({8});
  auto gone = std::move(x);
  const auto msg =
      error_of([&] { (void)tile::launch<add<8>>(tile::zeros<float>({8}).partition<8>(), gone, x); });
  EXPECT_HAS(msg, "argument 3 (const Tensor<float, dyn>&)");  // NOLINT(bugprone-use-after-move)
  EXPECT_HAS(msg, "moved from");
}

TEST(LaunchError, ArrayLentExclusivelyToAPendingOp) {
  auto a = tile::zeros<float>({16});
  auto x = tile::ones<float>({16});
  auto op = tile::launch<increment<8>>(a.partition_mut<8>());
  std::string msg =
      error_of([&] { (void)tile::launch<add<8>>(tile::zeros<float>({16}).partition<8>(), a, x); });
  EXPECT_HAS(msg, "argument 2 (const Tensor<float, dyn>&)");
  EXPECT_HAS(msg, "borrowed exclusively");
  std::move(op).sync();
  // Once the op has run, the array can be shared again.
  auto h = tile::launch<add<8>>(tile::zeros<float>({16}).partition<8>(), a, x).sync().unpartition().to_host();
  EXPECT_EQ(h, std::vector<float>(16, 2.0f));
}

TEST(LaunchError, SharedLoanBlocksExclusiveBorrow) {
  auto x = tile::ones<float>({16});
  auto op = tile::launch<add<8>>(tile::zeros<float>({16}).partition<8>(), x, x);  // x shared twice: fine
  EXPECT_HAS(error_of([&] { (void)x.partition_mut<8>(); }), "borrowed by a pending op");
  EXPECT_EQ(x.to_host().size(), 16u);  // reading a shared-lent array is fine
  auto z = std::move(op).sync().unpartition();
  auto r = x.partition_mut<8>();  // the loans ended with sync
  EXPECT_EQ(r.grid()[0], 2);
}

}  // namespace

#if defined(TILE_RT_HAS_CUDA)
// A launch the CUDA runtime refuses (the generated launcher returns its cudaError_t) becomes a
// tile::Error naming the kernel, where it is defined and CUDA's reason. No GPU is needed to
// turn the code into the message.
TEST(LaunchErrors, AFailedGpuLaunchNamesTheKernelItsSourceAndTheReason) {
  const std::string e = error_of([] {
    tile::detail::gpu_check(tile::cpu_device(), 9 /* cudaErrorInvalidConfiguration */, "scale<128>",
                            "kernels.cpp:12");
  });
  EXPECT_HAS(e, "tile::launch<scale<128>> (kernel defined at kernels.cpp:12): the GPU launch failed: ");
  EXPECT_HAS(e, "cudaErrorInvalidConfiguration");
  EXPECT_EQ(error_of([] { tile::detail::gpu_check(tile::cpu_device(), 0, "scale<128>", "kernels.cpp:12"); }),
            "(no error)");
}
#endif
