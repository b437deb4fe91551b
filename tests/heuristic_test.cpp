// The bound IDA* keeps move by move (libsalta/src/finish/heuristic.h): each
// piece's slack, a lane a piece from the groups' costs kept as pieces move
// and are taken back, against the plain formula over the partitions'
// databases looked up afresh.
#include "finish/heuristic.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "finish/pair_bound.h"
#include "salta/game.h"
#include "salta/notation.h"

namespace salta::finish_internal {
namespace {

// The slack of every piece where a way may take `budget` moves: the least,
// over the partitions, of what the budget leaves above the partition's sum
// plus what the piece's group needs above its pieces' distances.
std::vector<int> PlainSlack(const Problem& p, const std::vector<Partition>& partitions,
                            const Squares& sq, int budget) {
  std::vector<int> slack(p.k, kInf);
  for (const Partition& partition : partitions) {
    std::vector<int> values;
    int sum = 0;
    for (const Group& group : partition) {
      std::vector<int8_t> on;
      for (int i : group.pieces) on.push_back(sq[i]);
      const uint8_t v = group.pdb->At(on.data());
      values.push_back(v == kPdbUnreachable ? kInf : v);
      sum += values.back();
    }
    for (size_t g = 0; g < partition.size(); ++g) {
      int excess = values[g];
      for (int i : partition[g].pieces) excess -= p.dist[sq[i]][p.target[i]];
      for (int i : partition[g].pieces) slack[i] = std::min(slack[i], budget - sum + excess);
    }
  }
  return slack;
}

TEST(Heuristic, SlackKeptMoveByMoveIsThePlainOne) {
  absl::StatusOr<const Variant*> v = MakeVariant("standard", {"move-limit=120"}, 10, 3);
  ASSERT_TRUE(v.ok()) << v.status();
  // Far position 41 (Black, 52 moves): pieces on and off their targets.
  absl::StatusOr<Position> pos = ParsePosition(
      **v,
      "w S1h6,S2g7,S3a7,S4c9,S5f8,M1b4,M2d6,M3b10,M4i7,M5h10,U1f6,U2d10,U3f10,U4e7,U5e9,s1j6,"
      "s2a5,s3c1,s4h4,s5e5,m1d4,m2g3,m3c3,m4a1,m5e1,u1i3,u2g1,u3f2,u4a3,u5h2 240 #");
  ASSERT_TRUE(pos.ok()) << pos.status();
  const Problem p = MakeProblem(*pos, Side::kBlack);
  absl::StatusOr<std::vector<Partition>> partitions =
      ResolvePartitions(p, PartitionsByTarget(p, 3, {0, 1, 2}), PatternSource{}, Find::kBuild);
  ASSERT_TRUE(partitions.ok()) << partitions.status();
  absl::StatusOr<std::shared_ptr<const PairTables>> pairs = MakePairTables(p);
  ASSERT_TRUE(pairs.ok()) << pairs.status();
  constexpr int16_t kCap = 8;

  for (bool with_pairs : {false, true}) {
    SCOPED_TRACE(with_pairs ? "with the pairs" : "partitions only");
    Heuristic h;
    h.SetPartitions(*partitions, p);
    if (with_pairs) h.SetPairs(*pairs);
    Squares sq = p.start;
    h.Set(sq);
    // Every budget from the bound to past the cap above it.
    auto check = [&](int step) {
      for (int budget = h.value(); budget <= h.value() + kCap + 2; ++budget) {
        Lanes16 lanes;
        h.Slack(budget, kCap, lanes);
        const std::vector<int> plain = PlainSlack(p, *partitions, sq, budget);
        for (int i = 0; i < p.k; ++i) {
          const int want = std::min<int>(kCap, plain[i]);
          // The pairs only take a slack lower.
          if (with_pairs)
            ASSERT_LE(lanes[i], want) << "step " << step << " piece " << i;
          else
            ASSERT_EQ(lanes[i], want) << "step " << step << " piece " << i;
        }
      }
    };
    // A random walk of steps, then every step taken back.
    std::mt19937 rng(7);
    struct Done {
      int piece;
      Square from;
      Heuristic::Saved saved;
    };
    std::vector<Done> walk;
    check(0);
    for (int step = 1; step <= 200; ++step) {
      Bitboard occ = 0;
      for (int i = 0; i < p.k; ++i) occ |= SquareBit(sq[i]);
      std::vector<std::pair<int, Square>> moves;
      for (int i = 0; i < p.k; ++i)
        for (Bitboard to = p.steps[sq[i]] & ~occ; to;) moves.emplace_back(i, PopLowest(to));
      ASSERT_FALSE(moves.empty());
      const auto [i, to] = moves[rng() % moves.size()];
      walk.push_back(Done{i, sq[i], {}});
      sq[i] = int8_t(to);
      h.Moved(sq, i, uint32_t(to - walk.back().from),
              p.dist[to][p.target[i]] - p.dist[walk.back().from][p.target[i]], walk.back().saved);
      check(step);
    }
    while (!walk.empty()) {
      const Done& done = walk.back();
      sq[done.piece] = int8_t(done.from);
      h.Restore(done.piece, done.saved);
      walk.pop_back();
      check(-int(walk.size()));
    }
    EXPECT_EQ(sq, p.start);
  }
}

}  // namespace
}  // namespace salta::finish_internal
