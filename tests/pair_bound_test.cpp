// The bound of pairs in conflict (libsalta/src/finish/pair_bound.h): each
// pair's table against a plain breadth-first search of the two pieces
// alone, and the matching kept move by move against the pairs' counts.
#include "finish/pair_bound.h"

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <tuple>
#include <vector>

#include "finish/group_bound.h"
#include "plain_group_counts.h"
#include "salta/game.h"

namespace salta::finish_internal {
namespace {

// The moves pieces i and j of p need alone from squares (a, b) to their
// targets (plain_group_counts.h): by[a * n + b], kInf where none.
std::vector<int> PlainPairCounts(const Problem& p, int i, int j) {
  std::vector<int> by(size_t(p.n) * p.n, kInf);
  for (const auto& [placement, c] : PlainGroupCounts(p, {p.target[i], p.target[j]}))
    if (c >= 0) by[size_t(placement[0]) * p.n + placement[1]] = c;
  return by;
}

// White's problem at the standard 10x10 start.
Problem WhiteAtTheStart() {
  absl::StatusOr<const Variant*> v = MakeVariant("standard", {}, 10, 3);
  EXPECT_TRUE(v.ok()) << v.status();
  return MakeProblem(Position::Start(v.ok() ? **v : Variant::Default()), Side::kWhite);
}

TEST(PairBound, PairsAreTheirCountsAlone) {
  // (On 6x6 every pair is in conflict somewhere; on 10x10 some are not.)
  for (const auto& [steps, size, rows] :
       {std::tuple{"steps=any", 6, 2}, {"steps=forward", 6, 2}, {"steps=any", 10, 3}}) {
    SCOPED_TRACE(testing::Message() << steps << " " << size);
    absl::StatusOr<const Variant*> v = MakeVariant("standard", {steps}, size, rows);
    ASSERT_TRUE(v.ok()) << v.status();
    const Problem p = MakeProblem(Position::Start(**v), Side::kWhite);
    absl::StatusOr<std::shared_ptr<const PairTables>> t = MakePairTables(p);
    ASSERT_TRUE(t.ok()) << t.status();
    ASSERT_EQ((*t)->k, p.k);
    int reached = 0, in_conflict = 0, apart = 0;
    for (int i = 0; i < p.k; ++i)
      for (int j = i + 1; j < p.k; ++j) {
        const std::vector<int> plain = PlainPairCounts(p, i, j);
        bool conflict = false;  // more than the two distances somewhere both can finish from
        for (int a = 0; a < p.n; ++a)
          for (int b = 0; b < p.n; ++b) {
            if (a == b) continue;
            const int want = plain[size_t(a) * p.n + b];
            reached += want < kInf;
            // Either way round: pair[j][i] has the weights swapped.
            ASSERT_EQ((*t)->pair[i][j].ValueWith(a, b), want) << i << " " << j << " " << a << b;
            ASSERT_EQ((*t)->pair[j][i].ValueWith(b, a), want) << i << " " << j << " " << a << b;
            const int da = p.dist[a][p.target[i]], db = p.dist[b][p.target[j]];
            if (da != Problem::kNoWay && db != Problem::kNoWay && want != da + db) conflict = true;
          }
        // The pieces the bound of pairs looks up are those in conflict.
        EXPECT_EQ(((*t)->conflicts[i] >> j) & 1, conflict) << i << " " << j;
        EXPECT_EQ(((*t)->conflicts[j] >> i) & 1, conflict) << i << " " << j;
        (conflict ? in_conflict : apart)++;
      }
    EXPECT_GT(reached, 0);
    EXPECT_GT(in_conflict, 0);
    if (size == 10) {
      EXPECT_GT(apart, 0);
    }
  }
}

// Where steps go forward only, a piece can step where its target is out of
// reach: the child's bound is then kInf, as the databases' is.
TEST(PairBound, AChildThatCannotFinishIsUnbounded) {
  absl::StatusOr<const Variant*> v = MakeVariant("standard", {"steps=forward"}, 6, 2);
  ASSERT_TRUE(v.ok()) << v.status();
  const Problem p = MakeProblem(Position::Start(**v), Side::kWhite);
  absl::StatusOr<std::shared_ptr<const PairTables>> t = MakePairTables(p);
  ASSERT_TRUE(t.ok()) << t.status();
  PairBound b(*t);
  b.Set(p.start);
  EXPECT_LT(b.value(), kInf);
  int out_of_reach = 0;
  for (int i = 0; i < p.k; ++i)
    for (int s = 0; s < p.n; ++s)
      if (p.dist[s][p.target[i]] == Problem::kNoWay) {
        ++out_of_reach;
        EXPECT_EQ(b.Child(p.start, i, Square(s)), kInf) << i << " to " << s;
      }
  EXPECT_GT(out_of_reach, 0);
}

// Random walks of one side on the clear 10x10 board: after every move the
// kept matching is a matching, and the bound is the pieces' distances plus
// the matched pairs' plain counts beyond theirs; a child's bound is at most
// the bound after the move; a move taken back restores the bound.
TEST(PairBound, TheMatchingKeptMoveByMoveIsAMatchingOfThePairsCounts) {
  const Problem p = WhiteAtTheStart();
  absl::StatusOr<std::shared_ptr<const PairTables>> t = MakePairTables(p);
  ASSERT_TRUE(t.ok()) << t.status();
  std::vector<std::vector<int>> plain(size_t(p.k) * p.k);
  for (int i = 0; i < p.k; ++i)
    for (int j = i + 1; j < p.k; ++j) plain[i * p.k + j] = PlainPairCounts(p, i, j);
  auto pair_count = [&](const Squares& sq, int i, int j) {
    return i < j ? plain[i * p.k + j][size_t(sq[i]) * p.n + sq[j]]
                 : plain[j * p.k + i][size_t(sq[j]) * p.n + sq[i]];
  };
  auto expect_matching = [&](const PairBound& b, const Squares& sq) {
    int want = 0;
    for (int i = 0; i < p.k; ++i) want += p.dist[sq[i]][p.target[i]];
    for (int i = 0; i < p.k; ++i) {
      const int m = b.mate(i);
      if (m < 0) continue;
      ASSERT_NE(m, i);
      ASSERT_EQ(b.mate(m), i);
      if (i < m)
        want += pair_count(sq, i, m) - p.dist[sq[i]][p.target[i]] - p.dist[sq[m]][p.target[m]];
    }
    EXPECT_EQ(b.value(), want);
  };
  std::mt19937_64 rng(8);
  int conflicts = 0;
  for (int walk = 0; walk < 4; ++walk) {
    Squares sq = p.start;
    Bitboard occ = 0;
    for (int i = 0; i < p.k; ++i) occ |= SquareBit(sq[i]);
    PairBound b(*t);
    b.Set(sq);
    expect_matching(b, sq);
    for (int step = 0; step < 150; ++step) {
      std::vector<std::pair<int, Square>> moves;
      for (int i = 0; i < p.k; ++i)
        p.ForEachMoveFrom(sq[i], occ, [&](Square to, bool) { moves.push_back({i, to}); });
      ASSERT_FALSE(moves.empty());
      const int before = b.value();
      for (const auto& [i, to] : moves) {
        const int child = b.Child(sq, i, to);
        const Square from = sq[i];
        sq[i] = to;
        PairBound::Saved saved;
        b.Moved(sq, i, saved);
        EXPECT_GE(b.value(), child);
        expect_matching(b, sq);
        sq[i] = from;
        b.Restore(i, saved);
        EXPECT_EQ(b.value(), before);
      }
      const auto [i, to] = moves[rng() % moves.size()];
      occ ^= SquareBit(sq[i]) | SquareBit(to);
      sq[i] = to;
      PairBound::Saved saved;
      b.Moved(sq, i, saved);
      expect_matching(b, sq);
      for (int j = 0; j < p.k; ++j) conflicts += b.mate(j) >= 0;
    }
  }
  EXPECT_GT(conflicts, 0);  // (the walks meet pairs in conflict)
}

// The tables of some of the pieces (a set a search counts alone), taken
// from the whole problem's, are those of the problem of those pieces: each
// pair's values by square, its conflicts, the distances; and the bound of
// a placement of them is the same.
TEST(PairBound, TheTablesOfSomePiecesAreTheirProblemsTables) {
  const Problem p = WhiteAtTheStart();
  absl::StatusOr<std::shared_ptr<const PairTables>> whole = MakePairTables(p);
  ASSERT_TRUE(whole.ok()) << whole.status();
  const std::vector<int> members = {0, 2, 3, 7, 8, 9, 12, 14};
  const Problem sub = SubProblem(p, members);
  absl::StatusOr<std::shared_ptr<const PairTables>> own = MakePairTables(sub);
  ASSERT_TRUE(own.ok()) << own.status();
  const std::shared_ptr<const PairTables> cut = SubPairTables(*whole, members);
  ASSERT_EQ(cut->k, sub.k);
  int in_conflict = 0;
  for (int a = 0; a < sub.k; ++a) {
    EXPECT_EQ(cut->dist[a], (*own)->dist[a]) << a;
    EXPECT_EQ(cut->conflicts[a], (*own)->conflicts[a]) << a;
    in_conflict += std::popcount(cut->conflicts[a]);
    for (int b = 0; b < sub.k; ++b) {
      if (a == b) continue;
      for (int x = 0; x < sub.n; ++x)
        for (int y = 0; y < sub.n; ++y) {
          if (x == y) continue;
          ASSERT_EQ(cut->pair[a][b].ValueWith(x, y), (*own)->pair[a][b].ValueWith(x, y))
              << a << " " << b << " on " << x << " " << y;
        }
    }
  }
  EXPECT_GT(in_conflict, 0);
  // Random placements of the set: the same bound.
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    Squares sq{};
    Bitboard occ = 0;
    for (int a = 0; a < sub.k; ++a) {
      Square s;
      do s = Square(rng() % sub.n);
      while (Contains(occ, s));
      sq[a] = s;
      occ |= SquareBit(s);
    }
    PairBound from_cut(cut), from_own(*own);
    from_cut.Set(sq);
    from_own.Set(sq);
    EXPECT_EQ(from_cut.value(), from_own.value()) << trial;
  }
}

}  // namespace
}  // namespace salta::finish_internal
