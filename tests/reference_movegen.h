// A second move generator, written straight from the pinned rules
// (shared/salta-rules.md, docs/rules.md) and independent of the library's
// move generation: a 2-D board of piece ids, square by square, obvious and
// slow. The tests compare the library with it.
//
// Only the library's public vocabulary is shared: piece ids (piece.h), the
// Rules struct (rules.h), and, for converting positions, Position and the
// square numbering "dark squares rank by rank from White's side".
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "salta/piece.h"
#include "salta/position.h"
#include "salta/rules.h"
#include "salta/variant.h"

namespace salta::reference {

struct Coord {
  int file = -1;
  int rank = -1;
  bool operator==(const Coord&) const = default;
  bool operator<(const Coord& o) const { return file != o.file ? file < o.file : rank < o.rank; }
};

// A move is its from- and to-square; a pass has neither.
struct RefMove {
  Coord from;
  Coord to;
  bool pass = false;
  bool jump = false;
  int min_jumps = 0;  // for a jump: the fewest jumps that reach `to` (1, or more for a chain)

  bool operator<(const RefMove& o) const {
    if (pass != o.pass) return pass < o.pass;
    if (!(from == o.from)) return from < o.from;
    return to < o.to;
  }
  bool SameSquares(const RefMove& o) const {
    return pass == o.pass && from == o.from && to == o.to;
  }
};

struct RefPosition {
  int size = 10;
  int rows = 3;
  Rules rules;
  // board[file][rank]: a piece id, or kNoPiece.
  std::array<std::array<PieceId, 10>, 10> board;
  Side side_to_move = Side::kWhite;
  int ply = 0;

  RefPosition() {
    for (auto& column : board) column.fill(kNoPiece);
  }
  bool OnBoard(int file, int rank) const {
    return file >= 0 && file < size && rank >= 0 && rank < size;
  }
  bool Dark(int file, int rank) const { return (file + rank) % 2 == 0; }
  PieceId At(Coord c) const { return board[c.file][c.rank]; }
};

enum class RefPhase { kPlay, kExtraMove, kOver };
enum class RefEnd { kNone, kGoal, kExtraMove, kMoveLimit, kBlocked };
enum class RefOutcome { kNone, kWhiteWins, kBlackWins, kDraw, kUndecided };

// Geometry and goal, from the rules text.
bool PieceExists(int size, int rows, PieceId p);
Coord StartSquare(int size, int rows, PieceId p);
Coord TargetSquare(int size, int rows, Goal goal, PieceId p);
RefPosition StartPosition(int size, int rows, const Rules& rules);

// Every piece of s on the board stands on its target, and s has a piece.
bool Completed(const RefPosition& pos, Side s);
// The phase from pieces, side to move and ply: a completed goal or the move
// limit ends the game; White's completion gives Black one extra move, or ends
// the game at once when Black has no move for it.
RefPhase PhaseOf(const RefPosition& pos);

// M: every step and jump side s may make (as if s were to move), jump
// chains with every prefix, one entry per (from, to).
struct RawInfo {
  int revisit_refused = 0;  // chain jumps refused because they land on a visited square
};
std::vector<RefMove> RawMoves(const RefPosition& pos, Side s, RawInfo* info = nullptr);
bool Mobile(const RefPosition& pos, Side s);

// What the legal move generation did, for the tests' coverage counts.
struct LegalInfo {
  int raw = 0;                // |M|
  RawInfo raw_info;           // how M of the side to move was found
  int filter_removed = 0;     // moves the block filter removed (before any fallback)
  bool fallback = false;      // the filter would have removed every move: M kept whole
  int exempt_kept = 0;        // moves that block the opponent but were kept as exempt
  bool exempt_extra = false;  // ... because it was Black's extra move
  bool exempt_goal = false;   // ... because it completes the mover's goal, no extra move after
  bool exempt_limit = false;  // ... because it reaches the move limit
  bool completing_filtered = false;  // White's completing move removed (extra-move=on)
  bool mandatory_cut = false;        // mandatory jumps removed some steps
  bool pass = false;
  bool blocked_lose = false;   // block=lose, no move: the side to move has lost
  bool extra_no_move = false;  // White completed, Black has no extra move: over
};

// The legal moves of the side to move (a lone pass where it must pass;
// nothing when the game is over or the side to move has lost), sorted.
std::vector<RefMove> LegalMoves(const RefPosition& pos, LegalInfo* info = nullptr);

struct RefStatus {
  RefEnd reason = RefEnd::kNone;
  RefOutcome outcome = RefOutcome::kNone;
  bool over() const { return reason != RefEnd::kNone; }
};
// Whether the game is over and why, including the ends that depend on
// mobility (block=lose, an extra move with no move).
RefStatus StatusOf(const RefPosition& pos);

// Plays a legal move or pass.
void Play(RefPosition& pos, const RefMove& m);

// Plain recursion over LegalMoves.
uint64_t Perft(const RefPosition& pos, int depth);

// Conversions to and from the library (square s is dark square number s,
// counted rank by rank from White's side and from the left on each rank).
int SquareIndex(int size, Coord c);
Coord CoordOf(int size, int square);
RefPosition FromLibrary(const Position& pos);
absl::StatusOr<Position> ToLibrary(const RefPosition& pos, const Variant& variant);

std::string ToString(const RefPosition& pos);
std::string MoveName(const RefMove& m);  // "c3-e5", "--"

}  // namespace salta::reference
