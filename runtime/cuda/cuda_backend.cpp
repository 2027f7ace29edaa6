// runtime/cuda/cuda_backend.cpp - see cuda_backend.hpp. Plain C++ against the CUDA runtime API.
#include "cuda/cuda_backend.hpp"

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tile/detail/abi.hpp"
#include "tile/detail/runtime.hpp"
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

/// A pooled event: `refs` holders (a Future, buffers); the last release returns it to the free
/// list of the device state it was made in.
struct DeviceState;
struct PooledEvent {
  cudaEvent_t event = nullptr;
  std::atomic<int> refs{0};
  DeviceState* owner = nullptr;
  PooledEvent* next_free = nullptr;
};

/// What tile_rt made on a device in one epoch, between resets: its streams, allocation
/// counter, event free list, tile::check record and L2 scratch. A reset (cudaDeviceReset)
/// destroys the context they belong to; the state is then retired, never destroyed (its
/// handles went with the context), and the next use of the device begins a new one.
struct DeviceState {
  DeviceState(int o, uint64_t e, unsigned long long c) : ordinal(o), epoch(e), context(c) {}
  const int ordinal;
  const uint64_t epoch;
  const unsigned long long context;  // the primary context's id (cuCtxGetId)
  std::once_flag main_once;
  cudaStream_t main = nullptr;
  std::once_flag side_once;
  std::array<cudaStream_t, detail::kSideStreams> side{};
  /// Incremented after each allocation (or import) issued on the main stream; side stream i
  /// waited for the main stream when the counter was side_seen[i].
  std::atomic<uint64_t> main_allocations{0};
  std::array<std::atomic<uint64_t>, detail::kSideStreams> side_seen{};
  std::mutex mutex;       // the free list
  std::mutex side_mutex;  // the side streams' waits for the main stream
  PooledEvent* free_events = nullptr;
  std::once_flag pool_once;  // the memory pool set to keep what is freed
  /// The tile::check record: mapped host memory that the device's kernels write through.
  std::once_flag check_once;
  detail::CheckRecord* check_host = nullptr;
  detail::CheckRecord* check_device = nullptr;
  std::once_flag scratch_once;  // flush_l2's buffer
  void* scratch = nullptr;
  std::size_t scratch_bytes = 0;
};

/// A device's current state (its context's id is unique for the life of the process, so the
/// context a reset makes anew has a new one).
struct DeviceSlot {
  std::mutex mutex;
  std::atomic<DeviceState*> current{nullptr};
  std::atomic<unsigned> next_side{0};  // the side streams taken in turn, across epochs
  std::vector<DeviceState*> retired;  // kept reachable: a thread may still be using one
};

DeviceSlot& device_slot(int ordinal) {
  // Never destroyed: arrays may be freed after main returns.
  static auto* all = new std::array<DeviceSlot, kMaxDevices>;
  if (ordinal < 0 || ordinal >= kMaxDevices) throw Error("tile: CUDA device ordinal out of range");
  return (*all)[static_cast<std::size_t>(ordinal)];
}

/// The driver's cuCtxGetCurrent and cuCtxGetId, found through the runtime (tile_rt links no
/// libcuda); null where the driver has none.
struct ContextCalls {
  CUresult (*get_current)(CUcontext*) = nullptr;
  CUresult (*get_id)(CUcontext, unsigned long long*) = nullptr;
};
const ContextCalls& context_calls() {
  static const ContextCalls calls = [] {
    ContextCalls c;
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &fn, 12000, cudaEnableDefault, &found) ==
            cudaSuccess &&
        found == cudaDriverEntryPointSuccess)
      c.get_current = reinterpret_cast<CUresult (*)(CUcontext*)>(fn);
    if (cudaGetDriverEntryPointByVersion("cuCtxGetId", &fn, 12000, cudaEnableDefault, &found) == cudaSuccess &&
        found == cudaDriverEntryPointSuccess)
      c.get_id = reinterpret_cast<CUresult (*)(CUcontext, unsigned long long*)>(fn);
    (void)cudaGetLastError();
    return c;
  }();
  return calls;
}

/// The id of the device's primary context, which cudaSetDevice makes current (and makes again
/// after a reset); 0 when the driver cannot tell.
unsigned long long context_id(int ordinal) {
  use_device(ordinal);
  const ContextCalls& calls = context_calls();
  CUcontext ctx = nullptr;
  unsigned long long id = 0;
  if (!calls.get_current || !calls.get_id || calls.get_current(&ctx) != CUDA_SUCCESS || !ctx ||
      calls.get_id(ctx, &id) != CUDA_SUCCESS)
    return 0;
  return id;
}

/// The device's state for its context now: a context not seen before (at the first use, or the
/// first use after a reset) begins a new epoch with a fresh state.
DeviceState& current_state(int ordinal) {
  DeviceSlot& slot = device_slot(ordinal);
  DeviceState* s = slot.current.load(std::memory_order_acquire);
  const unsigned long long id = context_id(ordinal);
  // An id of 0 (the driver cannot tell) keeps the state there is.
  if (s && (s->context == id || id == 0)) return *s;
  std::lock_guard<std::mutex> lock(slot.mutex);
  s = slot.current.load(std::memory_order_relaxed);
  const unsigned long long now = context_id(ordinal);  // a reset may have come meanwhile
  if (s && (s->context == now || now == 0)) return *s;
  auto* fresh = new DeviceState(ordinal, s ? s->epoch + 1 : 0, now);
  if (s) slot.retired.push_back(s);
  slot.current.store(fresh, std::memory_order_release);
  return *fresh;
}

/// The state of the device's epoch as last seen (current_state is where a reset is noticed).
DeviceState& state(int ordinal) {
  DeviceState* s = device_slot(ordinal).current.load(std::memory_order_acquire);
  return s ? *s : current_state(ordinal);
}

/// A kernel failed a tile::check since the record was last read: report it and clear it.
void raise_failed_check(int ordinal) {
  detail::CheckRecord* r = state(ordinal).check_host;
  if (!r || *reinterpret_cast<volatile int32_t*>(&r->state) != 2) return;
  std::string where = "(";
  for (int a = 0; a < r->grid_rank && a < detail::kMaxRank; ++a)
    where += (a ? ", " : "") + std::to_string(r->program[a]);
  const std::string text = std::string("tile::launch<") + r->kernel + ">: tile::check failed at " +
                           r->file + ":" + std::to_string(r->line) + " in tile program " + where +
                           "): " + r->message;
  *r = detail::CheckRecord{};
  throw Error(text);
}

PooledEvent* take_event(int ordinal) {
  DeviceState& d = state(ordinal);
  PooledEvent* e = nullptr;
  {
    std::lock_guard<std::mutex> lock(d.mutex);
    if (d.free_events) {
      e = d.free_events;
      d.free_events = e->next_free;
    }
  }
  if (!e) {
    auto fresh = std::make_unique<PooledEvent>();
    fresh->owner = &d;
    check(cudaEventCreateWithFlags(&fresh->event, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    e = fresh.release();
  }
  e->next_free = nullptr;
  e->refs.store(1, std::memory_order_relaxed);
  return e;
}

void give_back(PooledEvent* e) noexcept {
  DeviceState& d = *e->owner;
  std::lock_guard<std::mutex> lock(d.mutex);
  e->next_free = d.free_events;
  d.free_events = e;
}

void release_event(PooledEvent* e) noexcept {
  if (e && e->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) give_back(e);
}

/// An event of an epoch that a reset ended: the work it marks is gone with the context.
bool event_lost(const PooledEvent* e) { return e->owner->epoch != current_state(e->owner->ordinal).epoch; }
/// The same against the epoch last noticed (no call into CUDA), for the waits of a use that
/// its op's launch already looked at the device for.
bool event_stale(const PooledEvent* e) noexcept {
  return e->owner != device_slot(e->owner->ordinal).current.load(std::memory_order_acquire);
}

/// Makes `waiter` wait for everything issued so far on `producer` (two streams of one device).
void stream_wait(int ordinal, cudaStream_t waiter, cudaStream_t producer) {
  if (waiter == producer) return;
  PooledEvent* e = take_event(ordinal);
  cudaError_t err = cudaEventRecord(e->event, producer);
  if (err == cudaSuccess) err = cudaStreamWaitEvent(waiter, e->event, 0);
  release_event(e);  // the wait took the event's state: it may be recorded again
  check(err, "cudaStreamWaitEvent");
}

}  // namespace

uint64_t epoch(int ordinal) { return current_state(ordinal).epoch; }

uint64_t seen_epoch(int ordinal) noexcept {
  const DeviceState* s = device_slot(ordinal).current.load(std::memory_order_acquire);
  return s ? s->epoch : 0;
}

detail::CheckRecord* check_record(int ordinal) {
  DeviceState& d = state(ordinal);
  std::call_once(d.check_once, [&] {
    use_device(ordinal);
    void* host = nullptr;
    check(cudaHostAlloc(&host, sizeof(detail::CheckRecord), cudaHostAllocMapped), "cudaHostAlloc");
    auto* record = new (host) detail::CheckRecord{};
    void* device = nullptr;
    check(cudaHostGetDevicePointer(&device, host, 0), "cudaHostGetDevicePointer");
    d.check_host = record;
    d.check_device = static_cast<detail::CheckRecord*>(device);
  });
  return d.check_device;
}

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

int multiprocessor_count(int ordinal) {
  int n = 0;
  check(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, ordinal), "cudaDeviceGetAttribute");
  return n;
}

void* allocate(int ordinal, std::size_t bytes) {
  // Stream-ordered, from the device's default memory pool, which keeps what is freed for the
  // next allocation instead of returning it to the driver at every synchronisation: an array
  // made and dropped inside a loop costs no cudaMalloc. The side streams wait for the main
  // stream before they use what was allocated there (side_stream).
  cudaStream_t s = static_cast<cudaStream_t>(stream(ordinal));
  std::call_once(state(ordinal).pool_once, [&] {
    cudaMemPool_t pool = nullptr;
    if (cudaDeviceGetDefaultMemPool(&pool, ordinal) == cudaSuccess) {
      uint64_t keep = UINT64_MAX;
      (void)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    }
    (void)cudaGetLastError();
  });
  use_device(ordinal);
  void* p = nullptr;
  // Whole 32-bit words: a byte-wide atomic update swaps the aligned word that holds its byte.
  const cudaError_t e = cudaMallocAsync(&p, (bytes + 3) / 4 * 4, s);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw Error("tile: cannot allocate " + std::to_string(bytes) +
                " bytes on cuda:" + std::to_string(ordinal) + ": " + describe(e));
  }
  state(ordinal).main_allocations.fetch_add(1, std::memory_order_acq_rel);
  return p;
}

void release(int ordinal, void* ptr) noexcept {
  // Back to the pool in the device stream's order: after every op issued there so far.
  // Errors are ignored: at process exit the CUDA runtime may already be shut down.
  if (cudaSetDevice(ordinal) == cudaSuccess) {
    try {
      (void)cudaFreeAsync(ptr, static_cast<cudaStream_t>(stream(ordinal)));
    } catch (...) {
    }
  }
  (void)cudaGetLastError();
}

void* stream(int ordinal) {
  DeviceState& d = state(ordinal);
  std::call_once(d.main_once, [&] {
    use_device(ordinal);
    check(cudaStreamCreateWithFlags(&d.main, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  });
  return d.main;
}

int pick_side_stream(int ordinal) {
  return static_cast<int>(device_slot(ordinal).next_side.fetch_add(1, std::memory_order_relaxed) %
                          detail::kSideStreams);
}

void* side_stream(int ordinal, int index) {
  DeviceState& d = state(ordinal);
  std::call_once(d.side_once, [&] {
    use_device(ordinal);
    for (cudaStream_t& s : d.side)
      check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  });
  const auto i = static_cast<std::size_t>(index);
  // Arrays allocated on the main stream since this stream last waited for it: wait now. The
  // counter is bumped after the allocation was issued, so seeing it means the wait covers it.
  if (d.side_seen[i].load(std::memory_order_acquire) != d.main_allocations.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> lock(d.side_mutex);
    const uint64_t now = d.main_allocations.load(std::memory_order_acquire);
    if (d.side_seen[i].load(std::memory_order_relaxed) != now) {
      use_device(ordinal);
      stream_wait(ordinal, d.side[i], static_cast<cudaStream_t>(stream(ordinal)));
      d.side_seen[i].store(now, std::memory_order_release);
    }
  }
  return d.side[i];
}

void stream_wait_event(void* waiter, void* event) {
  // An event of an epoch a reset ended marks work that is gone: nothing to wait for.
  if (event_stale(static_cast<PooledEvent*>(event))) return;
  check(cudaStreamWaitEvent(static_cast<cudaStream_t>(waiter), static_cast<PooledEvent*>(event)->event, 0),
        "cudaStreamWaitEvent");
}

void event_host_wait(void* event) noexcept {
  if (event_stale(static_cast<PooledEvent*>(event))) return;
  if (cudaEventSynchronize(static_cast<PooledEvent*>(event)->event) != cudaSuccess) (void)cudaGetLastError();
}

void event_retain(void* event) noexcept {
  static_cast<PooledEvent*>(event)->refs.fetch_add(1, std::memory_order_relaxed);
}

void order_after_device_stream(int ordinal, void* waiter) {
  use_device(ordinal);
  stream_wait(ordinal, static_cast<cudaStream_t>(waiter), static_cast<cudaStream_t>(stream(ordinal)));
}

void order_after_device_allocations(int ordinal, void* waiter, uint64_t& seen) {
  // Read before the wait: allocations counted by then were issued before it.
  const uint64_t now = state(ordinal).main_allocations.load(std::memory_order_acquire);
  if (now == seen) return;
  order_after_device_stream(ordinal, waiter);
  seen = now;
}

void order_device_stream_after(int ordinal, void* producer) {
  use_device(ordinal);
  stream_wait(ordinal, static_cast<cudaStream_t>(stream(ordinal)), static_cast<cudaStream_t>(producer));
  // What the producer wrote is now ordered on the main stream: side streams must wait again.
  state(ordinal).main_allocations.fetch_add(1, std::memory_order_acq_rel);
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

bool strided_copy(int ordinal, void* stream, void* dst, const int64_t* dst_strides, const void* src,
                  const int64_t* src_strides, const int64_t* extent, int rank, std::size_t elem) {
#if defined(TILE_RT_HAS_COPY_KERNEL)
  use_device(ordinal);
  const int e = launch_strided_copy(stream, dst, dst_strides, src, src_strides, extent, rank, elem);
  if (e < 0) return false;
  check(static_cast<cudaError_t>(e), "the strided copy kernel");
  return true;
#else
  (void)ordinal, (void)stream, (void)dst, (void)dst_strides, (void)src, (void)src_strides, (void)extent,
      (void)rank, (void)elem;
  return false;
#endif
}

/// detail::CopyKind's values, in order, as CUDA's.
constexpr cudaMemcpyKind kCopyKinds[] = {cudaMemcpyHostToDevice, cudaMemcpyDeviceToDevice, cudaMemcpyDeviceToHost,
                                         cudaMemcpyDefault};

void copy_on_stream(int ordinal, void* s, void* dst, const void* src, std::size_t bytes, int kind) {
  use_device(ordinal);
  static constexpr const char* names[] = {"cudaMemcpyAsync (host to device, on a stream)",
                                          "cudaMemcpyAsync (device to device, on a stream)",
                                          "cudaMemcpyAsync (device to host, on a stream)",
                                          "cudaMemcpyAsync (between devices, on a stream)"};
  check(cudaMemcpyAsync(dst, src, bytes, kCopyKinds[kind], static_cast<cudaStream_t>(s)), names[kind]);
}

void copy_2d_on_stream(int ordinal, void* s, void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                       std::size_t width_bytes, std::size_t height, int kind) {
  use_device(ordinal);
  static constexpr const char* names[] = {"cudaMemcpy2DAsync (host to device, on a stream)",
                                          "cudaMemcpy2DAsync (device to device, on a stream)",
                                          "cudaMemcpy2DAsync (device to host, on a stream)",
                                          "cudaMemcpy2DAsync (between devices, on a stream)"};
  check(cudaMemcpy2DAsync(dst, dpitch, src, spitch, width_bytes, height, kCopyKinds[kind], static_cast<cudaStream_t>(s)),
        names[kind]);
}

void* host_alloc(int ordinal, std::size_t bytes) {
  use_device(ordinal);
  void* p = nullptr;
  check(cudaMallocHost(&p, bytes), "cudaMallocHost");
  return p;
}

void host_free(void* p) noexcept {
  if (cudaFreeHost(p) != cudaSuccess) (void)cudaGetLastError();
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
  current_state(ordinal);  // after a reset, the new epoch's stream
  synchronize_stream(ordinal, stream(ordinal), kernel, source);
}

void synchronize_stream(int ordinal, void* s, const char* kernel, const char* source) {
  use_device(ordinal);
  const cudaError_t e = cudaStreamSynchronize(static_cast<cudaStream_t>(s));
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw Error(kernel_context(kernel, source) + ": the kernel failed on the GPU: " + describe(e));
  }
  raise_failed_check(ordinal);
}

void* event_record(int ordinal, void* s) {
  use_device(ordinal);
  PooledEvent* e = take_event(ordinal);
  const cudaError_t err = cudaEventRecord(e->event, static_cast<cudaStream_t>(s));
  if (err != cudaSuccess) {
    release_event(e);
    check(err, "cudaEventRecord");
  }
  return e;
}

/// Waiting for work a reset destroyed.
[[noreturn]] void throw_event_lost(int ordinal, const char* kernel, const char* source) {
  throw Error(kernel_context(kernel, source) + ": cuda:" + std::to_string(ordinal) +
              " was reset (cudaDeviceReset) before this work finished; what it wrote is lost");
}

bool event_query(int ordinal, void* event, const char* kernel, const char* source) {
  if (event_lost(static_cast<PooledEvent*>(event))) throw_event_lost(ordinal, kernel, source);
  const cudaError_t e = cudaEventQuery(static_cast<PooledEvent*>(event)->event);
  if (e == cudaSuccess) {
    raise_failed_check(ordinal);
    return true;
  }
  if (e == cudaErrorNotReady) return false;
  (void)cudaGetLastError();
  throw Error(kernel_context(kernel, source) + ": the kernel failed on the GPU: " + describe(e));
}

void event_wait(int ordinal, void* event, const char* kernel, const char* source) {
  if (event_lost(static_cast<PooledEvent*>(event))) throw_event_lost(ordinal, kernel, source);
  const cudaError_t e = cudaEventSynchronize(static_cast<PooledEvent*>(event)->event);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw Error(kernel_context(kernel, source) + ": the kernel failed on the GPU: " + describe(e));
  }
  raise_failed_check(ordinal);
}

void event_destroy(int ordinal, void* event) noexcept {
  (void)ordinal;
  release_event(static_cast<PooledEvent*>(event));
}

void* timing_event_record(int ordinal, void* s) {
  use_device(ordinal);
  cudaEvent_t e = nullptr;
  check(cudaEventCreate(&e), "cudaEventCreate");
  const cudaError_t err = cudaEventRecord(e, static_cast<cudaStream_t>(s));
  if (err != cudaSuccess) {
    cudaEventDestroy(e);
    check(err, "cudaEventRecord");
  }
  return e;
}

double timing_elapsed_ms(int ordinal, void* start, void* stop) {
  use_device(ordinal);
  check(cudaEventSynchronize(static_cast<cudaEvent_t>(stop)), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start), static_cast<cudaEvent_t>(stop)),
        "cudaEventElapsedTime");
  return double(ms);
}

void timing_event_destroy(int ordinal, void* event) noexcept {
  (void)ordinal;
  cudaEventDestroy(static_cast<cudaEvent_t>(event));
}

void flush_l2(int ordinal, void* s) {
  DeviceState& d = state(ordinal);
  use_device(ordinal);
  std::call_once(d.scratch_once, [&] {
    int l2 = 0;
    check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, ordinal), "cudaDeviceGetAttribute");
    const std::size_t bytes = std::max<std::size_t>(2 * static_cast<std::size_t>(l2), std::size_t(1) << 20);
    check(cudaMalloc(&d.scratch, bytes), "cudaMalloc");
    d.scratch_bytes = bytes;
  });
  check(cudaMemsetAsync(d.scratch, 0, d.scratch_bytes, static_cast<cudaStream_t>(s)), "cudaMemsetAsync");
}

void capture_begin(int ordinal, void* s) {
  use_device(ordinal);
  check(cudaStreamBeginCapture(static_cast<cudaStream_t>(s), cudaStreamCaptureModeThreadLocal),
        "cudaStreamBeginCapture");
}

void* capture_end(int ordinal, void* s) {
  use_device(ordinal);
  cudaGraph_t graph = nullptr;
  cudaError_t e = cudaStreamEndCapture(static_cast<cudaStream_t>(s), &graph);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    if (graph) (void)cudaGraphDestroy(graph);
    throw Error("tile::DeviceOp::graph: the capture failed (" + describe(e) +
                "); an op captured into a graph must not wait for the device or copy to the host");
  }
  cudaGraphExec_t exec = nullptr;
  e = cudaGraphInstantiate(&exec, graph, 0);
  (void)cudaGraphDestroy(graph);
  check(e, "cudaGraphInstantiate");
  return exec;
}

void graph_launch(int ordinal, void* graph, void* s) {
  use_device(ordinal);
  check(cudaGraphLaunch(static_cast<cudaGraphExec_t>(graph), static_cast<cudaStream_t>(s)), "cudaGraphLaunch");
}

void graph_destroy(int ordinal, void* graph) noexcept {
  if (cudaSetDevice(ordinal) == cudaSuccess) (void)cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(graph));
  (void)cudaGetLastError();
}

}  // namespace tile::cuda
