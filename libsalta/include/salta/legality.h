// Turning a move as written into a legal move, or saying exactly why it is
// not one: no piece there, an opponent's piece, an occupied destination, a
// backward step or jump, a jump over the wrong piece, a missed jump (Salta!),
// a move that would leave the opponent without a move, the game over.
#pragma once

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "salta/move.h"
#include "salta/notation.h"
#include "salta/position.h"

namespace salta {

// The legal move the text names; intermediate squares of a chain, when
// given, must be a path of jumps the rules allow.
absl::StatusOr<Move> ResolveMove(const Position& pos, const MoveText& text);
// ParseMoveText then ResolveMove.
absl::StatusOr<Move> ParseMove(const Position& pos, absl::string_view text);

// Whether the move is in M (a step or jump the options allow) but was left
// out of the legal moves only because a jump was available and jumps are
// mandatory. Lenient record replay uses this for the "Salta!" custom.
bool IsMissedJump(const Position& pos, Move m);

}  // namespace salta
