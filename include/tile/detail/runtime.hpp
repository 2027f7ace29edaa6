// tile/detail/runtime.hpp - the non-template entry points of tile_rt that the header-only part
// of the host API calls: device memory, copies, the CPU thread pool and CUDA stream handling.
// Not for users.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "tile/device.hpp"

namespace tile::detail {

/// A device allocation and its loans. `Array` owns one; borrowers (PartitionRef, pending ops)
/// point at it. Freeing a buffer that is still lent aborts the program: the alternative is a
/// use after free.
struct Buffer {
  void* data = nullptr;
  std::size_t bytes = 0;
  const Device* device = nullptr;
  int shared_loans = 0;
  bool exclusive_loan = false;
};

Buffer* buffer_alloc(const Device& device, std::size_t bytes);
void buffer_free(Buffer* buffer) noexcept;

struct BufferDeleter {
  void operator()(Buffer* b) const noexcept { buffer_free(b); }
};

void copy_to_device(const Device& device, void* dst, const void* src, std::size_t bytes);
void copy_to_host(const Device& device, void* dst, const void* src, std::size_t bytes);

/// Runs fn(ctx, i) for i in [0, n) on the CPU thread pool and waits. If calls throw, the first
/// exception is rethrown here (remaining programs are skipped).
using ProgramFn = void (*)(void* ctx, int64_t program);
void cpu_parallel_for(int64_t n, ProgramFn fn, void* ctx);
int cpu_num_threads();

/// The CUDA stream of a GPU device (as void*, so that this header needs no CUDA headers).
void* gpu_stream(const Device& device);
/// Throws tile::Error naming the kernel and its source when `err` (a cudaError_t) is non-zero.
void gpu_check(const Device& device, int err, const char* kernel, const char* source);
/// Waits for the device's stream; throws tile::Error naming the kernel on failure.
void gpu_synchronize(const Device& device, const char* kernel, const char* source);

/// A kernel's display name ("add<128>") from the __PRETTY_FUNCTION__ of a `template <auto K>`
/// function and, when available, the mangled name of a type `KernelTag<K>` (used when the
/// pretty name lacks template arguments, as clang's does).
std::string kernel_display_name(const char* pretty_function, const char* mangled_tag);

}  // namespace tile::detail
