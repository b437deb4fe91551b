// The solver's bounds from groups counted alone (libsalta/src/finish/
// group_bound.h): the partitions into longer runs by target, the tangle in
// the goal.
#include "finish/group_bound.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "salta/finish.h"
#include "salta/game.h"
#include "salta/notation.h"

namespace salta::finish_internal {
namespace {

// A position of the far set (data/finish-bench-far.txt) as the solver's
// problem, with the three-piece databases' partitions (quick to build, also
// under the sanitizers).
struct FarCase {
  FarCase(const char* rules, Side side, const char* position) : side(side) {
    absl::StatusOr<const Variant*> v = MakeVariant(rules, {"move-limit=120"}, 10, 3);
    EXPECT_TRUE(v.ok()) << v.status();
    absl::StatusOr<Position> parsed = ParsePosition(**v, position);
    EXPECT_TRUE(parsed.ok()) << parsed.status();
    if (parsed.ok()) pos = *parsed;
    p = MakeProblem(pos, side);
    absl::StatusOr<std::vector<Partition>> made =
        ResolvePartitions(p, PartitionsByTarget(p, 3, {0, 1, 2}), PatternSource{}, Find::kBuild);
    EXPECT_TRUE(made.ok()) << made.status();
    if (made.ok()) partitions = *made;
  }
  Side side;
  Position pos = Position::Start(Variant::Default());
  Problem p;
  std::vector<Partition> partitions;
  const Policy policy;
};

// Far position 61: White after random pre1900 play to the move limit. Four
// pieces whose targets are neighbours (c9, d8, e9, f8) but in no one run of
// the databases' (d10 lies between) need two moves beyond their distances;
// the runs of five by target see it.
TEST(GroupBound, LongerRunsBoundTheCountWhereTheDatabasesDoNot) {
  const FarCase far(
      "pre1900", Side::kWhite,
      "w S1a5,S2f10,S3b4,S4i7,S5g3,M1g9,M2a7,M3c5,M4e7,M5h8,U1e5,U2d8,U3b10,U4d10,U5i9,s1d6,"
      "s2e3,s3d4,s4f2,s5b2,m1g7,m2j6,m3c1,m4c3,m5d2,u1i3,u2i1,u3j4,u4a1,u5e1 240 #");
  Heuristic h;
  h.SetPartitions(far.partitions, far.p);
  h.Set(far.p.start);
  GroupBound groups(far.p, far.partitions, far.policy);
  uint64_t nodes = 0;
  const int runs = groups.LongerRuns(0, kInf, SearchLimits{}, nodes);
  EXPECT_GT(nodes, 0u);
  // The count, exact, by the whole solver.
  FinishOptions options;
  options.pattern_group_size = 3;
  absl::StatusOr<FinishResult> count = MinMovesToFinish(far.pos, far.side, options);
  ASSERT_TRUE(count.ok()) << count.status();
  ASSERT_TRUE(count->exact);
  EXPECT_LT(h.value(), count->moves());
  EXPECT_EQ(runs, count->moves());
  // Stopped at a target, it goes no further than needed.
  uint64_t few = 0;
  GroupBound again(far.p, far.partitions, far.policy);
  EXPECT_GE(again.LongerRuns(h.value(), h.value(), SearchLimits{}, few), h.value());
  EXPECT_EQ(few, 0u);
}

// Far position 41 (Black, 52 moves): eleven pieces on targets need four
// moves beyond their distances, which the tangle in the goal proves where
// its first set's count is found.
// The way replays: each move from where its piece stands, to a free
// square, and every piece ends on its target.
void ExpectReplays(const Problem& p, const std::vector<PieceMove>& path) {
  Squares at = p.start;
  for (const PieceMove& m : path) {
    ASSERT_EQ(at[m.piece], m.from);
    for (int i = 0; i < p.k; ++i) EXPECT_NE(at[i], m.to) << "a move to a taken square";
    at[m.piece] = m.to;
  }
  for (int i = 0; i < p.k; ++i) EXPECT_EQ(at[i], p.target[i]);
}

FarCase Far41() {
  return FarCase(
      "standard", Side::kBlack,
      "w S1h6,S2g7,S3a7,S4c9,S5f8,M1b4,M2d6,M3b10,M4i7,M5h10,U1f6,U2d10,U3f10,U4e7,U5e9,s1j6,"
      "s2a5,s3c1,s4h4,s5e5,m1d4,m2g3,m3c3,m4a1,m5e1,u1i3,u2g1,u3f2,u4a3,u5h2 240 #");
}

// A count cut short goes on, at the next call, where it stopped: calls of
// 2,000 nodes each get there, in the nodes of one call given 10,000; were
// each to start over, none would.
TEST(GroupBound, ACountCutShortGoesOnWhereItStopped) {
  const FarCase far = Far41();
  GroupBound once(far.p, far.partitions, far.policy);
  uint64_t once_nodes = 0;
  ASSERT_EQ(once.Tangle(0, kInf, 10000, SearchLimits{}, once_nodes), 52);
  GroupBound in_steps(far.p, far.partitions, far.policy);
  uint64_t step_nodes = 0;
  int bound = in_steps.Tangle(0, kInf, 2000, SearchLimits{}, step_nodes);
  EXPECT_LT(bound, 52);  // cut short
  for (int call = 0; call < 10 && bound < 52; ++call)
    bound = in_steps.Tangle(0, kInf, 2000, SearchLimits{}, step_nodes);
  EXPECT_EQ(bound, 52);
  EXPECT_LE(step_nodes, once_nodes + once_nodes / 10);
}

// The tangle's search, cut short, goes on where it stopped even where
// other sets' searches were cut short in between (the merges of Improve at
// 100 nodes a group, as the remerges between the tangle's runs): the
// searches cut short are kept (Policy::kept_set_searches). Were only the
// latest kept, the tangle's would start over each time and not get there.
TEST(GroupBound, SearchesCutShortInBetweenLeaveTheTanglesToGoOn) {
  const FarCase far = Far41();
  GroupBound once(far.p, far.partitions, far.policy);
  uint64_t once_nodes = 0;
  ASSERT_EQ(once.Tangle(0, kInf, 10000, SearchLimits{}, once_nodes), 52);
  // The tangle's bound and nodes after calls of 2,000, with Improve's
  // merges between.
  struct Steps {
    int bound = 0;
    uint64_t tangle_nodes = 0, merge_nodes = 0;
  };
  auto in_steps = [&](const Policy& policy) {
    GroupBound groups(far.p, far.partitions, policy);
    Steps steps;
    for (int call = 0; call < 10 && steps.bound < 52; ++call) {
      steps.bound = groups.Tangle(0, kInf, 2000, SearchLimits{}, steps.tangle_nodes);
      if (steps.bound < 52) groups.Improve(100, 0, kInf, SearchLimits{}, steps.merge_nodes);
    }
    return steps;
  };
  const Steps kept = in_steps(far.policy);
  EXPECT_GT(kept.merge_nodes, 0u);
  EXPECT_EQ(kept.bound, 52);
  EXPECT_LE(kept.tangle_nodes, once_nodes + once_nodes / 10);
  Policy latest_only = far.policy;
  latest_only.kept_set_searches = 1;
  EXPECT_LT(in_steps(latest_only).bound, 52);
}

// With a way for all the pieces known (SetWay), a set's search ends where
// its bound meets that way's moves of the set, and with a target, where
// the set's count and the rest's bound meet it: the same bound, sooner.
TEST(GroupBound, AWayKnownOrATargetEndsTheSearchesSooner) {
  const FarCase far = Far41();
  FinishOptions options;
  options.pattern_group_size = 3;
  options.want_solution = true;
  absl::StatusOr<FinishResult> count = MinMovesToFinish(far.pos, far.side, options);
  ASSERT_TRUE(count.ok()) << count.status();
  ASSERT_TRUE(count->exact);
  ASSERT_EQ(count->moves(), 52);
  // The solution in the problem's terms: its pieces by where they stand.
  std::vector<PieceMove> way;
  Squares at = far.p.start;
  for (const Move& m : count->solution) {
    const Square from = far.p.Normal(m.from), to = far.p.Normal(m.to);  // (a half turn, undone)
    const int piece = int(std::find(at.begin(), at.begin() + far.p.k, from) - at.begin());
    ASSERT_LT(piece, far.p.k);
    way.push_back(PieceMove{int8_t(piece), int8_t(from), int8_t(to), m.jump});
    at[piece] = int8_t(to);
  }
  GroupBound plain(far.p, far.partitions, far.policy);
  uint64_t plain_nodes = 0;
  ASSERT_EQ(plain.Tangle(0, kInf, 100000, SearchLimits{}, plain_nodes), 52);
  GroupBound known(far.p, far.partitions, far.policy);
  known.SetWay(way);
  uint64_t known_nodes = 0;
  EXPECT_EQ(known.Tangle(0, kInf, 100000, SearchLimits{}, known_nodes), 52);
  EXPECT_LT(known_nodes, plain_nodes);
  // The tangle's way is then the solution's moves of its pieces.
  const std::vector<PieceMove>& tangle_way = known.tangle_way();
  ASSERT_FALSE(tangle_way.empty());
  uint32_t set = 0;
  for (const PieceMove& m : tangle_way) set |= 1u << m.piece;
  std::vector<PieceMove> of_set;
  for (const PieceMove& m : way)
    if (set >> m.piece & 1) of_set.push_back(m);
  EXPECT_EQ(tangle_way, of_set);
  GroupBound targeted(far.p, far.partitions, far.policy);
  uint64_t targeted_nodes = 0;
  EXPECT_EQ(targeted.Tangle(0, 52, 100000, SearchLimits{}, targeted_nodes), 52);
  EXPECT_LT(targeted_nodes, plain_nodes);
  // (It stopped where the bound was enough, short of the set's count: so
  // with no way of the set.)
  EXPECT_TRUE(targeted.tangle_way().empty());
}

// The groups whose counts make the best bound are a partition of the
// pieces, each count at least its pieces' distances; carried into IDA*
// (Ida::SetStartSplit), they bound every node below the start too: the
// same count, in fewer nodes than the databases alone take.
TEST(GroupBound, TheBestSplitCarriesTheBoundIntoTheSearch) {
  const FarCase far = Far41();
  GroupBound groups(far.p, far.partitions, far.policy);
  EXPECT_TRUE(groups.best_split().groups.empty());
  uint64_t nodes = 0;
  ASSERT_EQ(groups.Tangle(0, kInf, 100000, SearchLimits{}, nodes), 52);
  const StartSplit& split = groups.best_split();
  EXPECT_EQ(split.sum, 52);
  ASSERT_EQ(split.groups.size(), split.counts.size());
  uint32_t covered = 0;
  int sum = 0;
  for (size_t j = 0; j < split.groups.size(); ++j) {
    EXPECT_EQ(covered & split.groups[j], 0u);
    covered |= split.groups[j];
    int dist = 0;
    for (int i = 0; i < far.p.k; ++i)
      if (split.groups[j] >> i & 1) dist += far.p.distance(i);
    EXPECT_GE(split.counts[j], dist);
    sum += split.counts[j];
  }
  EXPECT_EQ(covered, (1u << far.p.k) - 1);
  EXPECT_EQ(sum, 52);
  // IDA* over the databases alone, with and without the split: within
  // 1.1 M nodes, the count with it; a bound below it without it.
  for (bool carried : {true, false}) {
    Heuristic h;
    h.SetPartitions(far.partitions, far.p);
    Ida ida(far.p, h, IdaOptions{});
    if (carried) ida.SetStartSplit(split);
    int lower = 0;
    std::vector<PieceMove> path;
    SearchLimits limits;
    limits.max_nodes = 1100000;
    const Ida::Outcome outcome = ida.Run(lower, 0, limits, TieOrder::kAny, path);
    if (carried) {
      ASSERT_EQ(outcome, Ida::Outcome::kSolved);
      EXPECT_EQ(lower, 52);
      EXPECT_EQ(path.size(), 52u);
      ExpectReplays(far.p, path);
    } else {
      EXPECT_EQ(outcome, Ida::Outcome::kStopped);
      EXPECT_LT(lower, 52);
    }
  }
}

// Far position 41's tangle (52 at once) and merges: the partitions that
// are carried into its search.
void TangleAndMerges(GroupBound& groups) {
  uint64_t nodes = 0;
  ASSERT_EQ(groups.Tangle(0, kInf, 100000, SearchLimits{}, nodes), 52);
  groups.Improve(Policy{}.group_nodes, 0, kInf, SearchLimits{}, nodes);
}

// The nodes IDA* over far position 41's databases takes to find its 52
// moves (and an optimal way) with `splits` carried in.
uint64_t SolvedNodes(const FarCase& far, const std::vector<StartSplit>& splits,
                     const IdaOptions& options) {
  Heuristic h;
  h.SetPartitions(far.partitions, far.p);
  Ida ida(far.p, h, options);
  ida.SetStartSplits(splits);
  int lower = 0;
  std::vector<PieceMove> path;
  EXPECT_EQ(ida.Run(lower, 0, SearchLimits{}, TieOrder::kAny, path), Ida::Outcome::kSolved);
  EXPECT_EQ(lower, 52);
  ExpectReplays(far.p, path);
  return ida.nodes();
}

// Several partitions carried at once (Ida::SetStartSplits): the best sums
// at the start, each a partition, best first; their bounds fall with
// different moves, so the node's bound is the largest: the same count, in
// fewer nodes than with the best one alone.
TEST(GroupBound, SeveralSplitsAreCarried) {
  const FarCase far = Far41();
  GroupBound groups(far.p, far.partitions, far.policy);
  ASSERT_NO_FATAL_FAILURE(TangleAndMerges(groups));
  const std::vector<StartSplit>& splits = groups.best_splits();
  ASSERT_GE(splits.size(), 2u);
  EXPECT_LE(int(splits.size()), far.policy.carried_splits);
  EXPECT_EQ(splits.front().sum, groups.best_split().sum);
  for (size_t s = 0; s < splits.size(); ++s) {
    if (s > 0) {
      EXPECT_LE(splits[s].sum, splits[s - 1].sum);
    }
    uint32_t covered = 0;
    int sum = 0;
    for (size_t j = 0; j < splits[s].groups.size(); ++j) {
      EXPECT_EQ(covered & splits[s].groups[j], 0u) << s;
      covered |= splits[s].groups[j];
      sum += splits[s].counts[j];
    }
    EXPECT_EQ(covered, (1u << far.p.k) - 1) << s;
    EXPECT_EQ(sum, splits[s].sum) << s;
  }
  uint64_t used[2] = {};
  used[0] = SolvedNodes(far, {splits.front()}, IdaOptions{});
  used[1] = SolvedNodes(far, splits, IdaOptions{});
  RecordProperty("nodes_best_only", std::to_string(used[0]));
  RecordProperty("nodes_all", std::to_string(used[1]));
  EXPECT_LT(used[1], used[0]);
}

// A carried group with a database (a group of the bound's, or one of at
// most three pieces) is bounded at each node by its exact cost alone too,
// which is at least its start count less its moves and its distances: the
// same count and an optimal way, in fewer nodes.
TEST(GroupBound, CarriedGroupsUseTheirDatabases) {
  const FarCase far = Far41();
  GroupBound groups(far.p, far.partitions, far.policy);
  ASSERT_NO_FATAL_FAILURE(TangleAndMerges(groups));
  uint64_t used[2] = {};
  for (bool databases : {false, true}) {
    IdaOptions options;
    options.carried_databases = databases;
    used[databases] = SolvedNodes(far, groups.best_splits(), options);
  }
  RecordProperty("nodes_without", std::to_string(used[0]));
  RecordProperty("nodes_with", std::to_string(used[1]));
  EXPECT_LT(used[1], used[0]);
}

// The bound table's size changes the nodes, never the count: far position
// 41 with the tangle's split, within 1.1 M nodes, in a table of a million
// entries and in one of 1,024 (full at once, its bounds replaced all the
// time). The small one gets less far, and never past the count; the large
// one solves it.
TEST(GroupBound, ASmallBoundTableProvesLessNeverMore) {
  const FarCase far = Far41();
  GroupBound groups(far.p, far.partitions, far.policy);
  uint64_t nodes = 0;
  ASSERT_EQ(groups.Tangle(0, kInf, 100000, SearchLimits{}, nodes), 52);
  bool solved[2] = {};
  for (size_t entries : {size_t(1) << 20, size_t(1) << 10}) {
    Heuristic h;
    h.SetPartitions(far.partitions, far.p);
    IdaOptions options;
    options.bound_table_entries = entries;
    Ida ida(far.p, h, options);
    ida.SetStartSplit(groups.best_split());
    int lower = 0;
    std::vector<PieceMove> path;
    SearchLimits limits;
    limits.max_nodes = 1100000;
    const Ida::Outcome outcome = ida.Run(lower, 0, limits, TieOrder::kAny, path);
    EXPECT_LE(lower, 52) << entries;
    solved[entries == 1024] = outcome == Ida::Outcome::kSolved;
    if (outcome != Ida::Outcome::kSolved) continue;
    EXPECT_EQ(lower, 52) << entries;
    EXPECT_EQ(path.size(), 52u);
    ExpectReplays(far.p, path);
  }
  EXPECT_TRUE(solved[0]);
  EXPECT_FALSE(solved[1]);
}

// A set grown by a piece, and two groups merged, start their searches from
// their parts: the parts' counts carried in, and the smaller set's way
// with the piece put in. The same bounds, in fewer nodes.
TEST(GroupBound, GrownSetsStartFromTheirParts) {
  const FarCase far = Far41();
  uint64_t nodes[2] = {};
  int merged[2] = {};
  for (bool carry : {false, true}) {
    GroupBound groups(far.p, far.partitions, far.policy, carry);
    EXPECT_EQ(groups.Tangle(0, kInf, 100000, SearchLimits{}, nodes[carry]), 52);
    merged[carry] = groups.Improve(far.policy.group_nodes, 0, kInf, SearchLimits{}, nodes[carry]);
  }
  EXPECT_EQ(merged[1], merged[0]);
  EXPECT_LT(nodes[1], nodes[0] / 2);  // (168,968 and 15,550 when written)
}

// The merges count groups, never the whole position: two groups that hold
// every piece would be the count itself, the search's work, at the cost of
// a group's nodes each time (finish-bench: 3.20 M nodes to 2.17 M without
// them). Six of far position 41's pieces, whose merges reach two groups
// that need more together than apart.
TEST(GroupBound, MergesLeaveTheWholePositionToTheSearch) {
  const FarCase far = Far41();
  const Problem six = SubProblem(far.p, {1, 3, 4, 6, 11, 14});
  absl::StatusOr<std::vector<Partition>> partitions =
      ResolvePartitions(six, PartitionsByTarget(six, 3, {0, 1, 2}), PatternSource{}, Find::kBuild);
  ASSERT_TRUE(partitions.ok()) << partitions.status();
  GroupBound groups(six, *partitions, far.policy);
  uint64_t nodes = 0;
  const int bound = groups.Improve(far.policy.group_nodes, 0, kInf, SearchLimits{}, nodes);
  ASSERT_FALSE(groups.best_splits().empty());
  for (const StartSplit& split : groups.best_splits()) EXPECT_GE(split.groups.size(), 2u);
  // A lower bound of the six's count (IDA* over their databases).
  Heuristic h;
  h.SetPartitions(*partitions, six);
  Ida ida(six, h, IdaOptions{});
  int count = 0;
  std::vector<PieceMove> path;
  ASSERT_EQ(ida.Run(count, 0, SearchLimits{}, TieOrder::kAny, path), Ida::Outcome::kSolved);
  EXPECT_LE(bound, count);
  RecordProperty("bound", std::to_string(bound));
  RecordProperty("count", std::to_string(count));
}

// The merges run again with more nodes (Policy::remerge_nodes): a merge cut
// short at 20,000 nodes may be a conflict of many pieces. Unseen far
// position seed 3 #57 (salta_finish_bench --generate-far 100 --seed 3),
// whose count is 68: its merges give 66 within 20,000 nodes a group, and 68,
// the count, within 100,000, where IDA* took 7.9 M nodes for its last
// iteration.
TEST(GroupBound, MergesGivenMoreNodesSeeLargerConflicts) {
  const FarCase far(
      "pre1900", Side::kWhite,
      "w S1b6,S2i7,S3c9,S4g7,S5d8,M1d6,M2h6,M3i5,M4h10,M5h8,U1a9,U2d10,U3j10,U4c7,U5e9,s1h4,"
      "s2c5,s3e1,s4f2,s5e7,m1g5,m2j2,m3i1,m4f4,m5b4,u1e5,u2d2,u3i3,u4g3,u5a3 240 #");
  GroupBound groups(far.p, far.partitions, far.policy);
  uint64_t nodes = 0;
  EXPECT_EQ(groups.Improve(far.policy.group_nodes, 0, kInf, SearchLimits{}, nodes), 66);
  EXPECT_EQ(groups.Improve(far.policy.remerge_nodes[1], 0, kInf, SearchLimits{}, nodes), 68);
  EXPECT_EQ(groups.best_split().sum, 68);
}

// The searches of sets of eight pieces or more take the bound of pairs in
// conflict of their pieces into their bound (FinishTechniques::
// pairs_in_sets): the tangle's sets of far position 41 get the same
// counts with and without, in fewer nodes (10,302 and 9,545 when written).
TEST(GroupBound, LargeSetsTakeThePairsIntoTheirBound) {
  const FarCase far = Far41();
  absl::StatusOr<std::shared_ptr<const PairTables>> pairs = MakePairTables(far.p);
  ASSERT_TRUE(pairs.ok()) << pairs.status();
  uint64_t nodes[2] = {};
  int bound[2] = {};
  std::vector<StartSplit> splits[2];
  for (bool with : {false, true}) {
    GroupBound groups(far.p, far.partitions, far.policy);
    if (with) groups.SetPairs(*pairs);
    bound[with] = groups.Tangle(0, kInf, 1000000, SearchLimits{}, nodes[with]);
    splits[with] = groups.best_splits();
  }
  EXPECT_EQ(bound[1], bound[0]);
  ASSERT_EQ(splits[1].size(), splits[0].size());
  int large = 0;
  for (size_t s = 0; s < splits[0].size(); ++s) {
    EXPECT_EQ(splits[1][s].groups, splits[0][s].groups) << s;
    EXPECT_EQ(splits[1][s].counts, splits[0][s].counts) << s;
    for (uint32_t group : splits[0][s].groups)
      large += std::popcount(group) >= far.policy.set_pairs_pieces;
  }
  EXPECT_GT(large, 0);
  EXPECT_LT(nodes[1], nodes[0]);
  RecordProperty("nodes_without", std::to_string(nodes[0]));
  RecordProperty("nodes_with", std::to_string(nodes[1]));
}

}  // namespace
}  // namespace salta::finish_internal
