// The clear-board problem: one side's pieces alone on the board, turned so
// that the side moves as White does, with the moves its rules allow.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <vector>

#include "salta/bitboard.h"
#include "salta/geometry.h"
#include "salta/piece.h"
#include "salta/position.h"
#include "salta/variant.h"

namespace salta::finish_internal {

using Clock = std::chrono::steady_clock;

// Bounds at or above kInf mean "cannot finish".
constexpr int kInf = 1 << 20;
constexpr int Inc(int x) {
  return x >= kInf ? kInf : x + 1;
}
constexpr uint8_t kPdbUnreachable = 255;
constexpr int kMaxPiecesInProblem = kPiecesPerSide;

constexpr Direction Reverse(Direction d) {
  return Direction(3 - d);
}

// ---------------------------------------------------------------------------
// The problem, turned so that the side moves as White does: a Black piece on
// square s stands on rotate(s) and uses White's directions.

struct Problem {
  const Variant* variant = nullptr;
  const Geometry* g = nullptr;
  Side side = Side::kWhite;
  int n = 0;  // squares
  int k = 0;  // pieces
  std::array<PieceId, kMaxPiecesInProblem> ids{};
  std::array<int8_t, kMaxPiecesInProblem> start{};
  std::array<int8_t, kMaxPiecesInProblem> target{};
  int num_step_dirs = 0;
  std::array<Direction, 4> step_dirs{};
  bool jumps = false;  // jumps over own pieces exist on the clear board
  int num_jump_dirs = 0;
  std::array<Direction, 4> jump_dirs{};
  bool chain = false;
  // Every move changes the sum of ranks by one: the count's parity is known.
  bool steps_only = true;

  Square Normal(Square s) const { return side == Side::kWhite ? s : g->rotate(s); }
};

Problem MakeProblem(const Position& pos, Side side);

// Squares one piece could reach in one move if every other square it needs
// to jump over held a piece and every landing square were empty: a
// relaxation of the real moves, so distances over it are lower bounds.
std::vector<Bitboard> RelaxedMoves(const Problem& p);

// One move of the problem: piece index, from, to (normal squares).
struct PieceMove {
  int8_t piece, from, to;
  bool jump;
};

}  // namespace salta::finish_internal
