// tile/detail/abi.hpp - the contract between tilecc's generated CUDA and tile_rt.
//
// tilecc emits, for every instantiated kernel K, a host launcher with the signature `GpuEntry`
// and registers it at static-initialisation time in `GpuKernel<K>::entry`. Because `entry` is an
// inline variable of a class template, one registration is visible from every translation unit
// of the program, so a kernel compiled in one file can be launched from another.
//
// At launch the runtime fills a `LaunchArgs` with one `ArgDesc` per kernel parameter, in
// declaration order, and calls the entry on its stream. Tensor parameters describe the *whole*
// array: for an exclusive (partitioned) parameter the generated code derives this program's piece
// from the partition's tile shape (`piece`) and the block coordinates. The grid is the partition
// grid, row-major (the last axis varies fastest between consecutive programs); the generated code
// launches `grid[0] * ... * grid[rank-1]` blocks on the x axis and decomposes blockIdx.x.
#pragma once

#include <cstdint>
#include <cstring>

namespace tile::detail {

inline constexpr int kMaxRank = 4;

/// Element type tags, shared by the runtime's checks and the generated launchers.
enum class DType : int32_t {
  Bool, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, F8E4M3, F8E5M2, C64
};

/// One kernel argument. Tensors fill data/rank/dtype and, below `rank`, shape/strides (strides
/// in elements) and `piece` (an exclusive partition's tile shape, else 0). Scalars are stored
/// bit-for-bit in `scalar`. A default-initialised ArgDesc is left uninitialised: a launch fills
/// only the fields its parameters use instead of clearing all kMaxArgs descriptors
/// (`ArgDesc{}` is all zeros).
struct ArgDesc {
  void* data;
  int32_t rank;
  DType dtype;
  int64_t shape[kMaxRank];
  int64_t strides[kMaxRank];
  int64_t piece[kMaxRank];
  alignas(8) unsigned char scalar[16];

  template <class T> T scalar_as() const {
    static_assert(sizeof(T) <= sizeof(scalar), "scalar argument too large");
    T v;
    std::memcpy(&v, scalar, sizeof(T));
    return v;
  }
};

inline constexpr int kMaxArgs = 32;

/// Where generated kernels report the first failed `tile::check` on a device: host memory the
/// device writes through (mapped), one record per device. A kernel claims it (state 0 -> 1),
/// fills it and publishes it (2); the runtime reads it after synchronising with the device,
/// throws tile::Error and clears it.
struct CheckRecord {
  int32_t state = 0;
  int32_t line = 0;
  int32_t grid_rank = 0;
  int64_t program[kMaxRank] = {};
  char kernel[128] = {};
  char file[128] = {};
  char message[256] = {};
};

/// Everything a generated launcher needs: the program grid and the arguments. For a mapped
/// partition, `program_map` (device memory) holds each program's tile coordinates, grid_rank
/// int32 per program in row-major program order; the program's block ids are those.
struct LaunchArgs {
  int32_t grid_rank = 1;
  int64_t grid[kMaxRank] = {1, 1, 1, 1};
  const int32_t* program_map = nullptr;
  int32_t num_args = 0;
  ArgDesc args[kMaxArgs];
  CheckRecord* checks = nullptr;  // the device's record (device address), or null
};

/// A generated host launcher. Returns the cudaError_t of the launch (0 on success).
using GpuEntry = int (*)(const LaunchArgs&, void* stream);

/// Writes into `map` (128 bytes, 64-byte aligned: a CUtensorMap) the tensor-memory-accelerator
/// descriptor of the tensor argument `view` (rank 2 or more) for boxes of `box_rows` x
/// `box_cols` elements of its last two axes (one element of each leading axis) written with a
/// swizzle of `swizzle_bytes` (0, 32, 64 or 128; outside the array the boxes read zeros), the
/// box's rows of `box_cols` elements along the last two axes' `inner_axis` (1: the last; 0:
/// the one before, the rows of a transposed view). Returns false, leaving `map` zeroed, where
/// the current device or the view does not allow one: no tensor memory accelerator (before
/// sm_90), a base address or another axis's stride not a multiple of 16 bytes, elements not
/// contiguous along `inner_axis`, an extent beyond 2^31 - 1. With `round_tf32` (a view of
/// floats) the copies round each element to TF32, to nearest, ties to even. Descriptors are
/// cached per view, box and rounding. Defined by the CUDA backend; generated launchers call it.
bool tensor_map(void* map, const ArgDesc& view, int64_t box_rows, int64_t box_cols,
                int swizzle_bytes, int inner_axis, bool round_tf32 = false);

/// Static facts about a generated kernel, for launch-time checks and diagnostics.
struct GpuKernelInfo {
  const char* name = "";        // e.g. "add<128>"
  const char* source = "";      // "file:line" of the kernel definition
  int32_t num_threads = 0;      // threads per tile program chosen by tilecc
  int32_t smem_bytes = 0;       // dynamic shared memory per tile program
};

/// Registry slot for kernel K (a pointer to the kernel function).
template <auto K>
struct GpuKernel {
  static inline GpuEntry entry = nullptr;
  static inline GpuKernelInfo info{};
};

/// Called by generated code at static-initialisation time.
template <auto K>
struct GpuKernelRegistration {
  GpuKernelRegistration(GpuEntry e, GpuKernelInfo i) {
    GpuKernel<K>::entry = e;
    GpuKernel<K>::info = i;
  }
};

}  // namespace tile::detail
