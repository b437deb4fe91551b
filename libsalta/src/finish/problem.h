// The clear-board problem: one side's pieces alone on the board, turned so
// that the side moves as White does (a Black piece on square s stands on
// rotate(s) and uses White's directions), with the moves its rules allow.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <vector>

#include "salta/bitboard.h"
#include "salta/geometry.h"
#include "salta/movegen.h"
#include "salta/piece.h"
#include "salta/position.h"
#include "salta/variant.h"

namespace salta::finish_internal {

using Clock = std::chrono::steady_clock;

// Bounds at or above kInf mean "cannot finish".
inline constexpr int kInf = 1 << 20;
constexpr int Inc(int x) {
  return x >= kInf ? kInf : x + 1;
}
inline constexpr int kMaxPiecesInProblem = kPiecesPerSide;

// One move of the problem: which piece, from and to (turned squares).
struct PieceMove {
  int8_t piece = -1, from = -1, to = -1;
  bool jump = false;
  bool operator==(const PieceMove&) const = default;
};

using Squares = std::array<int8_t, kMaxPiecesInProblem>;

// A lane a piece, for work done on every piece at once (16 pieces at most).
typedef int8_t Lanes8 __attribute__((vector_size(16)));
typedef int16_t Lanes16 __attribute__((vector_size(32)));
static_assert(kMaxPiecesInProblem <= 16);

struct Problem {
  const Variant* variant = nullptr;
  const Geometry* g = nullptr;
  Side side = Side::kWhite;
  int n = 0;  // squares
  int k = 0;  // pieces
  std::array<PieceId, kMaxPiecesInProblem> ids{};
  Squares start{};
  Squares target{};
  int num_step_dirs = 0;
  std::array<Direction, 4> step_dirs{};  // the first num_step_dirs, as White's
  // step_to[s][i]: the square a step from s in the i-th allowed direction
  // reaches, or -1 past the edge.
  std::array<std::array<int8_t, 4>, kMaxSquares> step_to{};
  // steps[s]: the squares of step_to[s], as a set.
  std::array<Bitboard, kMaxSquares> steps{};
  // step_from[s][i]: the square a step in the i-th direction comes to s from.
  std::array<std::array<int8_t, 4>, kMaxSquares> step_from{};
  // dist[x][y]: the moves one piece alone needs from x to y by steps
  // (kNoWay: none).
  static constexpr uint8_t kNoWay = 255;
  std::array<std::array<uint8_t, kMaxSquares>, kMaxSquares> dist{};
  // Jumps over own pieces exist on the clear board (jump-over=any).
  bool jumps = false;
  // jump_over[s]: the squares next to s in a jump direction; a piece on s
  // can jump only where one of them holds a piece.
  std::array<Bitboard, kMaxSquares> jump_over{};
  // Without jumps every move changes the sum of ranks by one: every count
  // of a placement has the parity of its rank sum to the goal's.
  bool steps_only = true;
  // Every move goes forward (steps=forward and, with jumps, jump-dir=forward):
  // the moves form a graph without cycles.
  bool forward_only = false;

  // The moves piece i needs alone from its start to its target (kNoWay: none).
  int distance(int i) const { return dist[start[i]][target[i]]; }
  Square Normal(Square s) const { return side == Side::kWhite ? s : g->rotate(s); }
  // The squares one step from those of b (free or not).
  Bitboard StepsFrom(Bitboard b) const {
    if (num_step_dirs == 4) return StepsEveryWay(b);  // (the hot case)
    Bitboard to = 0;
    for (int d = 0; d < num_step_dirs; ++d) to |= g->shift(b, step_dirs[d]);
    return to;
  }
  // StepsFrom where steps go every way (num_step_dirs == 4): without the
  // test, a loop over many sets vectorises.
  Bitboard StepsEveryWay(Bitboard b) const {
    return g->shift<kUpLeft>(b) | g->shift<kUpRight>(b) | g->shift<kDownLeft>(b) |
           g->shift<kDownRight>(b);
  }
  // The squares a piece on s can jump to, `others` being the other pieces.
  Bitboard JumpsFrom(Square s, Bitboard others) const {
    return JumpTargets(*variant, Side::kWhite, s, others, others);
  }
  // Calls f(to, jump) for every move of the piece on s; occ holds every piece.
  template <typename F>
  void ForEachMoveFrom(Square s, Bitboard occ, F&& f) const {
    for (int d = 0; d < num_step_dirs; ++d) {
      const int t = step_to[s][d];
      if (t >= 0 && !Contains(occ, t)) f(Square(t), false);
    }
    if (!jumps || !(occ & jump_over[s])) return;
    for (Bitboard t = JumpsFrom(s, occ & ~SquareBit(s)); t;) f(PopLowest(t), true);
  }
  // Whether the move is possible in the placement with occupancy occ.
  bool CanMove(Square from, Square to, bool jump, Bitboard occ) const {
    if (Contains(occ, to)) return false;
    if (!jump) return true;  // `to` is a step neighbour by construction
    return Contains(JumpsFrom(from, occ & ~SquareBit(from)), to);
  }
};

// The side's pieces of pos (none is an empty problem).
Problem MakeProblem(const Position& pos, Side side);

// by_piece[i][s]: piece i's distance from square s to its target
// (Problem::dist, a piece's distances side by side; kNoWay: none).
using PieceDistances = std::array<std::array<uint8_t, kMaxSquares>, kMaxPiecesInProblem>;
PieceDistances DistancesByPiece(const Problem& p);

// Whether every move can be taken back (steps every way, no jumps): then a
// way from the start to the goal, taken backwards, is one from the goal to
// the start, and the counts of the two are the same.
inline bool Reversible(const Problem& p) {
  return p.steps_only && p.num_step_dirs == 4;
}
// The problem with start and target swapped: from the goal to the start.
Problem Reversed(const Problem& p);
// The way `way` of p taken backwards: a way of Reversed(p), cut where it
// first reaches that problem's goal (a way that is not a shortest one may
// pass it on the way). Needs Reversible(p).
std::vector<PieceMove> Backwards(const Problem& p, const std::vector<PieceMove>& way);

// For every square, the squares one piece could reach in one move if every
// square it needs to jump over held a piece and every landing square were
// empty: a relaxation of the real moves, so distances over it are lower
// bounds.
std::vector<Bitboard> RelaxedMoves(const Problem& p);

// The relaxed distance of every square to `target` (kInf: never).
std::array<int, kMaxSquares> RelaxedDistances(const Problem& p, const std::vector<Bitboard>& reach,
                                              Square target);

// A state's identity: the square of each piece, six bits a piece (pieces 0-9
// in a, 10-14 in b). Bits 60-63 of a and 32-39 of b are left for a search
// history (see bound_table.h).
struct Key {
  uint64_t a = 0, b = 0;
  bool operator==(const Key&) const = default;
};
inline Key WithPiece(Key k, int i, int s) {
  if (i < 10)
    k.a ^= uint64_t(s) << (6 * i);
  else
    k.b ^= uint64_t(s) << (6 * (i - 10));
  return k;
}
inline Key MovedKey(Key k, int i, int from, int to) {
  return WithPiece(WithPiece(k, i, from), i, to);
}
inline Key KeyOf(const Squares& sq, int k) {
  Key key;
  for (int i = 0; i < k; ++i) key = WithPiece(key, i, sq[i]);
  return key;
}
// MurmurHash3's finaliser: every bit of the input reaches the low bits.
inline uint64_t Mix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 33);
}
inline uint64_t HashKey(const Key& k) {
  return Mix64(k.a ^ Mix64(k.b + 0x9E3779B97F4A7C15ull));
}

}  // namespace salta::finish_internal
