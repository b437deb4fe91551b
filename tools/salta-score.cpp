// salta-score: the minimum moves to finish of each side (the exact scoring
// count), and the result and score of a finished game. docs/salta-score.md.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli.h"
#include "input.h"
#include "issue.h"
#include "nlohmann/json.hpp"
#include "salta/finish.h"
#include "salta/game.h"
#include "salta/notation.h"
#include "salta/reach.h"
#include "salta/record.h"
#include "salta/replay.h"
#include "salta/score.h"
#include "tool.h"

namespace {

constexpr int kExitExact = 0;
constexpr int kExitBoundsOnly = 3;

std::string SideKey(salta::Side s) {
  return s == salta::Side::kWhite ? "white" : "black";
}

// Why a count is unreachable, in words: the piece that cannot get home, and why.
std::string UnreachableText(const salta::Position& pos, salta::Side side) {
  return salta::UnreachablePiece(pos, side).value_or(salta::kPiecesBlockEachOther);
}

nlohmann::json CountJson(const salta::FinishResult& r, const salta::Position& pos, salta::Side side,
                         bool solution) {
  auto number = [](int v) {
    return v == salta::kUnknownMoves ? nlohmann::json() : nlohmann::json(v);
  };
  nlohmann::json j = {{"moves", number(r.moves())},
                      {"exact", r.exact},
                      {"reachable", r.reachable},
                      {"lower", number(r.reachable ? r.lower : salta::kUnknownMoves)},
                      {"upper", number(r.reachable ? r.upper : salta::kUnknownMoves)},
                      {"seconds", r.seconds},
                      {"nodes", r.nodes}};
  if (!r.reachable) j["unreachable"] = UnreachableText(pos, side);
  if (solution) {
    // Exact: an optimal sequence; else the shortest found (as long as
    // upper), not proven optimal; empty when none was found.
    j["solution"] =
        r.reachable ? salta::SolutionWords(pos, side, r.solution) : std::vector<std::string>();
    j["solution_optimal"] = r.exact && r.reachable;
  }
  return j;
}

std::string CountText(const salta::FinishResult& r, const salta::Position& pos, salta::Side side) {
  if (!r.reachable)
    return absl::StrCat("cannot finish (unreachable: ", UnreachableText(pos, side), ")");
  const std::string stats =
      absl::StrCat(r.nodes, " nodes, ", absl::StrFormat("%.3f", r.seconds), " s");
  if (r.exact) return absl::StrCat(r.lower, r.lower == 1 ? " move" : " moves", " (", stats, ")");
  return absl::StrCat("not exact: at least ", r.lower, " moves",
                      r.upper == salta::kUnknownMoves ? std::string(", no upper bound found")
                                                      : absl::StrCat(", at most ", r.upper),
                      " (limit reached; ", stats, ")");
}

// The final position of game `k` (from 1) of a record file ("-": standard
// input), or an error with, in `where`, the place it concerns (its file
// empty when the message names its input itself). An error in the record is
// located as salta-validate does: "FILE:LINE:COLUMN: game K: invalid: ...".
// The replay counts where the record's result or Score tag needs it, with
// `count` (the tool's own options): its score, in `counted`, is then not
// counted again.
absl::Status PositionFromRecord(const std::string& file, int k, const std::string& rules_text,
                                bool rules_given, const std::vector<std::string>& overrides,
                                const salta::FinishOptions& count,
                                std::optional<salta::Position>& out,
                                std::optional<salta::GameScore>& counted,
                                salta::tools::Where& where) {
  absl::StatusOr<std::unique_ptr<salta::tools::Input>> in = salta::tools::Input::Open(file);
  if (!in.ok()) return in.status();
  salta::RecordReader reader((*in)->stream());
  salta::ParsedGame game;
  for (int i = 1;; ++i) {
    if (!reader.Next(game)) {
      if (absl::Status s = (*in)->status(); !s.ok()) return s;
      where.file = file;
      return salta::tools::MissingGame(i - 1, k);
    }
    if (i == k) break;
  }
  salta::ReplayOptions options;
  if (rules_given) options.rules = rules_text;
  options.overrides = overrides;
  options.count = count;
  salta::ReplayReport report = salta::ReplayGame(game, options);
  if (!report.valid || !report.final_position) {
    where.file = file;
    if (!report.error) return absl::InvalidArgumentError(absl::StrCat("game ", k, ": invalid"));
    where.at = report.error->at;
    return absl::InvalidArgumentError(
        absl::StrCat("game ", k, ": invalid: ", salta::tools::IssueText(*report.error)));
  }
  out = *report.final_position;
  counted = std::move(report.game_score);
  return absl::OkStatus();
}

int Run(salta::tools::Tool& tool, int argc, char** argv) {
  CLI::App app{
      "Counts the minimum number of moves each side needs to complete its goal, on a board\n"
      "clear of the opponent's pieces (the scoring count), and prints the result and score\n"
      "when the game is over or the move limit is reached.\n\n"
      "Exit status: 0 every count exact; 3 a time limit was reached and some count is only\n"
      "bounded; 2 bad arguments, position, moves or record, output that cannot be written,\n"
      "or an error reading or writing the pattern tables (the message says which)."};
  std::string position_text = "start", moves_text, record_file, side_text = "both";
  int game_number = 1;
  double time_limit = 0;
  bool solution = false, json = false, build_patterns = false;
  int bound_table_mb = salta::kDefaultBoundTableMegabytes;
  int threads = 0;
  int pattern_size = -1;
  std::string pattern_dir = salta::DefaultPatternDir();
  salta::tools::VariantFlags variant_flags;
  variant_flags.Add(app);
  auto* position_opt =
      app.add_option("--position", position_text, "The position (docs/notation.md), or \"start\"");
  auto* moves_opt = app.add_option(
      "--moves", moves_text,
      "Play these moves first (from --position, else the start), e.g. \"c3-d4 h8-g7\"");
  auto* record_opt =
      app.add_option("--record", record_file,
                     "Score the final position of a game record file (- for standard input)")
          ->check(salta::tools::NonEmpty());
  app.add_option("--game", game_number, "Which game of the --record file, from 1")
      ->capture_default_str()
      ->transform(salta::tools::Integer(1, 1000000000))
      ->needs(record_opt);
  record_opt->excludes(position_opt)->excludes(moves_opt);
  app.add_option("--side", side_text, "Whose count: white, black or both")
      ->capture_default_str()
      ->check(salta::tools::OneOf({"white", "black", "both"}));
  app.add_option(
         "--time-limit", time_limit,
         "Seconds allowed for each count; 0 for none (most counts take milliseconds, but a few "
         "far from home, after random play, take far longer). When reached, proven bounds "
         "are printed and the exit status is 3")
      ->capture_default_str()
      ->transform(salta::tools::Real(0, 1e9));
  salta::tools::AddBoundTableOption(app, bound_table_mb);
  salta::tools::AddThreadsOption(app, threads)
      ->description(
          "Threads a count may run on: 1, or 2 or more (0: every core) to count from the goal "
          "back on a thread of its own, side by side with the count to the goal, where both "
          "directions apply (steps only): a slow count ends in about half the time. A count "
          "never uses more than 2. The counts are the same; nodes may differ from run to run");
  auto* solution_opt = app.add_flag(
      "--solution", solution,
      "Also print a move sequence for each side: optimal when the count is exact, else "
      "the shortest found (the upper bound), marked as not proven optimal");
  app.add_option("--pattern-dir", pattern_dir,
                 "Keep the pattern tables (RocksDB) in this directory, so that later runs start "
                 "with them; \"\" for none (built in memory each run)")
      ->capture_default_str();
  app.add_option(
         "--pattern-size", pattern_size,
         "The most pieces one pattern table covers: -1 by the board (4 on 10x10), 0 none, "
         "up to 5. Tables of 5 on 10x10 (nine of 312 MB, 2.8 GB in memory) are built "
         "ahead only, with --build-patterns (about 25 s), and take seconds to load: for many "
         "counts in one run (not loaded under a --time-limit of less than 5 s). Without them a "
         "count uses those of the board")
      ->capture_default_str()
      ->transform(salta::tools::Integer(-1, salta::kMaxPatternGroupSize));
  app.add_flag("--build-patterns", build_patterns,
               "Build the pattern tables of the variant (--rules, --rule, --board, --rows, "
               "--pattern-size) into --pattern-dir, a table a core, then exit")
      // It counts nothing: what to count, or to print of a count, is
      // refused rather than ignored.
      ->excludes(position_opt)
      ->excludes(moves_opt)
      ->excludes(record_opt)
      ->excludes(solution_opt);
  app.add_flag("--json", json,
               "Print one JSON object on one line: white, black (moves, exact, reachable, lower, "
               "upper, seconds, nodes, unreachable; solution and solution_optimal with "
               "--solution), result, score, reason; errors too, as {\"error\": ...}");
  if (int status = salta::tools::ParseCommandLine(app, tool, argc, argv); status >= 0)
    return status;

  absl::StatusOr<const salta::Variant*> variant = variant_flags.Make();
  if (!variant.ok()) return tool.Fail(variant.status().message());
  salta::FinishOptions options;
  options.time_limit_seconds = time_limit;
  options.want_solution = solution;
  options.bound_table_megabytes = bound_table_mb;
  options.threads = threads;
  options.pattern_dir = pattern_dir;
  options.pattern_group_size = pattern_size;
  // Each note once, though every count (both sides) may make it.
  std::set<std::string> noted;
  options.report = [&tool, &noted](const std::string& message) {
    if (noted.insert(message).second) tool.Note(message);
  };
  if (build_patterns) {
    if (pattern_dir.empty()) return tool.Fail("--build-patterns needs a --pattern-dir");
    const salta::Position start = salta::Position::Start(**variant);
    for (salta::Side s : {salta::Side::kWhite, salta::Side::kBlack})
      if (absl::Status st = salta::PreparePatternDatabases(start, s, options); !st.ok())
        return tool.Fail(st.message());
    if (json)
      tool.out() << nlohmann::json{{"pattern_dir", pattern_dir}, {"ready", true}}.dump() << "\n";
    else
      tool.out() << "Pattern tables ready in " << pattern_dir << "\n";
    return kExitExact;
  }
  // Progress on a terminal (not with --json); elsewhere a count without a
  // limit that runs long says so once, so that a script's log shows why.
  const bool show_progress = !json && isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  std::string label;
  bool progress_shown = false, long_run_noted = false;
  options.progress = [&](int lower, uint64_t nodes) {
    const double t =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (show_progress) {
      if (t < 1) return;
      std::fprintf(stderr, "\r%s: at least %d moves, %llu nodes, %.0f s\033[K", label.c_str(),
                   lower, (unsigned long long)nodes, t);
      progress_shown = true;
    } else if (time_limit == 0 && t >= 10 && !long_run_noted) {
      long_run_noted = true;
      tool.Note(absl::StrCat("still counting (", label, ": at least ", lower, " moves so far, ",
                             nodes, " nodes, ", int(t),
                             " s); a count without --time-limit runs until it is exact"));
    }
  };

  std::optional<salta::Position> pos;
  std::optional<salta::GameScore> counted;  // by the replay of a record
  label = "score";                          // (the first count is the score's)
  if (!record_file.empty()) {
    salta::tools::Where where;
    if (absl::Status s = PositionFromRecord(record_file, game_number, variant_flags.rules_text,
                                            variant_flags.rules_option->count() > 0,
                                            variant_flags.overrides, options, pos, counted, where);
        !s.ok())
      return where.file.empty() ? tool.Fail(s.message()) : tool.Fail(where, s.message());
  } else {
    absl::StatusOr<salta::Position> p = salta::ParsePosition(**variant, position_text);
    if (!p.ok()) return tool.Fail(p.status().message());
    pos = *p;
    if (absl::Status s = salta::PlayMoves(*pos, moves_text); !s.ok()) return tool.Fail(s.message());
  }

  std::vector<salta::Side> sides;
  if (side_text != "black") sides.push_back(salta::Side::kWhite);
  if (side_text != "white") sides.push_back(salta::Side::kBlack);

  // The result and score, when the game is over (or White completed and
  // Black's extra move is still to come).
  std::optional<salta::GameScore> score = std::move(counted);
  if (!score && salta::StatusOf(*pos).scorable()) {
    absl::StatusOr<salta::GameScore> s = salta::ScoreGame(*pos, options);
    if (!s.ok()) return tool.Fail(s.status().message());
    score = *s;
  }
  std::optional<salta::FinishResult> counts[2];
  if (score) {
    counts[0] = score->white;
    counts[1] = score->black;
  }
  for (salta::Side s : sides) {
    if (counts[int(s)]) continue;
    label = std::string(salta::SideName(s));
    absl::StatusOr<salta::FinishResult> r = salta::MinMovesToFinish(*pos, s, options);
    if (!r.ok()) return tool.Fail(r.status().message());
    counts[int(s)] = *r;
  }
  if (progress_shown) std::fprintf(stderr, "\r\033[K");

  bool all_exact = score ? score->exact : true;
  for (salta::Side s : sides) all_exact &= counts[int(s)]->exact;

  std::ostream& out = tool.out();
  if (json) {
    nlohmann::json j = nlohmann::json::object();
    for (salta::Side s : sides) j[SideKey(s)] = CountJson(*counts[int(s)], *pos, s, solution);
    j["result"] = score && score->outcome != salta::Outcome::kUndecided
                      ? nlohmann::json(salta::ResultToken(score->outcome))
                      : nlohmann::json();
    j["score"] = score && score->points != salta::kUnknownMoves ? nlohmann::json(score->points)
                                                                : nlohmann::json();
    if (score) j["reason"] = std::string(salta::EndReasonName(score->reason));
    out << j.dump() << "\n";
  } else {
    for (salta::Side s : sides) {
      const salta::FinishResult& c = *counts[int(s)];
      out << salta::SideName(s) << ": " << CountText(c, *pos, s) << "\n";
      if (!solution || !c.reachable) continue;
      const std::string words = absl::StrJoin(salta::SolutionWords(*pos, s, c.solution), " ");
      if (c.exact)
        out << salta::SideName(s) << " solution: "
            << (c.solution.empty() ? std::string("none (every piece is home)") : words) << "\n";
      else if (!c.solution.empty())
        out << salta::SideName(s) << " solution (not proven optimal, " << c.solution.size()
            << " moves): " << words << "\n";
    }
    if (score) {
      out << "Result: " << salta::ResultToken(score->outcome) << "\n";
      out << "Score: "
          << (score->points == salta::kUnknownMoves ? std::string("unknown")
                                                    : std::to_string(score->points))
          << " (" << score->summary << ")\n";
    } else {
      out << "The game is not over: no result or score.\n";
    }
  }
  return all_exact ? kExitExact : kExitBoundsOnly;
}

}  // namespace

int main(int argc, char** argv) {
  return salta::tools::Main("salta-score", argc, argv,
                            [&](salta::tools::Tool& tool) { return Run(tool, argc, argv); });
}
