// tile/detail/ordering.hpp - the data-flow ordering of tile_rt on a GPU: which events a stream
// waits for before it uses a buffer, and what the buffer remembers after the use. Not for users.
//
// The model. Every GPU has a main stream (allocations from the stream-ordered pool, frees,
// copies, `sync()`, graphs) and a few side streams that `async()` executions take in turn, so
// that independent ops overlap. Each buffer remembers the event that ends the last write issued
// asynchronously (`write`) and, per stream, the event that ends the last read issued since
// (`reads`). Before a stream uses a buffer it waits (on the device, cudaStreamWaitEvent) for
// the last write when it reads, and for the last write and every read since when it writes;
// an event recorded on the same stream is already ordered and is not waited for. A free waits
// for all of them. Events are reference counted (a buffer and a Future may share one) and come
// back to a per-device free list, so the launch path creates none.
//
// The loans of tile/array.hpp refuse an op that writes what an unfinished op uses, so between
// two executions the events mostly order reads after completed writes (cheap: the event has
// fired) and frees after reads still running; the allocations on the main stream are ordered
// separately (a side stream waits for the main stream whenever something was allocated there
// since it last waited).
#pragma once

#include <cstddef>

namespace tile::detail {

/// Read events kept per buffer, one per stream (side streams, the main stream, user streams).
inline constexpr int kMaxReadEvents = 6;

/// The ordering state of one buffer. Events and streams are opaque (cudaStream_t as void*; the
/// CUDA backend's pooled events).
struct BufferOrder {
  void* write = nullptr;         // the end of the last write issued asynchronously
  void* write_stream = nullptr;  // where it was recorded
  void* reads[kMaxReadEvents] = {};         // the ends of reads issued since, one per stream
  void* read_streams[kMaxReadEvents] = {};  // where each was recorded

  bool has_reads() const {
    for (void* r : reads)
      if (r) return true;
    return false;
  }
  /// Whether a use (a read, or a write when `write`) has anything to wait for.
  bool pending_for(bool write_use) const { return write || (write_use && has_reads()); }
  bool empty() const { return !write && !has_reads(); }
};

/// The rules, over an event policy E with static members
///   void wait(void* stream, void* event)   the stream waits for the event (on the device)
///   void host_wait(void* event) noexcept   the host waits for it
///   void retain(void* event)               one more holder
///   void release(void* event) noexcept     one holder fewer (the last returns it to the pool)
template <class E>
struct Ordering {
  /// Before `stream` uses the buffer: a read waits for the last write, a write also for the
  /// reads since (all of them on other streams).
  static void before_use(BufferOrder& o, void* stream, bool write) {
    if (o.write && o.write_stream != stream) E::wait(stream, o.write);
    if (!write) return;
    for (int i = 0; i < kMaxReadEvents; ++i)
      if (o.reads[i] && o.read_streams[i] != stream) E::wait(stream, o.reads[i]);
  }

  /// After a use issued on `stream` and marked by `event` (recorded there after the work). A
  /// write replaces everything (it waited for all of it); a read replaces the read of its
  /// stream (a later event of one stream covers an earlier one). Without a free slot the
  /// oldest read is waited for by the host and dropped.
  static void after_use(BufferOrder& o, void* stream, bool write, void* event) {
    E::retain(event);
    if (write) {
      clear(o);
      o.write = event;
      o.write_stream = stream;
      return;
    }
    int slot = -1;
    for (int i = 0; i < kMaxReadEvents && slot < 0; ++i)
      if (o.reads[i] && o.read_streams[i] == stream) slot = i;
    for (int i = 0; i < kMaxReadEvents && slot < 0; ++i)
      if (!o.reads[i]) slot = i;
    if (slot < 0) {
      E::host_wait(o.reads[0]);
      E::release(o.reads[0]);
      for (int i = 1; i < kMaxReadEvents; ++i) {
        o.reads[i - 1] = o.reads[i];
        o.read_streams[i - 1] = o.read_streams[i];
      }
      slot = kMaxReadEvents - 1;
      o.reads[slot] = nullptr;
    }
    if (o.reads[slot]) E::release(o.reads[slot]);
    o.reads[slot] = event;
    o.read_streams[slot] = stream;
  }

  /// After a use whose stream the host then waited for (`sync()`): what it waited for before
  /// it has finished, and so has the use itself, so nothing needs to be remembered for it.
  static void after_waited_use(BufferOrder& o, bool write) noexcept {
    if (write) {
      clear(o);
    } else if (o.write) {
      E::release(o.write);
      o.write = nullptr;
      o.write_stream = nullptr;
    }
  }

  /// Before the buffer's memory goes back on `stream`: that stream waits for every use.
  static void before_free(BufferOrder& o, void* stream) {
    before_use(o, stream, true);
    clear(o);
  }
  /// The same when the host frees the memory (external memory): the host waits.
  static void before_host_free(BufferOrder& o) noexcept {
    if (o.write) E::host_wait(o.write);
    for (void* r : o.reads)
      if (r) E::host_wait(r);
    clear(o);
  }

  static void clear(BufferOrder& o) noexcept {
    if (o.write) E::release(o.write);
    o.write = nullptr;
    o.write_stream = nullptr;
    for (int i = 0; i < kMaxReadEvents; ++i) {
      if (o.reads[i]) E::release(o.reads[i]);
      o.reads[i] = nullptr;
      o.read_streams[i] = nullptr;
    }
  }
};

}  // namespace tile::detail
