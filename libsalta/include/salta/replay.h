// Replaying a game record: the first illegal move (where, which ply, which
// side, the move as written and why), and the Result and Score tags checked
// against the game as played. docs/salta-validate.md describes the checks.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "salta/finish.h"
#include "salta/game.h"
#include "salta/piece.h"
#include "salta/position.h"
#include "salta/record.h"
#include "salta/score.h"
#include "salta/variant.h"

namespace salta {

// The bound on each scoring count of replay and self-play: a number of
// searched nodes, never a time, so that a verdict depends on the input alone
// (not on the machine, its load or the number of threads). About 10 s of
// counting on one core; 0 would be no limit.
inline constexpr uint64_t kDefaultScoreNodeLimit = 10000000;

// The options of a scoring count bounded by `node_limit` (0: no limit) whose
// result depends on the position and the limit alone.
FinishOptions ScoreCountOptions(uint64_t node_limit = kDefaultScoreNodeLimit);

struct ReplayOptions {
  // The rules of a game without a Rules tag: a preset and overrides, as in
  // the tag ("standard", "standard move-limit=120").
  std::string rules = "standard";
  // KEY=VALUE options applied to every game, on top of its Rules tag.
  std::vector<std::string> overrides;
  // The over-the-board custom ("Salta!"): a missed jump is a warning, and the
  // same side must jump on its next move if it can; by default it is an error.
  bool lenient = false;
  // How each scoring count (a Score tag, or a result that needs the count) is
  // made and bounded.
  FinishOptions count = ScoreCountOptions();
  // Keep the moves as played (ReplayReport::start and moves), for callers
  // that show the game ply by ply.
  bool keep_moves = false;
};

// An error or a warning, and where it is.
struct ReplayIssue {
  SourcePos at;
  int ply = 0;          // half-moves counted from 1 at the first move of the record; 0: no move
  int move_number = 0;  // the move number of that ply; 0: no move
  std::optional<Side> side;  // the side making that move
  std::string move;          // the move as written ("" when the issue concerns no move)
  std::string reason;
};

struct ReplayReport {
  bool valid = true;
  int plies = 0;  // moves replayed legally
  // The result established by the replay: "1-0", "0-1", "1/2-1/2", "*" (in
  // play), or "?" when it needs the scoring count and that is not available.
  // Empty for an invalid game.
  std::string result;
  EndReason end = EndReason::kNone;
  // The moves end the game (end is not kNone). An unfinished game may still
  // carry any result (resignation, agreement, adjudication, time forfeit).
  bool finished = false;
  // The Termination tag's value (how the game ended, as the record says),
  // when there is one.
  std::optional<std::string> termination;
  // The winner's points, when counted: the count is made only where a Score
  // tag or the result needs it. None for an invalid game (as no result).
  std::optional<int> score;
  // That count's result and score as ScoreGame gave it under
  // ReplayOptions::count, exact or not, so that a caller counting with the
  // same options need not count again (absent where no count was made, or
  // it failed).
  std::optional<GameScore> game_score;
  std::string rules;  // the rules the game was replayed under (Rules::ToString); empty where unread
  std::optional<ReplayIssue> error;
  // The warnings, the first 100 of them, then one that says how many more;
  // warning_count counts them all.
  std::vector<ReplayIssue> warnings;
  int warning_count = 0;
  // The position after the last legal move (absent when the game could not be set up).
  std::optional<Position> final_position;
  // With ReplayOptions::keep_moves: the position before the first move and
  // the moves replayed legally (a missed jump under `lenient` as the step it
  // was), so that start and moves give final_position.
  std::optional<Position> start;
  std::vector<Move> moves;
};

ReplayReport ReplayGame(const ParsedGame& game, const ReplayOptions& options);

// The one place where replay (and self-play) use the exact scoring count of
// score.h: the outcome and the winner's points of a finished game, of a game
// at White's completion whose extra move is not recorded, or of a game over by
// the move limit. nullopt when the count does not decide the outcome (a count
// not exact within the limits of `options` whose bounds leave it open, or an
// error): callers then say it was not checked.
struct CountedScore {
  // Proven: by exact counts, or by the bounds of counts cut short.
  Outcome outcome = Outcome::kNone;
  // The winner's points; empty where they are not known: a count not exact
  // within the limits, or a count they need is infinite (the loser cannot
  // finish its goal), for which the rules give no points.
  std::optional<int> points;
};
std::optional<CountedScore> ScoreByCount(const Position& final_position,
                                         const FinishOptions& options = ScoreCountOptions());

// A Board tag value: "NxN, R rows" as Geometry::ToString writes it, or "NxN"
// or "N" with R = 3 where it fits (else the most rows that fit).
absl::StatusOr<Geometry> ParseBoardTag(absl::string_view text);

}  // namespace salta
