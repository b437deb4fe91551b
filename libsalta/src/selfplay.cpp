#include "salta/selfplay.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "absl/strings/str_cat.h"
#include "salta/movegen.h"
#include "salta/notation.h"
#include "salta/random.h"
#include "salta/replay.h"
#include "salta/text.h"

namespace salta {
namespace {

Move Choose(const Position& pos, const MoveList& legal, Player player, int noise, Random& rng) {
  if (legal.size() == 1) return legal[0];
  if (player == Player::kRandom || rng.Below(100) < noise) return legal[rng.Below(legal.size())];
  const Variant& v = pos.variant();
  const Geometry& g = v.geometry();
  int best = 1 << 30;
  std::vector<Move> best_moves;
  for (Move m : legal) {
    const PieceId p = pos.piece_on(m.from);
    const Square target = v.target(p);
    const int gain = g.distance(m.to, target) - g.distance(m.from, target);
    // Completing the goal beats everything.
    const int score = pos.Completes(m) ? -1000 : gain;
    if (score < best) {
      best = score;
      best_moves.clear();
    }
    if (score == best) best_moves.push_back(m);
  }
  return best_moves[rng.Below(int(best_moves.size()))];
}

}  // namespace

absl::StatusOr<Player> ParsePlayer(absl::string_view name) {
  if (name == "random") return Player::kRandom;
  if (name == "greedy") return Player::kGreedy;
  return absl::InvalidArgumentError(EscapeForMessage(
      absl::StrCat("unknown player \"", name, "\": the players are random and greedy")));
}

absl::string_view PlayerName(Player p) {
  return p == Player::kRandom ? "random" : "greedy";
}

SelfPlayGame PlayGame(const Position& start, const SelfPlayOptions& options, uint64_t seed,
                      uint64_t game) {
  Random rng(seed * 0x2545F4914F6CDD1Dull ^ (game + 1) * 0x9E3779B97F4A7C15ull);
  rng.Next();
  const Variant& v = start.variant();
  SelfPlayGame out;
  GameRecord& r = out.record;
  r.SetTag("Event", "salta-play");
  r.SetTag("Round", absl::StrCat(game + 1));
  r.SetTag("White", PlayerName(options.white));
  r.SetTag("Black", PlayerName(options.black));
  r.SetTag("Result", "*");
  r.SetTag("Rules", v.rules().ToString());
  if (!(v.geometry() == Geometry())) r.SetTag("Board", v.geometry().ToString());
  if (!(start == Position::Start(v))) r.SetTag("Position", PositionToString(start));

  Position pos = start;
  MoveList legal;
  const int max_plies =
      options.max_plies == 0 ? kMaxRecordMoves : std::min(options.max_plies, kMaxRecordMoves);
  while (out.plies < max_plies) {
    if (pos.over() || pos.ply() >= kMaxPly) break;
    GenerateLegal(pos, legal);
    if (legal.empty()) break;  // block=lose: the side to move has lost
    const Player player = pos.side_to_move() == Side::kWhite ? options.white : options.black;
    const Move m = Choose(pos, legal, player, options.greedy_noise_percent, rng);
    RecordMove& rm = r.moves.emplace_back();
    rm.text = MoveToString(pos, m);
    pos.Make(m);
    ++out.plies;
  }
  out.status = StatusOf(pos);
  std::string result = "*";
  if (out.status.over()) {
    if (out.status.outcome != Outcome::kUndecided) result = ResultToken(out.status.outcome);
    if (std::optional<CountedScore> counted =
            options.score ? ScoreByCount(pos, options.count) : std::nullopt) {
      result = ResultToken(counted->outcome);
      if (counted->points) r.SetTag("Score", absl::StrCat(*counted->points));
    }
  }
  r.SetTag("Result", result);
  r.result = result;
  return out;
}

}  // namespace salta
