// runtime/cuda/cuda_backend.cpp - see cuda_backend.hpp. Plain C++ against the CUDA runtime API.
#include "cuda/cuda_backend.hpp"

#include <cuda_runtime.h>

#include <array>
#include <mutex>
#include <string>

#include "tile/error.hpp"

namespace tile::cuda {
namespace {

std::string describe(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
}

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw Error(std::string("tile: CUDA error in ") + what + ": " + describe(e));
}

void use_device(int ordinal) { check(cudaSetDevice(ordinal), "cudaSetDevice"); }

constexpr int kMaxDevices = 64;

std::string kernel_context(const char* kernel, const char* source) {
  std::string s = std::string("tile::launch<") + (kernel ? kernel : "?") + ">";
  if (source && *source) s += " (kernel defined at " + std::string(source) + ")";
  return s;
}

}  // namespace

int device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();  // clear the error so that later calls do not report it
    return 0;
  }
  return n;
}

std::string device_name(int ordinal) {
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, ordinal), "cudaGetDeviceProperties");
  return prop.name;
}

void* allocate(int ordinal, std::size_t bytes) {
  use_device(ordinal);
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw Error("tile: cannot allocate " + std::to_string(bytes) +
                " bytes on cuda:" + std::to_string(ordinal) + ": " + describe(e));
  }
  return p;
}

void release(int ordinal, void* ptr) noexcept {
  // Errors are ignored: at process exit the CUDA runtime may already be shut down.
  if (cudaSetDevice(ordinal) == cudaSuccess) (void)cudaFree(ptr);
  (void)cudaGetLastError();
}

void* stream(int ordinal) {
  static std::array<cudaStream_t, kMaxDevices> streams{};
  static std::array<std::once_flag, kMaxDevices> once;
  if (ordinal < 0 || ordinal >= kMaxDevices) throw Error("tile: CUDA device ordinal out of range");
  std::call_once(once[static_cast<std::size_t>(ordinal)], [&] {
    use_device(ordinal);
    check(cudaStreamCreateWithFlags(&streams[static_cast<std::size_t>(ordinal)], cudaStreamNonBlocking),
          "cudaStreamCreateWithFlags");
  });
  return streams[static_cast<std::size_t>(ordinal)];
}

void copy_to_device(int ordinal, void* dst, const void* src, std::size_t bytes) {
  use_device(ordinal);
  auto s = static_cast<cudaStream_t>(stream(ordinal));
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, s), "cudaMemcpyAsync (host to device)");
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize (host to device copy)");
}

void copy_to_host(int ordinal, void* dst, const void* src, std::size_t bytes) {
  use_device(ordinal);
  auto s = static_cast<cudaStream_t>(stream(ordinal));
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync (device to host)");
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize (device to host copy)");
}

void check_launch(int ordinal, int err, const char* kernel, const char* source) {
  (void)ordinal;
  if (err != 0) {
    (void)cudaGetLastError();
    throw Error(kernel_context(kernel, source) +
                ": the GPU launch failed: " + describe(static_cast<cudaError_t>(err)));
  }
}

void synchronize(int ordinal, const char* kernel, const char* source) {
  use_device(ordinal);
  const cudaError_t e = cudaStreamSynchronize(static_cast<cudaStream_t>(stream(ordinal)));
  if (e != cudaSuccess)
    throw Error(kernel_context(kernel, source) + ": the kernel failed on the GPU: " + describe(e));
}

}  // namespace tile::cuda
