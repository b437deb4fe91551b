// Playing moves from text, and how a game stands: in play or over, why, and
// who won where that needs no counting.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "salta/position.h"
#include "salta/variant.h"

namespace salta {

// The variant named by rules as a Rules tag writes them (a preset, then
// KEY=VALUE options: "standard move-limit=120", what the tools print as
// "rules"), KEY=VALUE overrides and a geometry; the error says which
// option or value is wrong and lists the valid ones.
absl::StatusOr<const Variant*> MakeVariant(absl::string_view rules_text,
                                           const std::vector<std::string>& overrides, int size,
                                           int rows);

// Plays moves written in notation, separated by spaces (move numbers such as
// "12." are skipped). The first illegal one stops it with an error naming the
// move, its ply in the game (pos.ply() + 1), its move number, the side, its
// place in the list and why. pos is left after the last legal move.
absl::Status PlayMoves(Position& pos, absl::string_view moves);
// The same, and appends each move played to `played`.
absl::Status PlayMoves(Position& pos, absl::string_view moves, std::vector<Move>& played);

enum class EndReason {
  kNone,       // in play
  kGoal,       // a side completed its goal and no extra move follows
  kExtraMove,  // White completed and Black's extra move is over (or it had none)
  kMoveLimit,  // the move limit was reached
  kBlocked,    // block=lose: the side to move has no legal move and loses
};
absl::string_view EndReasonName(EndReason r);  // "goal", "extra-move", ...

enum class Outcome { kNone, kWhiteWins, kBlackWins, kDraw, kUndecided };

// How a game stands: the one judgement of the game's end that replay,
// scoring, self-play, the tools and the endgame tables all make through
// StatusOf. The winner's points, which need the scoring count, are added by
// ScoreGame (score.h) on top of this judgement.
struct GameStatus {
  EndReason reason = EndReason::kNone;
  // kUndecided: over by the move limit with limit-scoring=moves, where the
  // outcome needs both sides' counts (see finish.h).
  Outcome outcome = Outcome::kNone;
  // White has completed and Black's compensating move is still to be made:
  // not over yet, but a record that stops here is scored (score.h).
  bool extra_move_pending = false;
  // White completed with the move that reached the move limit (a position
  // whose ply does not match its side to move): over by the move limit
  // before Black's extra move, which the score credits as when it is
  // pending (docs/rules.md §8). The outcome then needs Black's count.
  bool extra_move_cut = false;
  bool over() const { return reason != EndReason::kNone; }
  // Over, or stopped where the rules still give a score.
  bool scorable() const { return over() || extra_move_pending; }
};
GameStatus StatusOf(const Position& pos);

// Why a game that is over is over, in words: "White completed its goal and
// Black's extra move ended the game", "the move limit of 120 moves each was
// reached", ... (for messages; "" when the game is in play).
std::string WhyOver(const Position& pos);

// The result as written in records: "1-0", "0-1", "1/2-1/2"; "*" while in
// play or undecided.
std::string ResultToken(Outcome outcome);

// The number of pieces of s on their targets.
int PiecesHome(const Position& pos, Side s);

}  // namespace salta
