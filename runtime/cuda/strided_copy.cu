// runtime/cuda/strided_copy.cu - tile_rt's one kernel: a copy between two strided boxes of one
// shape on a GPU (tile::ops::copy between views that are not both compact). cudaMemcpy2DAsync
// would need a block per row of single elements for a transposed view, and moves narrow rows
// slowly even in one block (an every-other-column slice: 74 GB/s on an H200).
//
// Each thread copies elements of the (collapsed) shape in row-major order, a grid-stride loop;
// consecutive threads take consecutive indices, so whichever side is row-major is accessed in
// coalesced runs. A 2-D copy whose two sides are each contiguous along a different axis (a
// transpose) goes through 32x32 tiles in shared memory instead, so that both the reads and the
// writes are coalesced.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/cuda_backend.hpp"

namespace tile::cuda {
namespace {

struct Layout {
  int rank;
  int64_t extent[4], dst[4], src[4];
};

template <class E>
__global__ void copy_elements(E* dst, const E* src, Layout l, int64_t n) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t rest = i, d = 0, s = 0;
    for (int a = l.rank - 1; a > 0; --a) {
      const int64_t k = rest % l.extent[a];
      rest /= l.extent[a];
      d += k * l.dst[a];
      s += k * l.src[a];
    }
    dst[d + rest * l.dst[0]] = src[s + rest * l.src[0]];
  }
}

constexpr int kTile = 32;
constexpr int kRows = 8;  // threads per tile column: each thread moves kTile / kRows elements

/// rows x cols, dst row-major along cols (dst[r * dst_row + c]), src contiguous along rows
/// (src[r + c * src_col]). Block (kTile, kRows) per 32x32 tile; the tile's padding column avoids
/// shared-memory bank conflicts.
template <class E>
__global__ void transpose_tiles(E* dst, const E* src, int64_t rows, int64_t cols, int64_t dst_row, int64_t src_col,
                                int64_t tiles_c) {
  __shared__ E tile[kTile][kTile + 1];
  const int64_t tr = static_cast<int64_t>(blockIdx.x) / tiles_c, tc = static_cast<int64_t>(blockIdx.x) % tiles_c;
  const int64_t r0 = tr * kTile, c0 = tc * kTile;
  // Read: consecutive threads along r (src's contiguous axis).
  for (int j = threadIdx.y; j < kTile; j += kRows) {
    const int64_t r = r0 + threadIdx.x, c = c0 + j;
    if (r < rows && c < cols) tile[threadIdx.x][j] = src[r + c * src_col];
  }
  __syncthreads();
  // Write: consecutive threads along c (dst's contiguous axis).
  for (int j = threadIdx.y; j < kTile; j += kRows) {
    const int64_t r = r0 + j, c = c0 + threadIdx.x;
    if (r < rows && c < cols) dst[r * dst_row + c] = tile[j][threadIdx.x];
  }
}

template <class E>
cudaError_t launch(void* dst, const void* src, const Layout& l, int64_t n, cudaStream_t stream) {
  E* d = static_cast<E*>(dst);
  const E* s = static_cast<const E*>(src);
  if (l.rank == 2 && l.dst[1] == 1 && l.src[0] == 1 && l.src[1] != 1) {
    const int64_t tiles_r = (l.extent[0] + kTile - 1) / kTile, tiles_c = (l.extent[1] + kTile - 1) / kTile;
    if (tiles_r * tiles_c <= INT32_MAX) {
      transpose_tiles<E><<<static_cast<unsigned>(tiles_r * tiles_c), dim3(kTile, kRows), 0, stream>>>(
          d, s, l.extent[0], l.extent[1], l.dst[0], l.src[1], tiles_c);
      return cudaGetLastError();
    }
  }
  // A few thousand blocks that loop: on an H200 a 65536-block grid of one or two elements per
  // thread ran 2.7 to 4 times slower than 4096 blocks (bench/results, 2026-11-30).
  constexpr int kThreads = 256;
  constexpr int64_t kMaxBlocks = 4096;
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  copy_elements<E><<<static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks), kThreads, 0, stream>>>(d, s, l, n);
  return cudaGetLastError();
}

}  // namespace

int launch_strided_copy(void* stream, void* dst, const int64_t* dst_strides, const void* src,
                        const int64_t* src_strides, const int64_t* extent, int rank, std::size_t elem) {
  if (rank < 1 || rank > 4) return -1;
  Layout l{};
  l.rank = rank;
  int64_t n = 1;
  for (int a = 0; a < rank; ++a) {
    l.extent[a] = extent[a];
    l.dst[a] = dst_strides[a];
    l.src[a] = src_strides[a];
    n *= extent[a];
  }
  if (n == 0) return 0;
  const auto s = static_cast<cudaStream_t>(stream);
  switch (elem) {
    case 1: return static_cast<int>(launch<uint8_t>(dst, src, l, n, s));
    case 2: return static_cast<int>(launch<uint16_t>(dst, src, l, n, s));
    case 4: return static_cast<int>(launch<uint32_t>(dst, src, l, n, s));
    case 8: return static_cast<int>(launch<uint64_t>(dst, src, l, n, s));
    default: return -1;
  }
}

}  // namespace tile::cuda
