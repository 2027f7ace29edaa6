// tile/op.hpp - composing device operations and running them: sync, async, or as a graph.
//
// Every op (a tile::launch, or a combination of ops) is a move-only value that runs nothing
// until it is executed; combinators return new types, like iterator adaptors:
//   op.then(f)          f(outputs of op) runs when the op is issued and returns the next op (or a
//                       value); the result is the next op's outputs
//   tile::zip(ops...)   all of them; the outputs as a std::tuple (std::monostate for none)
//   op.shared()         a copyable handle; the op runs once however many copies are executed;
//                       the outputs as a std::shared_ptr
//   op.unzip()          for an op whose outputs are a tuple: one op per element
// Execution consumes the op:
//   std::move(op).sync()             runs it, waits, returns its outputs
//   std::move(op).sync_on(stream)    the same on a caller's cudaStream_t
//   std::move(op).async()            issues it, returns tile::Future<outputs>
//   std::move(op).graph()            captures it into a tile::Graph that replays it again and again
// An op holds the loans of the arrays it uses until its work has finished: a Future or a Graph
// holds them for its whole life. On the CPU backend the work runs when it is issued.
// Ordering follows the data (on a GPU): `sync()` and graphs run on the device's main stream,
// each `async()` execution on one of the device's side streams taken in turn, so independent
// executions overlap; before a launch its stream waits for the events of the last write of
// every array it reads and of the reads since of every array it writes (see ExecContext and
// tile/detail/ordering.hpp), and the arrays remember the event that ends an async execution.
#pragma once

#include <array>
#include <coroutine>
#include <cstdio>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "tile/core.hpp"
#include "tile/detail/runtime.hpp"
#include "tile/device.hpp"
#include "tile/error.hpp"

namespace tile {

template <class R>
class Future;
template <class R>
class Graph;

namespace detail {

/// std::monostate stands for "no outputs" where a value is needed (zip, shared, futures' state).
template <class R>
using value_t = std::conditional_t<std::is_void_v<R>, std::monostate, R>;

/// Where issued work goes, and what must be waited for. One per execution.
///
/// Streams: `sync()` issues to the device's main stream, `sync_on(stream)` to the caller's,
/// `async()` to a side stream of the device taken in turn (so that independent executions
/// overlap), graph capture to the main stream. All the work of one execution on one device goes
/// to one stream, in issue order. Before each launch the context calls `use` for every buffer
/// the launch reads or writes: the stream waits for the buffer's events (ordering.hpp) the first
/// time the execution uses it; when the execution ends, the buffers remember the event that
/// marks its end (async), or forget what was waited for (the host waited for the stream).
class ExecContext {
 public:
  static constexpr int kMaxDevices = 8;
  struct Async {};

  ExecContext() = default;
  explicit ExecContext(void* user_stream) : user_stream_(user_stream) {}
  explicit ExecContext(Async) : async_(true) {}
  ExecContext(const ExecContext&) = delete;
  ~ExecContext() {
    if (uses_.count) {
      if (waited_)
        settle_waited();
      else
        settle_with_new_events();
    }
    unlink();
  }

  /// Graph capture: GPU work is captured on its stream; CPU work is appended to `cpu_work`.
  void begin_capture(std::vector<std::function<void()>>* cpu_work) {
    cpu_work_ = cpu_work;
    capturing_ = true;
    async_ = false;
  }
  bool capturing() const { return capturing_; }
  std::vector<std::function<void()>>* cpu_work() const { return cpu_work_; }

  /// The stream that work for `device` goes to; records the device so that `wait` covers it,
  /// and starts the capture on first use while capturing. A side stream or a user's stream
  /// first waits for the allocations issued on the main stream since it last did.
  void* stream_for(const Device& device) {
    const int i = index_of(device);
    if (i < num_gpus_) {
      const auto ui = static_cast<std::size_t>(i);
      if (async_) return gpu_side_stream(device, sides_[ui]);
      // A user's stream waits again when a step allocated on the device's stream meanwhile.
      if (user_stream_ && !capturing_) gpu_order_after_device_allocations(device, user_stream_, seen_[ui]);
      return streams_[ui];
    }
    if (num_gpus_ == kMaxDevices) throw Error("tile: an op may use at most 8 GPUs");
    if (capturing_ && num_gpus_ == 1) throw Error("tile::DeviceOp::graph: a graph runs on one GPU");
    const auto u = static_cast<std::size_t>(num_gpus_);
    void* stream = nullptr;
    if (async_) {
      sides_[u] = gpu_pick_stream(device);
      stream = gpu_side_stream(device, sides_[u]);
    } else if (user_stream_) {
      stream = user_stream_;
      // A user's stream first waits for the device's own, where arrays are allocated.
      seen_[u] = kNeverWaited;
      if (!capturing_) gpu_order_after_device_allocations(device, user_stream_, seen_[u]);
    } else {
      stream = gpu_stream(device);
    }
    if (capturing_) gpu_capture_begin(device, stream);
    if (Stopwatch* w = active_stopwatch; w && !w->start && !capturing_) {
      if (w->flush_l2) gpu_flush_l2(device, stream);
      w->start = gpu_timing_event_record(device, stream);
      w->device = &device;
      w->stream = stream;
    }
    gpus_[u] = &device;
    streams_[u] = stream;
    ++num_gpus_;
    return stream;
  }

  /// Before a launch on `device` (after stream_for): the launch reads `b`, or writes it when
  /// `write`. The first use in this execution (or the first write) waits for the buffer's events.
  void use(const Device& device, Buffer* b, bool write) {
    if (capturing_ || !b) return;
    waited_ = false;  // work issued after a wait (see DeviceOp's host-copy path) is not waited for
    const int gpu = index_of(device);
    void* stream = streams_[static_cast<std::size_t>(gpu)];
    for (int k = 0; k < uses_.count; ++k) {
      UseList::Use& u = uses_.uses[static_cast<std::size_t>(k)];
      if (u.buffer != b || u.gpu != gpu) continue;
      if (write && !u.write) {
        if (order_pending(b, true)) gpu_before_use(b, stream, true);
        u.write = true;
      }
      return;
    }
    if (uses_.count == UseList::kMax) settle_with_new_events();
    if (order_pending(b, write)) gpu_before_use(b, stream, write);
    link();
    uses_.uses[static_cast<std::size_t>(uses_.count++)] = UseList::Use{b, stream, gpu, write};
  }

  /// The buffers used on GPU `i` remember `event` (recorded on its stream after the work).
  void settle(int i, void* event) {
    int kept = 0;
    for (int k = 0; k < uses_.count; ++k) {
      const UseList::Use u = uses_.uses[static_cast<std::size_t>(k)];
      if (u.gpu == i) {
        if (u.buffer) gpu_after_use(u.buffer, u.stream, u.write, event);
      } else {
        uses_.uses[static_cast<std::size_t>(kept++)] = u;
      }
    }
    uses_.count = kept;
    if (!kept) unlink();
  }

  /// A kernel failure found while an async() execution ran its programs on the host (the CPU
  /// backend: a failed tile::check) is kept for the future, which reports it at wait()/get(),
  /// where a GPU's failure surfaces; other executions throw it at once.
  bool defers_failures() const { return async_ && !capturing_; }
  void defer_failure(std::exception_ptr e) {
    if (!deferred_) deferred_ = std::move(e);
  }
  std::exception_ptr take_deferred_failure() { return std::exchange(deferred_, nullptr); }

  /// The kernel issued last: named in errors found when waiting.
  void issued(const char* kernel, const char* source) {
    kernel_ = kernel;
    source_ = source;
  }
  const char* kernel() const { return kernel_; }
  const char* source() const { return source_; }

  int num_gpus() const { return num_gpus_; }
  const Device& gpu(int i) const { return *gpus_[static_cast<std::size_t>(i)]; }
  void* stream_of(int i) const { return streams_[static_cast<std::size_t>(i)]; }

  /// Waits for everything issued.
  void wait() {
    if (Stopwatch* w = active_stopwatch; w && w->start && !capturing_) {
      void* previous = std::exchange(w->stop, nullptr);  // a later wait ends the run
      if (previous) gpu_timing_event_destroy(*w->device, previous);
      w->stop = gpu_timing_event_record(*w->device, w->stream);
    }
    for (int i = 0; i < num_gpus_; ++i) gpu_stream_synchronize(gpu(i), stream_of(i), kernel_, source_);
    waited_ = !capturing_;
  }
  /// The same after an error: whatever was issued must finish before its memory is reused.
  void wait_quietly() noexcept {
    if (capturing_) return;
    try {
      wait();
    } catch (...) {
    }
  }

 private:
  int index_of(const Device& device) const {
    int i = 0;
    while (i < num_gpus_ && !(*gpus_[static_cast<std::size_t>(i)] == device)) ++i;
    return i;
  }
  /// After the host waited for every stream: nothing of these uses needs remembering.
  void settle_waited() noexcept {
    for (int k = 0; k < uses_.count; ++k) {
      const UseList::Use& u = uses_.uses[static_cast<std::size_t>(k)];
      if (u.buffer) gpu_after_waited_use(u.buffer, u.write);
    }
    uses_.count = 0;
    unlink();
  }
  /// Marks the uses so far with a new event per stream (an execution with more buffers than a
  /// UseList holds, or one that ends without being waited for or marked).
  void settle_with_new_events() noexcept {
    for (int i = 0; i < num_gpus_ && uses_.count; ++i) {
      try {
        void* event = gpu_event_record(gpu(i), stream_of(i));
        settle(i, event);
        gpu_event_destroy(gpu(i), event);
      } catch (...) {  // the stream failed: wait for it instead
        try {
          gpu_stream_synchronize(gpu(i), stream_of(i), kernel_, source_);
        } catch (...) {
        }
      }
    }
    if (uses_.count) settle_waited();
  }
  void link() {
    if (uses_.linked) return;
    uses_.outer = open_use_lists;
    open_use_lists = &uses_;
    uses_.linked = true;
  }
  void unlink() noexcept {
    if (!uses_.linked) return;
    for (UseList** l = &open_use_lists; *l; l = &(*l)->outer)
      if (*l == &uses_) {
        *l = uses_.outer;
        break;
      }
    uses_.linked = false;
    uses_.outer = nullptr;
  }

  void* user_stream_ = nullptr;
  bool async_ = false;
  std::array<const Device*, kMaxDevices> gpus_{};
  std::array<void*, kMaxDevices> streams_{};
  std::array<int, kMaxDevices> sides_{};
  std::array<uint64_t, kMaxDevices> seen_{};  // user streams: allocations waited for
  int num_gpus_ = 0;
  bool capturing_ = false;
  bool waited_ = false;
  std::vector<std::function<void()>>* cpu_work_ = nullptr;
  const char* kernel_ = "";
  const char* source_ = "";
  std::exception_ptr deferred_;
  UseList uses_;
};

struct OpTag {};

}  // namespace detail

/// True for tile ops (launches and their combinations).
template <class T>
inline constexpr bool is_op_v = std::is_base_of_v<detail::OpTag, std::remove_cvref_t<T>>;

template <class Op, class F>
class ThenOp;
template <class Op>
class SharedOp;
template <std::size_t I, class Op>
class UnzipOp;
template <class... Ops>
class ZipOp;

/// What every op can do. An op type `D` provides
///   using result_type = ...;               its outputs (void if none)
///   void start(detail::ExecContext&);       issue the work (no waiting)
///   result_type take();                    move the outputs out (after start)
///   void release() noexcept;               return the loans (after the work finished)
template <class D>
class OpBase : public detail::OpTag {
 public:
  /// Runs the op, waits for it and returns its outputs.
  auto sync() && { return execute(detail::ExecContext{}); }
  /// The same, on a CUDA stream of the caller's (any cudaStream_t converts to void*).
  auto sync_on(void* stream) && { return execute(detail::ExecContext{stream}); }
  /// Issues the op and returns a future of its outputs.
  auto async() &&;
  /// Captures the op into a graph that can be run again and again.
  auto graph() &&;

  /// The op followed by f(outputs): f returns the next op, or a value.
  template <class F>
  ThenOp<D, std::decay_t<F>> then(F&& f) && {
    return ThenOp<D, std::decay_t<F>>(std::move(self()), std::forward<F>(f));
  }
  /// A copyable handle that runs the op once.
  SharedOp<D> shared() && { return SharedOp<D>(std::move(self())); }
  /// One op per element of a tuple of outputs.
  auto unzip() &&;

  template <class Self = D>
  decltype(auto) sync() & {
    static_assert(detail::false_for_types<Self>, "sync() consumes the op: write std::move(op).sync()");
    return std::move(self()).sync();
  }
  template <class Self = D>
  decltype(auto) async() & {
    static_assert(detail::false_for_types<Self>, "async() consumes the op: write std::move(op).async()");
    return std::move(self()).async();
  }
  template <class Self = D>
  decltype(auto) graph() & {
    static_assert(detail::false_for_types<Self>, "graph() consumes the op: write std::move(op).graph()");
    return std::move(self()).graph();
  }

 private:
  D& self() { return static_cast<D&>(*this); }

  auto execute(detail::ExecContext&& ctx) {
    D& d = self();
    try {
      d.start(ctx);
    } catch (...) {
      ctx.wait_quietly();
      d.release();
      throw;
    }
    try {
      ctx.wait();
    } catch (...) {
      d.release();
      throw;
    }
    d.release();
    return d.take();
  }
};

// ---- combinators -------------------------------------------------------------------------------

namespace detail {
/// An optional whose value is made in place from a function's result (guaranteed copy elision):
/// a `then` step's next op, which holds the rest of the chain, is never built as a temporary
/// and moved.
template <class T>
class InPlace {
 public:
  InPlace() = default;
  InPlace(InPlace&& o) noexcept(std::is_nothrow_move_constructible_v<T>) {
    if (o.engaged_) {
      ::new (static_cast<void*>(storage_)) T(std::move(*o));
      engaged_ = true;
    }
  }
  InPlace& operator=(InPlace&&) = delete;
  ~InPlace() { reset(); }

  /// Destroys the value, if any, and makes a new one from make()'s result.
  template <class Make>
  T& emplace_from(Make&& make) {
    reset();
    ::new (static_cast<void*>(storage_)) T(std::forward<Make>(make)());
    engaged_ = true;
    return **this;
  }
  void reset() noexcept {
    if (engaged_) (**this).~T();
    engaged_ = false;
  }
  explicit operator bool() const { return engaged_; }
  T& operator*() { return *std::launder(reinterpret_cast<T*>(storage_)); }
  T* operator->() { return &**this; }

 private:
  alignas(T) unsigned char storage_[sizeof(T)];
  bool engaged_ = false;
};
}  // namespace detail

/// `op.then(f)`.
template <class Op, class F>
class [[nodiscard]] ThenOp : public OpBase<ThenOp<Op, F>> {
  using In = typename Op::result_type;
  static auto call(F& f, Op& op) {
    if constexpr (std::is_void_v<In>)
      return f();
    else
      return f(op.take());
  }
  using Next = decltype(call(std::declval<F&>(), std::declval<Op&>()));
  static constexpr bool chains = is_op_v<Next>;

  template <class N, bool IsOp = is_op_v<N>>
  struct result_of {
    using type = N;
  };
  template <class N>
  struct result_of<N, true> {
    using type = typename N::result_type;
  };

 public:
  using result_type = typename result_of<Next>::type;

  ThenOp(Op op, F f) : op_(std::move(op)), f_(std::move(f)) {}
  ThenOp(ThenOp&&) noexcept = default;

  void start(detail::ExecContext& ctx) {
    op_.start(ctx);
    if constexpr (chains) {
      next_.emplace_from([&]() -> Next { return call(f_, op_); }).start(ctx);
    } else if constexpr (std::is_void_v<Next>) {
      call(f_, op_);
    } else {
      next_.emplace_from([&]() -> Next { return call(f_, op_); });
    }
  }
  result_type take() {
    if constexpr (chains)
      return next_->take();
    else if constexpr (!std::is_void_v<Next>)
      return std::move(*next_);
  }
  void release() noexcept {
    op_.release();
    if constexpr (chains)
      if (next_) next_->release();
  }

 private:
  Op op_;
  F f_;
  detail::InPlace<detail::value_t<Next>> next_;
};

/// `tile::zip(ops...)`.
template <class... Ops>
class [[nodiscard]] ZipOp : public OpBase<ZipOp<Ops...>> {
 public:
  using result_type = std::tuple<detail::value_t<typename Ops::result_type>...>;

  explicit ZipOp(Ops... ops) : ops_(std::move(ops)...) {}
  ZipOp(ZipOp&&) noexcept = default;

  void start(detail::ExecContext& ctx) {
    std::apply([&](auto&... op) { (op.start(ctx), ...); }, ops_);
  }
  result_type take() {
    return std::apply([](auto&... op) { return result_type(take_one(op)...); }, ops_);
  }
  void release() noexcept {
    std::apply([](auto&... op) { (op.release(), ...); }, ops_);
  }

 private:
  template <class Op>
  static auto take_one(Op& op) {
    if constexpr (std::is_void_v<typename Op::result_type>) {
      return std::monostate{};
    } else {
      return op.take();
    }
  }
  std::tuple<Ops...> ops_;
};

/// All of `ops`, as one op whose outputs are a tuple of theirs.
template <class... Ops>
  requires(is_op_v<Ops> && ...)
ZipOp<std::remove_cvref_t<Ops>...> zip(Ops&&... ops) {
  static_assert((!std::is_lvalue_reference_v<Ops> && ...), "tile::zip consumes its ops: pass std::move(op)");
  return ZipOp<std::remove_cvref_t<Ops>...>(std::move(ops)...);
}

/// `op.shared()`: copies share one op that runs at the first execution of any of them.
template <class Op>
class [[nodiscard]] SharedOp : public OpBase<SharedOp<Op>> {
  using Value = detail::value_t<typename Op::result_type>;
  struct State {
    explicit State(Op o) : op(std::move(o)) {}
    Op op;
    bool started = false;
    bool released = false;
    std::shared_ptr<Value> outputs;
  };

 public:
  using result_type = std::shared_ptr<Value>;

  explicit SharedOp(Op op) : state_(std::make_shared<State>(std::move(op))) {}

  void start(detail::ExecContext& ctx) {
    State& s = *state_;
    if (s.started) return;
    s.started = true;
    s.op.start(ctx);
    if constexpr (std::is_void_v<typename Op::result_type>)
      s.outputs = std::make_shared<Value>();
    else
      s.outputs = std::make_shared<Value>(s.op.take());
  }
  result_type take() { return state_->outputs; }
  void release() noexcept {
    if (state_->started && !state_->released) {
      state_->released = true;
      state_->op.release();
    }
  }

 private:
  std::shared_ptr<State> state_;
};

/// Element I of the outputs of a shared op.
template <std::size_t I, class Op>
class [[nodiscard]] UnzipOp : public OpBase<UnzipOp<I, Op>> {
 public:
  using result_type = std::tuple_element_t<I, typename Op::result_type>;

  explicit UnzipOp(SharedOp<Op> shared) : shared_(std::move(shared)) {}

  void start(detail::ExecContext& ctx) { shared_.start(ctx); }
  result_type take() { return std::get<I>(std::move(*shared_.take())); }
  void release() noexcept { shared_.release(); }

 private:
  SharedOp<Op> shared_;
};

template <class D>
auto OpBase<D>::unzip() && {
  using R = typename D::result_type;
  static_assert(!std::is_void_v<R>, "unzip(): the op has no outputs");
  SharedOp<D> shared(std::move(self()));
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return std::tuple<UnzipOp<I, D>...>(UnzipOp<I, D>(shared)...);
  }(std::make_index_sequence<std::tuple_size_v<R>>{});
}

// ---- futures -----------------------------------------------------------------------------------

namespace detail {

/// Memory for the states of issued ops, kept per thread by power-of-two size class (64 bytes
/// to 1 MiB, a few blocks each) and reused: once a program has run its ops a few times,
/// `async()` takes no memory from the heap. Larger states come from the heap every time.
struct StateMemory {
  static constexpr int kClasses = 15;  // 64 << 14 = 1 MiB
  static constexpr int kKeep = 4;
  void* blocks[kClasses][kKeep] = {};
  int count[kClasses] = {};
  ~StateMemory() {
    gone = true;
    for (int c = 0; c < kClasses; ++c)
      for (int k = 0; k < count[c]; ++k) ::operator delete(blocks[c][k]);
  }
  static int size_class(std::size_t bytes) {
    int c = 0;
    while (c < kClasses && (std::size_t{64} << c) < bytes) ++c;
    return c;
  }
  static void* take(std::size_t bytes) {
    const int c = size_class(bytes);
    if (c == kClasses) return ::operator new(bytes);
    StateMemory& m = mine();
    if (!gone && m.count[c]) return m.blocks[c][--m.count[c]];
    return ::operator new(std::size_t{64} << c);
  }
  static void give(void* p, std::size_t bytes) noexcept {
    const int c = size_class(bytes);
    if (c < kClasses && !gone) {
      StateMemory& m = mine();
      if (m.count[c] < kKeep) {
        m.blocks[c][m.count[c]++] = p;
        return;
      }
    }
    ::operator delete(p);
  }
  static StateMemory& mine() {
    static thread_local StateMemory m;
    return m;
  }
  /// Set once this thread's lists were destroyed (states freed at thread exit after that).
  static inline thread_local bool gone = false;
};

/// What a Future or a Graph keeps of an issued op: the op itself (holding its loans), the
/// events that mark the end of its work, its outputs. Allocated from StateMemory.
template <class R>
struct IssuedState {
  virtual ~IssuedState() = default;
  virtual void release() noexcept = 0;

  static void* operator new(std::size_t bytes) { return StateMemory::take(bytes); }
  static void operator delete(void* p, std::size_t bytes) noexcept { StateMemory::give(p, bytes); }

  /// Records one event per GPU the context used (after the work was issued); the buffers the
  /// work used remember it.
  void mark_end(ExecContext& ctx) {
    for (int i = 0; i < ctx.num_gpus(); ++i) {
      ends[static_cast<std::size_t>(num_ends)] = End{&ctx.gpu(i), gpu_event_record(ctx.gpu(i), ctx.stream_of(i))};
      ctx.settle(i, ends[static_cast<std::size_t>(num_ends++)].event);
    }
    kernel = ctx.kernel();
    source = ctx.source();
  }
  bool finished() {
    for (int i = 0; i < num_ends; ++i)
      if (!gpu_event_query(*ends[static_cast<std::size_t>(i)].device, ends[static_cast<std::size_t>(i)].event,
                           kernel, source))
        return false;
    return true;
  }
  void wait() {
    for (int i = 0; i < num_ends; ++i)
      gpu_event_wait(*ends[static_cast<std::size_t>(i)].device, ends[static_cast<std::size_t>(i)].event, kernel,
                     source);
  }
  void drop_events() noexcept {
    for (int i = 0; i < num_ends; ++i)
      gpu_event_destroy(*ends[static_cast<std::size_t>(i)].device, ends[static_cast<std::size_t>(i)].event);
    num_ends = 0;
  }

  struct End {
    const Device* device;
    void* event;
  };
  std::array<End, ExecContext::kMaxDevices> ends{};
  int num_ends = 0;
  const char* kernel = "";
  const char* source = "";
  std::exception_ptr failure;  // a failure found while the work was issued (ExecContext)
  std::optional<value_t<R>> outputs;
};

template <class Op>
struct IssuedOp final : IssuedState<typename Op::result_type> {
  explicit IssuedOp(Op o) : op(std::move(o)) {}
  void release() noexcept override { op.release(); }
  Op op;
};

}  // namespace detail

/// The outputs of an op issued with `async()`. `get()` waits and returns them; `co_await` does the
/// same from a C++20 coroutine. Destroying an unfinished future waits for the work (the memory
/// it uses stays valid) and returns the loans.
template <class R>
class [[nodiscard]] Future {
 public:
  Future(Future&& o) noexcept : state_(std::move(o.state_)), done_(std::exchange(o.done_, false)) {}
  /// Waits for this future's work (as destruction does), then takes over `o`'s.
  Future& operator=(Future&& o) noexcept {
    if (this != &o) {
      finish_quietly();
      state_ = std::move(o.state_);
      done_ = std::exchange(o.done_, false);
    }
    return *this;
  }
  ~Future() { finish_quietly(); }

  /// True once the work has finished (never blocks).
  bool ready() const { return !state_ || state_->finished(); }
  /// Waits for the work. A kernel failure throws tile::Error naming the kernel; the loans are
  /// returned either way.
  void wait() {
    if (!state_ || done_) return;
    done_ = true;
    try {
      state_->wait();
      if (state_->failure) std::rethrow_exception(state_->failure);
    } catch (...) {
      finish();
      throw;
    }
    finish();
  }
  /// Waits and returns the outputs.
  R get() && {
    if (!state_) throw Error("tile::Future::get: the future is empty (moved from or already consumed)");
    wait();
    auto state = std::move(state_);
    if constexpr (!std::is_void_v<R>) return std::move(*state->outputs);
  }
  template <class Self = Future>
  decltype(auto) get() & {
    static_assert(detail::false_for_types<Self>, "Future::get() consumes the future: write std::move(f).get()");
    return std::move(*this).get();
  }

  /// `co_await std::move(future)`: resumes the coroutine on another thread once the work finished.
  auto operator co_await() && {
    struct Awaiter {
      Future f;
      bool await_ready() { return f.ready(); }
      void await_suspend(std::coroutine_handle<> h) {
        std::thread([this, h] {
          try {
            f.wait();
          } catch (...) {
            error = std::current_exception();
          }
          h.resume();
        }).detach();
      }
      R await_resume() {
        if (error) std::rethrow_exception(error);
        return std::move(f).get();
      }
      std::exception_ptr error;
    };
    return Awaiter{std::move(*this), nullptr};
  }

 private:
  template <class>
  friend class OpBase;
  template <class>
  friend class Graph;

  explicit Future(std::unique_ptr<detail::IssuedState<R>> s) : state_(std::move(s)) {}

  void finish() {
    state_->drop_events();
    state_->release();
  }
  void finish_quietly() noexcept {
    if (!state_ || done_) return;
    done_ = true;
    try {
      state_->wait();
      if (state_->failure) std::rethrow_exception(state_->failure);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tile: an unfinished future was destroyed and its work failed: %s\n", e.what());
    }
    finish();
  }

  std::unique_ptr<detail::IssuedState<R>> state_;
  bool done_ = false;
};

template <class D>
auto OpBase<D>::async() && {
  using R = typename D::result_type;
  auto state = std::make_unique<detail::IssuedOp<D>>(std::move(self()));
  detail::ExecContext ctx{detail::ExecContext::Async{}};
  try {
    state->op.start(ctx);
  } catch (...) {
    ctx.wait_quietly();
    state->op.release();
    throw;
  }
  state->mark_end(ctx);
  state->failure = ctx.take_deferred_failure();
  if constexpr (!std::is_void_v<R>) state->outputs.emplace(state->op.take());
  return Future<R>(std::move(state));
}

// ---- graphs ------------------------------------------------------------------------------------

/// An op captured once and replayed by `sync()` / `async()`: on a GPU a CUDA graph, on the CPU
/// the recorded tile programs. Host code in `then(f)` runs once, at capture. The graph holds the
/// op's loans for its whole life; `std::move(g).get()` waits for the last run and returns the
/// op's outputs.
template <class R>
class [[nodiscard]] Graph {
 public:
  Graph(Graph&&) noexcept = default;
  Graph& operator=(Graph&&) = delete;
  ~Graph() { finish_quietly(); }

  /// Runs the graph and waits for it.
  void sync() {
    launch();
    wait();
  }
  /// Runs the graph; the future finishes with this run (the graph must outlive it).
  Future<void> async() {
    launch();
    auto run = std::make_unique<Run>();
    if (state_->device) {
      run->ends[0] = {state_->device, detail::gpu_event_record(*state_->device, detail::gpu_stream(*state_->device))};
      run->num_ends = 1;
      run->kernel = state_->kernel;
      run->source = state_->source;
    }
    return Future<void>(std::move(run));
  }
  /// Waits for the last run, returns the loans and the op's outputs.
  R get() && {
    if (!state_) throw Error("tile::Graph::get: the graph is empty (moved from or already consumed)");
    wait();
    auto state = std::move(state_);
    state->release();
    if constexpr (!std::is_void_v<R>) return std::move(*state->outputs);
  }
  template <class Self = Graph>
  decltype(auto) get() & {
    static_assert(detail::false_for_types<Self>, "Graph::get() consumes the graph: write std::move(g).get()");
    return std::move(*this).get();
  }

 private:
  template <class>
  friend class OpBase;

  struct State : detail::IssuedState<R> {
    const Device* device = nullptr;  // the GPU, or null on the CPU
    void* exec = nullptr;            // cudaGraphExec_t
    uint64_t epoch = 0;              // the GPU's epoch at the capture (detail::device_epoch)
    std::vector<std::function<void()>> cpu_work;
    bool lost() const { return device && detail::device_epoch(*device) != epoch; }
    ~State() override {
      bool gone = true;  // a graph of an epoch that a reset ended went with its context
      try {
        gone = lost();
      } catch (...) {
      }
      if (exec && !gone) detail::gpu_graph_destroy(*device, exec);
    }
  };
  template <class Op>
  struct OpState final : State {
    explicit OpState(Op o) : op(std::move(o)) {}
    void release() noexcept override { op.release(); }
    Op op;
  };
  /// One run's end, as a Future<void> state (no loans: the graph holds them).
  struct Run final : detail::IssuedState<void> {
    void release() noexcept override {}
  };

  explicit Graph(std::unique_ptr<State> s) : state_(std::move(s)) {}

  void launch() {
    if (!state_) throw Error("tile::Graph: the graph is empty (moved from or already consumed)");
    if (state_->device) {
      if (state_->lost())
        throw Error("tile::Graph: " + state_->device->name() +
                    " was reset (cudaDeviceReset) after the graph was captured; the graph and the arrays it "
                    "uses went with the device's context: make the arrays and capture the op again");
      detail::gpu_graph_launch(*state_->device, state_->exec, detail::gpu_stream(*state_->device));
    } else {
      for (auto& work : state_->cpu_work) work();
    }
  }
  void wait() {
    if (state_->device)
      detail::gpu_synchronize(*state_->device, state_->kernel, state_->source);
  }
  void finish_quietly() noexcept {
    if (!state_) return;
    try {
      wait();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tile: a graph was destroyed and its last run failed: %s\n", e.what());
    }
    state_->release();
  }

  std::unique_ptr<State> state_;
};

template <class D>
auto OpBase<D>::graph() && {
  using R = typename D::result_type;
  using G = Graph<R>;
  auto state = std::make_unique<typename G::template OpState<D>>(std::move(self()));
  detail::ExecContext ctx;
  ctx.begin_capture(&state->cpu_work);
  ++detail::capturing_graph;
  struct Leave {
    ~Leave() { --detail::capturing_graph; }
  } leave;
  try {
    state->op.start(ctx);
  } catch (...) {
    state->op.release();
    if (ctx.num_gpus() == 1) {
      try {
        detail::gpu_graph_destroy(ctx.gpu(0), detail::gpu_capture_end(ctx.gpu(0), ctx.stream_of(0)));
      } catch (...) {
      }
    }
    throw;
  }
  if (ctx.num_gpus() == 1) {
    if (!state->cpu_work.empty())
      throw Error("tile::DeviceOp::graph: a graph runs on one device (this op uses the CPU and a GPU)");
    state->device = &ctx.gpu(0);
    state->epoch = detail::device_epoch(ctx.gpu(0));
    state->exec = detail::gpu_capture_end(ctx.gpu(0), ctx.stream_of(0));
  }
  state->kernel = ctx.kernel();
  state->source = ctx.source();
  if constexpr (!std::is_void_v<R>) state->outputs.emplace(state->op.take());
  return G(std::move(state));
}

}  // namespace tile
