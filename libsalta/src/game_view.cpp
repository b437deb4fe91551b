#include "salta/game_view.h"

#include "absl/strings/str_cat.h"
#include "salta/board_view.h"
#include "salta/game.h"
#include "salta/notation.h"

namespace salta {

GameView ViewGame(const Position& start, const std::vector<Move>& moves) {
  GameView view;
  view.plies.reserve(moves.size() + 1);
  view.plies.emplace_back(start);
  Position pos = start;
  // Numbered as records are: from the start's ply, up after each Black move.
  int number = start.ply() / 2 + 1;
  for (Move m : moves) {
    ViewPly ply(pos);
    ply.move = MoveToString(pos, m);
    ply.move_squares = MoveSquares(pos, m);
    ply.number = number;
    if (pos.side_to_move() == Side::kBlack) ++number;
    pos.Make(m);
    ply.position = pos;
    view.plies.push_back(std::move(ply));
  }
  return view;
}

absl::StatusOr<GameView> ViewRecord(const ParsedGame& game, const ReplayOptions& replay) {
  ReplayOptions options = replay;
  options.keep_moves = true;
  const ReplayReport report = ReplayGame(game, options);
  if (!report.valid || !report.start) {
    std::string why = "the game cannot be replayed";
    if (report.error) {
      const ReplayIssue& e = *report.error;
      why = e.ply > 0 ? absl::StrCat(e.at.line, ":", e.at.column, ": ply ", e.ply, " \"", e.move,
                                     "\": ", e.reason)
                      : absl::StrCat(e.at.line, ":", e.at.column, ": ", e.reason);
    }
    return absl::InvalidArgumentError(why);
  }
  return ViewReplay(game, report);
}

GameView ViewReplay(const ParsedGame& game, const ReplayReport& report) {
  GameView view = ViewGame(*report.start, report.moves);
  const GameRecord& record = game.record;
  view.tags = record.tags;
  view.comments = record.comments;
  for (size_t k = 0; k < record.moves.size() && k + 1 < view.plies.size(); ++k) {
    view.plies[k + 1].annotation = record.moves[k].annotation;
    view.plies[k + 1].comments = record.moves[k].comments;
  }
  if (report.game_score) {
    view.score = *report.game_score;
    view.counts = {view.score->white, view.score->black};
  }
  return view;
}

absl::Status ScoreView(GameView& view, const FinishOptions& count) {
  const Position& pos = view.final_position();
  if (!StatusOf(pos).scorable()) return absl::OkStatus();
  if (!view.score) {
    absl::StatusOr<GameScore> score = ScoreGame(pos, count);
    if (!score.ok()) return score.status();
    view.score = *score;
    view.counts = {score->white, score->black};
  }
  for (Side s : {Side::kWhite, Side::kBlack}) {
    if (view.counts[int(s)]) continue;
    absl::StatusOr<FinishResult> r = MinMovesToFinish(pos, s, count);
    if (!r.ok()) return r.status();
    view.counts[int(s)] = *r;
  }
  return absl::OkStatus();
}

std::string PlyStatus(const Position& pos) {
  const Side side = pos.side_to_move();
  const GameStatus status = StatusOf(pos);
  if (status.extra_move_pending)
    return "Black to move: its extra move (White has completed its goal)";
  switch (status.reason) {
    case EndReason::kNone:
      return absl::StrCat(SideName(side), " to move");
    case EndReason::kGoal:
      return absl::StrCat("Game over: ", pos.Completed(Side::kWhite) ? "White" : "Black",
                          " completed its goal");
    case EndReason::kExtraMove:
      return pos.Completed(Side::kBlack)
                 ? "Game over: both sides completed their goal"
                 : "Game over: White completed its goal, Black's extra move is over";
    case EndReason::kMoveLimit:
      return absl::StrCat("Game over: the move limit of ", pos.variant().rules().move_limit,
                          " moves each is reached");
    case EndReason::kBlocked:
      return absl::StrCat("Game over: ", SideName(side),
                          " has no legal move and loses (block=lose)");
  }
  return "Game over";
}

std::string CountText(const FinishResult& r) {
  if (!r.reachable) return "cannot finish (the goal is unreachable)";
  if (r.exact) return absl::StrCat(r.lower, r.lower == 1 ? " move" : " moves");
  if (r.upper == kUnknownMoves)
    return absl::StrCat("at least ", r.lower, " moves (not exact: a limit was reached)");
  return absl::StrCat("at least ", r.lower, " and at most ", r.upper,
                      " moves (not exact: a limit was reached)");
}

}  // namespace salta
