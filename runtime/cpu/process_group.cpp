// runtime/cpu/process_group.cpp - ranks of one communicator in several processes, on the CPU
// backend (tile/collective.hpp: Communicator::join).
//
// The processes share a rendezvous directory (the communicator's id). Collective k is an
// all-to-all exchange through it: rank r writes its contribution to `k.r` (a temporary name,
// then renamed, so a file that exists is complete), waits for every rank's file, reads them
// all, then writes `k.r.done` and waits for every rank's done mark before returning, so that
// no rank runs ahead of a slower one's reads. At exchange k a rank removes its own files of
// exchange k - 2, which every rank has read by then (each has passed k - 1's done marks); the
// last exchange's files stay for whoever removes the directory (the launcher).
// Waits poll and give up with a tile::Error after TILE_RENDEZVOUS_TIMEOUT seconds (default 120).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "tile/detail/runtime.hpp"
#include "tile/error.hpp"

namespace tile::detail {
namespace {

namespace fs = std::filesystem;

struct ProcessGroup {
  fs::path dir;
  int rank = 0, size = 1;
  long long next = 0;  // the number of the next exchange

  std::string who() const { return "rank " + std::to_string(rank) + " of " + std::to_string(size); }
};

std::string name(long long k, int r, const char* suffix = "") {
  return std::to_string(k) + "." + std::to_string(r) + suffix;
}

double timeout_seconds() {
  const char* env = std::getenv("TILE_RENDEZVOUS_TIMEOUT");
  return env && std::atof(env) > 0 ? std::atof(env) : 120.0;
}

/// Removes this rank's files of exchange k, which every rank has read once it has passed the
/// done marks of exchange k + 1.
void remove_own(const ProcessGroup& g, long long k) {
  if (k < 0) return;
  std::error_code ec;
  fs::remove(g.dir / name(k, g.rank), ec);
  fs::remove(g.dir / name(k, g.rank, ".done"), ec);
}

/// Waits until `path` exists; throws once the timeout has passed, naming `who` waited.
void wait_for(const fs::path& path, const std::string& who) {
  const auto limit = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds());
  std::error_code ec;
  while (!fs::exists(path, ec)) {
    if (std::chrono::steady_clock::now() > limit)
      throw Error("tile::Communicator (" + who + "): no process wrote " + path.string() +
                  " in time; every rank must join and issue the same collectives in the same order");
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

/// Writes `bytes` at `path` so that it appears complete or not at all.
void write_file(const fs::path& path, const void* data, std::size_t bytes) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    if (!out) throw Error("tile::Communicator: cannot write " + tmp.string());
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) throw Error("tile::Communicator: cannot write " + path.string() + ": " + ec.message());
}

}  // namespace

void* cpu_process_group_join(const std::string& dir, int rank, int size) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw Error("tile::Communicator::join: the id " + dir +
                " is not a rendezvous directory; on the CPU backend the id is a directory every process "
                "can reach (Communicator::unique_id, or the launcher's TILE_RENDEZVOUS)");
  auto* g = new ProcessGroup;
  g->dir = dir;
  g->rank = rank;
  g->size = size;
  return g;
}

void cpu_process_group_leave(void* group) noexcept {
  auto* g = static_cast<ProcessGroup*>(group);
  // The last exchange's files stay: a slower rank may still wait for this one's done mark.
  remove_own(*g, g->next - 2);
  delete g;
}

std::vector<std::vector<char>> cpu_process_group_exchange(void* group, const void* mine, std::size_t bytes) {
  auto& g = *static_cast<ProcessGroup*>(group);
  const long long k = g.next++;
  remove_own(g, k - 2);
  write_file(g.dir / name(k, g.rank), mine, bytes);
  std::vector<std::vector<char>> all(static_cast<std::size_t>(g.size));
  for (int r = 0; r < g.size; ++r) {
    const fs::path path = g.dir / name(k, r);
    wait_for(path, g.who());
    std::ifstream in(path, std::ios::binary);
    all[static_cast<std::size_t>(r)].assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (all[static_cast<std::size_t>(r)].size() != bytes)
      throw Error("tile::Communicator: rank " + std::to_string(r) + " gave " +
                  std::to_string(all[static_cast<std::size_t>(r)].size()) + " bytes to collective " +
                  std::to_string(k) + " where rank " + std::to_string(g.rank) + " gave " + std::to_string(bytes) +
                  "; every rank must issue the same collectives, with arrays of the same size, in the same order");
  }
  const char done = 1;
  write_file(g.dir / name(k, g.rank, ".done"), &done, 1);
  for (int r = 0; r < g.size; ++r) wait_for(g.dir / name(k, r, ".done"), g.who());
  return all;
}

std::string process_group_share(const std::string& dir, const char* name, const std::string* text) {
  const fs::path path = fs::path(dir) / name;
  if (text) {
    write_file(path, text->data(), text->size());
    return *text;
  }
  wait_for(path, std::string("waiting for ") + name);
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string cpu_process_group_unique_id() {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string templ = (base / "tile-rendezvous-XXXXXX").string();
  if (!mkdtemp(templ.data())) throw Error("tile::Communicator::unique_id: cannot make a rendezvous directory");
  return templ;
}

}  // namespace tile::detail
