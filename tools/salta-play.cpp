// salta-play: plays legal games with simple players and writes them as records.
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "CLI/CLI.hpp"
#include "cli.h"
#include "output.h"
#include "salta/game.h"
#include "salta/notation.h"
#include "salta/record.h"
#include "salta/selfplay.h"
#include "tool.h"

namespace {

int Run(salta::tools::Tool& tool, int argc, char** argv) {
  CLI::App app{
      "Plays legal Salta games with simple players and writes them as game records\n"
      "(docs/records.md), one after another. The same seed gives the same games.\n\n"
      "Exit status: 0 written; 2 bad arguments or the output cannot be written."};
  std::string position_text = "start", player_name = "greedy", white_name, black_name, output = "-";
  int games = 1, max_plies = 1000, noise = 10;
  uint64_t seed = 1;
  salta::tools::VariantFlags variant_flags;
  variant_flags.Add(app);
  app.add_option("--position", position_text,
                 "Start every game from this position (docs/notation.md), or \"start\"")
      ->capture_default_str();
  app.add_option("--games", games, "Number of games")
      ->capture_default_str()
      ->transform(salta::tools::Integer(0, 100000000));
  app.add_option("--seed", seed, "Random seed; game K of seed S is always the same game")
      ->capture_default_str()
      ->transform(salta::tools::Integer(0, std::numeric_limits<uint64_t>::max()));
  app.add_option("--player", player_name,
                 "Both players: random (any legal move) or greedy (toward the goal)")
      ->capture_default_str()
      ->check(salta::tools::NonEmpty());
  app.add_option("--white", white_name, "White's player (overrides --player)")
      ->check(salta::tools::NonEmpty());
  app.add_option("--black", black_name, "Black's player (overrides --player)")
      ->check(salta::tools::NonEmpty());
  app.add_option("--noise", noise, "Percent of random moves a greedy player makes")
      ->capture_default_str()
      ->transform(salta::tools::Integer(0, 100));
  app.add_option("--max-plies", max_plies,
                 "Stop a game unfinished (result *) after this many plies; 0: no limit but a "
                 "record's, 100000 (every game written reads back)")
      ->capture_default_str()
      ->transform(salta::tools::Integer(0, salta::kMaxRecordMoves));
  app.add_option("-o,--output", output, "Output file; - for standard output")
      ->capture_default_str()
      ->check(salta::tools::NonEmpty());
  if (int status = salta::tools::ParseCommandLine(app, tool, argc, argv); status >= 0)
    return status;

  absl::StatusOr<const salta::Variant*> variant = variant_flags.Make();
  if (!variant.ok()) return tool.Fail(variant.status().message());
  absl::StatusOr<salta::Position> start = salta::ParsePosition(**variant, position_text);
  if (!start.ok()) return tool.Fail(start.status().message());
  salta::SelfPlayOptions options;
  options.max_plies = max_plies;
  options.greedy_noise_percent = noise;
  for (auto [flag, name, player] : {std::tuple{"--player", &player_name, &options.white},
                                    std::tuple{"--player", &player_name, &options.black},
                                    std::tuple{"--white", &white_name, &options.white},
                                    std::tuple{"--black", &black_name, &options.black}}) {
    if (name->empty()) continue;
    absl::StatusOr<salta::Player> p = salta::ParsePlayer(*name);
    if (!p.ok()) return tool.Fail(absl::StrCat(flag, ": ", p.status().message()));
    *player = *p;
  }

  std::unique_ptr<salta::tools::Output> file;
  if (output != "-") {
    absl::StatusOr<std::unique_ptr<salta::tools::Output>> opened =
        salta::tools::Output::Open(output);
    if (!opened.ok()) return tool.Fail(opened.status().message());
    file = std::move(*opened);
  }
  salta::tools::Output& out = file ? *file : tool.output();
  // Games are written as they are played; a lost write stops the run.
  for (int g = 0; g < games && !out.failed(); ++g) {
    if (g > 0) out.stream() << "\n";
    out.stream() << salta::WriteRecord(salta::PlayGame(*start, options, seed, uint64_t(g)).record);
  }
  if (file)
    if (absl::Status s = file->Close(); !s.ok()) return tool.Fail(s.message());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return salta::tools::Main("salta-play", argc, argv,
                            [&](salta::tools::Tool& tool) { return Run(tool, argc, argv); });
}
