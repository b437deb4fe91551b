// The table of proven bounds (libsalta/src/finish/bound_table.h): what it
// returns is a bound stored for that very node or nothing, however full;
// it grows with its load up to its most, not beyond.
#include "finish/bound_table.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

namespace salta::finish_internal {
namespace {

Key NthKey(uint64_t n) {
  return Key{n * 0x9E3779B97F4A7C15ull + 1, n & 0xFFFFFFFFFFFFull};
}
int NthBound(uint64_t n) {
  return 1 + int(n % 200);
}

// How many of the first n nodes' bounds the table still has; any it has
// must be the node's own.
uint64_t Kept(const BoundTable& table, uint64_t n) {
  uint64_t kept = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const int b = table.Probe(NthKey(i));
    if (b == 0) continue;
    ++kept;
    EXPECT_EQ(b, NthBound(i)) << i;
  }
  return kept;
}

TEST(BoundTable, KeepsTheLargestBoundOfANode) {
  BoundTable table(size_t(1) << 16);
  EXPECT_EQ(table.Probe(NthKey(7)), 0);
  table.Store(NthKey(7), 12, true);
  table.Store(NthKey(7), 10, true);  // a weaker bound proven later keeps the stronger
  EXPECT_EQ(table.Probe(NthKey(7)), 12);
  table.Store(NthKey(7), 14, true);
  EXPECT_EQ(table.Probe(NthKey(7)), 14);
  table.Store(NthKey(8), kInf, true);
  EXPECT_EQ(table.Probe(NthKey(8)), kInf);
  // Keys that differ only in a node's history are other nodes.
  EXPECT_EQ(table.Probe(NodeKey(NthKey(7), 3, 40)), 0);
  table.Clear();
  EXPECT_EQ(table.Probe(NthKey(7)), 0);
}

TEST(BoundTable, AFullTableForgetsButNeverLies) {
  const size_t most = 1024;
  BoundTable table(most);
  const uint64_t n = 100000;
  for (uint64_t i = 0; i < n; ++i) table.Store(NthKey(i), NthBound(i), true);
  EXPECT_EQ(table.capacity(), most);
  const uint64_t kept = Kept(table, n);
  EXPECT_GT(kept, most / 2);
  EXPECT_LE(kept, most);
}

// A full table gives up a leaf's bound (a node whose search went no lower:
// one expansion to search again) before an inner node's, whatever their
// bounds: in a table too small, the leaves would otherwise crowd out the
// inner nodes (far position 62 of seed 3 in 64 MiB: 65.7 M nodes, 34.7 M
// with leaves first out).
TEST(BoundTable, LeavesGiveWayFirst) {
  BoundTable table(1024);
  const uint64_t n = 100000;
  for (uint64_t i = 0; i < n; ++i) table.Store(NthKey(i), i % 2 ? 100 : 5, /*inner=*/i % 2 == 0);
  uint64_t kept[2] = {};
  for (uint64_t i = 0; i < n; ++i)
    if (const int b = table.Probe(NthKey(i)); b != 0) {
      EXPECT_EQ(b, i % 2 ? 100 : 5);
      ++kept[i % 2];
    }
  EXPECT_GT(kept[0], 4 * kept[1]) << "inner " << kept[0] << ", leaves " << kept[1];
}

// Grown by the load, not by a full window: 10,000 nodes take 32,768 entries
// (half full at most), not the table's most.
TEST(BoundTable, GrowsWithItsLoadOnly) {
  BoundTable table(size_t(1) << 24);
  const uint64_t n = 10000;
  for (uint64_t i = 0; i < n; ++i) table.Store(NthKey(i), NthBound(i), true);
  EXPECT_EQ(table.capacity(), size_t(1) << 15);
  uint64_t kept = 0;
  for (uint64_t i = 0; i < n; ++i) kept += table.Probe(NthKey(i)) == NthBound(i);
  EXPECT_GT(kept, n * 99 / 100);
}

// Growth under way at the search's deadline is abandoned (moving hundreds
// of MiB took seconds past a time limit): the table keeps its size and its
// entries, and grows no more.
TEST(BoundTable, GrowthStopsAtTheDeadline) {
  BoundTable table(size_t(1) << 20);
  uint64_t n = 0;
  for (; table.capacity() < (size_t(1) << 17); ++n) table.Store(NthKey(n), NthBound(n), true);
  const size_t size = table.capacity();
  table.set_limits(SearchLimits{.deadline = Clock::now() - std::chrono::seconds(1)});
  const uint64_t before = n;
  for (; n < before + size; ++n) table.Store(NthKey(n), NthBound(n), true);
  EXPECT_EQ(table.capacity(), size);
  const uint64_t kept = Kept(table, n);
  EXPECT_GT(kept, size * 3 / 4);
  // Without a deadline, the same stores grow it.
  BoundTable free_table(size_t(1) << 20);
  for (uint64_t i = 0; i < n; ++i) free_table.Store(NthKey(i), NthBound(i), true);
  EXPECT_GT(free_table.capacity(), size);
}

// The same where the search is stopped from another thread (the count the
// other way proved the count): no deadline, its stop raised.
TEST(BoundTable, GrowthStopsWhenTheSearchIsStopped) {
  BoundTable table(size_t(1) << 20);
  uint64_t n = 0;
  for (; table.capacity() < (size_t(1) << 17); ++n) table.Store(NthKey(n), NthBound(n), true);
  const size_t size = table.capacity();
  std::atomic<bool> stop{false};
  table.set_limits(SearchLimits{.stop = &stop});
  stop = true;
  for (const uint64_t before = n; n < before + size; ++n) table.Store(NthKey(n), NthBound(n), true);
  EXPECT_EQ(table.capacity(), size);
  EXPECT_GT(Kept(table, n), size * 3 / 4);
}

// A table allowed more (a set's search run on with more nodes) grows on
// with its load, up to the new most; one whose growth stopped at the
// deadline stays as it is.
TEST(BoundTable, AllowedMoreItGrowsOn) {
  BoundTable table(size_t(1) << 12);
  uint64_t n = 0;
  for (; n < 20000; ++n) table.Store(NthKey(n), NthBound(n), true);
  EXPECT_EQ(table.capacity(), size_t(1) << 12);
  table.AllowUpTo(size_t(1) << 16);
  for (; n < 40000; ++n) table.Store(NthKey(n), NthBound(n), true);
  EXPECT_EQ(table.capacity(), size_t(1) << 16);
  EXPECT_GT(Kept(table, n), uint64_t(20000));
  table.AllowUpTo(size_t(1) << 10);  // never smaller
  EXPECT_EQ(table.capacity(), size_t(1) << 16);

  BoundTable stopped(size_t(1) << 20);
  uint64_t m = 0;
  // (Growth looks at the deadline every 65,536 entries moved.)
  for (; stopped.capacity() < (size_t(1) << 17); ++m) stopped.Store(NthKey(m), NthBound(m), true);
  const size_t size = stopped.capacity();
  stopped.set_limits(SearchLimits{.deadline = Clock::now() - std::chrono::seconds(1)});
  for (const uint64_t before = m; m < before + size; ++m)
    stopped.Store(NthKey(m), NthBound(m), true);
  ASSERT_EQ(stopped.capacity(), size);
  stopped.set_limits(SearchLimits{});
  stopped.AllowUpTo(size_t(1) << 22);
  for (const uint64_t before = m; m < before + size; ++m)
    stopped.Store(NthKey(m), NthBound(m), true);
  EXPECT_EQ(stopped.capacity(), size);
}

TEST(BoundTable, EntriesInMegabytes) {
  EXPECT_EQ(BoundTable::EntriesIn(1), size_t(1) << 16);  // 16 bytes an entry
  EXPECT_EQ(BoundTable::EntriesIn(3), size_t(1) << 17);
  EXPECT_EQ(BoundTable::EntriesIn(512), size_t(1) << 25);
}

}  // namespace
}  // namespace salta::finish_internal
