// runtime/cuda/cuda_backend.hpp - the CUDA backend of tile_rt, as device.cpp sees it.
//
// Only compiled when the CUDA toolkit was found (TILE_RT_HAS_CUDA). Every device has a main
// stream and kSideStreams side streams (tile/detail/runtime.hpp), all non-blocking and made on
// first use. The main stream allocates from the device's stream-ordered memory pool
// (cudaMallocAsync / cudaFreeAsync there, which keeps freed memory for the next allocation),
// copies (and waits for them), runs `sync()` and graphs; `async()` executions take the side
// streams in turn, and a side stream waits for the main stream whenever something was
// allocated there since it last waited (a counter per device, so that an execution that
// allocates nothing pays nothing). Events come from a per-device free list and are reference
// counted: buffers remember them to order later uses (tile/detail/ordering.hpp).
// CUDA errors become tile::Error. No GPU (or no driver) is not an error: device_count() is 0.
// A reset of the device (cudaDeviceReset) destroys its context: the streams, events and records
// above belong to one epoch of the device, and the first use after a reset finds a new context
// and begins the next epoch with new ones (detail::device_epoch).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tile::detail {
struct CheckRecord;
}

namespace tile::cuda {

int device_count() noexcept;
std::string device_name(int ordinal);
int multiprocessor_count(int ordinal);

/// The device's epoch: 0 at first, one more after each reset, noticed here (the current
/// primary context is not the one the epoch began with).
uint64_t epoch(int ordinal);
/// The epoch as last noticed (no call into CUDA).
uint64_t seen_epoch(int ordinal) noexcept;

void* allocate(int ordinal, std::size_t bytes);
void release(int ordinal, void* ptr) noexcept;
void copy_to_device(int ordinal, void* dst, const void* src, std::size_t bytes);
void copy_to_host(int ordinal, void* dst, const void* src, std::size_t bytes);

/// A copy issued on `stream` and not waited for; `kind` is tile::detail::CopyKind.
void copy_on_stream(int ordinal, void* stream, void* dst, const void* src, std::size_t bytes, int kind);
/// The same for `height` rows of `width_bytes` at pitches dpitch / spitch (cudaMemcpy2DAsync).
void copy_2d_on_stream(int ordinal, void* stream, void* dst, std::size_t dpitch, const void* src,
                       std::size_t spitch, std::size_t width_bytes, std::size_t height, int kind);
/// Page-locked host memory (cudaMallocHost), which copies on a stream and graphs may read.
void* host_alloc(int ordinal, std::size_t bytes);
void host_free(void* p) noexcept;

void* stream(int ordinal);
/// The next side stream's index (round robin) and the side stream itself, after it waited for
/// the allocations issued on the main stream since it last waited.
int pick_side_stream(int ordinal);
void* side_stream(int ordinal, int index);
/// `waiter` waits (on the device) for `event`; the host waits for `event` (errors ignored).
void stream_wait_event(void* waiter, void* event);
void event_host_wait(void* event) noexcept;
void event_retain(void* event) noexcept;
/// Makes `waiter` (another stream of the device) wait for everything issued so far on the
/// device's stream: allocations from the pool, copies, earlier ops.
void order_after_device_stream(int ordinal, void* waiter);
/// The same only when the main stream allocated something since the counter was `seen`
/// (starts at detail::kNeverWaited), which it then holds.
void order_after_device_allocations(int ordinal, void* waiter, uint64_t& seen);
/// The device's stream waits for everything issued so far on `producer`.
void order_device_stream_after(int ordinal, void* producer);
/// The device address of the device's tile::check record; a failure recorded there is thrown
/// by the next synchronisation (synchronize*, event_query, event_wait) on that device.
detail::CheckRecord* check_record(int ordinal);
void check_launch(int ordinal, int err, const char* kernel, const char* source);
void synchronize(int ordinal, const char* kernel, const char* source);
void synchronize_stream(int ordinal, void* stream, const char* kernel, const char* source);

/// A pooled event recorded on `stream`, with one reference (event_destroy gives it up).
void* event_record(int ordinal, void* stream);
bool event_query(int ordinal, void* event, const char* kernel, const char* source);
void event_wait(int ordinal, void* event, const char* kernel, const char* source);
void event_destroy(int ordinal, void* event) noexcept;

/// Timing events (cudaEventCreate with timing), their elapsed milliseconds, and an L2 flush:
/// a memset of a scratch buffer twice the L2 size, allocated on first use and kept.
void* timing_event_record(int ordinal, void* stream);
double timing_elapsed_ms(int ordinal, void* start, void* stop);
void timing_event_destroy(int ordinal, void* event) noexcept;
void flush_l2(int ordinal, void* stream);

void capture_begin(int ordinal, void* stream);
void* capture_end(int ordinal, void* stream);
void graph_launch(int ordinal, void* graph, void* stream);
void graph_destroy(int ordinal, void* graph) noexcept;

/// Copies the elements of a strided box of `rank` axes (`extent`, outermost first) from `src`
/// to `dst` on `stream` with tile_rt's kernel (strides in elements). False when this build has
/// no kernel (tile_rt compiled without nvcc) or not for `elem`-byte elements.
bool strided_copy(int ordinal, void* stream, void* dst, const int64_t* dst_strides, const void* src,
                  const int64_t* src_strides, const int64_t* extent, int rank, std::size_t elem);
/// The kernel's launcher (strided_copy.cu): the cudaError_t, or -1 when it does not apply.
int launch_strided_copy(void* stream, void* dst, const int64_t* dst_strides, const void* src,
                        const int64_t* src_strides, const int64_t* extent, int rank, std::size_t elem);

}  // namespace tile::cuda
