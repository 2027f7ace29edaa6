// Tensor-memory-accelerator descriptors (CUtensorMap) of kernel arguments, built at launch for
// generated launchers (tile::detail::tensor_map in tile/detail/abi.hpp). The driver's encoder
// is found through the runtime (cudaGetDriverEntryPointByVersion), so tile_rt links no
// libcuda; descriptors are cached per (device, view, box, swizzle): a launch that repeats its
// arguments builds none.
#include "tile/detail/abi.hpp"

#include <cuda.h>
#include <cuda_runtime.h>

#include <array>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>

namespace tile::detail {
namespace {

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*,
                                 const cuuint64_t*, const cuuint64_t*, const cuuint32_t*,
                                 const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                                 CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

int64_t element_bytes(DType t) {
  switch (t) {
  case DType::Bool: case DType::I8: case DType::U8: case DType::F8E4M3: case DType::F8E5M2:
    return 1;
  case DType::I16: case DType::U16: case DType::F16: case DType::BF16:
    return 2;
  case DType::I32: case DType::U32: case DType::F32:
    return 4;
  case DType::I64: case DType::U64: case DType::F64: case DType::C64:
    return 8;
  }
  return 0;
}

/// The copy moves bits: the unsigned type of the element's width.
CUtensorMapDataType bits_type(int64_t bytes) {
  switch (bytes) {
  case 1: return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  case 2: return CU_TENSOR_MAP_DATA_TYPE_UINT16;
  case 4: return CU_TENSOR_MAP_DATA_TYPE_UINT32;
  default: return CU_TENSOR_MAP_DATA_TYPE_UINT64;
  }
}

CUtensorMapSwizzle swizzle_mode(int bytes) {
  switch (bytes) {
  case 32: return CU_TENSOR_MAP_SWIZZLE_32B;
  case 64: return CU_TENSOR_MAP_SWIZZLE_64B;
  case 128: return CU_TENSOR_MAP_SWIZZLE_128B;
  default: return CU_TENSOR_MAP_SWIZZLE_NONE;
  }
}

/// (device, base, element bytes, shape then strides of every axis, inner axis, box, swizzle,
/// rounding to TF32).
using Key = std::tuple<int, const void*, int64_t, std::array<int64_t, 2 * kMaxRank + 1>, int64_t,
                       int64_t, int, bool>;

struct Cache {
  std::mutex mutex;
  EncodeTiled encode = nullptr;
  bool looked_up = false;
  std::map<int, bool> device_has_unit;  // device -> compute capability 9.0 or later
  std::map<Key, CUtensorMap> maps;
};

Cache& cache() {
  static Cache c;
  return c;
}

/// The encoder, looked up once; null where the driver has none.
EncodeTiled encoder(Cache& c) {
  if (!c.looked_up) {
    c.looked_up = true;
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault,
                                         &found) == cudaSuccess &&
        found == cudaDriverEntryPointSuccess)
      c.encode = reinterpret_cast<EncodeTiled>(fn);
    else
      (void)cudaGetLastError();
  }
  return c.encode;
}

bool device_has_unit(Cache& c, int device) {
  auto it = c.device_has_unit.find(device);
  if (it != c.device_has_unit.end()) return it->second;
  int major = 0;
  bool has = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) ==
                 cudaSuccess &&
             major >= 9;
  (void)cudaGetLastError();
  return c.device_has_unit[device] = has;
}

/// The view's own limits: rank 2 or more, contiguous along axis `inner` (one of the last two),
/// 16-byte aligned base and other strides, extents the copies' 32-bit coordinates reach.
bool describable(const ArgDesc& v, int64_t bytes, int inner) {
  if (v.rank < 2 || v.rank > kMaxRank || bytes == 0 || v.strides[inner] != 1) return false;
  if (reinterpret_cast<uintptr_t>(v.data) % 16 != 0) return false;
  const int64_t limit = (int64_t(1) << 31) - 1;
  for (int d = 0; d < v.rank; ++d) {
    if (v.shape[d] < 1 || v.shape[d] > limit) return false;
    if (d == inner) continue;
    const int64_t stride_bytes = v.strides[d] * bytes;
    if (v.strides[d] < 1 || stride_bytes % 16 != 0 || stride_bytes >= (int64_t(1) << 40))
      return false;
  }
  return true;
}

}  // namespace

bool tensor_map(void* map, const ArgDesc& view, int64_t box_rows, int64_t box_cols,
                int swizzle_bytes, int inner_axis, bool round_tf32) {
  std::memset(map, 0, sizeof(CUtensorMap));
  const int64_t bytes = element_bytes(view.dtype);
  if ((inner_axis != 0 && inner_axis != 1) || view.rank < 2 || view.rank > kMaxRank) return false;
  // The box spans the view's last two axes (rows, then columns along `inner_axis` of them)
  // and one element of each leading axis.
  const int lead = view.rank - 2, inner = lead + inner_axis, outer = lead + 1 - inner_axis;
  if (round_tf32 && view.dtype != DType::F32) return false;
  if (!describable(view, bytes, inner) || box_rows < 1 || box_rows > 256 || box_cols < 1 ||
      box_cols > 256 || (box_cols * bytes) % 16 != 0)
    return false;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (!device_has_unit(c, device)) return false;
  std::array<int64_t, 2 * kMaxRank + 1> geometry{};
  for (int d = 0; d < view.rank; ++d) {
    geometry[size_t(d)] = view.shape[d];
    geometry[size_t(kMaxRank + d)] = view.strides[d];
  }
  geometry[2 * kMaxRank] = view.rank;
  const Key key{device, view.data, bytes, geometry, inner_axis, box_rows * 1024 + box_cols,
                swizzle_bytes, round_tf32};
  if (auto it = c.maps.find(key); it != c.maps.end()) {
    std::memcpy(map, &it->second, sizeof(CUtensorMap));
    return true;
  }
  EncodeTiled encode = encoder(c);
  if (!encode) return false;
  // Innermost axis first, as the hardware counts them: the box's columns, its rows, then the
  // leading axes from the last to the first.
  cuuint64_t dims[kMaxRank], strides[kMaxRank - 1];
  cuuint32_t box[kMaxRank], unit[kMaxRank];
  int order[kMaxRank];
  order[0] = inner;
  order[1] = outer;
  for (int k = 2; k < view.rank; ++k) order[k] = lead - (k - 1);
  for (int k = 0; k < view.rank; ++k) {
    dims[k] = cuuint64_t(view.shape[order[k]]);
    if (k > 0) strides[k - 1] = cuuint64_t(view.strides[order[k]] * bytes);
    box[k] = k == 0 ? cuuint32_t(box_cols) : k == 1 ? cuuint32_t(box_rows) : 1u;
    unit[k] = 1;
  }
  CUtensorMap built{};
  // The TF32 type rounds each float to nearest, ties to even, as it copies; the others move bits.
  const CUtensorMapDataType type = round_tf32 ? CU_TENSOR_MAP_DATA_TYPE_TFLOAT32 : bits_type(bytes);
  if (encode(&built, type, cuuint32_t(view.rank), view.data, dims, strides, box, unit,
             CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle_mode(swizzle_bytes),
             CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS)
    return false;
  if (c.maps.size() >= 1024) c.maps.clear();  // bounded: long runs over many arrays
  c.maps.emplace(key, built);
  std::memcpy(map, &built, sizeof(CUtensorMap));
  return true;
}

}  // namespace tile::detail
