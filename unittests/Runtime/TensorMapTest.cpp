// tile::detail::tensor_map, the descriptors generated launchers build for tensor-map copies.
// Without a GPU every request is refused; bench/gpu/run.sh runs these tests with one, where
// the driver's encoder would build the refused descriptors.
#include "tile/detail/abi.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#if TILE_RT_HAS_CUDA
namespace {

using tile::detail::ArgDesc;
using tile::detail::DType;

/// A row-major rows x cols view of `data` with rows `stride` elements apart.
ArgDesc matrix(DType type, void* data, int64_t rows, int64_t cols, int64_t stride) {
  ArgDesc v{};
  v.data = data;
  v.rank = 2;
  v.dtype = type;
  v.shape[0] = rows;
  v.shape[1] = cols;
  v.strides[0] = stride;
  v.strides[1] = 1;
  return v;
}

struct alignas(64) Map {
  unsigned char bytes[128];
};

bool zeroed(const Map& m) {
  return std::all_of(std::begin(m.bytes), std::end(m.bytes), [](unsigned char b) { return b == 0; });
}

alignas(16) uint32_t storage[128 * 64];

TEST(TensorMap, RoundsOnlyFloatsToTF32) {
  Map m;
  std::fill(std::begin(m.bytes), std::end(m.bytes), 0xff);
  EXPECT_FALSE(tile::detail::tensor_map(&m, matrix(DType::I32, storage, 128, 64, 64), 128, 32,
                                        128, 1, /*round_tf32=*/true));
  EXPECT_TRUE(zeroed(m));
}

}  // namespace
#endif
