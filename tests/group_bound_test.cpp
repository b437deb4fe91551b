// The solver's bounds from groups counted alone (libsalta/src/finish/
// group_bound.h): the partitions into longer runs by target.
#include "finish/group_bound.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "salta/finish.h"
#include "salta/game.h"
#include "salta/notation.h"

namespace salta::finish_internal {
namespace {

// Far position 61 (data/finish-bench-far.txt): White after random pre1900
// play to the move limit. Four pieces whose targets are neighbours (c9,
// d8, e9, f8) but in no one run of the databases' (d10 lies between) need
// two moves beyond their distances; the runs of five by target see it.
TEST(GroupBound, LongerRunsBoundTheCountWhereTheDatabasesDoNot) {
  absl::StatusOr<const Variant*> v = MakeVariant("pre1900", {"move-limit=120"}, 10, 3);
  ASSERT_TRUE(v.ok()) << v.status();
  absl::StatusOr<Position> pos = ParsePosition(
      **v,
      "w S1a5,S2f10,S3b4,S4i7,S5g3,M1g9,M2a7,M3c5,M4e7,M5h8,U1e5,U2d8,U3b10,U4d10,U5i9,s1d6,"
      "s2e3,s3d4,s4f2,s5b2,m1g7,m2j6,m3c1,m4c3,m5d2,u1i3,u2i1,u3j4,u4a1,u5e1 240 #");
  ASSERT_TRUE(pos.ok()) << pos.status();
  const Problem p = MakeProblem(*pos, Side::kWhite);
  // The three-piece databases' partitions (quick to build, also under the
  // sanitizers) and their bound.
  absl::StatusOr<std::vector<Partition>> partitions =
      ResolvePartitions(p, PartitionsByTarget(p, 3, {0, 1, 2}), PatternSource{}, Find::kBuild);
  ASSERT_TRUE(partitions.ok()) << partitions.status();
  Heuristic h;
  h.SetPartitions(*partitions, p.k);
  h.Set(p.start);
  const Policy policy;
  GroupBound groups(p, *partitions, policy);
  uint64_t nodes = 0;
  const int runs = groups.LongerRuns(0, kInf, SearchLimits{}, nodes);
  EXPECT_GT(nodes, 0u);
  // The count, exact, by the whole solver.
  FinishOptions options;
  options.pattern_group_size = 3;
  absl::StatusOr<FinishResult> count = MinMovesToFinish(*pos, Side::kWhite, options);
  ASSERT_TRUE(count.ok()) << count.status();
  ASSERT_TRUE(count->exact);
  EXPECT_LT(h.value(), count->moves());
  EXPECT_EQ(runs, count->moves());
  // Stopped at a target, it goes no further than needed.
  uint64_t few = 0;
  GroupBound again(p, *partitions, policy);
  EXPECT_GE(again.LongerRuns(h.value(), h.value(), SearchLimits{}, few), h.value());
  EXPECT_EQ(few, 0u);
}

}  // namespace
}  // namespace salta::finish_internal
