// salta-play: plays legal games with simple players and writes them as records.
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "cli.h"
#include "salta/game.h"
#include "salta/notation.h"
#include "salta/record.h"
#include "salta/selfplay.h"

namespace {

constexpr int kExitBadInput = 2;

int Fail(const std::string& message) {
  std::cerr << "salta-play: " << message << "\n";
  return kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
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
      ->check(CLI::Range(0, 100000000));
  app.add_option("--seed", seed, "Random seed; game K of seed S is always the same game")
      ->capture_default_str();
  app.add_option("--player", player_name,
                 "Both players: random (any legal move) or greedy (toward the goal)")
      ->capture_default_str();
  app.add_option("--white", white_name, "White's player (overrides --player)");
  app.add_option("--black", black_name, "Black's player (overrides --player)");
  app.add_option("--noise", noise, "Percent of random moves a greedy player makes")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  app.add_option("--max-plies", max_plies,
                 "Stop a game unfinished (result *) after this many plies; 0: no limit")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000000000));
  app.add_option("-o,--output", output, "Output file; - for standard output")
      ->capture_default_str();
  if (int status = salta::tools::ParseCommandLine(app, argc, argv, kExitBadInput); status >= 0)
    return status;

  absl::StatusOr<const salta::Variant*> variant = variant_flags.Make();
  if (!variant.ok()) return Fail(std::string(variant.status().message()));
  absl::StatusOr<salta::Position> start = salta::ParsePosition(**variant, position_text);
  if (!start.ok()) return Fail(std::string(start.status().message()));
  salta::SelfPlayOptions options;
  options.max_plies = max_plies;
  options.greedy_noise_percent = noise;
  for (auto [name, player] :
       {std::pair{&player_name, &options.white}, std::pair{&player_name, &options.black},
        std::pair{&white_name, &options.white}, std::pair{&black_name, &options.black}}) {
    if (name->empty()) continue;
    absl::StatusOr<salta::Player> p = salta::ParsePlayer(*name);
    if (!p.ok()) return Fail(std::string(p.status().message()));
    *player = *p;
  }

  std::ofstream file;
  if (output != "-") {
    file.open(output, std::ios::binary);
    if (!file) return Fail("cannot write " + output);
  }
  std::ostream& out = output == "-" ? std::cout : file;
  for (int g = 0; g < games; ++g) {
    if (g > 0) out << "\n";
    out << salta::WriteRecord(salta::PlayGame(*start, options, seed, uint64_t(g)).record);
  }
  out.flush();
  if (!out) return Fail("cannot write " + output);
  return 0;
}
