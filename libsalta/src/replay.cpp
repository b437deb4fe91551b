#include "salta/replay.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "salta/legality.h"
#include "salta/movegen.h"
#include "salta/notation.h"
#include "salta/text.h"

namespace salta {
namespace {

// The outcome of a count where it is decided, and its points where known.
std::optional<CountedScore> CountedScoreOf(const absl::StatusOr<GameScore>& score) {
  if (!score.ok() || score->outcome == Outcome::kUndecided || score->outcome == Outcome::kNone)
    return std::nullopt;
  CountedScore counted{score->outcome, std::nullopt};
  if (score->points != kUnknownMoves) counted.points = score->points;
  return counted;
}

// A square written as "c3" or "32", without building error messages; -1 if
// the text is not a plain square of the board (ParseSquare then says why).
int FastSquare(const Geometry& g, const char* p, size_t n) {
  if (n < 2 || n > 3) return -1;
  if (p[0] >= 'a' && p[0] <= 'j') {
    int rank = 0;
    for (size_t k = 1; k < n; ++k) {
      if (p[k] < '0' || p[k] > '9') return -1;
      rank = rank * 10 + (p[k] - '0');
    }
    const int file = p[0] - 'a';
    if (file >= g.size() || rank < 1 || rank > g.size()) return -1;
    const Square s = g.at(file, rank - 1);
    return s == kNoSquare ? -1 : s;
  }
  for (size_t k = 0; k < n; ++k)
    if (p[k] < '0' || p[k] > '9') return -1;
  const int rank = n == 2 ? p[0] - '0' : (p[0] - '0') * 10 + (p[1] - '0');
  const int index = p[n - 1] - '0';
  if (rank < 1 || rank > g.size() || index < 1 || index > g.half()) return -1;
  return (rank - 1) * g.half() + index - 1;
}

// "from-to" with two plain squares; false for anything else.
bool FastMoveText(const Geometry& g, const std::string& text, Square& from, Square& to) {
  const size_t dash = text.find('-');
  if (dash == std::string::npos || text.find('-', dash + 1) != std::string::npos) return false;
  const int a = FastSquare(g, text.data(), dash);
  const int b = FastSquare(g, text.data() + dash + 1, text.size() - dash - 1);
  if (a < 0 || b < 0) return false;
  from = a, to = b;
  return true;
}

// Variants are interned for the life of the process (variant.h), and a rules
// spec can name some 10^8 of them (move-limit alone takes 10,001 values). To
// keep memory bounded on any input, one process replays games under at most
// kMaxVariants different ones.
constexpr size_t kMaxVariants = 1024;

bool AdmitVariant(const Geometry& g, const Rules& rules) {
  static absl::Mutex mu;
  static auto* seen = new std::set<std::string>();
  std::string key = absl::StrCat(g.size(), "/", g.rows(), "/", rules.ToString());
  absl::MutexLock lock(&mu);
  if (seen->count(key)) return true;
  if (seen->size() >= kMaxVariants) return false;
  seen->insert(std::move(key));
  return true;
}

std::string ListJumps(const Position& pos, const MoveList& legal) {
  std::vector<std::string> names;
  for (Move m : legal)
    if (m.jump) names.push_back(MoveToString(pos, m));
  return absl::StrJoin(names, ", ");
}

// Why no move may follow: the game is over.
std::string EndText(const Position& pos, int ended_ply) {
  return absl::StrCat(WhyOver(pos), ended_ply > 0 ? absl::StrCat(" at ply ", ended_ply)
                                                  : std::string(" in the start position"));
}

class Replayer {
 public:
  Replayer(const ParsedGame& game, const ReplayOptions& options)
      : game_(game), record_(game.record), options_(options) {}

  ReplayReport Run() {
    // What the record says of how the game ended, whether its moves are
    // legal or not.
    if (const std::string* termination = record_.Tag("Termination"))
      report_.termination = *termination;
    if (Setup()) Moves();
    if (report_.valid && game_.error) SyntaxError();
    if (report_.valid) CheckResult();
    // An invalid game has no result, nor points (game_score keeps the count).
    if (!report_.valid) {
      report_.result.clear();
      report_.score.reset();
    }
    return std::move(report_);
  }

 private:
  void Error(ReplayIssue issue) {
    if (!report_.valid) return;
    report_.valid = false;
    report_.error = std::move(issue);
  }
  // At most kMaxWarnings warnings a game, then one that says how many more.
  static constexpr size_t kMaxWarnings = 100;
  void Warn(ReplayIssue issue) {
    ++report_.warning_count;
    if (report_.warnings.size() < kMaxWarnings) {
      report_.warnings.push_back(std::move(issue));
      return;
    }
    if (report_.warnings.size() == kMaxWarnings) report_.warnings.emplace_back();
    // It concerns no one move (ply 0); where is that of the last not listed.
    ReplayIssue& more = report_.warnings.back();
    more.at = issue.at;
    more.reason = absl::StrCat("and ", report_.warning_count - int(kMaxWarnings),
                               " more warnings, not listed");
  }
  static ReplayIssue At(SourcePos at, std::string reason) {
    ReplayIssue i;
    i.at = at;
    i.reason = std::move(reason);
    return i;
  }

  // An error of the set-up (a bad Rules, Board or Position tag), unless a
  // syntax error of the tag section comes before it in the text.
  void SetupError(SourcePos at, std::string reason) {
    if (TagSyntaxError() &&
        !(at.line < game_.error->at.line ||
          (at.line == game_.error->at.line && at.column < game_.error->at.column))) {
      SyntaxError();
      return;
    }
    Error(At(at, std::move(reason)));
  }
  bool TagSyntaxError() const { return game_.error && !game_.error->in_movetext; }

  bool Setup() {
    const std::string* rules_tag = record_.Tag("Rules");
    const std::string spec = rules_tag ? *rules_tag : options_.rules;
    const SourcePos rules_at = rules_tag ? record_.TagAt("Rules") : record_.start;
    absl::StatusOr<Rules> rules = Rules::Parse(spec);
    if (!rules.ok()) {
      SetupError(rules_at,
                 absl::StrCat(rules_tag ? "Rules tag: " : "rules: ", rules.status().message()));
      return false;
    }
    for (const std::string& o : options_.overrides)
      if (absl::Status s = rules->SetFromString(o); !s.ok()) {
        SetupError(record_.start, absl::StrCat("rule override: ", s.message()));
        return false;
      }
    report_.rules = rules->ToString();
    Geometry geometry;
    if (const std::string* board = record_.Tag("Board")) {
      absl::StatusOr<Geometry> g = ParseBoardTag(*board);
      if (!g.ok()) {
        SetupError(record_.TagAt("Board"), absl::StrCat("Board tag: ", g.status().message()));
        return false;
      }
      geometry = *g;
    }
    if (!AdmitVariant(geometry, *rules)) {
      SetupError(rules_tag ? rules_at : record_.start,
                 absl::StrCat("more than ", kMaxVariants,
                              " different rule sets and boards in one run: this game's are not "
                              "replayed (variants are kept for the life of the process)"));
      return false;
    }
    absl::StatusOr<const Variant*> variant = Variant::Get(geometry, *rules);
    if (!variant.ok()) {
      SetupError(record_.start, std::string(variant.status().message()));
      return false;
    }
    const std::string* position = record_.Tag("Position");
    absl::StatusOr<Position> pos = ParsePosition(**variant, position ? *position : "start");
    if (!pos.ok()) {
      SetupError(record_.TagAt("Position"), absl::StrCat("Position tag: ", pos.status().message()));
      return false;
    }
    if (TagSyntaxError()) {
      SyntaxError();
      return false;
    }
    report_.final_position.emplace(*pos);
    if (options_.keep_moves) report_.start.emplace(*pos);
    return true;
  }

  void Moves() {
    Position& pos = *report_.final_position;
    const Geometry& g = pos.variant().geometry();
    int number = pos.ply() / 2 + 1;
    number_ = number;
    int ended_ply = 0;  // the ply that ended the game (0: before the first move)
    // Lenient "Salta!": the ply at which each side missed a jump, still owed.
    int owed[2] = {0, 0};
    MoveList legal;
    for (size_t k = 0; k < record_.moves.size(); ++k) {
      const RecordMove& rm = record_.moves[k];
      const int ply = int(k) + 1;
      const Side side = pos.side_to_move();
      auto issue = [&](std::string reason) {
        ReplayIssue i;
        i.at = rm.at;
        i.ply = ply;
        i.move_number = number;
        i.side = side;
        i.move = rm.text;
        i.reason = std::move(reason);
        return i;
      };
      if (rm.number != 0 && (rm.number != number || rm.number_black != (side == Side::kBlack))) {
        ReplayIssue w = issue(absl::StrCat(
            "move number ", rm.number, rm.number_black ? "..." : ".", " should be ", number,
            side == Side::kBlack ? "..." : ".", " (", SideName(side), "'s move ", number, ")"));
        w.at = rm.number_at;
        Warn(std::move(w));
      }
      if (pos.over()) {
        Error(issue(absl::StrCat("move after the end of the game: ", EndText(pos, ended_ply))));
        return;
      }
      if (pos.ply() >= kMaxPly) {
        Error(issue(absl::StrCat("the ply limit is reached: a game has at most ", kMaxPly,
                                 " plies (half-moves)")));
        return;
      }
      GenerateLegal(pos, legal);
      if (legal.empty()) {
        Error(issue(absl::StrCat("move after the end of the game: ", EndText(pos, int(k)))));
        return;
      }
      Move move;
      bool found = false;
      Square from, to;
      if (rm.text == "--") {
        found = legal.size() == 1 && legal[0].is_pass();
      } else if (FastMoveText(g, rm.text, from, to)) {
        for (Move m : legal)
          if (m.from == from && m.to == to) {
            move = m;
            found = true;
            break;
          }
      }
      if (!found) {
        absl::StatusOr<MoveText> text = ParseMoveText(g, rm.text);
        if (!text.ok()) {
          Error(issue(std::string(text.status().message())));
          return;
        }
        absl::StatusOr<Move> resolved = ResolveMove(pos, *text);
        const bool missed = !resolved.ok() && options_.lenient && !text->is_pass() &&
                            IsMissedJump(pos, Move::Step(text->path.front(), text->path.back()));
        if (resolved.ok()) {
          move = *resolved;
        } else if (missed && owed[int(side)] == 0) {
          move = Move::Step(text->path.front(), text->path.back());
          Warn(issue(absl::StrCat("missed jump (Salta!): the legal jumps are ",
                                  ListJumps(pos, legal), "; ", SideName(side),
                                  " must jump on its next move if it can")));
          owed[int(side)] = ply;
        } else if (missed) {
          Error(issue(absl::StrCat("jump required (Salta!): the jump missed at ply ",
                                   owed[int(side)], " must be made now; the legal jumps are ",
                                   ListJumps(pos, legal))));
          return;
        } else {
          Error(issue(std::string(resolved.status().message())));
          return;
        }
      }
      // A jump owed since the side's previous move is settled by this one.
      if (owed[int(side)] != ply) owed[int(side)] = 0;
      pos.Make(move);
      if (options_.keep_moves) report_.moves.push_back(move);
      ++report_.plies;
      if (side == Side::kBlack) ++number;
      number_ = number;
      if (pos.over() && ended_ply == 0) ended_ply = ply;
      ended_ply_ = ended_ply;
    }
  }

  void SyntaxError() {
    const RecordError& e = *game_.error;
    ReplayIssue i = At(e.at, e.message);
    i.move = e.token;
    if (e.in_movetext && report_.final_position) {
      i.ply = report_.plies + 1;
      const Position& pos = *report_.final_position;
      i.side = pos.side_to_move();
      i.move_number = number_;
    } else if (e.in_movetext) {
      i.ply = int(record_.moves.size()) + 1;
    }
    Error(std::move(i));
  }

  void CheckResult() {
    const Position& pos = *report_.final_position;
    const std::string* tag = record_.Tag("Result");
    const SourcePos tag_at = record_.TagAt("Result");
    const std::string& token = record_.result;
    // Tags and the result concern no move: ply 0 (docs/salta-validate.md).
    auto issue = [&](SourcePos at, std::string reason) { return At(at, std::move(reason)); };
    if (tag && !IsResultToken(*tag)) {
      Error(issue(tag_at, absl::StrCat("Result tag \"", *tag,
                                       "\" is not a result: 1-0, 0-1, 1/2-1/2 or *")));
      return;
    }
    if (tag && !token.empty() && *tag != token) {
      Error(issue(record_.result_at,
                  absl::StrCat("the result token ", token, " does not match the Result tag \"",
                               *tag, "\" (line ", tag_at.line, ")")));
      return;
    }
    if (!tag && token.empty())
      Warn(issue(record_.start, "no result: neither a Result tag nor a result token"));
    else if (token.empty())
      Warn(issue(record_.start, "the movetext does not end with a result token"));
    const std::string claimed = tag ? *tag : token;
    const SourcePos claimed_at = tag ? tag_at : record_.result_at;

    const GameStatus st = StatusOf(pos);
    report_.end = st.reason;
    report_.finished = st.over();
    if (st.reason == EndReason::kBlocked) ended_ply_ = report_.plies;
    const bool extra_pending = st.extra_move_pending;
    // The scoring count, computed only where the result or a Score tag needs it.
    const bool needs_count =
        st.scorable() && (record_.Tag("Score") != nullptr || st.outcome == Outcome::kUndecided ||
                          (extra_pending && claimed != "*" && claimed != "0-1"));
    std::optional<CountedScore> counted;
    if (needs_count) {
      absl::StatusOr<GameScore> game_score = ScoreGame(pos, options_.count);
      counted = CountedScoreOf(game_score);
      if (game_score.ok()) report_.game_score = *std::move(game_score);
    }
    const std::string* score_tag = record_.Tag("Score");
    const SourcePos score_at = record_.TagAt("Score");
    std::optional<int> score_claimed;
    if (score_tag) {
      int v = 0;
      if (!ParseDigits(*score_tag, v) || v > 100000) {
        Error(issue(score_at, absl::StrCat("Score tag \"", *score_tag,
                                           "\" is not a whole number of points from 0 to 100000")));
        return;
      }
      score_claimed = v;
    }

    std::string expected;  // "" when it needs a count we do not have
    std::string why;
    if (st.over() && st.outcome != Outcome::kUndecided) {
      expected = ResultToken(st.outcome);
      why = absl::StrCat("the game is over: ", EndText(pos, ended_ply_));
    } else if (st.over()) {
      why = absl::StrCat("the game is over: ", EndText(pos, ended_ply_),
                         "; the result needs both sides' counts");
      if (counted) expected = ResultToken(counted->outcome);
    } else if (extra_pending) {
      why = "White has completed its goal and Black's extra move is not recorded";
      if (claimed == "*") {
        // The record stops before the extra move: nothing to contradict.
      } else if (claimed == "0-1") {
        Error(issue(claimed_at, absl::StrCat("the result 0-1 is impossible: ", why,
                                             "; White wins or the game is drawn")));
        return;
      } else if (counted) {
        expected = ResultToken(counted->outcome);
      }
    } else {
      // Not over by the moves: as in PGN, a game may end by resignation,
      // agreement, adjudication or time (the Termination tag says how), so
      // any result is the record's to give.
      expected = claimed.empty() ? "*" : claimed;
      why = absl::StrCat("the game is not over after ply ", report_.plies,
                         " (no goal completed, no move limit reached)");
    }

    if (counted) report_.score = counted->points;  // empty where not known
    if (!expected.empty()) {
      report_.result = expected;
    } else if (extra_pending && claimed == "*") {
      report_.result.assign(1, '*');
    } else {
      report_.result.assign(1, '?');
    }
    if (!claimed.empty() && !expected.empty() && claimed != expected) {
      // "*" records no result. At the move limit the recorder may not have
      // known it (salta-play writes "*" where its count does not decide it
      // within its node limit): a count with more nodes finds it, contradicting
      // nothing. (Where Black's extra move is not recorded, nothing was
      // expected of "*".)
      if (claimed == "*" && st.over() && st.outcome == Outcome::kUndecided) {
        Warn(issue(claimed_at, absl::StrCat("the result * records no result: ", why,
                                            ", which give ", expected)));
      } else {
        Error(issue(claimed_at, absl::StrCat("the result ", claimed, " is wrong: ", why,
                                             ", so the result is ", expected)));
        return;
      }
    }
    if (!claimed.empty() && expected.empty() && !(extra_pending && claimed == "*"))
      Warn(issue(claimed_at,
                 absl::StrCat("result ", claimed, " not checked: ", why,
                              "; the scoring count does not decide it within its node limit")));

    if (!score_claimed) return;
    if (!st.scorable()) {
      Error(issue(score_at, absl::StrCat("Score tag \"", *score_tag, "\" but ", why)));
      return;
    }
    if (st.over() && st.outcome == Outcome::kDraw && *score_claimed != 0) {
      Error(issue(score_at, absl::StrCat("Score ", *score_claimed,
                                         " is wrong: the game is drawn, which scores 0")));
      return;
    }
    // Every count exact and still no points: one the score needs is infinite.
    if (counted && !counted->points && report_.game_score->exact) {
      const GameScore& s = *report_.game_score;
      const Side cannot = s.white && !s.white->reachable ? Side::kWhite : Side::kBlack;
      Error(issue(score_at, absl::StrCat("Score tag \"", *score_tag, "\" but ", SideName(cannot),
                                         " cannot finish its goal (its count is infinite), and "
                                         "the rules give no points then")));
      return;
    }
    if (!counted || !counted->points) {
      if (!(st.over() && st.outcome == Outcome::kDraw))
        Warn(issue(
            score_at,
            absl::StrCat("score not checked: Score ", *score_claimed,
                         " needs the scoring count, which is not available (not exact within its "
                         "node limit)")));
      return;
    }
    if (*counted->points != *score_claimed)
      Error(issue(score_at, absl::StrCat("Score ", *score_claimed,
                                         " is wrong: the winner's score is ", *counted->points)));
  }

  const ParsedGame& game_;
  const GameRecord& record_;
  const ReplayOptions& options_;
  ReplayReport report_;
  int ended_ply_ = 0;  // the ply that ended the game
  int number_ = 0;     // the move number of the next move
};

}  // namespace

ReplayReport ReplayGame(const ParsedGame& game, const ReplayOptions& options) {
  return Replayer(game, options).Run();
}

absl::StatusOr<Geometry> ParseBoardTag(absl::string_view text) {
  const std::string usage = EscapeForMessage(absl::StrCat(
      "\"", text, "\": expected \"NxN, R rows\" (e.g. \"8x8, 2 rows\"), \"NxN\" or \"N\""));
  std::vector<absl::string_view> parts = absl::StrSplit(text, ',');
  if (parts.size() > 2) return absl::InvalidArgumentError(usage);
  absl::string_view size_text = absl::StripAsciiWhitespace(parts[0]);
  int n = 0, n2 = 0;
  if (const size_t x = size_text.find_first_of("xX"); x != absl::string_view::npos) {
    if (!ParseDigits(absl::StripAsciiWhitespace(size_text.substr(0, x)), n) ||
        !ParseDigits(absl::StripAsciiWhitespace(size_text.substr(x + 1)), n2))
      return absl::InvalidArgumentError(usage);
    if (n != n2) return absl::InvalidArgumentError(absl::StrCat(usage, "; boards are square"));
  } else if (!ParseDigits(size_text, n)) {
    return absl::InvalidArgumentError(usage);
  }
  int rows = std::min(3, (n - 1) / 2);
  if (parts.size() == 2) {
    std::vector<absl::string_view> words = absl::StrSplit(parts[1], ' ', absl::SkipWhitespace());
    if (words.size() != 2 || (words[1] != "rows" && words[1] != "row") ||
        !ParseDigits(words[0], rows))
      return absl::InvalidArgumentError(usage);
  }
  return Geometry::Make(n, rows);
}

FinishOptions ScoreCountOptions(uint64_t node_limit) {
  FinishOptions options;
  options.node_limit = node_limit;
  options.reuse_cached_patterns = false;
  return options;
}

std::optional<CountedScore> ScoreByCount(const Position& final_position,
                                         const FinishOptions& options) {
  return CountedScoreOf(ScoreGame(final_position, options));
}

}  // namespace salta
