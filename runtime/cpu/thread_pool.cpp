// runtime/cpu/thread_pool.cpp - see thread_pool.hpp.
#include "cpu/thread_pool.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>

#include "tile/error.hpp"

namespace tile::cpu {
namespace {

thread_local bool in_program = false;

int configured_threads() {
  if (const char* env = std::getenv("TILE_NUM_THREADS"); env && *env) {
    char* end = nullptr;
    const long v = std::strtol(env, &end, 10);
    if (*end != '\0' || v < 1 || v > 4096)
      throw Error(std::string("TILE_NUM_THREADS: expected a number of threads from 1 to 4096, got '") + env +
                  "'");
    return static_cast<int>(v);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

/// Marks the current thread as running tile programs (nested parallel-fors run serially).
struct InProgram {
  bool previous = std::exchange(in_program, true);
  ~InProgram() { in_program = previous; }
};

}  // namespace

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  work_cv_.notify_all();
  for (auto& t : workers_) t.join();
}

ThreadPool& ThreadPool::instance() {
  static ThreadPool pool(configured_threads());
  return pool;
}

void ThreadPool::worker_loop() {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(m_);
      work_cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    run_chunks();
    {
      std::lock_guard<std::mutex> lock(m_);
      --busy_;
    }
    done_cv_.notify_one();
  }
}

void ThreadPool::run_chunks() {
  InProgram guard;
  while (!failed_.load(std::memory_order_relaxed)) {
    const int64_t begin = next_.fetch_add(chunk_, std::memory_order_relaxed);
    if (begin >= n_) return;
    const int64_t end = std::min(n_, begin + chunk_);
    try {
      for (int64_t i = begin; i < end; ++i) fn_(ctx_, i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(m_);
      if (!error_) error_ = std::current_exception();
      failed_.store(true, std::memory_order_relaxed);
      return;
    }
  }
}

void ThreadPool::parallel_for(int64_t n, detail::ProgramFn fn, void* ctx) {
  if (n <= 0) return;
  if (n == 1 || workers_.empty() || in_program) {
    InProgram guard;
    for (int64_t i = 0; i < n; ++i) fn(ctx, i);
    return;
  }
  std::lock_guard<std::mutex> job(job_mutex_);
  {
    std::lock_guard<std::mutex> lock(m_);
    fn_ = fn;
    ctx_ = ctx;
    n_ = n;
    chunk_ = std::max<int64_t>(1, n / (static_cast<int64_t>(size()) * 8));
    next_.store(0, std::memory_order_relaxed);
    failed_.store(false, std::memory_order_relaxed);
    error_ = nullptr;
    busy_ = static_cast<int>(workers_.size());
    ++generation_;
  }
  work_cv_.notify_all();
  run_chunks();
  std::exception_ptr error;
  {
    std::unique_lock<std::mutex> lock(m_);
    done_cv_.wait(lock, [&] { return busy_ == 0; });
    error = std::exchange(error_, nullptr);
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace tile::cpu

namespace tile::detail {

void cpu_parallel_for(int64_t n, ProgramFn fn, void* ctx) {
  cpu::ThreadPool::instance().parallel_for(n, fn, ctx);
}

int cpu_num_threads() { return cpu::ThreadPool::instance().size(); }

}  // namespace tile::detail
