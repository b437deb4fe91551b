// The endgame-table benchmark: builds a class (default: the whole 6x6 R=1
// standard game) into a fresh directory and reports the build's time,
// positions per second per core, peak memory and size on disk; then probes
// random positions of it, through the library and, with --tool, through
// `salta-egtb probe -` as a script would.
//
//   build/bench/salta_egtb_bench [--board N] [--rows R] [--rules SPEC]
//       [--white PIECES] [--black PIECES] [--threads T] [--probes N]
//       [--tool build/tools/salta-egtb] [--dir DIR]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>

#include "absl/strings/str_cat.h"
#include "salta/egtb/build.h"
#include "salta/egtb/probe.h"
#include "salta/game.h"
#include "salta/notation.h"

namespace {

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

double PeakRssMb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_maxrss) / 1024.0;
}

}  // namespace

int main(int argc, char** argv) {
  int board = 6, rows = 1, threads = 0;
  uint64_t probes = 200000;
  std::string rules = "standard", white, black, tool, dir;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--board")
      board = std::atoi(value.c_str());
    else if (flag == "--rows")
      rows = std::atoi(value.c_str());
    else if (flag == "--rules")
      rules = value;
    else if (flag == "--white")
      white = value;
    else if (flag == "--black")
      black = value;
    else if (flag == "--threads")
      threads = std::atoi(value.c_str());
    else if (flag == "--probes")
      probes = std::strtoull(value.c_str(), nullptr, 10);
    else if (flag == "--tool")
      tool = value;
    else if (flag == "--dir")
      dir = value;
    else {
      std::cerr << "unknown flag " << flag << "\n";
      return 2;
    }
  }
  absl::StatusOr<salta::Rules> r = salta::Rules::Parse(rules);
  absl::StatusOr<salta::Geometry> g = salta::Geometry::Make(board, rows);
  if (!r.ok() || !g.ok()) {
    std::cerr << "bad rules or board\n";
    return 2;
  }
  const salta::Variant& v = **salta::Variant::Get(*g, *r);
  absl::StatusOr<salta::egtb::Material> m = salta::egtb::Material::Parse(v, white, black);
  if (!m.ok()) {
    std::cerr << m.status() << "\n";
    return 2;
  }
  absl::StatusOr<salta::egtb::TableClass> cls = salta::egtb::TableClass::Make(v, *m);
  if (!cls.ok()) {
    std::cerr << cls.status() << "\n";
    return 2;
  }
  if (dir.empty()) dir = (std::filesystem::temp_directory_path() / "salta-egtb-bench").string();
  std::filesystem::remove_all(dir);

  salta::egtb::BuildOptions options;
  options.threads = threads;
  options.checkpoint_seconds = 1e9;
  const int cores = threads > 0 ? threads : salta::ThreadPool::Cores();
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<salta::egtb::BuildReport> report = salta::egtb::Build(*cls, dir, options);
  const double build_seconds = Seconds(start);
  if (!report.ok()) {
    std::cerr << report.status() << "\n";
    return 1;
  }
  const uint64_t n = cls->size();
  const uint64_t bytes = salta::Table::DiskBytes(dir);
  std::printf("class: %s\n", cls->ToString().c_str());
  std::printf("positions: %llu, %d levels, longest win %d plies\n", (unsigned long long)n,
              report->levels, report->tally.longest_win);
  std::printf("build: %.2f s on %d threads: %.2f M positions/s, %.2f M per core\n", build_seconds,
              cores, n / build_seconds / 1e6, n / build_seconds / 1e6 / cores);
  std::printf("peak memory (this process, build): %.0f MB\n", PeakRssMb());
  std::printf("on disk: %llu bytes, %.3f bits per position\n", (unsigned long long)bytes,
              8.0 * double(bytes) / double(n));

  // Random positions of the class, probed with their best moves.
  absl::StatusOr<std::unique_ptr<salta::egtb::EndgameTable>> table =
      salta::egtb::EndgameTable::Open(dir);
  if (!table.ok()) {
    std::cerr << table.status() << "\n";
    return 1;
  }
  std::mt19937_64 rng(1);
  std::vector<salta::Position> sample;
  for (uint64_t i = 0; i < probes; ++i) sample.push_back(cls->At(rng() % n));
  const auto probe_start = std::chrono::steady_clock::now();
  uint64_t wins = 0;
  for (const salta::Position& p : sample) {
    absl::StatusOr<salta::egtb::ProbeResult> pr = salta::egtb::Probe(**table, p, false);
    if (!pr.ok()) {
      std::cerr << pr.status() << "\n";
      return 1;
    }
    wins += salta::egtb::IsWin(pr->code);
  }
  const double probe_seconds = Seconds(probe_start);
  std::printf("probes (library, with best moves): %.0f per second (%llu wins of %llu)\n",
              double(probes) / probe_seconds, (unsigned long long)wins, (unsigned long long)probes);

  if (!tool.empty()) {
    const std::string input = dir + ".probes.txt";
    {
      std::ofstream out(input);
      for (const salta::Position& p : sample) out << salta::PositionToString(p) << "\n";
    }
    const std::string command =
        absl::StrCat(tool, " probe --db ", dir, " - < ", input, " > /dev/null");
    const auto cli_start = std::chrono::steady_clock::now();
    const int status = std::system(command.c_str());
    const double cli_seconds = Seconds(cli_start);
    if (status != 0) {
      std::cerr << command << " failed\n";
      return 1;
    }
    std::printf("probes (salta-egtb probe -, one JSON line each): %.0f per second\n",
                double(probes) / cli_seconds);
    std::filesystem::remove(input);
  }
  std::filesystem::remove_all(dir);
  return 0;
}
