// runtime/device.cpp - device selection, memory and copies for both backends.
//
// The CPU backend keeps arrays in 64-byte-aligned host memory. The CUDA backend (when built,
// TILE_RT_HAS_CUDA) keeps them in device memory; see cuda/cuda_backend.hpp. On a GPU each buffer
// carries the events that order its uses across streams (tile/detail/ordering.hpp); a buffer is
// freed on the main stream after every use recorded there and every use an execution still in
// progress on this thread issued for it.
#include "tile/device.hpp"

#include <algorithm>
#include <atomic>
#include <array>
#include <cstdio>
#include <mutex>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "tile/detail/runtime.hpp"
#include "tile/error.hpp"

#if defined(TILE_RT_HAS_CUDA)
#include "cuda/cuda_backend.hpp"
#endif

namespace tile {
namespace {

constexpr std::align_val_t kCpuAlignment{64};
constexpr int kMaxGpus = 64;
constexpr int kMaxCpuDevices = 8;

[[noreturn]] void no_cuda() { throw Error("tile: this tile_rt was built without CUDA support"); }

#if defined(TILE_RT_HAS_CUDA)
/// The CUDA backend's pooled events, for the ordering rules.
struct CudaEvents {
  static void wait(void* stream, void* event) { cuda::stream_wait_event(stream, event); }
  static void host_wait(void* event) noexcept { cuda::event_host_wait(event); }
  static void retain(void* event) { cuda::event_retain(event); }
  static void release(void* event) noexcept { cuda::event_destroy(0, event); }
};
using GpuOrdering = detail::Ordering<CudaEvents>;

/// Calls f(use) for every use of `b` that an execution still open on this thread issued and
/// has not marked with an event, after that execution stopped tracking the buffer.
template <class F>
void forget_open_uses(const detail::Buffer* b, F&& f) {
  for (detail::UseList* l = detail::open_use_lists; l; l = l->outer)
    for (int k = 0; k < l->count; ++k) {
      detail::UseList::Use& u = l->uses[static_cast<std::size_t>(k)];
      if (u.buffer != b) continue;
      u.buffer = nullptr;
      f(u);
    }
}

/// Before a GPU buffer's memory goes: orders the free (on the main stream, or by the host for
/// memory someone else frees) after every use of it, including work an execution still open on
/// this thread issued for it (which stops tracking the buffer).
void order_free(detail::Buffer* b) noexcept {
  const int ordinal = b->device->ordinal();
  void* main = nullptr;
  try {
    main = cuda::stream(ordinal);
  } catch (...) {
  }
  forget_open_uses(b, [&](const detail::UseList::Use& u) {
    try {
      if (b->external || !main)
        cuda::synchronize_stream(ordinal, u.stream, "tile::Array (freed)", "");
      else
        cuda::order_device_stream_after(ordinal, u.stream);
    } catch (...) {  // an earlier kernel failed: its op reports it; the free must still wait
      try {
        cuda::synchronize_stream(ordinal, u.stream, "tile::Array (freed)", "");
      } catch (...) {
      }
    }
  });
  // Memory another array also covers may be released with this one: its uses end first.
  if (b->alias.load(std::memory_order_relaxed)) {
    detail::LoanLock lock;
    detail::for_each_alias(b, [](detail::Buffer* a) {
      if (!a->order.empty()) GpuOrdering::before_host_free(a->order);
    });
  }
  if (b->order.empty()) return;
  if (!b->external && main) {
    try {
      GpuOrdering::before_free(b->order, main);
      return;
    } catch (...) {
    }
  }
  GpuOrdering::before_host_free(b->order);
}
#endif

const Device* first_gpu() { return cuda_device_count() > 0 ? &cuda_device(0) : nullptr; }

const Device& pick_default_device() {
  const char* env = std::getenv("TILE_DEVICE");
  const std::string want = env ? env : "";
  if (want == "cpu") return cpu_device();
  if (want == "cuda" || want == "gpu") {
    if (const Device* gpu = first_gpu()) return *gpu;
    throw Error("TILE_DEVICE=" + want + ": no CUDA GPU is available (or tile_rt was built without CUDA)");
  }
  if (!want.empty() && want != "auto")
    throw Error("TILE_DEVICE: expected cpu, cuda or auto, got '" + want + "'");
  if (const Device* gpu = first_gpu()) return *gpu;
  return cpu_device();
}

}  // namespace

static int cpu_device_count() {
  static const int n = [] {
    const char* env = std::getenv("TILE_CPU_DEVICES");
    if (!env || !*env) return 1;
    char* end = nullptr;
    const long v = std::strtol(env, &end, 10);
    if (*end || v < 1 || v > kMaxCpuDevices)
      throw Error(std::string("TILE_CPU_DEVICES: expected a number of simulated devices from 1 to ") +
                  std::to_string(kMaxCpuDevices) + ", got '" + env + "'");
    return static_cast<int>(v);
  }();
  return n;
}

const Device& cpu_device() { return cpu_device(0); }

const Device& cpu_device(int ordinal) {
  if (ordinal < 0 || ordinal >= cpu_device_count())
    throw Error("tile::cpu_device(" + std::to_string(ordinal) + "): there are " +
                std::to_string(cpu_device_count()) + " simulated CPU devices (TILE_CPU_DEVICES)");
  static const std::array<std::unique_ptr<Device>, kMaxCpuDevices> cpus = [] {
    std::array<std::unique_ptr<Device>, kMaxCpuDevices> all;
    const int units = detail::cpu_num_threads();
    const std::string threads = std::to_string(units) + " threads";
    all[0] = std::make_unique<Device>(Device::Kind::Cpu, 0, "cpu (" + threads + ")", units);
    for (int i = 1; i < kMaxCpuDevices; ++i)
      all[static_cast<std::size_t>(i)] = std::make_unique<Device>(
          Device::Kind::Cpu, i, "cpu:" + std::to_string(i) + " (simulated, " + threads + ")", units);
    return all;
  }();
  return *cpus[static_cast<std::size_t>(ordinal)];
}

int device_count() { return default_device().is_gpu() ? cuda_device_count() : cpu_device_count(); }

const Device& device(int index) {
  if (index < 0 || index >= device_count())
    throw Error("tile::device(" + std::to_string(index) + "): there are " + std::to_string(device_count()) +
                (default_device().is_gpu() ? " CUDA GPUs" : " simulated CPU devices (TILE_CPU_DEVICES)"));
  return default_device().is_gpu() ? cuda_device(index) : cpu_device(index);
}

int cuda_device_count() {
#if defined(TILE_RT_HAS_CUDA)
  static const int n = std::min(cuda::device_count(), kMaxGpus);
  return n;
#else
  return 0;
#endif
}

const Device& cuda_device(int ordinal) {
  if (ordinal < 0 || ordinal >= cuda_device_count())
    throw Error("tile::cuda_device(" + std::to_string(ordinal) + "): there are " +
                std::to_string(cuda_device_count()) + " CUDA GPUs");
#if defined(TILE_RT_HAS_CUDA)
  static std::array<std::unique_ptr<Device>, kMaxGpus> gpus;
  static std::array<std::once_flag, kMaxGpus> once;
  const auto i = static_cast<std::size_t>(ordinal);
  std::call_once(once[i], [&] {
    gpus[i] = std::make_unique<Device>(Device::Kind::Cuda, ordinal,
                                       "cuda:" + std::to_string(ordinal) + " (" + cuda::device_name(ordinal) + ")",
                                       cuda::multiprocessor_count(ordinal));
  });
  return *gpus[i];
#else
  no_cuda();
#endif
}

#if !defined(TILE_RT_HAS_CUDA)
namespace detail {
void* gpu_comm_init(const std::vector<const Device*>&) { no_cuda(); }
void gpu_comm_destroy(void*) noexcept {}
void gpu_collective(void*, int, int, int, int, std::size_t, const std::vector<const void*>&,
                    const std::vector<void*>&, const std::vector<void*>&) {
  no_cuda();
}
void gpu_send_recv(void*, int, std::size_t, const std::vector<const void*>&, const std::vector<void*>&,
                   const std::vector<int>&, int, const std::vector<void*>&) {
  no_cuda();
}
std::string gpu_comm_unique_id() { no_cuda(); }
void* gpu_comm_join(const std::string&, int, int, const Device&) { no_cuda(); }
}  // namespace detail
#endif

const Device& default_device() {
  static const Device& device = pick_default_device();
  return device;
}

namespace detail {
namespace {

std::mutex& loans_mutex() {
  static std::mutex* m = new std::mutex;  // never destroyed: arrays may outlive main
  return *m;
}

/// The live buffers over external memory, to find those whose bytes a new one overlaps
/// (under the LoanLock, as their rings are).
struct ExternalBuffers {
  std::vector<Buffer*> live;
};
ExternalBuffers& external_buffers() {
  static ExternalBuffers* e = new ExternalBuffers;  // never destroyed: arrays may outlive main
  return *e;
}

bool in_ring(const Buffer* a, const Buffer* b) {
  if (a == b) return true;
  bool found = false;
  for_each_alias(a, [&](const Buffer* x) { found = found || x == b; });
  return found;
}

/// Joins the rings (Buffer::alias) of `a` and `b` into one.
void join_rings(Buffer* a, Buffer* b) {
  if (in_ring(a, b)) return;
  Buffer* after_a = a->alias.load(std::memory_order_relaxed);
  Buffer* after_b = b->alias.load(std::memory_order_relaxed);
  a->alias.store(after_b ? after_b : b, std::memory_order_relaxed);
  b->alias.store(after_a ? after_a : a, std::memory_order_relaxed);
}

/// Takes `b` out of its ring.
void leave_ring(Buffer* b) {
  Buffer* after = b->alias.load(std::memory_order_relaxed);
  if (!after) return;
  Buffer* before = after;
  while (before->alias.load(std::memory_order_relaxed) != b) before = before->alias.load(std::memory_order_relaxed);
  before->alias.store(after == before ? nullptr : after, std::memory_order_relaxed);  // alone again, or past b
  b->alias.store(nullptr, std::memory_order_relaxed);
}

}  // namespace

void lock_loans() noexcept { loans_mutex().lock(); }
void unlock_loans() noexcept { loans_mutex().unlock(); }

namespace {
std::atomic<int64_t> allocations_before_failure{-1};
std::atomic<int64_t> launches_before_failure{-1};
std::atomic<int64_t> live_buffer_count{0};

/// Counts down an injection; true (and off again) when it reaches the failing one.
bool injected_now(std::atomic<int64_t>& left) noexcept {
  int64_t n = left.load(std::memory_order_relaxed);
  while (n >= 0) {
    if (left.compare_exchange_weak(n, n - 1, std::memory_order_relaxed)) return n == 0;
  }
  return false;
}
}  // namespace

void inject_allocation_failure(int64_t after) noexcept { allocations_before_failure.store(after); }
void inject_launch_failure(int64_t after) noexcept { launches_before_failure.store(after); }
bool launch_fails_now() noexcept { return injected_now(launches_before_failure); }
int64_t live_buffers() noexcept { return live_buffer_count.load(); }

namespace {
/// The epochs of the simulated CPU devices: only inject_device_reset ends one.
std::array<std::atomic<uint64_t>, kMaxCpuDevices> cpu_epochs{};
uint64_t cpu_epoch(const Device& device) noexcept {
  return cpu_epochs[static_cast<std::size_t>(device.ordinal())].load(std::memory_order_acquire);
}
}  // namespace

uint64_t device_epoch(const Device& device) {
  if (!device.is_gpu()) return cpu_epoch(device);
#if defined(TILE_RT_HAS_CUDA)
  return cuda::epoch(device.ordinal());
#else
  no_cuda();
#endif
}

void throw_lost(const Buffer* b, std::string_view what) {
  throw Error(std::string(what.empty() ? "tile::Array" : what) + ": the array's memory on " + b->device->name() +
              " was lost when the device was reset (cudaDeviceReset) after the array was made; its "
              "contents are gone: make the array again");
}

uint64_t seen_epoch(const Device& device) noexcept {
  if (!device.is_gpu()) return cpu_epoch(device);
#if defined(TILE_RT_HAS_CUDA)
  return cuda::seen_epoch(device.ordinal());
#else
  return 0;
#endif
}

void inject_device_reset(const Device& device) noexcept {
  if (!device.is_gpu()) cpu_epochs[static_cast<std::size_t>(device.ordinal())].fetch_add(1);
}

/// is_lost for buffer_free, which cannot throw: a device that cannot be asked counts as kept.
bool lost(const Buffer* b) noexcept {
  try {
    return is_lost(b);
  } catch (...) {
    return false;
  }
}

Buffer* buffer_alloc(const Device& device, std::size_t bytes) {
  if (injected_now(allocations_before_failure))
    throw Error("tile: cannot allocate " + std::to_string(bytes) + " bytes on " + device.name() +
                ": out of memory (injected)");
  auto b = std::make_unique<Buffer>();
  b->bytes = bytes;
  b->device = &device;
  b->epoch = device_epoch(device);
  if (bytes > 0) {
    if (device.is_gpu()) {
#if defined(TILE_RT_HAS_CUDA)
      b->data = cuda::allocate(device.ordinal(), bytes);
#else
      no_cuda();
#endif
    } else {
      // nothrow: a sanitizer's operator new stops the program instead of throwing bad_alloc.
      b->data = ::operator new(bytes, kCpuAlignment, std::nothrow);
      if (!b->data)
        throw Error("tile: cannot allocate " + std::to_string(bytes) + " bytes on " + device.name() +
                    ": out of memory");
    }
  }
  live_buffer_count.fetch_add(1, std::memory_order_relaxed);
  return b.release();
}

Buffer* buffer_external(const Device& device, void* data, std::size_t bytes, void (*release)(void*),
                        void* release_ctx) {
  auto* b = new Buffer;
  b->data = data;
  b->bytes = bytes;
  b->device = &device;
  b->external = true;
  b->release = release;
  b->release_ctx = release_ctx;
  b->epoch = device_epoch(device);
  if (bytes == 0) return b;
  ExternalBuffers& e = external_buffers();
  LoanLock lock;
  const auto begin = reinterpret_cast<uintptr_t>(data), end = begin + bytes;
  for (Buffer* other : e.live) {
    const auto o = reinterpret_cast<uintptr_t>(other->data);
    if (other->device == &device && other->epoch == b->epoch && o < end && begin < o + other->bytes)
      join_rings(b, other);
  }
  e.live.push_back(b);
  return b;
}

void buffer_free(Buffer* b) noexcept {
  if (!b) return;
  if (!b->loans.empty()) {
    std::fprintf(stderr,
                 "tile: fatal: a tile::Array was destroyed while it was still lent (%s); "
                 "keep the array alive until the view, the PartitionRef or the op that borrows it is gone\n",
                 b->loans.front().exclusive ? "exclusively" : "shared");
    std::abort();
  }
  // A reset took the memory: nothing of it is freed, and its events went with the context;
  // executions still open on this thread forget it all the same.
  const bool gone = lost(b);
#if defined(TILE_RT_HAS_CUDA)
  if (b->device->is_gpu()) {
    if (gone) {
      forget_open_uses(b, [](const UseList::Use&) {});
      GpuOrdering::clear(b->order);
    } else {
      order_free(b);
    }
  }
#endif
  if (b->external) {  // memory the caller (or a DLPack producer) owns
    if (b->bytes > 0) {
      ExternalBuffers& e = external_buffers();
      LoanLock lock;
      leave_ring(b);
      e.live.erase(std::find(e.live.begin(), e.live.end(), b));
    }
    if (b->release) b->release(b->release_ctx);
    delete b;
    return;
  }
  if (b->data && !(gone && b->device->is_gpu())) {
    if (b->device->is_gpu()) {
#if defined(TILE_RT_HAS_CUDA)
      cuda::release(b->device->ordinal(), b->data);
#endif
    } else {
      ::operator delete(b->data, kCpuAlignment);
    }
  }
  live_buffer_count.fetch_sub(1, std::memory_order_relaxed);
  delete b;
}

void copy_to_device(const Device& device, void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  if (capturing_graph)
    throw Error("tile: cannot copy an array to the device while an op is captured into a graph; "
                "copy before capturing or after running the graph");
  if (!device.is_gpu()) {
    std::memcpy(dst, src, bytes);
    return;
  }
#if defined(TILE_RT_HAS_CUDA)
  cuda::copy_to_device(device.ordinal(), dst, src, bytes);
#else
  no_cuda();
#endif
}

void copy_to_host(const Device& device, void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  if (capturing_graph)
    throw Error("tile: cannot copy an array to the host while an op is captured into a graph; "
                "copy before capturing or after running the graph");
  if (!device.is_gpu()) {
    std::memcpy(dst, src, bytes);
    return;
  }
#if defined(TILE_RT_HAS_CUDA)
  cuda::copy_to_host(device.ordinal(), dst, src, bytes);
#else
  no_cuda();
#endif
}

void copy_on_stream(const Device& device, void* stream, void* dst, const void* src, std::size_t bytes,
                    CopyKind kind) {
  if (bytes == 0) return;
  if (!device.is_gpu()) {
    std::memcpy(dst, src, bytes);
    return;
  }
#if defined(TILE_RT_HAS_CUDA)
  cuda::copy_on_stream(device.ordinal(), stream, dst, src, bytes, static_cast<int>(kind));
#else
  (void)stream, (void)kind;
  no_cuda();
#endif
}

void copy_2d_on_stream(const Device& device, void* stream, void* dst, std::size_t dpitch, const void* src,
                       std::size_t spitch, std::size_t width_bytes, std::size_t height, CopyKind kind) {
  if (width_bytes == 0 || height == 0) return;
  if (!device.is_gpu()) {
    for (std::size_t r = 0; r < height; ++r)
      std::memcpy(static_cast<char*>(dst) + r * dpitch, static_cast<const char*>(src) + r * spitch, width_bytes);
    return;
  }
#if defined(TILE_RT_HAS_CUDA)
  cuda::copy_2d_on_stream(device.ordinal(), stream, dst, dpitch, src, spitch, width_bytes, height,
                          static_cast<int>(kind));
#else
  (void)stream, (void)kind;
  no_cuda();
#endif
}

bool strided_copy_on_stream(const Device& device, void* stream, void* dst, const int64_t* dst_strides,
                            const void* src, const int64_t* src_strides, const int64_t* extent, int rank,
                            std::size_t elem) {
#if defined(TILE_RT_HAS_CUDA)
  if (device.is_gpu())
    return cuda::strided_copy(device.ordinal(), stream, dst, dst_strides, src, src_strides, extent, rank, elem);
#endif
  (void)device, (void)stream, (void)dst, (void)dst_strides, (void)src, (void)src_strides, (void)extent,
      (void)rank, (void)elem;
  return false;
}

void* staging_alloc(const Device& device, std::size_t bytes) {
  if (bytes == 0) return nullptr;
  if (!device.is_gpu()) return ::operator new(bytes, kCpuAlignment);
#if defined(TILE_RT_HAS_CUDA)
  return cuda::host_alloc(device.ordinal(), bytes);
#else
  no_cuda();
#endif
}

void staging_free(const Device& device, void* p) noexcept {
  if (!p) return;
  if (!device.is_gpu()) {
    ::operator delete(p, kCpuAlignment);
    return;
  }
#if defined(TILE_RT_HAS_CUDA)
  cuda::host_free(p);
#endif
}

void* gpu_stream(const Device& device) {
#if defined(TILE_RT_HAS_CUDA)
  if (device.is_gpu()) return cuda::stream(device.ordinal());
#endif
  (void)device;
  no_cuda();
}

int gpu_pick_stream(const Device& device) {
#if defined(TILE_RT_HAS_CUDA)
  if (device.is_gpu()) return cuda::pick_side_stream(device.ordinal());
#endif
  (void)device;
  no_cuda();
}

void* gpu_side_stream(const Device& device, int index) {
#if defined(TILE_RT_HAS_CUDA)
  if (device.is_gpu()) return cuda::side_stream(device.ordinal(), index);
#endif
  (void)device, (void)index;
  no_cuda();
}

void gpu_before_use(Buffer* b, void* stream, bool write) {
#if defined(TILE_RT_HAS_CUDA)
  GpuOrdering::before_use(b->order, stream, write);
  if (b->alias.load(std::memory_order_relaxed)) {
    LoanLock lock;
    for_each_alias(b, [&](Buffer* a) { GpuOrdering::before_use(a->order, stream, write); });
  }
#else
  (void)b, (void)stream, (void)write;
#endif
}

void gpu_after_use(Buffer* b, void* stream, bool write, void* event) {
#if defined(TILE_RT_HAS_CUDA)
  GpuOrdering::after_use(b->order, stream, write, event);
#else
  (void)b, (void)stream, (void)write, (void)event;
#endif
}

void gpu_after_waited_use(Buffer* b, bool write) noexcept {
#if defined(TILE_RT_HAS_CUDA)
  GpuOrdering::after_waited_use(b->order, write);
#else
  (void)b, (void)write;
#endif
}

void gpu_order_copy(Buffer* b, bool write) {
#if defined(TILE_RT_HAS_CUDA)
  if (!b->device->is_gpu()) return;
  // The copy is issued on the main stream right after this and waited for: once it returns,
  // what it waited for has finished.
  void* main = cuda::stream(b->device->ordinal());
  GpuOrdering::before_use(b->order, main, write);
  GpuOrdering::after_waited_use(b->order, write);
  if (!b->alias.load(std::memory_order_relaxed)) return;
  LoanLock lock;
  for_each_alias(b, [&](Buffer* a) {
    GpuOrdering::before_use(a->order, main, write);
    GpuOrdering::after_waited_use(a->order, write);
  });
#else
  (void)b, (void)write;
#endif
}

void gpu_order_after_device_stream(const Device& device, void* stream) {
#if defined(TILE_RT_HAS_CUDA)
  if (device.is_gpu()) return cuda::order_after_device_stream(device.ordinal(), stream);
#endif
  (void)device, (void)stream;
  no_cuda();
}

void gpu_order_after_device_allocations(const Device& device, void* stream, uint64_t& seen) {
#if defined(TILE_RT_HAS_CUDA)
  if (device.is_gpu()) return cuda::order_after_device_allocations(device.ordinal(), stream, seen);
#endif
  (void)device, (void)stream, (void)seen;
  no_cuda();
}

void gpu_order_device_stream_after(const Device& device, void* stream) {
#if defined(TILE_RT_HAS_CUDA)
  if (device.is_gpu()) return cuda::order_device_stream_after(device.ordinal(), stream);
#endif
  (void)device, (void)stream;
  no_cuda();
}

CheckRecord* gpu_check_record(const Device& device) {
#if defined(TILE_RT_HAS_CUDA)
  if (device.is_gpu()) return cuda::check_record(device.ordinal());
#endif
  (void)device;
  return nullptr;
}

void gpu_check(const Device& device, int err, const char* kernel, const char* source) {
#if defined(TILE_RT_HAS_CUDA)
  cuda::check_launch(device.ordinal(), err, kernel, source);
#else
  (void)device, (void)err, (void)kernel, (void)source;
  no_cuda();
#endif
}

void gpu_synchronize(const Device& device, const char* kernel, const char* source) {
#if defined(TILE_RT_HAS_CUDA)
  cuda::synchronize(device.ordinal(), kernel, source);
#else
  (void)device, (void)kernel, (void)source;
  no_cuda();
#endif
}

void gpu_stream_synchronize(const Device& device, void* stream, const char* kernel, const char* source) {
#if defined(TILE_RT_HAS_CUDA)
  cuda::synchronize_stream(device.ordinal(), stream, kernel, source);
#else
  (void)device, (void)stream, (void)kernel, (void)source;
  no_cuda();
#endif
}

void* gpu_event_record(const Device& device, void* stream) {
#if defined(TILE_RT_HAS_CUDA)
  return cuda::event_record(device.ordinal(), stream);
#else
  (void)device, (void)stream;
  no_cuda();
#endif
}

bool gpu_event_query(const Device& device, void* event, const char* kernel, const char* source) {
#if defined(TILE_RT_HAS_CUDA)
  return cuda::event_query(device.ordinal(), event, kernel, source);
#else
  (void)device, (void)event, (void)kernel, (void)source;
  no_cuda();
#endif
}

void gpu_event_wait(const Device& device, void* event, const char* kernel, const char* source) {
#if defined(TILE_RT_HAS_CUDA)
  cuda::event_wait(device.ordinal(), event, kernel, source);
#else
  (void)device, (void)event, (void)kernel, (void)source;
  no_cuda();
#endif
}

void gpu_event_destroy(const Device& device, void* event) noexcept {
#if defined(TILE_RT_HAS_CUDA)
  cuda::event_destroy(device.ordinal(), event);
#else
  (void)device, (void)event;
#endif
}

void* gpu_timing_event_record(const Device& device, void* stream) {
#if defined(TILE_RT_HAS_CUDA)
  return cuda::timing_event_record(device.ordinal(), stream);
#else
  (void)device, (void)stream;
  no_cuda();
#endif
}

double gpu_timing_elapsed_ms(const Device& device, void* start, void* stop) {
#if defined(TILE_RT_HAS_CUDA)
  return cuda::timing_elapsed_ms(device.ordinal(), start, stop);
#else
  (void)device, (void)start, (void)stop;
  no_cuda();
#endif
}

void gpu_timing_event_destroy(const Device& device, void* event) noexcept {
#if defined(TILE_RT_HAS_CUDA)
  cuda::timing_event_destroy(device.ordinal(), event);
#else
  (void)device, (void)event;
#endif
}

void gpu_flush_l2(const Device& device, void* stream) {
#if defined(TILE_RT_HAS_CUDA)
  cuda::flush_l2(device.ordinal(), stream);
#else
  (void)device, (void)stream;
  no_cuda();
#endif
}

void gpu_capture_begin(const Device& device, void* stream) {
#if defined(TILE_RT_HAS_CUDA)
  cuda::capture_begin(device.ordinal(), stream);
#else
  (void)device, (void)stream;
  no_cuda();
#endif
}

void* gpu_capture_end(const Device& device, void* stream) {
#if defined(TILE_RT_HAS_CUDA)
  return cuda::capture_end(device.ordinal(), stream);
#else
  (void)device, (void)stream;
  no_cuda();
#endif
}

void gpu_graph_launch(const Device& device, void* graph, void* stream) {
#if defined(TILE_RT_HAS_CUDA)
  cuda::graph_launch(device.ordinal(), graph, stream);
#else
  (void)device, (void)graph, (void)stream;
  no_cuda();
#endif
}

void gpu_graph_destroy(const Device& device, void* graph) noexcept {
#if defined(TILE_RT_HAS_CUDA)
  cuda::graph_destroy(device.ordinal(), graph);
#else
  (void)device, (void)graph;
#endif
}

}  // namespace detail
}  // namespace tile
