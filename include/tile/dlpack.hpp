// tile/dlpack.hpp - exchanging arrays with other libraries (PyTorch, CuPy, JAX, ...) through
// DLPack, without copies.
//
//   DLManagedTensor* t = tile::to_dlpack(std::move(a));   // the consumer now owns a's memory
//   tile::Array<float> b = tile::from_dlpack<float>(t);     // b owns t; freeing b calls t's deleter
//
// Streams (the `__dlpack__(stream=...)` exchange of the Python protocol, as cudaStream_t
// passed as void*): `to_dlpack(std::move(a), s)` makes the consumer's stream `s` wait for all
// work tile_rt issued on the array's GPU (without one, it waits for that work on the host);
// `from_dlpack<T>(t, s)` makes tile_rt's stream wait for the producer's stream `s`, so ops on
// the array see what the producer wrote (without one, the producer must have finished).
//
// Strides: `from_dlpack` takes a tensor with any non-negative strides under which distinct
// indices address distinct elements (the rule of `Array::borrow_external`), e.g. a transposed
// (column-major) PyTorch tensor; null strides mean compact row-major. The array keeps those
// strides, and `to_dlpack` always exports an array's strides (never null). Negative strides
// (a flipped tensor), stride-0 broadcasts and overlapping strides are refused, as are tensors on
// other devices than the CPU or a CUDA GPU and an element type that is not T: each throws
// tile::Error naming the rule. `from_dlpack` takes ownership of `t` in every case: when it
// throws, it has already called `t->deleter(t)`.
//
// The structs below are the DLPack ABI (v0.8: DLDevice, DLDataType, DLTensor,
// DLManagedTensor). They share the include guard of the reference `dlpack/dlpack.h`, so a
// program may include either header first.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "tile/array.hpp"
#include "tile/core.hpp"
#include "tile/device.hpp"
#include "tile/error.hpp"

#ifndef DLPACK_DLPACK_H_
#define DLPACK_DLPACK_H_
#define DLPACK_VERSION 80
#define DLPACK_ABI_VERSION 1

extern "C" {
typedef enum {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U,
  kDLBool = 6U,
} DLDataTypeCode;

typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;
}
#endif

namespace tile {
namespace detail {

// The FP8 type codes of DLPack 1.1 (kDLFloat8_e4m3fn, kDLFloat8_e5m2), which the v0.8 enum
// above and an older dlpack.h do not name; PyTorch's float8_e4m3fn and float8_e5m2 use them.
inline constexpr uint8_t kDLFloat8_e4m3fn_code = 10;
inline constexpr uint8_t kDLFloat8_e5m2_code = 12;

/// The DLPack type code and bit width of element type T.
template <class T>
constexpr DLDataType dlpack_dtype() {
  if constexpr (std::is_same_v<T, bool>)
    return {kDLBool, 8, 1};
  else if constexpr (std::is_same_v<T, f16>)
    return {kDLFloat, 16, 1};
  else if constexpr (std::is_same_v<T, bf16>)
    return {kDLBfloat, 16, 1};
  else if constexpr (std::is_same_v<T, f8e4m3>)
    return {kDLFloat8_e4m3fn_code, 8, 1};
  else if constexpr (std::is_same_v<T, f8e5m2>)
    return {kDLFloat8_e5m2_code, 8, 1};
  else if constexpr (std::is_same_v<T, complex<float>>)
    return {kDLComplex, 64, 1};
  else if constexpr (std::is_floating_point_v<T>)
    return {kDLFloat, static_cast<uint8_t>(8 * sizeof(T)), 1};
  else if constexpr (std::is_signed_v<T>)
    return {kDLInt, static_cast<uint8_t>(8 * sizeof(T)), 1};
  else
    return {kDLUInt, static_cast<uint8_t>(8 * sizeof(T)), 1};
}

inline std::string dlpack_dtype_str(DLDataType t) {
  if (t.code == kDLFloat8_e4m3fn_code && t.bits == 8 && t.lanes == 1) return "float8_e4m3fn";
  if (t.code == kDLFloat8_e5m2_code && t.bits == 8 && t.lanes == 1) return "float8_e5m2";
  static const char* const names[] = {"int", "uint", "float", "opaque", "bfloat", "complex", "bool"};
  std::string s = t.code < 7 ? names[t.code] : "code" + std::to_string(t.code);
  s += std::to_string(t.bits);
  if (t.lanes != 1) s += "x" + std::to_string(t.lanes);
  return s;
}

/// What an exported DLManagedTensor owns: the array and its shape/strides storage.
template <class T>
struct DLPackExport {
  Array<T> array;
  int64_t shape[Shape::max_rank];
  int64_t strides[Shape::max_rank];
  DLManagedTensor managed;
};

/// Makes the consumer's stream (or, without one, the host) wait for the work tile_rt issued on
/// `a`'s GPU: what a DLPack export must do before the consumer reads the memory.
template <class T>
void order_before_consumer(const Array<T>& a, void* consumer_stream, const char* what) {
  if (!a.device().is_gpu()) return;
  if (consumer_stream)
    gpu_order_after_device_stream(a.device(), consumer_stream);
  else
    gpu_synchronize(a.device(), what, "");
}

/// Fills `t` with `a`'s data, device, element type, shape and strides; `shape` and `strides`
/// (Shape::max_rank elements each) hold the extents `t` points at.
template <class T>
void describe_dlpack(const Array<T>& a, int64_t* shape, int64_t* strides, DLTensor& t) {
  for (int d = 0; d < a.rank(); ++d) {
    shape[d] = a.shape()[d];
    strides[d] = a.strides()[d];
  }
  t.data = a.data();
  t.device = DLDevice{a.device().is_gpu() ? kDLCUDA : kDLCPU, a.device().ordinal()};
  t.ndim = a.rank();
  t.dtype = dlpack_dtype<T>();
  t.shape = shape;
  t.strides = strides;
  t.byte_offset = 0;
}

}  // namespace detail

/// Hands the array to a DLPack consumer. The consumer calls `deleter` when done; until then the
/// memory stays allocated. The array must not be lent. The tensor carries the array's shape and
/// strides (those of external memory too, e.g. column-major).
template <class T>
DLManagedTensor* to_dlpack(Array<T>&& array, void* consumer_stream = nullptr) {
  if (!array.valid()) throw Error("tile::to_dlpack: the array has no storage (it was moved from)");
  detail::check_not_lost(detail::ArrayAccess::ref(array).buffer, "tile::to_dlpack");
  if (!detail::ArrayAccess::ref(array).buffer->loans.empty())
    throw Error("tile::to_dlpack: the array is borrowed (by a view, a PartitionRef or a pending op); a "
                "borrowed array cannot be handed to a DLPack consumer");
  detail::order_before_consumer(array, consumer_stream, "tile::to_dlpack");
  auto* ex = new detail::DLPackExport<T>{std::move(array), {}, {}, {}};
  detail::describe_dlpack(ex->array, ex->shape, ex->strides, ex->managed.dl_tensor);
  ex->managed.manager_ctx = ex;
  ex->managed.deleter = [](DLManagedTensor* self) { delete static_cast<detail::DLPackExport<T>*>(self->manager_ctx); };
  return &ex->managed;
}
template <class T>
DLManagedTensor* to_dlpack(Array<T>&) {
  static_assert(detail::false_for_types<T>, "tile::to_dlpack consumes the array: pass std::move(a)");
  return nullptr;
}

/// Takes a DLPack tensor as an array of T, without copying (see the file comment).
template <class T>
Array<T> from_dlpack(DLManagedTensor* t, void* producer_stream = nullptr) {
  if (!t) throw Error("tile::from_dlpack: the tensor is null");
  const DLTensor& d = t->dl_tensor;
  auto release = [](void* ctx) {
    auto* m = static_cast<DLManagedTensor*>(ctx);
    if (m->deleter) m->deleter(m);
  };
  auto fail = [&](const std::string& rule) -> Array<T> {
    release(t);
    throw Error("tile::from_dlpack: " + rule);
  };
  const DLDataType want = detail::dlpack_dtype<T>();
  if (d.dtype.code != want.code || d.dtype.bits != want.bits || d.dtype.lanes != want.lanes)
    return fail("the tensor holds " + detail::dlpack_dtype_str(d.dtype) + " elements, not " +
                detail::dlpack_dtype_str(want));
  if (d.ndim < 1 || d.ndim > Shape::max_rank)
    return fail("the rank must be between 1 and 4 (got " + std::to_string(d.ndim) + ")");
  const Device* device = nullptr;
  if (d.device.device_type == kDLCPU)
    device = &cpu_device();
  else if (d.device.device_type == kDLCUDA && d.device.device_id >= 0 && d.device.device_id < cuda_device_count())
    device = &cuda_device(d.device.device_id);
  else
    return fail("the tensor lives on DLPack device type " + std::to_string(d.device.device_type) + " id " +
                std::to_string(d.device.device_id) + ", which this tile_rt cannot use (CPU or a CUDA GPU)");
  std::array<int64_t, Shape::max_rank> dims{};
  for (int i = 0; i < d.ndim; ++i) {
    if (d.shape[i] < 0) return fail("extent " + std::to_string(i) + " is negative");
    dims[static_cast<std::size_t>(i)] = d.shape[i];
  }
  const Shape shape = Shape::from_dims(std::span<const int64_t>(dims.data(), static_cast<std::size_t>(d.ndim)));
  // Null strides mean compact row-major; external() checks the others.
  const Strides strides =
      d.strides ? Strides::from_values(std::span<const int64_t>(d.strides, static_cast<std::size_t>(d.ndim)))
                : Strides();
  T* data = reinterpret_cast<T*>(static_cast<char*>(d.data) + d.byte_offset);
  if (producer_stream && device->is_gpu()) detail::gpu_order_device_stream_after(*device, producer_stream);
  return detail::ArrayAccess::external<T>(data, shape, strides, *device, +release, t, "tile::from_dlpack");
}

}  // namespace tile
