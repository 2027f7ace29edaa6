// tile/detail/runtime.hpp - the non-template entry points of tile_rt that the header-only part
// of the host API calls: device memory, copies, the CPU thread pool and CUDA stream handling.
// Not for users.
//
// Ordering on a GPU follows the data (tile/detail/ordering.hpp has the rules): each buffer keeps
// the events of its last asynchronous write and of the reads since; `sync()`, copies, frees and
// allocations use the device's main stream, `async()` executions take one of a few side streams
// in turn, and every stream waits for the events of the buffers it uses before it uses them.
#pragma once

#include <array>
#include <atomic>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tile/detail/ordering.hpp"
#include "tile/device.hpp"

namespace tile::detail {

/// A borrow of elements of a buffer's array: along axis a the indices first[a] + k * step[a]
/// for 0 <= k < count[a] (the whole array: first 0, step 1, count the extent). Loans of one
/// buffer conflict when their elements overlap and one of them is exclusive.
struct Loan {
  uint64_t id = 0;
  bool exclusive = false;
  bool whole = false;  // the whole array
  int rank = 0;
  int64_t first[4] = {};
  int64_t step[4] = {};
  int64_t count[4] = {};
  /// The bytes from the first element to the end of the last, [begin, end): what loans of
  /// other buffers over the same memory (Buffer::alias) are compared by.
  uintptr_t begin = 0, end = 0;
};

/// A device allocation and its loans. `Array` owns one; borrowers (views, PartitionRef,
/// pending ops) point at it and hold a loan in `loans` (see tile/array.hpp: acquire_loan).
/// Freeing a buffer that is still lent aborts the program: the alternative is a use after free.
struct Buffer {
  void* data = nullptr;
  std::size_t bytes = 0;
  const Device* device = nullptr;
  std::vector<Loan> loans;
  uint64_t next_loan = 1;
  /// Memory tile_rt did not allocate (borrow_external, from_dlpack): freeing the buffer calls
  /// `release(release_ctx)` when set, and never frees `data` itself.
  bool external = false;
  void (*release)(void*) = nullptr;
  void* release_ctx = nullptr;
  /// External buffers whose bytes overlap form a ring through `alias` (nullptr: no other
  /// buffer shares this one's memory). Their loans are checked against each other by byte
  /// range, and a use waits for the events of every buffer in the ring.
  std::atomic<Buffer*> alias{nullptr};
  /// On a GPU: the events that order later uses and the free after earlier ones.
  BufferOrder order;
  /// The device's epoch when the buffer was made (device_epoch): a reset since took its memory.
  uint64_t epoch = 0;
};

/// Device resets. cudaDeviceReset (by the program or a library it calls) destroys the device's
/// context and with it every allocation, stream, event and graph made there. The reset ends the
/// device's epoch: `device_epoch` is the epoch now, and on a GPU it is where a reset is noticed
/// (the primary context is not the one the epoch began with; tile_rt then starts afresh with
/// new streams and events). A buffer of an earlier epoch is lost: `check_not_lost` throws
/// tile::Error naming `what` for it, so that no op reads or writes where its memory was, and
/// freeing it releases nothing on the device. `inject_device_reset` ends the epoch of a CPU
/// device as a reset would, for the fault tests (the host memory stays, but counts as lost).
uint64_t device_epoch(const Device& device);
/// The epoch as last noticed, without asking the device: what loans compare with (a view is
/// a host-side object; the op that uses it looks at the device when it runs).
uint64_t seen_epoch(const Device& device) noexcept;
[[noreturn]] void throw_lost(const Buffer* b, std::string_view what);
inline bool is_lost(const Buffer* b) { return b && b->bytes > 0 && b->epoch != device_epoch(*b->device); }
inline void check_not_lost(const Buffer* b, std::string_view what) {
  if (is_lost(b)) throw_lost(b, what);
}
void inject_device_reset(const Device& device) noexcept;

/// The lock of every buffer's loans and of the rings of Buffer::alias: loans are taken and
/// returned by const member functions (views), which several threads may call at once.
void lock_loans() noexcept;
void unlock_loans() noexcept;
struct LoanLock {
  LoanLock() noexcept { lock_loans(); }
  ~LoanLock() { unlock_loans(); }
  LoanLock(const LoanLock&) = delete;
  LoanLock& operator=(const LoanLock&) = delete;
};

/// Calls f(Buffer*) for every other buffer that may share `b`'s memory (Buffer::alias); the
/// caller holds the LoanLock.
template <class F>
void for_each_alias(const Buffer* b, F&& f) {
  for (Buffer* a = b->alias.load(std::memory_order_relaxed); a && a != b;
       a = a->alias.load(std::memory_order_relaxed))
    f(a);
}

/// Whether a use of `b` (a write when `write`) has events to wait for, its own or those of a
/// buffer over the same memory.
inline bool order_pending(const Buffer* b, bool write) {
  if (b->order.pending_for(write)) return true;
  if (!b->alias.load(std::memory_order_relaxed)) return false;
  LoanLock lock;
  bool pending = false;
  for_each_alias(b, [&](const Buffer* a) { pending = pending || a->order.pending_for(write); });
  return pending;
}

/// The buffers an execution in progress (tile::detail::ExecContext) has issued work for on
/// `stream` and not yet marked with an event. The open lists of a thread are chained, innermost
/// first, so that freeing a buffer while work issued for it may still run (a `then` step that
/// drops an array) first orders the free after that work.
struct UseList {
  static constexpr int kMax = 16;
  struct Use {
    Buffer* buffer;
    void* stream;
    int gpu;  // the execution's index of the device
    bool write;
  };
  std::array<Use, kMax> uses{};
  int count = 0;
  UseList* outer = nullptr;
  bool linked = false;
};
inline thread_local UseList* open_use_lists = nullptr;

/// A buffer over memory tile_rt did not allocate (see Buffer::external). It joins the ring
/// (Buffer::alias) of the live external buffers of `device` whose bytes it overlaps.
Buffer* buffer_external(const Device& device, void* data, std::size_t bytes, void (*release)(void*),
                        void* release_ctx);

Buffer* buffer_alloc(const Device& device, std::size_t bytes);
void buffer_free(Buffer* buffer) noexcept;

struct BufferDeleter {
  void operator()(Buffer* b) const noexcept { buffer_free(b); }
};

/// Orders a copy on the device's main stream after the asynchronous work it depends on: after
/// the last write of `b` (and after the reads since when the copy writes `b`).
void gpu_order_copy(Buffer* b, bool write);
inline void order_copy(Buffer* b, bool write) {
  if (b && order_pending(b, write)) gpu_order_copy(b, write);
}

/// Copies between host and device memory, waiting for the device. Both throw tile::Error while
/// this thread captures a graph (`capturing_graph`): a graph cannot contain a host copy.
void copy_to_device(const Device& device, void* dst, const void* src, std::size_t bytes);
void copy_to_host(const Device& device, void* dst, const void* src, std::size_t bytes);

/// Stream-ordered copies for the array ops (tile/array_ops.hpp): issued on `stream` (a stream
/// of `device`, which may be capturing a graph) and not waited for. On the CPU backend a plain
/// memcpy, done now. A device-to-host copy into pageable memory returns once it is done.
/// BetweenDevices copies from another GPU (peer to peer where the hardware allows, else
/// through the host); `device` and `stream` are the destination's.
enum class CopyKind { HostToDevice, DeviceToDevice, DeviceToHost, BetweenDevices };
void copy_on_stream(const Device& device, void* stream, void* dst, const void* src, std::size_t bytes,
                    CopyKind kind);
/// The same for a strided copy (cudaMemcpy2DAsync, which a capturing stream captures): `height`
/// rows of `width_bytes`, row r at dst + r * dpitch and src + r * spitch (pitches in bytes, at
/// least width_bytes unless height is 1). On the CPU backend memcpy per row, done now.
void copy_2d_on_stream(const Device& device, void* stream, void* dst, std::size_t dpitch, const void* src,
                       std::size_t spitch, std::size_t width_bytes, std::size_t height, CopyKind kind);
/// A device-to-device copy between two strided boxes of `rank` axes (`extent` outermost first,
/// strides in elements of `elem` bytes) as one kernel on `stream` (captured like a copy). False,
/// with nothing issued, where tile_rt has no such kernel (built without nvcc, a CPU device, or
/// an element size other than 1, 2, 4 or 8): then use copy_2d_on_stream.
bool strided_copy_on_stream(const Device& device, void* stream, void* dst, const int64_t* dst_strides,
                            const void* src, const int64_t* src_strides, const int64_t* extent, int rank,
                            std::size_t elem);
/// Host memory that a copy issued on a stream, or captured into a graph, may read: page-locked
/// for a GPU (allocate it before a capture begins), ordinary for the CPU backend.
void* staging_alloc(const Device& device, std::size_t bytes);
void staging_free(const Device& device, void* p) noexcept;

/// The CPU race detector (TILE_CPU_RACECHECK=1, read at each launch): a log per launch of which
/// program wrote each element; `race_log_conflict` gives the first element two programs wrote.
struct RaceLog;
bool racecheck_enabled();
RaceLog* race_log_create();
void race_log_destroy(RaceLog* log) noexcept;
struct RaceConflict {
  const void* element = nullptr;
  int64_t first = -1;   // program numbers, row-major over the grid
  int64_t second = -1;
};
RaceConflict race_log_conflict(const RaceLog* log);

/// Non-zero while this thread captures the work of an op into a tile::Graph.
inline thread_local int capturing_graph = 0;

/// Runs fn(ctx, i) for i in [0, n) on the CPU thread pool and waits. If calls throw, the first
/// exception is rethrown here (remaining programs are skipped).
using ProgramFn = void (*)(void* ctx, int64_t program);
void cpu_parallel_for(int64_t n, ProgramFn fn, void* ctx);
int cpu_num_threads();

/// The main CUDA stream of a GPU device (as void*, so that this header needs no CUDA headers).
void* gpu_stream(const Device& device);
/// The side streams of a GPU device that `async()` executions take in turn (kSideStreams of
/// them, created on first use): `gpu_pick_stream` gives the next one's index, `gpu_side_stream`
/// the stream, after making it wait for whatever the main stream allocated since it last waited.
inline constexpr int kSideStreams = 4;
int gpu_pick_stream(const Device& device);
void* gpu_side_stream(const Device& device, int index);
/// The ordering rules of ordering.hpp on the device: `stream` waits before it uses `b`; after
/// the use, `event` (recorded on `stream`) is remembered; or, after the host waited for the
/// stream, what the use waited for is forgotten.
void gpu_before_use(Buffer* b, void* stream, bool write);
void gpu_after_use(Buffer* b, void* stream, bool write, void* event);
void gpu_after_waited_use(Buffer* b, bool write) noexcept;
/// Makes `stream` (a user's cudaStream_t on the device) wait for the device's own stream, where
/// arrays are allocated from the stream-ordered pool and copied.
void gpu_order_after_device_stream(const Device& device, void* stream);
/// The same, but only when the device's stream allocated (or imported) arrays since the count
/// `seen`, which is then updated; `kNeverWaited` always waits. An execution on a user's stream
/// calls it before each launch, since a `then` step may allocate on the device's stream.
inline constexpr uint64_t kNeverWaited = ~uint64_t{0};
void gpu_order_after_device_allocations(const Device& device, void* stream, uint64_t& seen);
/// The reverse: the device's own stream waits for `stream` (a producer's cudaStream_t).
void gpu_order_device_stream_after(const Device& device, void* stream);
struct CheckRecord;
/// The device address where the GPU's kernels report a failed tile::check (null for the CPU).
/// The next synchronisation with the device (gpu_synchronize, gpu_stream_synchronize,
/// gpu_event_query, gpu_event_wait) throws tile::Error for it and clears it.
CheckRecord* gpu_check_record(const Device& device);
/// Throws tile::Error naming the kernel and its source when `err` (a cudaError_t) is non-zero.
void gpu_check(const Device& device, int err, const char* kernel, const char* source);
/// Waits for the device's stream; throws tile::Error naming the kernel on failure.
void gpu_synchronize(const Device& device, const char* kernel, const char* source);
/// Waits for `stream` (a cudaStream_t of the device); throws tile::Error naming the kernel.
void gpu_stream_synchronize(const Device& device, void* stream, const char* kernel, const char* source);

/// Events mark the end of asynchronously issued work (tile::Future, buffers). `record` takes one
/// from the device's free list and records it on `stream`; `query` is true once the work before
/// it finished; `wait` blocks for it (both throw tile::Error naming the kernel when that work
/// failed); `destroy` gives up this holder's reference (buffers hold their own).
void* gpu_event_record(const Device& device, void* stream);
bool gpu_event_query(const Device& device, void* event, const char* kernel, const char* source);
void gpu_event_wait(const Device& device, void* event, const char* kernel, const char* source);
void gpu_event_destroy(const Device& device, void* event) noexcept;

/// Fault injection, for the runtime's fault and soak tests (unittests/Runtime): after `after`
/// more allocations of array memory (buffer_alloc) succeed, the next one fails as out of
/// memory; after `after` more launches are issued, the next one fails as a launch error
/// (DeviceOp::start, before any of its work). A negative count turns the injection off (the
/// default). `live_buffers` counts the arrays' buffers not yet freed, so that a test can show
/// that a fault leaks none.
void inject_allocation_failure(int64_t after) noexcept;
void inject_launch_failure(int64_t after) noexcept;
/// True when this launch is the one to fail (counts down the launches otherwise).
bool launch_fails_now() noexcept;
int64_t live_buffers() noexcept;

/// Timing (tile::benchmark): an event that records a time on `stream` (not pooled), the
/// milliseconds between two such events once both have completed, and its destruction.
/// `gpu_flush_l2` overwrites a scratch buffer larger than the device's L2 cache on `stream`, so
/// that work issued after it finds no data of earlier work in the cache.
void* gpu_timing_event_record(const Device& device, void* stream);
double gpu_timing_elapsed_ms(const Device& device, void* start, void* stop);
void gpu_timing_event_destroy(const Device& device, void* event) noexcept;
void gpu_flush_l2(const Device& device, void* stream);

/// A stopwatch that an execution on this thread starts on the stream of its first GPU (after an
/// L2 flush when asked) and stops on that stream when it waits for its work (ExecContext), so
/// that the time is the device's alone. Used by tile::benchmark.
struct Stopwatch {
  bool flush_l2 = true;
  const Device* device = nullptr;
  void* stream = nullptr;
  void* start = nullptr;
  void* stop = nullptr;
};
inline thread_local Stopwatch* active_stopwatch = nullptr;

/// CUDA graphs (tile::Graph): capture the work issued to `stream` between begin and end into an
/// executable graph, launch it again and again, destroy it. A capture that fails (the work
/// synchronized with the host) throws tile::Error.
void gpu_capture_begin(const Device& device, void* stream);
void* gpu_capture_end(const Device& device, void* stream);
void gpu_graph_launch(const Device& device, void* graph, void* stream);
void gpu_graph_destroy(const Device& device, void* graph) noexcept;

/// Collectives between GPUs (tile/collective.hpp) on NCCL, which tile_rt loads when the first
/// communicator of GPUs is made: `gpu_comm_init` makes one NCCL communicator per device,
/// `gpu_collective` issues one collective (`kind` a CollectiveKind, `op` a tile::Reduction,
/// `dtype` NCCL's type code) on every rank's stream as one group. `count` is NCCL's: the
/// elements of each rank's input for an all-gather, of each rank's output otherwise.
void* gpu_comm_init(const std::vector<const Device*>& devices);
void gpu_comm_destroy(void* comm) noexcept;
void gpu_collective(void* comm, int kind, int op, int dtype, int root, std::size_t count,
                    const std::vector<const void*>& send, const std::vector<void*>& recv,
                    const std::vector<void*>& streams);
/// A communicator's ranks in several processes: `gpu_comm_unique_id` is NCCL's unique id as
/// text, `gpu_comm_join` makes this process's rank `rank` of `size` on `device` from it
/// (ncclCommInitRank); the result is used like gpu_comm_init's, with one local rank.
std::string gpu_comm_unique_id();
void* gpu_comm_join(const std::string& id, int rank, int size, const Device& device);
/// On the CPU backend (runtime/cpu/process_group.cpp): the processes exchange through a shared
/// rendezvous directory, the id. `cpu_process_group_exchange` is one all-to-all step: every
/// rank gives `bytes` and gets every rank's, in rank order.
std::string cpu_process_group_unique_id();
void* cpu_process_group_join(const std::string& dir, int rank, int size);
void cpu_process_group_leave(void* group) noexcept;
std::vector<std::vector<char>> cpu_process_group_exchange(void* group, const void* mine, std::size_t bytes);
/// Passes `text` from one process to the others through the rendezvous directory `dir`: the
/// process given `text` writes it under `name` and returns it, the others wait for it and
/// return what was written.
std::string process_group_share(const std::string& dir, const char* name, const std::string* text);

/// Point to point in one group: for every rank r with from[r] >= 0, rank from[r] sends `count`
/// elements of its send buffer and rank r receives them into its recv buffer. The buffers and
/// streams are this process's ranks', the first of which is rank `first_rank`.
void gpu_send_recv(void* comm, int dtype, std::size_t count, const std::vector<const void*>& send,
                   const std::vector<void*>& recv, const std::vector<int>& from, int first_rank,
                   const std::vector<void*>& streams);

/// A kernel's display name ("add<128>") from the __PRETTY_FUNCTION__ of a `template <auto K>`
/// function and, when available, the mangled name of a type `KernelTag<K>` (used when the
/// pretty name lacks template arguments, as clang's does).
std::string kernel_display_name(const char* pretty_function, const char* mangled_tag);

}  // namespace tile::detail
