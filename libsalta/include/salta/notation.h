// Text for squares, moves and positions (docs/notation.md).
//
// Squares: algebraic "c3" (file letter, rank from 1) or numeric "32" (rank,
// then the index of the dark square on that rank from White's left).
// Moves: "c3-d4", jumps "c3-e5", chains "c3-e5-g7", pass "--".
// Positions: "<side> <pieces> [<ply> [<state>]]", e.g.
//   "w S1a1,M1b2,u5b8 0 -"; "start" names the start position.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "salta/geometry.h"
#include "salta/move.h"
#include "salta/piece.h"
#include "salta/position.h"

namespace salta {

std::string SquareName(const Geometry& g, Square s);    // "c3"
std::string SquareNumber(const Geometry& g, Square s);  // "32"
// Algebraic or numeric; the error says what is wrong with the text.
absl::StatusOr<Square> ParseSquare(const Geometry& g, absl::string_view text);

// A move as written: the squares it names in order (two or more), or a pass.
struct MoveText {
  std::vector<Square> path;  // empty for a pass
  bool is_pass() const { return path.empty(); }
};
// Syntax only: squares on the board, separated by '-'; "--" is a pass.
absl::StatusOr<MoveText> ParseMoveText(const Geometry& g, absl::string_view text);

// "c3-d4"; a chain of two or more jumps lists the landing squares of its
// shortest path, "c3-e5-g7"; "--" for a pass. The move must be legal in pos.
std::string MoveToString(const Position& pos, Move m);
// The landing squares of a shortest jump path for a legal jump, from first to last.
std::vector<Square> JumpPath(const Position& pos, Move m);

// "S1" (White star 1), "u5" (Black sun 5): the kind letter S, M or U (sun),
// uppercase for White, lowercase for Black, then the number.
std::string PieceName(PieceId p);
// "White star 1".
std::string PieceDescription(PieceId p);

std::string PositionToString(const Position& pos);
// Errors name the field or piece token at fault and why.
absl::StatusOr<Position> ParsePosition(const Variant& variant, absl::string_view text);

absl::string_view SideName(Side s);  // "White", "Black"

}  // namespace salta
