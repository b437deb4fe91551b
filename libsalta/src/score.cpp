#include "salta/score.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "salta/notation.h"

namespace salta {
namespace {

constexpr int kInfinite = 1 << 30;

// The proven interval of a count; unreachable is [inf, inf].
struct Range {
  int lo, hi;
};
Range RangeOf(const FinishResult& r) {
  if (!r.reachable) return {kInfinite, kInfinite};
  return {r.lower, r.upper == kUnknownMoves ? kInfinite : r.upper};
}

std::string NeedText(const FinishResult& r, Side side) {
  if (!r.reachable) return absl::StrCat(SideName(side), " cannot finish");
  if (r.exact)
    return absl::StrCat(SideName(side), " needs ", r.lower, r.lower == 1 ? " move" : " moves");
  if (r.upper == kUnknownMoves)
    return absl::StrCat(SideName(side), " needs at least ", r.lower, " moves, not exact");
  return absl::StrCat(SideName(side), " needs ", r.lower, " to ", r.upper, " moves, not exact");
}

absl::StatusOr<FinishResult> Count(const Position& pos, Side side, const FinishOptions& options,
                                   GameScore& score) {
  absl::StatusOr<FinishResult> r = MinMovesToFinish(pos, side, options);
  if (!r.ok()) return r.status();
  (side == Side::kWhite ? score.white : score.black) = *r;
  if (!r->exact) score.exact = false;
  return r;
}

// The winner is decided; the points are the loser's count.
void ScoreByLoserCount(GameScore& score, const FinishResult& need) {
  if (need.exact && need.reachable) {
    score.points = need.lower;
  } else {
    score.points = kUnknownMoves;
  }
}

std::string WinnerText(Outcome o) {
  return o == Outcome::kWhiteWins ? "White wins" : o == Outcome::kBlackWins ? "Black wins" : "";
}

}  // namespace

absl::StatusOr<GameScore> ScoreGame(const Position& pos, const FinishOptions& options) {
  GameScore score;
  const Rules& rules = pos.variant().rules();

  // White completed and Black's extra move is still to be played, or was cut
  // off by the move limit: scored as if Black played it optimally.
  const GameStatus status = StatusOf(pos);
  if (status.extra_move_pending || status.extra_move_cut) {
    score.reason = status.extra_move_cut ? EndReason::kMoveLimit : EndReason::kExtraMove;
    score.extra_move_credited = true;
    absl::StatusOr<FinishResult> need = Count(pos, Side::kBlack, options, score);
    if (!need.ok()) return need.status();
    if (!need->reachable) {
      score.outcome = Outcome::kWhiteWins;
      score.points = kUnknownMoves;
    } else if (need->exact) {
      score.points = std::max(need->lower - 1, 0);
      score.outcome = score.points > 0 ? Outcome::kWhiteWins : Outcome::kDraw;
    } else {
      score.points = kUnknownMoves;
      score.outcome = need->lower - 1 > 0 ? Outcome::kWhiteWins : Outcome::kUndecided;
    }
    score.summary =
        absl::StrCat(score.outcome == Outcome::kDraw ? "Draw" : WinnerText(score.outcome),
                     score.points > 0 ? absl::StrCat(" by ", score.points) : std::string(),
                     status.extra_move_cut
                         ? " (White completed as the move limit was reached; Black's extra move "
                           "not played, credited: "
                         : " (White completed; Black's extra move not played, credited: ",
                     NeedText(*need, Side::kBlack), ", less one)");
    return score;
  }

  if (!status.over())
    return absl::FailedPreconditionError(
        "the game is not over: no side has completed its goal and the move limit is not "
        "reached");
  score.reason = status.reason;
  score.outcome = status.outcome;

  switch (status.reason) {
    case EndReason::kExtraMove:
    case EndReason::kGoal: {
      if (status.outcome == Outcome::kDraw) {
        score.points = 0;
        score.summary = "Draw (both sides completed their goal)";
        return score;
      }
      const Side loser = status.outcome == Outcome::kWhiteWins ? Side::kBlack : Side::kWhite;
      absl::StatusOr<FinishResult> need = Count(pos, loser, options, score);
      if (!need.ok()) return need.status();
      ScoreByLoserCount(score, *need);
      score.summary = absl::StrCat(
          WinnerText(status.outcome),
          score.points != kUnknownMoves ? absl::StrCat(" by ", score.points) : std::string(), " (",
          NeedText(*need, loser), ")");
      return score;
    }
    case EndReason::kBlocked:
      score.points = 0;
      score.summary = absl::StrCat(WinnerText(status.outcome), " (", SideName(pos.side_to_move()),
                                   " is blocked and loses)");
      return score;
    case EndReason::kMoveLimit:
      break;
    case EndReason::kNone:
      break;
  }

  // The move limit.
  if (rules.limit_scoring == LimitScoring::kPieces) {
    const int w = PiecesHome(pos, Side::kWhite), b = PiecesHome(pos, Side::kBlack);
    score.points = std::abs(w - b);
    score.summary =
        absl::StrCat(w == b ? std::string("Draw")
                            : absl::StrCat(WinnerText(status.outcome), " by ", score.points),
                     " at the move limit (pieces home: White ", w, ", Black ", b, ")");
    return score;
  }
  absl::StatusOr<FinishResult> white = Count(pos, Side::kWhite, options, score);
  if (!white.ok()) return white.status();
  absl::StatusOr<FinishResult> black = Count(pos, Side::kBlack, options, score);
  if (!black.ok()) return black.status();
  const Range w = RangeOf(*white);
  Range b = RangeOf(*black);
  // Black moved second: credited with one move.
  if (b.lo < kInfinite) b.lo = std::max(b.lo - 1, 0);
  if (b.hi < kInfinite) b.hi = std::max(b.hi - 1, 0);
  if (w.hi < b.lo)
    score.outcome = Outcome::kWhiteWins;
  else if (b.hi < w.lo)
    score.outcome = Outcome::kBlackWins;
  else if (w.lo == w.hi && b.lo == b.hi)
    score.outcome = Outcome::kDraw;
  else
    score.outcome = Outcome::kUndecided;
  const bool both_known = w.lo == w.hi && b.lo == b.hi;
  if (score.outcome == Outcome::kDraw)
    score.points = 0;
  else if (both_known && w.lo < kInfinite && b.lo < kInfinite)
    score.points = std::abs(w.lo - b.lo);
  else
    score.points = kUnknownMoves;
  score.summary =
      absl::StrCat(score.outcome == Outcome::kDraw        ? std::string("Draw")
                   : score.outcome == Outcome::kUndecided ? std::string("Undecided")
                                                          : WinnerText(score.outcome),
                   score.points > 0 ? absl::StrCat(" by ", score.points) : std::string(),
                   " at the move limit (", NeedText(*white, Side::kWhite), "; ",
                   NeedText(*black, Side::kBlack), ", less one for moving second)");
  return score;
}

}  // namespace salta
