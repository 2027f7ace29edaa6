// tile/collective.hpp - several devices: a communicator, collectives as ops, sharded arrays.
//
//   tile::Communicator comm = tile::Communicator::all();   one rank per tile::device(i)
//   auto shards = tile::shard<0>(x, comm);                 block r of x's axis 0 on rank r
//   tile::ops::all_reduce(comm, grads).sync();            every rank gets the sum, in place
//   tile::ops::all_reduce(comm, std::move(grads))          the same, owning grads and yielding them
//   tile::ops::all_gather(comm, pieces, wholes)            wholes[r] = pieces[0], ..., pieces[n-1]
//   tile::ops::reduce_scatter(comm, partials, blocks)      blocks[r] = block r of the sum
//   tile::ops::broadcast(comm, weights, root)              every rank gets weights[root]
//   tile::ops::send_recv(comm, in, out, from)              out[r] = in[from[r]] (point to point)
//   tile::unshard<0>(shards, device)                       the blocks joined again on one device
//
// Several processes, one rank each (scripts/tile-launch -n N prog starts them):
//   tile::Communicator comm = tile::Communicator::from_environment();
//   tile::ops::all_reduce(comm, grads).sync();            grads: {this process's array}
//
// A collective is an op like a launch (tile/op.hpp): it runs when executed, composes with then /
// zip, and holds its loans until its work has finished. It borrows the arrays it writes
// exclusively and those it only reads shared, one per rank, each on its rank's device, so the
// borrow rules of tile/array.hpp hold across devices as on one: an array cannot be reduced into
// while a kernel reads it, and one array cannot stand for two ranks. Arrays of a collective have
// one element type and compact row-major storage (tile::Array).
//
// On GPUs a collective runs on NCCL (one communicator per rank, made when the Communicator is),
// each rank on its device's stream of the execution, ordered after the work that wrote the
// arrays as a launch is. On the CPU backend the ranks are the simulated devices of
// TILE_CPU_DEVICES (tile/device.hpp) and the collective is computed when it is issued; sums and
// products add in rank order, so results may differ from NCCL's in the last bits.
//
// A communicator may span processes (Communicator::join): each process holds some of its ranks
// and passes one array per rank it holds. Every process must issue the same collectives in the
// same order, as with NCCL. On GPUs its id is NCCL's unique id; on the CPU backend a directory
// the processes share, through which each collective exchanges every rank's contribution
// (runtime/cpu/process_group.cpp: for tests and for development without GPUs).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "tile/array.hpp"
#include "tile/array_ops.hpp"
#include "tile/detail/runtime.hpp"
#include "tile/device.hpp"
#include "tile/error.hpp"
#include "tile/op.hpp"

namespace tile {

/// How a reduction combines elements (its value is gpu_collective's `op`): as tile::min / tile::max do for floats (a NaN yields the
/// other operand); integer sums and products wrap.
enum class Reduction { sum, prod, min, max };

/// A group of devices that exchange data, one rank per device.
class Communicator {
 public:
  /// Ranks 0 .. n-1 on `devices`, which must be distinct devices of one kind.
  explicit Communicator(std::vector<const Device*> devices);
  /// One rank per device of tile::device(i), i < tile::device_count().
  static Communicator all();
  /// Rank `rank` of `size`, held by this process on `device`, of a communicator that spans
  /// processes: every process calls join with the same `id`, made once by unique_id and passed
  /// on (an argument, a file, the environment). Returns when every rank has joined (GPUs).
  static Communicator join(const std::string& id, int rank, int size, const Device& device);
  /// A new id for join, on devices of `kind`'s kind: NCCL's unique id as text on GPUs; on the CPU
  /// backend a new rendezvous directory, which its maker removes when every process is done.
  static std::string unique_id(const Device& kind = default_device());
  /// The communicator scripts/tile-launch sets up: rank TILE_RANK of TILE_WORLD_SIZE, through
  /// the rendezvous directory TILE_RENDEZVOUS, on device TILE_LOCAL_RANK modulo the devices
  /// there are. On GPUs rank 0 makes NCCL's id and leaves it in the directory for the others.
  static Communicator from_environment();

  /// The number of ranks, in every process.
  int size() const { return state_->world; }
  /// The ranks this process holds: first_rank() .. first_rank() + local_size() - 1. A
  /// collective takes one array per rank this process holds.
  int local_size() const { return static_cast<int>(state_->devices.size()); }
  int first_rank() const { return state_->first; }
  /// The device of a rank this process holds.
  const Device& device(int rank) const;
  /// The rank on `d`, or -1.
  int rank_of(const Device& d) const;

  /// Shared between copies of the communicator (and the ops that use it).
  struct State {
    std::vector<const Device*> devices;  // of this process's ranks
    int first = 0;                        // the rank of devices[0]
    int world = 0;                        // ranks in all processes
    void* gpu = nullptr;      // the GPU backend's communicators (detail::gpu_comm_*), null on the CPU
    void* process = nullptr;  // the CPU backend's process group of a joined communicator
    ~State();
  };
  const std::shared_ptr<State>& state() const { return state_; }

 private:
  explicit Communicator(std::shared_ptr<State> state) : state_(std::move(state)) {}
  std::shared_ptr<State> state_;
};

namespace detail {

/// Which collective (its value is gpu_collective's `kind`, tile/detail/runtime.hpp).
enum class CollectiveKind { AllReduce, AllGather, ReduceScatter, Broadcast, SendRecv };

/// The element type's NCCL code for gpu_collective (-1: NCCL has no such type).
template <class T>
constexpr int collective_dtype() {
  if constexpr (std::is_same_v<T, int8_t>) return 0;
  else if constexpr (std::is_same_v<T, uint8_t>) return 1;
  else if constexpr (std::is_same_v<T, int32_t>) return 2;
  else if constexpr (std::is_same_v<T, uint32_t>) return 3;
  else if constexpr (std::is_same_v<T, int64_t>) return 4;
  else if constexpr (std::is_same_v<T, uint64_t>) return 5;
  else if constexpr (std::is_same_v<T, f16>) return 6;
  else if constexpr (std::is_same_v<T, float>) return 7;
  else if constexpr (std::is_same_v<T, double>) return 8;
  else if constexpr (std::is_same_v<T, bf16>) return 9;
  else return -1;
}

/// a op b, element by element on the CPU backend.
template <class T>
T combine(Reduction op, T a, T b) {
  if constexpr (is_narrow_float_v<T>) {
    return T(combine(op, static_cast<float>(a), static_cast<float>(b)));
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    switch (op) {
      case Reduction::sum: return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
      case Reduction::prod: return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
      case Reduction::min: return a < b ? a : b;
      case Reduction::max: return a < b ? b : a;
    }
    return a;
  } else {
    switch (op) {
      case Reduction::sum: return a + b;
      case Reduction::prod: return a * b;
      case Reduction::min: return min_value(a, b);
      case Reduction::max: return max_value(a, b);
    }
    return a;
  }
}

/// One collective over a communicator: per rank an input it reads (shared loan) and an output it
/// writes; an in-place collective (all-reduce, broadcast) has outputs only. The outputs are
/// borrowed exclusively (Owns = false), or moved into the op, which yields them (Owns = true).
template <class T, bool Owns>
class [[nodiscard]] CollectiveOp : public OpBase<CollectiveOp<T, Owns>> {
 public:
  using result_type = std::conditional_t<Owns, std::vector<Array<T>>, void>;

  /// `from`: a send/recv's source rank per receiving rank (-1: none), empty otherwise.
  CollectiveOp(const char* what, const Communicator& comm, CollectiveKind kind, Reduction op, int root,
               const std::vector<Array<T>>* in, std::vector<Array<T>>& out, std::vector<int> from = {})
    requires(!Owns)
      : what_(what), comm_(comm), kind_(kind), op_(op), root_(root), from_(std::move(from)) {
    init(in, out);
  }
  CollectiveOp(const char* what, const Communicator& comm, CollectiveKind kind, Reduction op, int root,
               const std::vector<Array<T>>* in, std::vector<Array<T>>&& out, std::vector<int> from = {})
    requires(Owns)
      : what_(what), comm_(comm), kind_(kind), op_(op), root_(root), from_(std::move(from)), owned_(std::move(out)) {
    init(in, owned_);
  }
  CollectiveOp(CollectiveOp&&) noexcept = default;
  CollectiveOp& operator=(CollectiveOp&&) = delete;

  void start(ExecContext& ctx) {
    if (done_) throw Error(std::string(what_) + ": the op has already run");
    done_ = true;
    for (const auto& r : in_) check_not_lost(r.buffer, what_);
    for (const auto& r : out_) check_not_lost(r.buffer, what_);
    if (out_[0].shape.numel() == 0) return;
    const int first = comm_.first_rank();
    if (!comm_.device(first).is_gpu()) {
      run_on_cpu(ctx, [kind = kind_, op = op_, root = root_, from = from_, in = in_, out = out_,
                       state = comm_.state()] { run_cpu(*state, kind, op, root, from, in, out); });
      return;
    }
    std::vector<const void*> send;
    std::vector<void*> recv, streams;
    for (int i = 0; i < comm_.local_size(); ++i) {
      const auto ur = static_cast<std::size_t>(i);
      const Device& d = comm_.device(first + i);
      streams.push_back(ctx.stream_for(d));
      if (!in_.empty()) ctx.use(d, in_[ur].buffer, false);
      ctx.use(d, out_[ur].buffer, true);
      send.push_back(in_.empty() ? out_[ur].data() : in_[ur].data());
      recv.push_back(out_[ur].data());
    }
    const int64_t count = kind_ == CollectiveKind::AllGather ? in_[0].shape.numel() : out_[0].shape.numel();
    if (kind_ == CollectiveKind::SendRecv)
      gpu_send_recv(comm_.state()->gpu, collective_dtype<T>(), static_cast<std::size_t>(count), send, recv, from_,
                    first, streams);
    else
      gpu_collective(comm_.state()->gpu, static_cast<int>(kind_), static_cast<int>(op_), collective_dtype<T>(),
                     root_, static_cast<std::size_t>(count), send, recv, streams);
    ctx.issued(what_, "");
  }
  result_type take() {
    if constexpr (Owns) return std::move(owned_);
  }
  void release() noexcept { loans_.clear(); }

 private:
  void init(const std::vector<Array<T>>* in, std::vector<Array<T>>& out) {
    const char* what = what_;
    const CollectiveKind kind = kind_;
    const int root = root_;
    const Communicator& comm = comm_;
    const int n = comm.size(), local = comm.local_size(), first = comm.first_rank();
    if (static_cast<int>(out.size()) != local || (in && static_cast<int>(in->size()) != local))
      throw Error(std::string(what) + ": the communicator has " + std::to_string(local) + " ranks" +
                  (local == n ? std::string() : " in this process") + " but " +
                  std::to_string(in && static_cast<int>(in->size()) != local ? in->size() : out.size()) +
                  " arrays were given; pass one per rank");
    if (root < 0 || root >= n)
      throw Error(std::string(what) + ": root " + std::to_string(root) + " is not a rank of " + std::to_string(n));
    if (kind == CollectiveKind::SendRecv) {
      if (static_cast<int>(from_.size()) != n)
        throw Error(std::string(what) + ": the communicator has " + std::to_string(n) + " ranks but `from` names " +
                    std::to_string(from_.size()) + " sources; give one per rank (-1: the rank receives nothing)");
      for (int r = 0; r < n; ++r)
        if (from_[static_cast<std::size_t>(r)] < -1 || from_[static_cast<std::size_t>(r)] >= n)
          throw Error(std::string(what) + ": rank " + std::to_string(r) + " receives from " +
                      std::to_string(from_[static_cast<std::size_t>(r)]) + ", which is not a rank of " +
                      std::to_string(n) + " (nor -1, nothing)");
    }
    if constexpr (collective_dtype<T>() < 0)
      if (comm.device(0).is_gpu())
        throw Error(std::string(what) + ": NCCL has no element type like this array's");
    for (int i = 0; i < local; ++i) {
      if (in) in_.push_back(check(ArrayAccess::ref((*in)[static_cast<std::size_t>(i)]), first + i, "input"));
      out_.push_back(check(ArrayAccess::ref(out[static_cast<std::size_t>(i)]), first + i, "output"));
    }
    // All-gather: outputs of n inputs; reduce-scatter: inputs of n outputs; else equal sizes.
    const int64_t want_in = kind == CollectiveKind::ReduceScatter ? out_[0].shape.numel() * n
                            : kind == CollectiveKind::SendRecv    ? out_[0].shape.numel()
                            : in                                  ? in_[0].shape.numel()
                                                                  : 0;
    const int64_t want_out = kind == CollectiveKind::AllGather ? in_[0].shape.numel() * n : out_[0].shape.numel();
    for (int i = 0; i < local; ++i) {
      const auto ur = static_cast<std::size_t>(i);
      if (out_[ur].shape.numel() != want_out || (in && in_[ur].shape.numel() != want_in))
        throw Error(std::string(what) + ": rank " + std::to_string(first + i) + "'s arrays hold " +
                    (in ? std::to_string(in_[ur].shape.numel()) + " and " : std::string()) +
                    std::to_string(out_[ur].shape.numel()) + " elements where " + expected(n) +
                    " are needed");
    }
    // Loans: the inputs shared, the outputs exclusive unless the op owns them.
    for (int i = 0; i < local; ++i) {
      const auto ur = static_cast<std::size_t>(i);
      if (in) loans_.emplace_back(in_[ur].buffer, acquire_loan(in_[ur], false, loan_what(first + i, "input")));
      if constexpr (!Owns)
        loans_.emplace_back(out_[ur].buffer, acquire_loan(out_[ur], true, loan_what(first + i, "output")));
    }
  }

  ArrayRef<T> check(const ArrayRef<T>& r, int rank, const char* which) const {
    const ArrayRef<T>& a = require_array(r, what_, which);
    if (!(*a.buffer->device == comm_.device(rank)))
      throw Error(std::string(what_) + ": rank " + std::to_string(rank) + "'s " + which + " is on " +
                  a.buffer->device->name() + " but the rank is " + comm_.device(rank).name());
    if (!is_row_major(a.shape, a.strides))
      throw Error(std::string(what_) + ": rank " + std::to_string(rank) + "'s " + which +
                  " is not compact row-major storage");
    return a;
  }
  std::string loan_what(int rank, const char* which) const {
    return std::string(what_) + " (rank " + std::to_string(rank) + "'s " + which + ")";
  }
  std::string expected(int n) const {
    switch (kind_) {
      case CollectiveKind::AllGather: return "an output of " + std::to_string(n) + " inputs";
      case CollectiveKind::ReduceScatter: return "an input of " + std::to_string(n) + " outputs";
      default: return "the same number on every rank";
    }
  }

  /// The collective on the CPU backend. Every rank's contribution (its input, or its output for
  /// an in-place collective) is read where it lies, or, in a communicator across processes,
  /// exchanged first; then each rank this process holds computes its output from them.
  static void run_cpu(const Communicator::State& comm, CollectiveKind kind, Reduction op, int root,
                      const std::vector<int>& from, const std::vector<ArrayRef<T>>& in,
                      const std::vector<ArrayRef<T>>& out) {
    const auto n = static_cast<std::size_t>(comm.world);
    const std::vector<ArrayRef<T>>& given = in.empty() ? out : in;
    const std::size_t count = static_cast<std::size_t>(given[0].shape.numel());
    std::vector<const T*> src(n);
    std::vector<std::vector<char>> exchanged;
    if (comm.process) {
      exchanged = cpu_process_group_exchange(comm.process, given[0].data(), count * sizeof(T));
      for (std::size_t r = 0; r < n; ++r) src[r] = reinterpret_cast<const T*>(exchanged[r].data());
    } else {
      for (std::size_t r = 0; r < n; ++r) src[r] = given[r].data();
    }
    std::vector<T*> dst(n, nullptr);  // the outputs of this process's ranks
    for (std::size_t i = 0; i < out.size(); ++i) dst[static_cast<std::size_t>(comm.first) + i] = out[i].data();
    const std::size_t out_count = static_cast<std::size_t>(out[0].shape.numel());
    auto reduce = [&](std::size_t offset) {  // every rank's src[offset ...] reduced, in rank order
      std::vector<T> total(src[0] + offset, src[0] + offset + out_count);
      for (std::size_t r = 1; r < n; ++r)
        for (std::size_t i = 0; i < out_count; ++i) total[i] = combine(op, total[i], src[r][offset + i]);
      return total;
    };
    // An all-reduce writes where it reads (in place): its sum is made before any output.
    const std::vector<T> total = kind == CollectiveKind::AllReduce ? reduce(0) : std::vector<T>();
    for (std::size_t r = 0; r < n; ++r) {
      if (!dst[r]) continue;
      switch (kind) {
        case CollectiveKind::AllReduce: std::copy(total.begin(), total.end(), dst[r]); break;
        case CollectiveKind::Broadcast:
          if (r != static_cast<std::size_t>(root))
            std::copy(src[static_cast<std::size_t>(root)], src[static_cast<std::size_t>(root)] + count, dst[r]);
          break;
        case CollectiveKind::AllGather:
          for (std::size_t s = 0; s < n; ++s) std::copy(src[s], src[s] + count, dst[r] + s * count);
          break;
        case CollectiveKind::ReduceScatter: {
          const std::vector<T> block = reduce(r * out_count);
          std::copy(block.begin(), block.end(), dst[r]);
          break;
        }
        case CollectiveKind::SendRecv:
          if (const int s = from[r]; s >= 0)
            std::copy(src[static_cast<std::size_t>(s)], src[static_cast<std::size_t>(s)] + count, dst[r]);
          break;
      }
    }
  }

  const char* what_;
  Communicator comm_;
  CollectiveKind kind_;
  Reduction op_;
  int root_;
  std::vector<int> from_;
  std::conditional_t<Owns, std::vector<Array<T>>, std::monostate> owned_;
  std::vector<ArrayRef<T>> in_, out_;
  std::vector<OpLoan> loans_;
  bool done_ = false;
};

}  // namespace detail

inline Communicator::Communicator(std::vector<const Device*> devices) : state_(std::make_shared<State>()) {
  if (devices.empty()) throw Error("tile::Communicator: no devices");
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (devices[i]->is_gpu() != devices[0]->is_gpu())
      throw Error("tile::Communicator: " + devices[i]->name() + " and " + devices[0]->name() +
                  " are not of one kind; a communicator joins GPUs or simulated CPU devices");
    for (std::size_t j = 0; j < i; ++j)
      if (*devices[i] == *devices[j])
        throw Error("tile::Communicator: " + devices[i]->name() + " is given twice; one rank per device");
  }
  state_->devices = std::move(devices);
  state_->world = static_cast<int>(state_->devices.size());
  if (state_->devices[0]->is_gpu()) state_->gpu = detail::gpu_comm_init(state_->devices);
}

inline Communicator Communicator::join(const std::string& id, int rank, int size, const Device& device) {
  if (size < 1 || rank < 0 || rank >= size)
    throw Error("tile::Communicator::join: rank " + std::to_string(rank) + " of " + std::to_string(size) +
                "; the rank must lie in [0, size)");
  auto s = std::make_shared<State>();
  s->devices = {&device};
  s->first = rank;
  s->world = size;
  if (device.is_gpu())
    s->gpu = detail::gpu_comm_join(id, rank, size, device);
  else
    s->process = detail::cpu_process_group_join(id, rank, size);
  return Communicator(std::move(s));
}

inline Communicator Communicator::from_environment() {
  auto number = [](const char* name, bool required, int otherwise) {
    const char* v = std::getenv(name);
    if (!v || !*v) {
      if (required)
        throw Error(std::string("tile::Communicator::from_environment: ") + name +
                    " is not set; start the program with scripts/tile-launch -n N");
      return otherwise;
    }
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (*end != '\0' || n < 0 || n > (1 << 20))
      throw Error(std::string("tile::Communicator::from_environment: ") + name + "=" + v + " is not a rank count");
    return static_cast<int>(n);
  };
  const int rank = number("TILE_RANK", true, 0), size = number("TILE_WORLD_SIZE", true, 0);
  const int local = number("TILE_LOCAL_RANK", false, rank);
  const char* dir = std::getenv("TILE_RENDEZVOUS");
  if (!dir || !*dir)
    throw Error("tile::Communicator::from_environment: TILE_RENDEZVOUS is not set; start the program with "
                "scripts/tile-launch -n N");
  const Device& d = tile::device(local % device_count());
  if (!d.is_gpu()) return join(dir, rank, size, d);
  // Rank 0 makes NCCL's id; the others read it from the directory.
  std::string id = rank == 0 ? unique_id(d) : std::string();
  return join(detail::process_group_share(dir, "nccl-id", rank == 0 ? &id : nullptr), rank, size, d);
}

inline std::string Communicator::unique_id(const Device& kind) {
  return kind.is_gpu() ? detail::gpu_comm_unique_id() : detail::cpu_process_group_unique_id();
}

inline Communicator Communicator::all() {
  std::vector<const Device*> devices;
  for (int i = 0; i < device_count(); ++i) devices.push_back(&tile::device(i));
  return Communicator(std::move(devices));
}

inline const Device& Communicator::device(int rank) const {
  if (rank < 0 || rank >= size())
    throw Error("tile::Communicator::device(" + std::to_string(rank) + "): the communicator has " +
                std::to_string(size()) + " ranks");
  if (rank < first_rank() || rank >= first_rank() + local_size())
    throw Error("tile::Communicator::device(" + std::to_string(rank) + "): rank " + std::to_string(rank) +
                " is held by another process");
  return *state_->devices[static_cast<std::size_t>(rank - first_rank())];
}

inline int Communicator::rank_of(const Device& d) const {
  for (int i = 0; i < local_size(); ++i)
    if (*state_->devices[static_cast<std::size_t>(i)] == d) return first_rank() + i;
  return -1;
}

inline Communicator::State::~State() {
  if (gpu) detail::gpu_comm_destroy(gpu);
  if (process) detail::cpu_process_group_leave(process);
}

namespace ops {

// Each collective borrows the arrays it writes (an lvalue vector) or takes them (an rvalue
// vector, which the op yields when it has run); the arrays it only reads are borrowed shared.

/// Every rank's array becomes the element-wise reduction of all ranks' arrays (equal sizes).
template <class T>
detail::CollectiveOp<T, false> all_reduce(const Communicator& comm, std::vector<Array<T>>& arrays,
                                          Reduction op = Reduction::sum) {
  return {"tile::ops::all_reduce", comm, detail::CollectiveKind::AllReduce, op, 0, nullptr, arrays};
}
template <class T>
detail::CollectiveOp<T, true> all_reduce(const Communicator& comm, std::vector<Array<T>>&& arrays,
                                         Reduction op = Reduction::sum) {
  return {"tile::ops::all_reduce", comm, detail::CollectiveKind::AllReduce, op, 0, nullptr, std::move(arrays)};
}

/// Every rank's array becomes a copy of rank `root`'s (equal sizes).
template <class T>
detail::CollectiveOp<T, false> broadcast(const Communicator& comm, std::vector<Array<T>>& arrays, int root = 0) {
  return {"tile::ops::broadcast", comm, detail::CollectiveKind::Broadcast, Reduction::sum, root, nullptr, arrays};
}
template <class T>
detail::CollectiveOp<T, true> broadcast(const Communicator& comm, std::vector<Array<T>>&& arrays, int root = 0) {
  return {"tile::ops::broadcast", comm, detail::CollectiveKind::Broadcast, Reduction::sum, root, nullptr,
          std::move(arrays)};
}

/// out[r] holds every rank's input one after another, in rank order: out[r] has n times the
/// elements of in[r] (row-major, so for rank-k arrays the inputs are stacked along axis 0).
template <class T>
detail::CollectiveOp<T, false> all_gather(const Communicator& comm, const std::vector<Array<T>>& in,
                                          std::vector<Array<T>>& out) {
  return {"tile::ops::all_gather", comm, detail::CollectiveKind::AllGather, Reduction::sum, 0, &in, out};
}
template <class T>
detail::CollectiveOp<T, true> all_gather(const Communicator& comm, const std::vector<Array<T>>& in,
                                         std::vector<Array<T>>&& out) {
  return {"tile::ops::all_gather", comm, detail::CollectiveKind::AllGather, Reduction::sum, 0, &in, std::move(out)};
}

/// out[r] becomes block r of the element-wise reduction of the inputs: each input has n times
/// the elements of an output, and block r is its r-th n-th in row-major order.
template <class T>
detail::CollectiveOp<T, false> reduce_scatter(const Communicator& comm, const std::vector<Array<T>>& in,
                                              std::vector<Array<T>>& out, Reduction op = Reduction::sum) {
  return {"tile::ops::reduce_scatter", comm, detail::CollectiveKind::ReduceScatter, op, 0, &in, out};
}
template <class T>
detail::CollectiveOp<T, true> reduce_scatter(const Communicator& comm, const std::vector<Array<T>>& in,
                                             std::vector<Array<T>>&& out, Reduction op = Reduction::sum) {
  return {"tile::ops::reduce_scatter", comm, detail::CollectiveKind::ReduceScatter, op, 0, &in, std::move(out)};
}

/// Point to point: out[r] becomes a copy of in[from[r]] for every rank r with from[r] >= 0
/// (-1: rank r receives nothing and its output keeps its contents); a rank may send to several
/// ranks, or to itself. All arrays hold the same number of elements. On GPUs each transfer is
/// one NCCL send and receive, all in one group: a ring step is from[r] = (r + n - 1) % n, a
/// pipeline stage's hand-off from[r] = r - 1 (and -1 for rank 0).
template <class T>
detail::CollectiveOp<T, false> send_recv(const Communicator& comm, const std::vector<Array<T>>& in,
                                         std::vector<Array<T>>& out, std::vector<int> from) {
  return {"tile::ops::send_recv", comm, detail::CollectiveKind::SendRecv, Reduction::sum, 0, &in, out,
          std::move(from)};
}
template <class T>
detail::CollectiveOp<T, true> send_recv(const Communicator& comm, const std::vector<Array<T>>& in,
                                        std::vector<Array<T>>&& out, std::vector<int> from) {
  return {"tile::ops::send_recv", comm, detail::CollectiveKind::SendRecv, Reduction::sum, 0, &in, std::move(out),
          std::move(from)};
}

}  // namespace ops

/// Block r of `a` along `Axis` (equal blocks: the axis divisible by the ranks), copied to rank
/// r's device as a compact array. Runs now (sync), like tile::Array's factories.
template <int Axis, class T>
std::vector<Array<T>> shard(const Array<T>& a, const Communicator& comm) {
  const int n = comm.size();
  static_assert(Axis >= 0, "tile::shard<Axis>: Axis must name a dimension of the array");
  if (Axis >= a.rank())
    throw Error("tile::shard<" + std::to_string(Axis) + ">: the array has rank " + std::to_string(a.rank()));
  const int64_t extent = a.shape()[Axis];
  if (extent % n != 0)
    throw Error("tile::shard<" + std::to_string(Axis) + ">: extent " + std::to_string(extent) +
                " does not divide into " + std::to_string(n) + " equal blocks");
  const int64_t block = extent / n;
  std::vector<Array<T>> shards;
  std::vector<int64_t> dims(a.shape().begin(), a.shape().end());
  dims[Axis] = block;
  const Shape s = Shape::from_dims(dims);
  for (int r = 0; r < n; ++r) {
    auto piece = a.slice(Axis, r * block, (r + 1) * block);
    if (comm.device(r) == a.device()) {
      shards.push_back(empty<T>(s, comm.device(r)));
      ops::copy(piece, shards.back()).sync();
    } else {
      auto compact = empty<T>(s, a.device());  // a cross-device copy needs compact sides
      ops::copy(piece, compact).sync();
      shards.push_back(empty<T>(s, comm.device(r)));
      ops::copy(compact, shards.back()).sync();
    }
  }
  return shards;
}

/// The shards joined along `Axis` into one array on `device` (the inverse of shard).
template <int Axis, class T>
Array<T> unshard(const std::vector<Array<T>>& shards, const Device& device) {
  if (shards.empty()) throw Error("tile::unshard: no shards");
  if (Axis >= shards[0].rank())
    throw Error("tile::unshard<" + std::to_string(Axis) + ">: the shards have rank " +
                std::to_string(shards[0].rank()));
  std::vector<int64_t> dims(shards[0].shape().begin(), shards[0].shape().end());
  dims[Axis] = 0;
  for (const Array<T>& p : shards) dims[Axis] += p.shape()[Axis];
  Array<T> whole = empty<T>(Shape::from_dims(dims), device);
  int64_t at = 0;
  for (const Array<T>& p : shards) {
    const int64_t len = p.shape()[Axis];
    if (p.device() == device) {
      ops::copy(p, whole.slice_mut(Axis, at, at + len)).sync();
    } else {
      auto staged = empty<T>(p.shape(), device);
      ops::copy(p, staged).sync();
      ops::copy(staged, whole.slice_mut(Axis, at, at + len)).sync();
    }
    at += len;
  }
  return whole;
}

}  // namespace tile
