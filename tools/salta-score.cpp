// salta-score: the minimum moves to finish of each side (the exact scoring
// count), and the result and score of a finished game. docs/salta-score.md.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli.h"
#include "nlohmann/json.hpp"
#include "salta/finish.h"
#include "salta/game.h"
#include "salta/notation.h"
#include "salta/record.h"
#include "salta/replay.h"
#include "salta/score.h"

namespace {

constexpr int kExitExact = 0;
constexpr int kExitBadInput = 2;
constexpr int kExitBoundsOnly = 3;

int Fail(const std::string& message) {
  std::cerr << "salta-score: " << message << "\n";
  return kExitBadInput;
}

std::string SideKey(salta::Side s) {
  return s == salta::Side::kWhite ? "white" : "black";
}

std::string MovesText(const salta::Geometry& g, const std::vector<salta::Move>& moves) {
  std::vector<std::string> words;
  for (const salta::Move& m : moves)
    words.push_back(absl::StrCat(salta::SquareName(g, m.from), "-", salta::SquareName(g, m.to)));
  return absl::StrJoin(words, " ");
}

nlohmann::json CountJson(const salta::FinishResult& r, const salta::Geometry& g, bool solution) {
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
  if (solution) {
    // Exact: an optimal sequence; else the shortest found (as long as
    // upper), not proven optimal; empty when none was found.
    nlohmann::json moves = nlohmann::json::array();
    if (r.reachable)
      for (const salta::Move& m : r.solution)
        moves.push_back(
            absl::StrCat(salta::SquareName(g, m.from), "-", salta::SquareName(g, m.to)));
    j["solution"] = moves;
    j["solution_optimal"] = r.exact && r.reachable;
  }
  return j;
}

std::string CountText(const salta::FinishResult& r) {
  if (!r.reachable) return "cannot finish (the goal is unreachable)";
  const std::string stats =
      absl::StrCat(r.nodes, " nodes, ", absl::StrFormat("%.3f", r.seconds), " s");
  if (r.exact) return absl::StrCat(r.lower, r.lower == 1 ? " move" : " moves", " (", stats, ")");
  return absl::StrCat("not exact: at least ", r.lower, " moves",
                      r.upper == salta::kUnknownMoves ? std::string(", no upper bound found")
                                                      : absl::StrCat(", at most ", r.upper),
                      " (limit reached; ", stats, ")");
}

// The final position of game `k` (from 1) of a record file.
absl::StatusOr<salta::Position> PositionFromRecord(const std::string& file, int k,
                                                   const std::string& preset, bool preset_given,
                                                   const std::vector<std::string>& overrides) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", file));
  salta::RecordReader reader(in);
  salta::ParsedGame game;
  for (int i = 1;; ++i) {
    if (!reader.Next(game)) {
      if (reader.io_error()) return absl::DataLossError(absl::StrCat("error reading ", file));
      return absl::NotFoundError(
          absl::StrCat(file, " has ", i - 1, i - 1 == 1 ? " game" : " games", ", not ", k));
    }
    if (i == k) break;
  }
  if (game.error)
    return absl::InvalidArgumentError(absl::StrCat(file, ":", game.error->at.line, ":",
                                                   game.error->at.column, ": game ", k, ": ",
                                                   game.error->message));
  salta::ReplayOptions options;
  if (preset_given) options.rules = preset;
  options.overrides = overrides;
  salta::ReplayReport report = salta::ReplayGame(game, options);
  if (!report.valid || !report.final_position) {
    std::string why = "the game cannot be replayed";
    if (report.error)
      why =
          absl::StrCat(report.error->at.line, ":", report.error->at.column, ": ply ",
                       report.error->ply, " \"", report.error->move, "\": ", report.error->reason);
    return absl::InvalidArgumentError(absl::StrCat(file, ": game ", k, ": ", why));
  }
  return *report.final_position;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Counts the minimum number of moves each side needs to complete its goal, on a board\n"
      "clear of the opponent's pieces (the scoring count), and prints the result and score\n"
      "when the game is over or the move limit is reached.\n\n"
      "Exit status: 0 every count exact; 3 a time limit was reached and some count is only\n"
      "bounded; 2 bad arguments, position, moves or record, or an error reading or writing\n"
      "the pattern tables (the message says which)."};
  std::string position_text, moves_text, record_file, side_text = "both";
  int game_number = 1;
  double time_limit = 0;
  bool solution = false, json = false, build_patterns = false;
  std::string pattern_dir = salta::DefaultPatternDir();
  salta::tools::VariantFlags variant_flags;
  variant_flags.Add(app);
  auto* position_opt =
      app.add_option("--position", position_text, "The position (docs/notation.md), or \"start\"");
  auto* moves_opt = app.add_option(
      "--moves", moves_text,
      "Play these moves first (from --position, else the start), e.g. \"c3-d4 h8-g7\"");
  auto* record_opt =
      app.add_option("--record", record_file, "Score the final position of a game record file");
  app.add_option("--game", game_number, "Which game of the --record file, from 1")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000000000))
      ->needs(record_opt);
  record_opt->excludes(position_opt)->excludes(moves_opt);
  app.add_option("--side", side_text, "Whose count: white, black or both")
      ->capture_default_str()
      ->check(CLI::IsMember({"white", "black", "both"}));
  app.add_option("--time-limit", time_limit,
                 "Seconds allowed for each count; 0 for none. When reached, proven bounds are "
                 "printed and the exit status is 3")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e9));
  app.add_flag("--solution", solution,
               "Also print a move sequence for each side: optimal when the count is exact, else "
               "the shortest found (the upper bound), marked as not proven optimal");
  app.add_option("--pattern-dir", pattern_dir,
                 "Keep the pattern tables (RocksDB) in this directory, so that later runs start "
                 "with them; \"\" for none (built in memory each run)")
      ->capture_default_str();
  app.add_flag("--build-patterns", build_patterns,
               "Build the pattern tables of the variant (--rules, --board, --rows) into "
               "--pattern-dir, then exit");
  app.add_flag("--json", json,
               "Print one JSON object on one line: white, black (moves, exact, lower, upper, "
               "seconds, nodes), result, score");
  if (int status = salta::tools::ParseCommandLine(app, argc, argv, kExitBadInput); status >= 0)
    return status;

  absl::StatusOr<const salta::Variant*> variant = variant_flags.Make();
  if (!variant.ok()) return Fail(std::string(variant.status().message()));
  salta::FinishOptions options;
  options.time_limit_seconds = time_limit;
  options.want_solution = solution;
  options.pattern_dir = pattern_dir;
  options.report = [](const std::string& message) {
    std::cerr << "salta-score: " << message << "\n";
  };
  if (build_patterns) {
    if (pattern_dir.empty()) return Fail("--build-patterns needs a --pattern-dir");
    const salta::Position start = salta::Position::Start(**variant);
    for (salta::Side s : {salta::Side::kWhite, salta::Side::kBlack})
      if (absl::Status st = salta::PreparePatternDatabases(start, s, options); !st.ok())
        return Fail(std::string(st.message()));
    std::cout << "Pattern tables ready in " << pattern_dir << "\n";
    return kExitExact;
  }
  std::optional<salta::Position> pos;
  if (!record_file.empty()) {
    absl::StatusOr<salta::Position> p =
        PositionFromRecord(record_file, game_number, variant_flags.preset,
                           variant_flags.rules_option->count() > 0, variant_flags.overrides);
    if (!p.ok()) return Fail(std::string(p.status().message()));
    pos = *p;
  } else {
    absl::StatusOr<salta::Position> p =
        salta::ParsePosition(**variant, position_text.empty() ? "start" : position_text);
    if (!p.ok()) return Fail(std::string(p.status().message()));
    pos = *p;
    if (absl::Status s = salta::PlayMoves(*pos, moves_text); !s.ok())
      return Fail(std::string(s.message()));
  }
  const salta::Geometry& g = pos->variant().geometry();

  const bool show_progress = !json && isatty(STDERR_FILENO);
  const auto start = std::chrono::steady_clock::now();
  std::string label;
  bool progress_shown = false;
  if (show_progress)
    options.progress = [&](int lower, uint64_t nodes) {
      const double t =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (t < 1) return;
      std::fprintf(stderr, "\r%s: at least %d moves, %llu nodes, %.0f s\033[K", label.c_str(),
                   lower, (unsigned long long)nodes, t);
      progress_shown = true;
    };

  std::vector<salta::Side> sides;
  if (side_text != "black") sides.push_back(salta::Side::kWhite);
  if (side_text != "white") sides.push_back(salta::Side::kBlack);

  // The result and score, when the game is over (or White completed and
  // Black's extra move is still to come).
  std::optional<salta::GameScore> score;
  if (salta::StatusOf(*pos).scorable()) {
    label = "score";
    absl::StatusOr<salta::GameScore> s = salta::ScoreGame(*pos, options);
    if (!s.ok()) return Fail(std::string(s.status().message()));
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
    if (!r.ok()) return Fail(std::string(r.status().message()));
    counts[int(s)] = *r;
  }
  if (progress_shown) std::fprintf(stderr, "\r\033[K");

  bool all_exact = score ? score->exact : true;
  for (salta::Side s : sides) all_exact &= counts[int(s)]->exact;

  if (json) {
    nlohmann::json out = nlohmann::json::object();
    for (salta::Side s : sides) out[SideKey(s)] = CountJson(*counts[int(s)], g, solution);
    out["result"] = score && score->outcome != salta::Outcome::kUndecided
                        ? nlohmann::json(salta::ResultToken(score->outcome))
                        : nlohmann::json();
    out["score"] = score && score->points != salta::kUnknownMoves ? nlohmann::json(score->points)
                                                                  : nlohmann::json();
    if (score) out["reason"] = std::string(salta::EndReasonName(score->reason));
    std::cout << out.dump() << "\n";
  } else {
    for (salta::Side s : sides) {
      std::cout << salta::SideName(s) << ": " << CountText(*counts[int(s)]) << "\n";
      const salta::FinishResult& c = *counts[int(s)];
      if (solution && c.reachable && c.exact)
        std::cout << salta::SideName(s) << " solution: " << MovesText(g, c.solution) << "\n";
      else if (solution && c.reachable && !c.solution.empty())
        std::cout << salta::SideName(s) << " solution (not proven optimal, " << c.solution.size()
                  << " moves): " << MovesText(g, c.solution) << "\n";
    }
    if (score) {
      std::cout << "Result: " << salta::ResultToken(score->outcome) << "\n";
      std::cout << "Score: "
                << (score->points == salta::kUnknownMoves ? std::string("unknown")
                                                          : std::to_string(score->points))
                << " (" << score->summary << ")\n";
    } else {
      std::cout << "The game is not over: no result or score.\n";
    }
  }
  return all_exact ? kExitExact : kExitBoundsOnly;
}
