// salta-perft: counts the legal move sequences of a given length.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "cli.h"
#include "distributed.h"
#include "nlohmann/json.hpp"
#include "progress.h"
#include "salta/game.h"
#include "salta/notation.h"
#include "salta/perft.h"
#include "tool.h"

namespace {

int Run(salta::tools::Tool& tool, int argc, char** argv) {
  absl::StatusOr<std::unique_ptr<salta::Cluster>> processes =
      salta::tools::StartProcesses(&argc, &argv);
  if (!processes.ok()) return tool.Fail(processes.status().message());
  salta::Cluster& cluster = **processes;
  CLI::App app{
      "Counts the legal move sequences of DEPTH moves (perft) from a Salta position.\n"
      "A forced pass counts as one move; a finished game has none. Under mpirun the\n"
      "processes share the work (docs/distributed.md); the first one prints.\n\n"
      "Exit status: 0 counted; 2 bad arguments, position or move, memory that cannot be had,\n"
      "or output that cannot be written (the message says which)."};
  std::string position_text = "start", moves_text;
  int threads = 0, hash_mb = 0, depth = 0;
  bool divide = false, json = false;
  salta::tools::VariantFlags variant_flags;
  variant_flags.Add(app);
  app.add_option("--position", position_text,
                 "Start from this position (docs/notation.md), or \"start\"")
      ->capture_default_str();
  app.add_option("--moves", moves_text,
                 "Play these moves first, space-separated, e.g. \"c3-d4 h8-g7\"");
  app.add_flag("--divide", divide, "Also print the count under each legal move");
  salta::tools::AddThreadsOption(app, threads);
  app.add_option("--hash", hash_mb, "Transposition table size in MB; 0 for none")
      ->capture_default_str()
      ->transform(salta::tools::Integer(0, 1 << 20));
  app.add_flag("--json", json,
               "Print one JSON object on one line: board, rows, rules, position, depth, nodes, "
               "seconds, nodes_per_second, processes, and divide with --divide; errors too, as "
               "{\"error\": ...}");
  app.add_option("DEPTH", depth, "Number of moves (plies) to count")
      ->required()
      ->transform(salta::tools::Integer(0, salta::kMaxPerftDepth));
  const int parsed = salta::tools::ParseCommandLine(app, tool, argc, argv);
  if (int status = salta::tools::AgreeOnCommandLine(cluster, tool, parsed); status >= 0)
    return status;
  // Every process reads the same arguments, so an error is every process's:
  // the first one reports it.
  auto fail = [&](absl::string_view message) {
    return cluster.rank() == 0 ? tool.Fail(message) : salta::tools::kExitBadInput;
  };

  absl::StatusOr<const salta::Variant*> variant = variant_flags.Make();
  if (!variant.ok()) return fail(variant.status().message());
  absl::StatusOr<salta::Position> pos = salta::ParsePosition(**variant, position_text);
  if (!pos.ok()) return fail(pos.status().message());
  if (absl::Status s = salta::PlayMoves(*pos, moves_text); !s.ok()) return fail(s.message());

  salta::tools::Progress progress("perft " + std::to_string(depth), !json && cluster.rank() == 0);
  salta::PerftOptions options;
  options.threads = threads;
  options.hash_mb = hash_mb;
  options.divide = divide;
  options.progress = [&](double f) { progress.Update(f); };
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<salta::PerftResult> result = salta::Perft(*pos, depth, options, cluster);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.Finish();
  if (!result.ok()) return fail(result.status().message());
  if (cluster.rank() != 0) return 0;

  // Divide lines sorted by move text, so that two generators compare line by line.
  std::vector<std::pair<std::string, uint64_t>> lines;
  for (auto [m, n] : result->divide) lines.emplace_back(salta::MoveToString(*pos, m), n);
  std::sort(lines.begin(), lines.end());
  const double nps = seconds > 0 ? double(result->nodes) / seconds : 0.0;
  std::ostream& out = tool.out();
  if (json) {
    nlohmann::json j = {{"depth", depth},
                        {"nodes", result->nodes},
                        {"seconds", seconds},
                        {"nodes_per_second", nps},
                        {"rules", (*variant)->rules().ToString()},
                        {"board", variant_flags.board},
                        {"rows", variant_flags.rows},
                        {"position", salta::PositionToString(*pos)},
                        {"processes", cluster.size()}};
    if (divide) {
      nlohmann::json d = nlohmann::json::object();
      for (auto& [move, n] : lines) d[move] = n;
      j["divide"] = d;
    }
    out << j.dump() << "\n";
  } else {
    for (auto& [move, n] : lines) out << move << ": " << n << "\n";
    if (divide) out << "\n";
    out << "nodes " << result->nodes << "\n";
    std::fprintf(stderr, "depth %d: %.3f s, %.0f nodes/s\n", depth, seconds, nps);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return salta::tools::Main("salta-perft", argc, argv,
                            [&](salta::tools::Tool& tool) { return Run(tool, argc, argv); });
}
