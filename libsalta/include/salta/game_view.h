// A game as a viewer shows it: every ply's position, the move that led to
// it and its comments, and, for a game that is over, the result, both
// sides' minimum-moves counts and the score. Everything a picture or page
// of the game shows is computed here, by the library's rules; the pictures
// (render_text.h, render_svg.h, render_html.h) only draw it.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "salta/finish.h"
#include "salta/move.h"
#include "salta/position.h"
#include "salta/record.h"
#include "salta/replay.h"
#include "salta/score.h"

namespace salta {

struct ViewPly {
  explicit ViewPly(const Position& pos) : position(pos) {}

  // The position after this ply; plies[0] is the start.
  Position position;
  // The move that led here ("" and no squares at the start): as
  // MoveToString writes it, and its squares (MoveSquares, board_view.h).
  std::string move;
  std::vector<Square> move_squares;
  std::string annotation;             // "!", "?!", ... from a record
  std::vector<std::string> comments;  // the comments after the move, from a record
  int number = 0;                     // its move number (0 at the start)
};

struct GameView {
  std::vector<std::pair<std::string, std::string>> tags;  // a record's tag pairs, in order
  std::vector<std::string> comments;                      // a record's comments before the moves
  std::vector<ViewPly> plies;                             // never empty
  // Set by ScoreView for a game over (or awaiting Black's extra move): its
  // result and score, and each side's count (indexed by Side), also where
  // the score does not need it.
  std::optional<GameScore> score;
  std::array<std::optional<FinishResult>, 2> counts;

  const Position& final_position() const { return plies.back().position; }
  int moves() const { return int(plies.size()) - 1; }
};

// The game from `start` through `moves` (legal moves in turn, as PlayMoves
// or ReplayReport::moves give them).
GameView ViewGame(const Position& start, const std::vector<Move>& moves);

// A game record, replayed by ReplayGame. An invalid game is an
// InvalidArgument error: "LINE:COLUMN: ply P \"MOVE\": reason", or
// "LINE:COLUMN: reason" where it concerns no move.
absl::StatusOr<GameView> ViewRecord(const ParsedGame& game, const ReplayOptions& replay);
// The same from the game's valid replay (ReplayGame with keep_moves), for
// callers that report its errors themselves. The score the replay counted
// (ReplayReport::game_score, with ReplayOptions::count) is kept.
GameView ViewReplay(const ParsedGame& game, const ReplayReport& report);

// Scores the final position when the game is over or awaits Black's extra
// move (ScoreGame), unless the replay did, and counts both sides, with
// `count`: bounds, not exact counts, where one of its limits cuts a count
// short. Nothing to do for a game in play.
absl::Status ScoreView(GameView& view, const FinishOptions& count);

// How a position stands, in words: "White to move", "Black to move: its
// extra move (White has completed its goal)", "Game over: Black completed
// its goal", ...
std::string PlyStatus(const Position& pos);

// A count in words: "7 moves", "cannot finish (the goal is unreachable)",
// "at least 31 and at most 47 moves (not exact: a limit was reached)".
std::string CountText(const FinishResult& r);

}  // namespace salta
