#include "salta/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
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

TEST(ThreadPool, RefusesBadCounts) {
  EXPECT_FALSE(ThreadPool::Make(-1).ok());
  EXPECT_FALSE(ThreadPool::Make(ThreadPool::kMaxThreads + 1).ok());
  absl::StatusOr<std::unique_ptr<ThreadPool>> every = ThreadPool::Make(0);
  ASSERT_TRUE(every.ok());
  EXPECT_EQ((*every)->threads(), ThreadPool::Cores());
}

}  // namespace
}  // namespace salta
