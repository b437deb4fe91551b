// The result and score of a finished game, or of one that reached the move
// limit, as docs/scoring.md defines them:
//   - goal completed: the side that completed wins; the winner's points are
//     the loser's minimum moves to finish (salta/finish.h); White completing
//     and Black completing with its extra move is a draw (0);
//   - White completed and Black's extra move was not played (Black to move
//     in the extra-move phase, or the move limit reached by White's
//     completing move): scored as if Black had played it optimally,
//     max(need - 1, 0) points, 0 being a draw;
//   - move limit, limit-scoring=moves: need_W against need_B' =
//     max(need_B - 1, 0); the smaller wins by the difference; equal draws;
//   - move limit, limit-scoring=pieces: more pieces on their targets wins,
//     by the difference in pieces; equal draws;
//   - block=lose, a side blocked: it loses; the rules give no points (0).
#pragma once

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "salta/finish.h"
#include "salta/game.h"
#include "salta/position.h"

namespace salta {

struct GameScore {
  EndReason reason = EndReason::kNone;
  Outcome outcome = Outcome::kNone;
  // The winner's points (0 for a draw). kUnknownMoves when a count it
  // needs is not exact (a limit was reached) or the rules give no score
  // because the count it needs is infinite.
  int points = 0;
  // The counts the score needed, each side's where it was counted.
  std::optional<FinishResult> white, black;
  // Every count used is exact, so outcome and points are final.
  bool exact = true;
  // White completed with no extra move recorded: Black was credited it.
  bool extra_move_credited = false;
  // One line in words, e.g. "White wins by 7 (Black needs 7 moves)".
  std::string summary;
};

// The result and score of pos, which must be over or in Black's extra-move
// phase (an error says so otherwise). Counts are computed with `options`.
absl::StatusOr<GameScore> ScoreGame(const Position& pos, const FinishOptions& options);

}  // namespace salta
