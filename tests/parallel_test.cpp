#include "salta/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <new>
#include <thread>
#include <vector>

namespace salta {
namespace {

TEST(ThreadPool, CoversEveryItemOnce) {
  for (int threads : {1, 2, 5}) {
    absl::StatusOr<std::unique_ptr<ThreadPool>> pool = ThreadPool::Make(threads);
    ASSERT_TRUE(pool.ok()) << pool.status();
    EXPECT_EQ((*pool)->threads(), threads);
    for (uint64_t grain : {1, 7, 1000}) {
      std::vector<std::atomic<int>> seen(10007);
      std::atomic<int> max_worker{0};
      (*pool)->Run(3, seen.size(), grain, [&](uint64_t lo, uint64_t hi, int worker) {
        EXPECT_LE(hi - lo, grain);
        int m = max_worker.load();
        while (worker > m && !max_worker.compare_exchange_weak(m, worker)) {
        }
        for (uint64_t i = lo; i < hi; ++i) seen[i]++;
      });
      for (size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i].load(), i >= 3 ? 1 : 0) << i;
      EXPECT_LT(max_worker.load(), threads);
    }
  }
}

TEST(ThreadPool, RunsManyJobsAndEmptyRanges) {
  absl::StatusOr<std::unique_ptr<ThreadPool>> pool = ThreadPool::Make(3);
  ASSERT_TRUE(pool.ok());
  std::atomic<uint64_t> sum{0};
  for (int job = 0; job < 200; ++job)
    (*pool)->Run(0, job, 3, [&](uint64_t lo, uint64_t hi, int) {
      for (uint64_t i = lo; i < hi; ++i) sum += i;
    });
  uint64_t expected = 0;
  for (int job = 0; job < 200; ++job) expected += uint64_t(job) * (job - 1) / 2;
  EXPECT_EQ(sum.load(), expected);
}

// Memory running out on a worker's thread (std::bad_alloc deep in RocksDB,
// verifying a table) ended the process; it now reaches the caller, as with
// one thread, and the pool goes on working.
TEST(ThreadPool, AnExceptionOnAWorkerReachesTheCaller) {
  absl::StatusOr<std::unique_ptr<ThreadPool>> pool = ThreadPool::Make(3);
  ASSERT_TRUE(pool.ok());
  for (int throwing : {0, 1, 2}) {
    std::atomic<int> chunks{0};
    std::atomic<bool> thrown{false};
    EXPECT_THROW((*pool)->Run(0, 100000, 1,
                              [&](uint64_t, uint64_t, int worker) {
                                ++chunks;
                                if (worker == throwing) {
                                  thrown = true;
                                  throw std::bad_alloc();
                                }
                                // The others wait in their chunk, so that the
                                // throwing worker gets one (5 s at most).
                                for (int k = 0; k < 5000 && !thrown; ++k)
                                  std::this_thread::sleep_for(std::chrono::milliseconds(1));
                                std::this_thread::sleep_for(std::chrono::microseconds(50));
                              }),
                 std::bad_alloc)
        << throwing;
    EXPECT_TRUE(thrown.load());
    // All of them take over 2 s a worker; the exception's unwinding, which
    // others' chunks may overlap, a few milliseconds.
    EXPECT_LT(chunks.load(), 10000) << "chunks went on being handed out; throwing " << throwing;
    std::atomic<uint64_t> sum{0};
    (*pool)->Run(0, 1000, 7, [&](uint64_t lo, uint64_t hi, int) {
      for (uint64_t i = lo; i < hi; ++i) sum += i;
    });
    EXPECT_EQ(sum.load(), 999u * 1000 / 2);
  }
}

TEST(ThreadPool, RefusesBadCounts) {
  EXPECT_FALSE(ThreadPool::Make(-1).ok());
  EXPECT_FALSE(ThreadPool::Make(ThreadPool::kMaxThreads + 1).ok());
  absl::StatusOr<std::unique_ptr<ThreadPool>> every = ThreadPool::Make(0);
  ASSERT_TRUE(every.ok());
  EXPECT_EQ((*every)->threads(), ThreadPool::Cores());
}

}  // namespace
}  // namespace salta
