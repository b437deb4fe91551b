// The solver's way shortening (libsalta/src/finish/shorten.h): the
// bit-parallel insertion of a piece into a way against a plain search over
// (moves of the way played, square), the large neighbourhood search's
// ways replayed on a plain board, and ways taken backwards (problem.h).
#include "finish/shorten.h"

#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <string>
#include <vector>

#include "salta/finish.h"
#include "salta/notation.h"
#include "salta/position.h"
#include "salta/variant.h"

namespace salta::finish_internal {
namespace {

// Whether `way` is a sequence of single diagonal steps, each from the
// square its piece stands on to an empty one, the pieces of `absent` off
// the board; `end` gets the squares after it.
bool Replays(const Problem& p, uint32_t absent, const std::vector<PieceMove>& way, Squares& end,
             std::string& why) {
  std::vector<int> board(p.n, -1);
  end = p.start;
  for (int i = 0; i < p.k; ++i)
    if (!(absent >> i & 1)) board[p.start[i]] = i;
  for (size_t m = 0; m < way.size(); ++m) {
    const PieceMove& mv = way[m];
    const int df = std::abs(p.g->file_of(mv.from) - p.g->file_of(mv.to));
    const int dr = std::abs(p.g->rank_of(mv.from) - p.g->rank_of(mv.to));
    if (mv.jump || df != 1 || dr != 1 || board[mv.from] != mv.piece || board[mv.to] != -1) {
      why = "move " + std::to_string(m) + " is not a step of its piece to an empty square";
      return false;
    }
    board[mv.from] = -1;
    board[mv.to] = mv.piece;
    end[mv.piece] = mv.to;
  }
  return true;
}

// The fewest steps that bring `piece` from its start to its target between
// the moves of `way` (which has none of its moves), the pieces of `absent`
// off the board: 0-1 breadth-first search over (moves played, square),
// waiting free unless the next move lands on the piece. -1: none.
int PlainInsertion(const Problem& p, int piece, uint32_t absent,
                   const std::vector<PieceMove>& way) {
  const int t_end = int(way.size());
  std::vector<std::vector<bool>> taken(t_end + 1, std::vector<bool>(p.n, false));
  Squares at = p.start;
  for (int t = 0; t <= t_end; ++t) {
    if (t > 0) at[way[t - 1].piece] = way[t - 1].to;
    for (int j = 0; j < p.k; ++j)
      if (j != piece && !(absent >> j & 1)) taken[t][at[j]] = true;
  }
  std::vector<std::vector<int>> cost(t_end + 1, std::vector<int>(p.n, 1 << 30));
  std::deque<std::pair<int, int>> queue;
  cost[0][p.start[piece]] = 0;
  queue.push_back({0, p.start[piece]});
  while (!queue.empty()) {
    const auto [t, s] = queue.front();
    queue.pop_front();
    const int c = cost[t][s];
    if (t < t_end && way[t].to != s && cost[t + 1][s] > c) {
      cost[t + 1][s] = c;
      queue.push_front({t + 1, s});
    }
    for (int file = -1; file <= 1; file += 2)
      for (int rank = -1; rank <= 1; rank += 2) {
        const Square y = p.g->at(p.g->file_of(s) + file, p.g->rank_of(s) + rank);
        if (y == kNoSquare || taken[t][y] || cost[t][y] <= c + 1) continue;
        cost[t][y] = c + 1;
        queue.push_back({t, y});
      }
  }
  const int c = cost[t_end][p.target[piece]];
  return c == 1 << 30 ? -1 : c;
}

// A random placement of `count` White pieces on 10x10 (standard rules).
Problem RandomProblem(int count, std::mt19937_64& random) {
  const Variant& v = Variant::Default();
  std::vector<std::pair<PieceId, Square>> pieces;
  std::vector<Square> squares(v.geometry().num_squares());
  for (int s = 0; s < int(squares.size()); ++s) squares[s] = s;
  std::shuffle(squares.begin(), squares.end(), random);
  for (int i = 0; i < count; ++i) pieces.push_back({PieceId(i), squares[i]});
  absl::StatusOr<Position> pos = Position::Make(v, pieces, Side::kWhite, 0);
  EXPECT_TRUE(pos.ok()) << pos.status();
  return MakeProblem(*pos, Side::kWhite);
}

// Random steps of the pieces but `piece` and those of `absent`.
std::vector<PieceMove> RandomWay(const Problem& p, int piece, uint32_t absent, int length,
                                 std::mt19937_64& random) {
  std::vector<PieceMove> way;
  Squares at = p.start;
  for (int tries = 0; int(way.size()) < length && tries < 50 * length; ++tries) {
    const int i = int(random() % p.k);
    if (i == piece || (absent >> i & 1)) continue;
    Bitboard occ = 0;
    for (int j = 0; j < p.k; ++j)
      if (!(absent >> j & 1)) occ |= SquareBit(at[j]);
    const int y = p.step_to[at[i]][random() % 4];
    if (y < 0 || Contains(occ, y)) continue;
    way.push_back(PieceMove{int8_t(i), at[i], int8_t(y), false});
    at[i] = int8_t(y);
  }
  return way;
}

TEST(Shorten, InsertionTakesTheFewestMovesOfAPlainSearch) {
  std::mt19937_64 random(7);
  int inserted = 0, none = 0;
  for (int round = 0; round < 400; ++round) {
    const Problem p = RandomProblem(2 + int(random() % 14), random);
    const int piece = int(random() % p.k);
    uint32_t absent = 0;
    for (int j = 0; j < p.k; ++j)
      if (j != piece && random() % 4 == 0) absent |= 1u << j;
    const std::vector<PieceMove> way = RandomWay(p, piece, absent, int(random() % 60), random);
    const int plain = PlainInsertion(p, piece, absent, way);
    std::vector<PieceMove> with = way;
    Inserter inserter(p);
    const bool ok = inserter.Insert(piece, absent, with, random);
    const std::string where = "round " + std::to_string(round);
    ASSERT_EQ(ok, plain >= 0) << where;
    if (!ok) {
      EXPECT_EQ(with.size(), way.size()) << where;
      ++none;
      continue;
    }
    ++inserted;
    // The piece's moves, as many as the plain search's; the way's moves
    // kept in their order; the whole replays and takes the piece home.
    std::vector<PieceMove> kept;
    int own = 0;
    for (const PieceMove& m : with) {
      if (m.piece == piece)
        ++own;
      else
        kept.push_back(m);
    }
    EXPECT_EQ(own, plain) << where;
    ASSERT_EQ(kept.size(), way.size()) << where;
    for (size_t m = 0; m < kept.size(); ++m)
      EXPECT_TRUE(kept[m].piece == way[m].piece && kept[m].to == way[m].to) << where;
    Squares end;
    std::string why;
    EXPECT_TRUE(Replays(p, absent, with, end, why)) << where << ": " << why;
    EXPECT_EQ(end[piece], p.target[piece]) << where;
  }
  EXPECT_GT(inserted, 100);
  EXPECT_GT(none, 0);
}

// From a way the pieces put in one by one (CompleteWay from nothing), the
// search's ways replay, reach the goal, and are no longer; the public
// check agrees.
TEST(Shorten, NeighbourhoodSearchKeepsWaysLegalAndNoLonger) {
  std::mt19937_64 random(11);
  int shorter = 0;
  for (int round = 0; round < 12; ++round) {
    const Problem p = RandomProblem(15, random);
    std::vector<PieceMove> way;
    if (!CompleteWay(p, way)) continue;
    const size_t first = way.size();
    SearchLimits limits;
    limits.max_nodes = 2000;
    uint64_t rounds = 0;
    NeighbourhoodOptions options;
    options.seed = round + 1;
    shorter += ShortenByNeighbourhoods(p, 0, options, limits, way, rounds);
    EXPECT_LE(rounds, limits.max_nodes);
    EXPECT_LE(way.size(), first);
    Squares end;
    std::string why;
    ASSERT_TRUE(Replays(p, 0, way, end, why)) << why;
    EXPECT_EQ(end, p.target);
    // The same way in the position's squares, through the public check.
    std::vector<std::pair<PieceId, Square>> pieces;
    for (int i = 0; i < p.k; ++i) pieces.push_back({p.ids[i], p.Normal(p.start[i])});
    absl::StatusOr<Position> pos = Position::Make(*p.variant, pieces, Side::kWhite, 0);
    ASSERT_TRUE(pos.ok());
    std::vector<Move> moves;
    for (const PieceMove& m : way) moves.push_back(Move::Step(p.Normal(m.from), p.Normal(m.to)));
    EXPECT_TRUE(CheckSolution(*pos, Side::kWhite, moves).ok());
  }
  EXPECT_GT(shorter, 0);
}

// A way taken backwards (problem.h, Backwards) replays from the goal to the
// start in the reversed problem, move for move; a way that comes back to
// its start on the way (a step out and back first) is cut where the way
// back first reaches its goal.
TEST(Shorten, AWayTakenBackwardsReplaysFromTheGoal) {
  std::mt19937_64 random(5);
  int detours = 0;
  for (int round = 0; round < 20; ++round) {
    const Problem p = RandomProblem(2 + int(random() % 14), random);
    ASSERT_TRUE(Reversible(p));
    std::vector<PieceMove> way;
    if (!CompleteWay(p, way)) continue;
    const Problem back = Reversed(p);
    EXPECT_EQ(back.start, p.target);
    EXPECT_EQ(back.target, p.start);
    std::vector<PieceMove> backwards = Backwards(p, way);
    ASSERT_EQ(backwards.size(), way.size());
    Squares end;
    std::string why;
    ASSERT_TRUE(Replays(back, 0, backwards, end, why)) << why;
    EXPECT_EQ(end, back.target);
    // A step out to a free square and back, before the way.
    Bitboard occ = 0;
    for (int i = 0; i < p.k; ++i) occ |= SquareBit(p.start[i]);
    for (int d = 0; d < 4; ++d)
      if (const int y = p.step_to[p.start[0]][d]; y >= 0 && !Contains(occ, y)) {
        std::vector<PieceMove> detour = {PieceMove{0, p.start[0], int8_t(y), false},
                                         PieceMove{0, int8_t(y), p.start[0], false}};
        detour.insert(detour.end(), way.begin(), way.end());
        EXPECT_EQ(Backwards(p, detour), backwards);
        ++detours;
        break;
      }
  }
  EXPECT_GT(detours, 0);
}

}  // namespace
}  // namespace salta::finish_internal
