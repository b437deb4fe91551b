#include "salta/parallel.h"

#include <algorithm>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"

namespace salta {

int ThreadPool::Cores() {
  return std::max(1, int(std::thread::hardware_concurrency()));
}

absl::Status ThreadPool::CheckThreads(int threads) {
  if (threads < 0 || threads > kMaxThreads)
    return absl::InvalidArgumentError(absl::StrCat(
        "thread count ", threads, " is out of range: use 0 (every core) to ", kMaxThreads));
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<ThreadPool>> ThreadPool::Make(int threads) {
  if (absl::Status s = CheckThreads(threads); !s.ok()) return s;
  if (threads == 0) threads = Cores();
  std::unique_ptr<ThreadPool> pool(new ThreadPool(threads));
  if (pool->threads() != threads)
    return absl::ResourceExhaustedError(
        absl::StrCat("could start only ", pool->threads(), " of ", threads, " threads"));
  return pool;
}

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < threads; ++i) {
    try {
      workers_.emplace_back([this, i] { Work(i); });
    } catch (const std::system_error&) {
      break;  // Make reports the shortfall
    }
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::Chunks(int worker) {
  try {
    for (;;) {
      const uint64_t lo = next_.fetch_add(grain_, std::memory_order_relaxed);
      if (lo >= end_) return;
      (*fn_)(lo, std::min(end_, lo + grain_), worker);
    }
  } catch (...) {
    // Thrown on a worker's own thread it would end the process (a
    // std::bad_alloc deep in RocksDB): kept for Run, and no chunk is
    // handed out any more.
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = std::current_exception();
    next_.store(end_, std::memory_order_relaxed);
  }
}

void ThreadPool::Work(int worker) {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    Chunks(worker);
    std::lock_guard<std::mutex> lock(mutex_);
    if (--busy_ == 0) done_.notify_all();
  }
}

void ThreadPool::Run(uint64_t begin, uint64_t end, uint64_t grain, const RangeFn& fn) {
  if (begin >= end) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    fn_ = &fn;
    begin_ = begin;
    end_ = end;
    grain_ = std::max<uint64_t>(grain, 1);
    next_.store(begin, std::memory_order_relaxed);
    busy_ = int(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  Chunks(0);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return busy_ == 0; });
  fn_ = nullptr;
  if (std::exception_ptr error = std::exchange(error_, nullptr)) {
    lock.unlock();
    std::rethrow_exception(error);
  }
}

}  // namespace salta
