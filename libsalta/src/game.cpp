#include "salta/game.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "salta/legality.h"
#include "salta/movegen.h"
#include "salta/notation.h"
#include "salta/text.h"

namespace salta {

absl::StatusOr<const Variant*> MakeVariant(absl::string_view rules_text,
                                           const std::vector<std::string>& overrides, int size,
                                           int rows) {
  absl::StatusOr<Rules> rules = Rules::Parse(rules_text);
  if (!rules.ok()) return rules.status();
  for (const std::string& o : overrides)
    if (absl::Status s = rules->SetFromString(o); !s.ok()) return s;
  absl::StatusOr<Geometry> geometry = Geometry::Make(size, rows);
  if (!geometry.ok()) return geometry.status();
  return Variant::Get(*geometry, *rules);
}

namespace {

// "12." or "12..." (Black to move next).
bool IsMoveNumber(absl::string_view word) {
  size_t digits = 0;
  while (digits < word.size() && absl::ascii_isdigit(word[digits])) ++digits;
  if (digits == 0 || digits == word.size()) return false;
  for (size_t i = digits; i < word.size(); ++i)
    if (word[i] != '.') return false;
  return true;
}

}  // namespace

absl::Status PlayMoves(Position& pos, absl::string_view moves) {
  std::vector<Move> played;
  return PlayMoves(pos, moves, played);
}

absl::Status PlayMoves(Position& pos, absl::string_view moves, std::vector<Move>& played_moves) {
  int played = 0;
  for (absl::string_view word :
       absl::StrSplit(moves, absl::ByAnyChar(" \t\r\n"), absl::SkipWhitespace())) {
    // Move numbers: "12." or "12..." (Black to move).
    if (IsMoveNumber(word)) continue;
    ++played;
    const Side side = pos.side_to_move();
    absl::StatusOr<Move> move = ParseMove(pos, word);
    if (!move.ok())
      return absl::InvalidArgumentError(EscapeForMessage(
          absl::StrCat("illegal move \"", word, "\" at ply ", pos.ply() + 1, " (move ",
                       pos.ply() / 2 + 1, ", ", SideName(side), "; the ", played,
                       played == 1   ? "st"
                       : played == 2 ? "nd"
                       : played == 3 ? "rd"
                                     : "th",
                       " move given): ", move.status().message())));
    pos.Make(*move);
    played_moves.push_back(*move);
  }
  return absl::OkStatus();
}

absl::string_view EndReasonName(EndReason r) {
  switch (r) {
    case EndReason::kNone:
      return "none";
    case EndReason::kGoal:
      return "goal";
    case EndReason::kExtraMove:
      return "extra-move";
    case EndReason::kMoveLimit:
      return "move-limit";
    case EndReason::kBlocked:
      return "blocked";
  }
  return "none";
}

std::string ResultToken(Outcome outcome) {
  switch (outcome) {
    case Outcome::kWhiteWins:
      return "1-0";
    case Outcome::kBlackWins:
      return "0-1";
    case Outcome::kDraw:
      return "1/2-1/2";
    case Outcome::kNone:
    case Outcome::kUndecided:
      return "*";
  }
  return "*";
}

std::string WhyOver(const Position& pos) {
  const GameStatus st = StatusOf(pos);
  const int limit = pos.variant().rules().move_limit;
  switch (st.reason) {
    case EndReason::kGoal:
      return absl::StrCat(pos.Completed(Side::kWhite) ? "White" : "Black", " completed its goal");
    case EndReason::kExtraMove:
      if (pos.Completed(Side::kBlack))
        return "White completed its goal and Black completed its own with its extra move";
      if (pos.side_to_move() == Side::kBlack)
        return "White completed its goal and Black has no move for its extra move";
      return "White completed its goal and Black's extra move ended the game";
    case EndReason::kMoveLimit:
      return absl::StrCat(
          "the move limit of ", limit, limit == 1 ? " move" : " moves", " each was reached",
          st.extra_move_cut ? " as White completed its goal, before Black's extra move" : "");
    case EndReason::kBlocked:
      return absl::StrCat(SideName(pos.side_to_move()), " has no legal move and has lost",
                          " (block=lose)");
    case EndReason::kNone:
      break;
  }
  return "";
}

int PiecesHome(const Position& pos, Side s) {
  int home = 0;
  for (PieceId p = int(s) * kPiecesPerSide; p < (int(s) + 1) * kPiecesPerSide; ++p)
    home += pos.square_of(p) != kNoSquare && pos.square_of(p) == pos.variant().target(p);
  return home;
}

GameStatus StatusOf(const Position& pos) {
  if (pos.phase() == Phase::kExtraMove) return {.extra_move_pending = true};
  if (pos.phase() != Phase::kOver) return {};
  const Rules& rules = pos.variant().rules();
  const bool white = pos.Completed(Side::kWhite), black = pos.Completed(Side::kBlack);
  if (white && black) return {EndReason::kExtraMove, Outcome::kDraw};
  if (black) return {EndReason::kGoal, Outcome::kBlackWins};
  const int limit = pos.variant().limit_ply();
  if (white && rules.extra_move && pos.side_to_move() == Side::kBlack && limit > 0 &&
      pos.ply() >= limit && IsMobile(pos, Side::kBlack))
    return {
        .reason = EndReason::kMoveLimit, .outcome = Outcome::kUndecided, .extra_move_cut = true};
  if (white)
    return {rules.extra_move ? EndReason::kExtraMove : EndReason::kGoal, Outcome::kWhiteWins};
  if (limit == 0 || pos.ply() < limit)  // block=lose: the side to move has no move
    return {EndReason::kBlocked,
            pos.side_to_move() == Side::kWhite ? Outcome::kBlackWins : Outcome::kWhiteWins};
  if (rules.limit_scoring == LimitScoring::kPieces) {
    const int w = PiecesHome(pos, Side::kWhite), b = PiecesHome(pos, Side::kBlack);
    return {EndReason::kMoveLimit, w > b   ? Outcome::kWhiteWins
                                   : w < b ? Outcome::kBlackWins
                                           : Outcome::kDraw};
  }
  return {EndReason::kMoveLimit, Outcome::kUndecided};
}

}  // namespace salta
