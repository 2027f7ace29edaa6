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
#pragma once

#include <cstdint>
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

  int size() const { return static_cast<int>(state_->devices.size()); }
  const Device& device(int rank) const;
  /// The rank on `d`, or -1.
  int rank_of(const Device& d) const;

  /// Shared between copies of the communicator (and the ops that use it).
  struct State {
    std::vector<const Device*> devices;
    void* gpu = nullptr;  // the GPU backend's communicators (detail::gpu_comm_*), null on the CPU
    ~State();
  };
  const std::shared_ptr<State>& state() const { return state_; }

 private:
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
    if (out_[0].shape.numel() == 0) return;
    if (!comm_.device(0).is_gpu()) {
      run_on_cpu(ctx, [kind = kind_, op = op_, root = root_, from = from_, in = in_, out = out_] {
        run_cpu(kind, op, root, from, in, out);
      });
      return;
    }
    const int n = comm_.size();
    std::vector<const void*> send;
    std::vector<void*> recv, streams;
    for (int r = 0; r < n; ++r) {
      const auto ur = static_cast<std::size_t>(r);
      const Device& d = comm_.device(r);
      streams.push_back(ctx.stream_for(d));
      if (!in_.empty()) ctx.use(d, in_[ur].buffer, false);
      ctx.use(d, out_[ur].buffer, true);
      send.push_back(in_.empty() ? out_[ur].data() : in_[ur].data());
      recv.push_back(out_[ur].data());
    }
    const int64_t count = kind_ == CollectiveKind::AllGather ? in_[0].shape.numel() : out_[0].shape.numel();
    if (kind_ == CollectiveKind::SendRecv)
      gpu_send_recv(comm_.state()->gpu, collective_dtype<T>(), static_cast<std::size_t>(count), send, recv, from_,
                    streams);
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
    const int n = comm.size();
    if (static_cast<int>(out.size()) != n || (in && static_cast<int>(in->size()) != n))
      throw Error(std::string(what) + ": the communicator has " + std::to_string(n) + " ranks but " +
                  std::to_string(in && static_cast<int>(in->size()) != n ? in->size() : out.size()) +
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
    for (int r = 0; r < n; ++r) {
      if (in) in_.push_back(check(ArrayAccess::ref((*in)[static_cast<std::size_t>(r)]), r, "input"));
      out_.push_back(check(ArrayAccess::ref(out[static_cast<std::size_t>(r)]), r, "output"));
    }
    // All-gather: outputs of n inputs; reduce-scatter: inputs of n outputs; else equal sizes.
    const int64_t want_in = kind == CollectiveKind::ReduceScatter ? out_[0].shape.numel() * n
                            : kind == CollectiveKind::SendRecv    ? out_[0].shape.numel()
                            : in                                  ? in_[0].shape.numel()
                                                                  : 0;
    const int64_t want_out = kind == CollectiveKind::AllGather ? in_[0].shape.numel() * n : out_[0].shape.numel();
    for (int r = 0; r < n; ++r) {
      const auto ur = static_cast<std::size_t>(r);
      if (out_[ur].shape.numel() != want_out || (in && in_[ur].shape.numel() != want_in))
        throw Error(std::string(what) + ": rank " + std::to_string(r) + "'s arrays hold " +
                    (in ? std::to_string(in_[ur].shape.numel()) + " and " : std::string()) +
                    std::to_string(out_[ur].shape.numel()) + " elements where " + expected(n) +
                    " are needed");
    }
    // Loans: the inputs shared, the outputs exclusive unless the op owns them.
    for (int r = 0; r < n; ++r) {
      const auto ur = static_cast<std::size_t>(r);
      if (in) loans_.emplace_back(in_[ur].buffer, acquire_loan(in_[ur], false, loan_what(r, "input")));
      if constexpr (!Owns) loans_.emplace_back(out_[ur].buffer, acquire_loan(out_[ur], true, loan_what(r, "output")));
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

  static void run_cpu(CollectiveKind kind, Reduction op, int root_rank, const std::vector<int>& from,
                      const std::vector<ArrayRef<T>>& in_, const std::vector<ArrayRef<T>>& out_) {
    const std::size_t n = out_.size();
    switch (kind) {
      case CollectiveKind::SendRecv: {
        const std::size_t count = static_cast<std::size_t>(out_[0].shape.numel());
        for (std::size_t r = 0; r < n; ++r)
          if (const int s = from[r]; s >= 0) {
            const T* src = in_[static_cast<std::size_t>(s)].data();
            std::copy(src, src + count, out_[r].data());
          }
        break;
      }
      case CollectiveKind::AllReduce: {
        const std::size_t count = static_cast<std::size_t>(out_[0].shape.numel());
        std::vector<T> total(out_[0].data(), out_[0].data() + count);
        for (std::size_t r = 1; r < n; ++r)
          for (std::size_t i = 0; i < count; ++i) total[i] = combine(op, total[i], out_[r].data()[i]);
        for (std::size_t r = 0; r < n; ++r) std::copy(total.begin(), total.end(), out_[r].data());
        break;
      }
      case CollectiveKind::Broadcast: {
        const auto root = static_cast<std::size_t>(root_rank);
        const std::size_t count = static_cast<std::size_t>(out_[root].shape.numel());
        for (std::size_t r = 0; r < n; ++r)
          if (r != root) std::copy(out_[root].data(), out_[root].data() + count, out_[r].data());
        break;
      }
      case CollectiveKind::AllGather: {
        const std::size_t count = static_cast<std::size_t>(in_[0].shape.numel());
        for (std::size_t r = 0; r < n; ++r)
          for (std::size_t s = 0; s < n; ++s)
            std::copy(in_[s].data(), in_[s].data() + count, out_[r].data() + s * count);
        break;
      }
      case CollectiveKind::ReduceScatter: {
        const std::size_t count = static_cast<std::size_t>(out_[0].shape.numel());
        for (std::size_t r = 0; r < n; ++r) {
          T* dst = out_[r].data();
          std::copy(in_[0].data() + r * count, in_[0].data() + (r + 1) * count, dst);
          for (std::size_t s = 1; s < n; ++s)
            for (std::size_t i = 0; i < count; ++i) dst[i] = combine(op, dst[i], in_[s].data()[r * count + i]);
        }
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
  if (state_->devices[0]->is_gpu()) state_->gpu = detail::gpu_comm_init(state_->devices);
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
  return *state_->devices[static_cast<std::size_t>(rank)];
}

inline int Communicator::rank_of(const Device& d) const {
  for (int r = 0; r < size(); ++r)
    if (*state_->devices[static_cast<std::size_t>(r)] == d) return r;
  return -1;
}

inline Communicator::State::~State() {
  if (gpu) detail::gpu_comm_destroy(gpu);
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
