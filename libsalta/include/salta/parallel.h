// The one parallel primitive of the library: a range of work [begin, end)
// cut into chunks that a pool of threads takes in turn. Perft, the endgame
// table build and batch validation all run on it.
//
// Chunks are handed out dynamically (an atomic counter), so uneven chunks
// balance themselves; each call gets the worker's number, 0 .. threads-1,
// so that callers can keep per-worker state without sharing cache lines.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"

namespace salta {

class ThreadPool {
 public:
  // The most threads a pool takes; every tool's --threads shares it.
  static constexpr int kMaxThreads = 1024;

  // threads: 0 uses every core. An error above kMaxThreads or below 0, or
  // when a thread cannot be started.
  static absl::StatusOr<std::unique_ptr<ThreadPool>> Make(int threads);
  // Whether `threads` is a thread count Make takes (0 to kMaxThreads): the
  // check every option of threads shares.
  static absl::Status CheckThreads(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const { return int(workers_.size()) + 1; }

  using RangeFn = std::function<void(uint64_t lo, uint64_t hi, int worker)>;
  // Calls fn on consecutive chunks of at most `grain` items covering
  // [begin, end), from every worker and the calling thread (worker 0), and
  // returns when all are done. Not reentrant: fn must not call Run. An
  // exception fn throws on any thread (std::bad_alloc) stops the handing
  // out of chunks and is thrown again here, on the calling thread, once
  // every worker is done, as it would be with one thread.
  void Run(uint64_t begin, uint64_t end, uint64_t grain, const RangeFn& fn);

  // The number of cores of this machine, at least 1.
  static int Cores();

 private:
  explicit ThreadPool(int threads);
  void Work(int worker);
  void Chunks(int worker);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  // The job in progress, published under mutex_.
  const RangeFn* fn_ = nullptr;
  uint64_t begin_ = 0, end_ = 0, grain_ = 1;
  uint64_t generation_ = 0;
  int busy_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;  // the first a chunk threw, for Run
  alignas(64) std::atomic<uint64_t> next_{0};
};

}  // namespace salta
