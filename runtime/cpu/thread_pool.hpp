// runtime/cpu/thread_pool.hpp - the CPU backend's pool of worker threads.
//
// One process-wide pool (TILE_NUM_THREADS threads, default: the hardware concurrency) runs a
// parallel-for over tile-program ids. The calling thread works too. A parallel-for issued from
// inside a program (or while another one runs) runs serially on the calling thread.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "tile/detail/runtime.hpp"

namespace tile::cpu {

class ThreadPool {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Threads that run programs, the caller included.
  int size() const { return static_cast<int>(workers_.size()) + 1; }

  /// Runs fn(ctx, i) for every i in [0, n); rethrows the first exception thrown.
  void parallel_for(int64_t n, detail::ProgramFn fn, void* ctx);

  /// The process-wide pool.
  static ThreadPool& instance();

 private:
  void worker_loop();
  void run_chunks();

  std::vector<std::thread> workers_;
  std::mutex job_mutex_;  // one parallel_for at a time
  std::mutex m_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  uint64_t generation_ = 0;
  bool stop_ = false;
  int busy_ = 0;

  // The current job.
  detail::ProgramFn fn_ = nullptr;
  void* ctx_ = nullptr;
  int64_t n_ = 0;
  int64_t chunk_ = 1;
  std::atomic<int64_t> next_{0};
  std::atomic<bool> failed_{false};
  std::exception_ptr error_;
};

}  // namespace tile::cpu
