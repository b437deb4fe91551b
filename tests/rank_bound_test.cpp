// The bound on the pieces' ranks for problems where pieces jump
// (libsalta/src/finish/rank_bound.h): never above the count, on every
// placement of small cases, the count found without it.
#include "finish/rank_bound.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "salta/finish.h"
#include "salta/game.h"
#include "salta/index.h"
#include "salta/notation.h"

namespace salta::finish_internal {
namespace {

TEST(RankBound, NeverExceedsTheCountOnEveryPlacement) {
  struct Case {
    std::string preset;
    std::vector<std::string> overrides;
    int size;
  };
  // The forward preset (steps and chains forward), single forward jumps
  // with forward steps, and (no bound: jumps backwards) chains every way.
  for (const Case& c : std::vector<Case>{{"forward", {}, 6},
                                         {"forward", {"chain=off"}, 6},
                                         {"forward", {}, 4},
                                         {"forward", {"jump-dir=any"}, 6}}) {
    absl::StatusOr<const Variant*> v = MakeVariant(c.preset, c.overrides, c.size, 1);
    ASSERT_TRUE(v.ok()) << v.status();
    const int n = (*v)->geometry().num_squares();
    const int k = c.size / 2;
    const bool applies = c.overrides.empty() || c.overrides[0] != "jump-dir=any";
    FinishOptions without;
    without.techniques.rank_bound = false;
    without.techniques.cone_table = false;
    int checked = 0, tight = 0;
    absl::StatusOr<PlacementIndex> index = PlacementIndex::Make(n, k);
    ASSERT_TRUE(index.ok()) << index.status();
    int8_t at[kMaxPiecesInProblem];
    for (uint64_t code = 0; code < index->size(); ++code) {
      index->Unrank(code, at);
      std::vector<std::pair<PieceId, Square>> pieces;
      for (int i = 0; i < k; ++i) pieces.push_back({PieceId(i), at[i]});
      absl::StatusOr<Position> pos = Position::Make(**v, pieces, Side::kWhite, 0);
      ASSERT_TRUE(pos.ok()) << pos.status();
      const Problem p = MakeProblem(*pos, Side::kWhite);
      const std::shared_ptr<const RankBound> bound = MakeRankBound(p);
      ASSERT_EQ(bound != nullptr, applies) << c.preset;
      if (!bound) break;
      absl::StatusOr<FinishResult> count = MinMovesToFinish(*pos, Side::kWhite, without);
      ASSERT_TRUE(count.ok()) << count.status();
      ASSERT_TRUE(count->exact);
      const int b = bound->values[bound->Index(p.start, p.k)];
      const std::string where = PositionToString(*pos);
      if (!count->reachable) continue;  // (the bound may or may not see it)
      ++checked;
      ASSERT_NE(b, RankBound::kUnreachable) << where;
      EXPECT_LE(b, count->moves()) << where;
      tight += b == count->moves();
    }
    if (!applies) continue;
    EXPECT_GT(checked, 20) << c.preset << " " << c.size;
    EXPECT_GT(tight, 0) << c.preset << " " << c.size;
  }
}

// The forward preset's start on 10x10 with one row, counted by the search
// (not the cone table): the bound at the start is above the per-piece
// distances' and below the count, which it leaves unchanged; the count is
// the cone table's too.
TEST(RankBound, ForwardStartCountIsUnchanged) {
  absl::StatusOr<const Variant*> v = MakeVariant("forward", {}, 10, 1);
  ASSERT_TRUE(v.ok()) << v.status();
  const Position start = Position::Start(**v);
  const Problem p = MakeProblem(start, Side::kWhite);
  const std::shared_ptr<const RankBound> bound = MakeRankBound(p);
  ASSERT_NE(bound, nullptr);
  int distances = 0;
  const std::vector<Bitboard> reach = RelaxedMoves(p);
  for (int i = 0; i < p.k; ++i) distances += RelaxedDistances(p, reach, p.target[i])[p.start[i]];
  const int b = bound->values[bound->Index(p.start, p.k)];
  FinishOptions with, without, cones;
  with.techniques.cone_table = false;
  without.techniques.cone_table = false;
  without.techniques.rank_bound = false;
  absl::StatusOr<FinishResult> a = MinMovesToFinish(start, Side::kWhite, with);
  absl::StatusOr<FinishResult> c = MinMovesToFinish(start, Side::kWhite, without);
  absl::StatusOr<FinishResult> t = MinMovesToFinish(start, Side::kWhite, cones);
  ASSERT_TRUE(a.ok() && c.ok() && t.ok());
  ASSERT_TRUE(a->exact && c->exact && t->exact);
  EXPECT_EQ(a->moves(), c->moves());
  EXPECT_EQ(t->moves(), a->moves());
  EXPECT_GT(b, distances);
  EXPECT_LE(b, a->moves());
  EXPECT_LT(a->nodes, c->nodes);
}

}  // namespace
}  // namespace salta::finish_internal
