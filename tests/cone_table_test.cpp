// The cone table (libsalta/src/finish/cone_table.h): where pieces jump and
// every move goes forward, each placement within the pieces' cones holds
// its count, which the search without the table finds too, and the counts
// that use it give ways that replay.
#include "finish/cone_table.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include "finish/policy.h"
#include "salta/finish.h"
#include "salta/game.h"
#include "salta/notation.h"

namespace salta::finish_internal {
namespace {

const Variant& MakeV(const std::string& preset, const std::vector<std::string>& overrides, int size,
                     int rows) {
  absl::StatusOr<const Variant*> v = MakeVariant(preset, overrides, size, rows);
  EXPECT_TRUE(v.ok()) << v.status();
  return **v;
}

FinishOptions WithoutCones() {
  FinishOptions options;
  options.techniques.cone_table = false;
  return options;
}

// Every placement of the start's cones whose index is a multiple of
// `stride`: the table's value against the count without the table
// (cross-checked against breadth-first search in finish_test.cpp), and the
// count with it gives a way of its length that replays.
void CheckCones(const Variant& v, uint64_t stride) {
  const Position start = Position::Start(v);
  const Problem p = MakeProblem(start, Side::kWhite);
  ConeTable table;
  const uint64_t placements = MakeCones(p, table);
  ASSERT_GT(placements, 0u) << v.rules().ToString();
  ASSERT_TRUE(BuildConeTable(p, SearchLimits{}, table));
  ASSERT_EQ(table.values.size(), placements);
  int checked = 0, unreachable = 0, failures = 0;
  for (uint64_t index = 0; index < table.values.size() && failures < 5; index += stride) {
    std::vector<std::pair<PieceId, Square>> pieces;
    Bitboard occ = 0;
    for (int i = 0; i < p.k; ++i) {
      const Square s = table.cone[i][index / table.stride[i] % table.cone[i].size()];
      pieces.push_back({p.ids[i], s});
      occ |= SquareBit(s);
    }
    const uint8_t value = table.values[index];
    if (PopCount(occ) < p.k) {  // two pieces on one square: no placement
      EXPECT_EQ(value, ConeTable::kNone) << index;
      continue;
    }
    absl::StatusOr<Position> pos = Position::Make(v, pieces, Side::kWhite, 0);
    ASSERT_TRUE(pos.ok()) << pos.status();
    const std::string where = PositionToString(*pos) + " (" + v.rules().ToString() + ")";
    absl::StatusOr<FinishResult> without = MinMovesToFinish(*pos, Side::kWhite, WithoutCones());
    ASSERT_TRUE(without.ok()) << without.status();
    ASSERT_TRUE(without->exact) << where;
    ++checked;
    if (!without->reachable) {
      ++unreachable;
      if (value != ConeTable::kNone) ++failures;
      EXPECT_EQ(value, ConeTable::kNone) << where;
      continue;
    }
    if (value != without->moves()) ++failures;
    EXPECT_EQ(value, without->moves()) << where;
    FinishOptions with;
    with.want_solution = true;
    absl::StatusOr<FinishResult> r = MinMovesToFinish(*pos, Side::kWhite, with);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_TRUE(r->exact) << where;
    EXPECT_EQ(r->moves(), without->moves()) << where;
    EXPECT_EQ(int(r->solution.size()), without->moves()) << where;
    EXPECT_TRUE(CheckSolution(*pos, Side::kWhite, r->solution).ok()) << where;
  }
  EXPECT_GT(checked, 20) << v.rules().ToString();
  EXPECT_GT(checked, unreachable) << v.rules().ToString();
}

TEST(ConeTable, EveryPlacementWithinTheConesHoldsItsCount) {
  CheckCones(MakeV("forward", {}, 6, 1), 1);
  CheckCones(MakeV("forward", {}, 8, 1), 37);
  CheckCones(MakeV("forward", {"chain=off"}, 8, 1), 41);
}

TEST(ConeTable, OnlyWherePiecesJumpAndEveryMoveGoesForward) {
  struct Case {
    std::string preset;
    std::vector<std::string> overrides;
    bool applies;
  };
  for (const Case& c : std::vector<Case>{{"forward", {}, true},
                                         {"forward", {"chain=off"}, true},
                                         {"forward", {"jump-dir=any"}, false},
                                         {"standard", {"steps=forward"}, false},
                                         {"standard", {}, false},
                                         {"standard", {"jump-over=any"}, false}}) {
    const Problem p =
        MakeProblem(Position::Start(MakeV(c.preset, c.overrides, 6, 1)), Side::kBlack);
    ConeTable table;
    EXPECT_EQ(MakeCones(p, table) > 0, c.applies) << c.preset << " " << c.overrides.size();
  }
}

// The forward preset's start on 10x10 with one row (five pieces, 24
// moves, the count of RankBound.ForwardStartCountIsUnchanged without the
// table): within the policy, a node a placement, not under a smaller node
// limit, and stopped by the stop flag.
TEST(ConeTable, TheForwardStartOn10x10) {
  const Position start = Position::Start(MakeV("forward", {}, 10, 1));
  const Problem p = MakeProblem(start, Side::kWhite);
  ConeTable cones;
  const uint64_t placements = MakeCones(p, cones);
  ASSERT_GT(placements, 0u);
  EXPECT_LE(placements, Policy{}.cone_table_placements);
  FinishOptions options;
  options.want_solution = true;
  absl::StatusOr<FinishResult> r = MinMovesToFinish(start, Side::kWhite, options);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->exact);
  EXPECT_EQ(r->nodes, placements);
  EXPECT_EQ(int(r->solution.size()), r->moves());
  EXPECT_TRUE(CheckSolution(start, Side::kWhite, r->solution).ok());

  options.node_limit = 1000;
  absl::StatusOr<FinishResult> limited = MinMovesToFinish(start, Side::kWhite, options);
  ASSERT_TRUE(limited.ok()) << limited.status();
  EXPECT_FALSE(limited->exact);
  EXPECT_LE(limited->nodes, 1000u);
  EXPECT_LE(limited->lower, r->moves());

  std::atomic<bool> stop{true};
  SearchLimits stopped;
  stopped.stop = &stop;
  EXPECT_FALSE(BuildConeTable(p, stopped, cones));
}

}  // namespace
}  // namespace salta::finish_internal
