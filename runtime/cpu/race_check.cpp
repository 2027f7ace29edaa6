// runtime/cpu/race_check.cpp - TILE_CPU_RACECHECK: which tile program wrote each element.
//
// The log is a hash map from element address to the program that wrote it, split into shards
// with a mutex each so that workers rarely contend. The first element written by two different
// programs is kept; the launcher reports it after the launch (launch.hpp).
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "tile/detail/runtime.hpp"
#include "tile/tensor.hpp"

namespace tile::detail {

struct RaceLog {
  static constexpr std::size_t kShards = 64;
  struct Shard {
    std::mutex mutex;
    std::unordered_map<std::uintptr_t, int64_t> writer;
  };
  std::array<Shard, kShards> shards;
  std::mutex conflict_mutex;
  RaceConflict conflict;
};

bool racecheck_enabled() {
  const char* v = std::getenv("TILE_CPU_RACECHECK");
  return v && *v && std::strcmp(v, "0") != 0;
}

RaceLog* race_log_create() { return new RaceLog; }

void race_log_destroy(RaceLog* log) noexcept { delete log; }

void race_log_record(RaceLog* log, const void* element, int64_t program) noexcept {
  const auto key = reinterpret_cast<std::uintptr_t>(element);
  RaceLog::Shard& shard = log->shards[(key / 4 * 0x9E3779B97F4A7C15ull >> 58) % RaceLog::kShards];
  int64_t other = -1;
  {
    std::lock_guard<std::mutex> lock(shard.mutex);
    auto [it, inserted] = shard.writer.try_emplace(key, program);
    if (inserted || it->second == program) return;
    other = it->second;
  }
  std::lock_guard<std::mutex> lock(log->conflict_mutex);
  if (!log->conflict.element) log->conflict = RaceConflict{element, other, program};
}

RaceConflict race_log_conflict(const RaceLog* log) { return log->conflict; }

}  // namespace tile::detail
