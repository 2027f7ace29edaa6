// runtime/cuda/nccl_backend.cpp - collectives between GPUs (tile/collective.hpp) on NCCL.
//
// NCCL is loaded when the first GPU communicator is made (dlopen of libnccl.so.2, which the
// CUDA toolkit ships), so tile_rt does not depend on it at link time and a program that uses no
// GPU collective runs without it. One NCCL communicator per device (ncclCommInitAll); a
// collective is issued on every rank's stream inside one NCCL group, so that a single thread
// can drive all ranks without deadlock.
#include <dlfcn.h>
#include <nccl.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tile/detail/runtime.hpp"
#include "tile/device.hpp"
#include "tile/error.hpp"

namespace tile::detail {
namespace {

struct Nccl {
  decltype(&ncclCommInitAll) comm_init_all = nullptr;
  decltype(&ncclCommInitRank) comm_init_rank = nullptr;
  decltype(&ncclGetUniqueId) get_unique_id = nullptr;
  decltype(&ncclCommDestroy) comm_destroy = nullptr;
  decltype(&ncclGroupStart) group_start = nullptr;
  decltype(&ncclGroupEnd) group_end = nullptr;
  decltype(&ncclAllReduce) all_reduce = nullptr;
  decltype(&ncclBroadcast) broadcast = nullptr;
  decltype(&ncclAllGather) all_gather = nullptr;
  decltype(&ncclReduceScatter) reduce_scatter = nullptr;
  decltype(&ncclSend) send = nullptr;
  decltype(&ncclRecv) recv = nullptr;
  decltype(&ncclGetErrorString) error_string = nullptr;
};

const Nccl& nccl() {
  static const Nccl lib = [] {
    void* h = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libnccl.so", RTLD_NOW | RTLD_LOCAL);
    if (!h)
      throw Error(std::string("tile::Communicator: NCCL (libnccl.so.2) could not be loaded: ") + dlerror() +
                  "; collectives between GPUs need it on the library path");
    Nccl n;
    auto load = [h](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h, name));
      if (!fn) throw Error(std::string("tile::Communicator: NCCL lacks ") + name);
    };
    load(n.comm_init_all, "ncclCommInitAll");
    load(n.comm_init_rank, "ncclCommInitRank");
    load(n.get_unique_id, "ncclGetUniqueId");
    load(n.comm_destroy, "ncclCommDestroy");
    load(n.group_start, "ncclGroupStart");
    load(n.group_end, "ncclGroupEnd");
    load(n.all_reduce, "ncclAllReduce");
    load(n.broadcast, "ncclBroadcast");
    load(n.all_gather, "ncclAllGather");
    load(n.reduce_scatter, "ncclReduceScatter");
    load(n.send, "ncclSend");
    load(n.recv, "ncclRecv");
    load(n.error_string, "ncclGetErrorString");
    return n;
  }();
  return lib;
}

void check(ncclResult_t r, const char* what) {
  if (r != ncclSuccess) throw Error(std::string(what) + " failed: " + nccl().error_string(r));
}

struct Comms {
  std::vector<ncclComm_t> ranks;
};

// tile::Reduction's values, in order, and CollectiveKind's.
constexpr ncclRedOp_t kOps[] = {ncclSum, ncclProd, ncclMin, ncclMax};
enum Kind { AllReduce, AllGather, ReduceScatter, Broadcast };

}  // namespace

void* gpu_comm_init(const std::vector<const Device*>& devices) {
  std::vector<int> ordinals;
  for (const Device* d : devices) ordinals.push_back(d->ordinal());
  auto comms = std::make_unique<Comms>();
  comms->ranks.resize(devices.size());
  check(nccl().comm_init_all(comms->ranks.data(), static_cast<int>(ordinals.size()), ordinals.data()),
        "ncclCommInitAll");
  return comms.release();
}

std::string gpu_comm_unique_id() {
  ncclUniqueId id;
  check(nccl().get_unique_id(&id), "ncclGetUniqueId");
  static const char digits[] = "0123456789abcdef";
  std::string text;
  for (char c : id.internal) {
    const auto b = static_cast<unsigned char>(c);
    text += digits[b >> 4];
    text += digits[b & 15];
  }
  return text;
}

void* gpu_comm_join(const std::string& text, int rank, int size, const Device& device) {
  ncclUniqueId id;
  if (text.size() != 2 * sizeof(id.internal))
    throw Error("tile::Communicator::join: the id is not one Communicator::unique_id made on a GPU (" +
                std::to_string(text.size()) + " characters, not " + std::to_string(2 * sizeof(id.internal)) + ")");
  auto digit = [&](char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    throw Error("tile::Communicator::join: the id holds a character that is not a hex digit");
  };
  for (std::size_t i = 0; i < sizeof(id.internal); ++i)
    id.internal[i] = static_cast<char>(digit(text[2 * i]) << 4 | digit(text[2 * i + 1]));
  auto comms = std::make_unique<Comms>();
  comms->ranks.resize(1);
  if (cudaSetDevice(device.ordinal()) != cudaSuccess)
    throw Error("tile::Communicator::join: cannot use " + device.name());
  check(nccl().comm_init_rank(&comms->ranks[0], size, id, rank), "ncclCommInitRank");
  return comms.release();
}

void gpu_comm_destroy(void* comm) noexcept {
  std::unique_ptr<Comms> comms(static_cast<Comms*>(comm));
  for (ncclComm_t c : comms->ranks) nccl().comm_destroy(c);
}

namespace {

/// Runs `issue` between ncclGroupStart and ncclGroupEnd; `issue(keep)` passes each NCCL call's
/// result to `keep`, and the first failure is reported as `what` once the group is closed.
template <class Issue>
void in_group(const char* what, Issue issue) {
  check(nccl().group_start(), "ncclGroupStart");
  ncclResult_t first = ncclSuccess;
  issue([&first](ncclResult_t e) {
    if (first == ncclSuccess) first = e;
  });
  const ncclResult_t end = nccl().group_end();
  check(first, what);
  check(end, "ncclGroupEnd");
}

}  // namespace

void gpu_collective(void* comm, int kind, int op, int dtype, int root, std::size_t count,
                    const std::vector<const void*>& send, const std::vector<void*>& recv,
                    const std::vector<void*>& streams) {
  const auto& ranks = static_cast<Comms*>(comm)->ranks;
  const auto type = static_cast<ncclDataType_t>(dtype);
  in_group("an NCCL collective", [&](auto keep) {
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      auto stream = static_cast<cudaStream_t>(streams[r]);
      switch (kind) {
        case AllReduce:
          keep(nccl().all_reduce(send[r], recv[r], count, type, kOps[op], ranks[r], stream));
          break;
        case Broadcast:
          keep(nccl().broadcast(send[r], recv[r], count, type, root, ranks[r], stream));
          break;
        case AllGather:
          keep(nccl().all_gather(send[r], recv[r], count, type, ranks[r], stream));
          break;
        case ReduceScatter:
          keep(nccl().reduce_scatter(send[r], recv[r], count, type, kOps[op], ranks[r], stream));
          break;
      }
    }
  });
}

void gpu_send_recv(void* comm, int dtype, std::size_t count, const std::vector<const void*>& send,
                   const std::vector<void*>& recv, const std::vector<int>& from, int first_rank,
                   const std::vector<void*>& streams) {
  const auto& ranks = static_cast<Comms*>(comm)->ranks;
  const auto type = static_cast<ncclDataType_t>(dtype);
  // This process's ranks are first_rank .. first_rank + ranks.size() - 1; `from` names all.
  const int local = static_cast<int>(ranks.size());
  auto mine = [&](int rank) { return rank >= first_rank && rank < first_rank + local; };
  in_group("an NCCL send or receive", [&](auto keep) {
    for (int r = 0; r < static_cast<int>(from.size()); ++r) {
      const int s = from[static_cast<std::size_t>(r)];
      if (s < 0) continue;
      if (mine(s)) {
        const auto i = static_cast<std::size_t>(s - first_rank);
        keep(nccl().send(send[i], count, type, r, ranks[i], static_cast<cudaStream_t>(streams[i])));
      }
      if (mine(r)) {
        const auto i = static_cast<std::size_t>(r - first_rank);
        keep(nccl().recv(recv[i], count, type, s, ranks[i], static_cast<cudaStream_t>(streams[i])));
      }
    }
  });
}

}  // namespace tile::detail
