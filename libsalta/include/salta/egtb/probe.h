// Probing an endgame table: a position's value for the side to move, the
// plies to the end, the moves that keep that value, and an optimal line.
#pragma once

#include <vector>

#include "absl/status/statusor.h"
#include "salta/egtb/storage.h"
#include "salta/move.h"
#include "salta/position.h"

namespace salta::egtb {

struct ProbeResult {
  Code code = kDraw;
  // Every legal move whose position keeps the optimal value: to a loss one
  // ply shorter for a win, to a win one ply shorter for a loss (the longest
  // defence), to a draw for a draw. Empty when the game is over.
  std::vector<Move> best_moves;
  // With `line`: the first best move at each ply from the position to the
  // end of the game (a win or loss only; a draw has no end).
  std::vector<Move> line;
};

// pos must use the table's variant; a position outside the class (other
// pieces, another board or rules) is an error that says why.
absl::StatusOr<ProbeResult> Probe(const EndgameTable& table, const Position& pos, bool line);

// The code of pos, for positions known to be of the class.
absl::StatusOr<Code> ProbeCode(const EndgameTable& table, const Position& pos);

}  // namespace salta::egtb
