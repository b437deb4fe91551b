// salta-egtb: endgame tables by retrograde analysis, stored in RocksDB:
// build, probe, verify, info. docs/salta-egtb.md.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli.h"
#include "distributed.h"
#include "input.h"
#include "nlohmann/json.hpp"
#include "salta/egtb/build.h"
#include "salta/egtb/probe.h"
#include "salta/egtb/storage.h"
#include "salta/egtb/verify.h"
#include "salta/game.h"
#include "salta/notation.h"
#include "tool.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitVerifyFailed = 1;
constexpr int kExitBadInput = 2;

using salta::egtb::Code;

// Standard output is checked by salta::tools::Main when the run ends: lost
// output is no success.
int Done(int status) {
  return status;
}

nlohmann::json PliesJson(Code c) {
  return c == salta::egtb::kDraw ? nlohmann::json() : nlohmann::json(salta::egtb::PliesOf(c));
}

std::string MovesText(const salta::Position& from, const std::vector<salta::Move>& moves,
                      bool sequence) {
  std::vector<std::string> words;
  salta::Position pos = from;
  for (const salta::Move& m : moves) {
    words.push_back(salta::MoveToString(pos, m));
    if (sequence) pos.Make(m);
  }
  return absl::StrJoin(words, " ");
}

nlohmann::json MovesJson(const salta::Position& from, const std::vector<salta::Move>& moves,
                         bool sequence) {
  nlohmann::json out = nlohmann::json::array();
  salta::Position pos = from;
  for (const salta::Move& m : moves) {
    out.push_back(salta::MoveToString(pos, m));
    if (sequence) pos.Make(m);
  }
  return out;
}

std::string ValueText(Code c) {
  if (c == salta::egtb::kDraw) return "draw";
  const int n = salta::egtb::PliesOf(c);
  return absl::StrCat(salta::egtb::WdlName(salta::egtb::WdlOf(c)), " in ", n,
                      n == 1 ? " ply" : " plies");
}

// The bar: stage, positions resolved, time left; on a terminal only.
class BuildBar {
 public:
  explicit BuildBar(bool enabled) : enabled_(enabled && isatty(STDERR_FILENO)) {}
  ~BuildBar() { Clear(); }
  void Show(const salta::egtb::BuildProgress& p) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard<std::mutex> lock(mutex_);
    if (now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    const char* stage = p.stage == salta::egtb::BuildProgress::kInitialize ? "initialise"
                        : p.stage == salta::egtb::BuildProgress::kLevels   ? "levels"
                                                                           : "write";
    const int width = 20, filled = int(p.fraction * width + 0.5);
    std::string bar = std::string(std::clamp(filled, 0, width), '#') +
                      std::string(width - std::clamp(filled, 0, width), '.');
    std::string left =
        p.seconds_left < 0 ? "time left unknown" : absl::StrFormat("~%.0f s left", p.seconds_left);
    std::fprintf(stderr, "\r\033[K%s [%s]%s %llu of %llu resolved (%.1f%%), %s", stage, bar.c_str(),
                 p.stage == salta::egtb::BuildProgress::kLevels
                     ? absl::StrCat(" level ", p.level, ",").c_str()
                     : "",
                 (unsigned long long)p.resolved, (unsigned long long)p.positions,
                 p.positions ? 100.0 * double(p.resolved) / double(p.positions) : 0.0,
                 left.c_str());
    std::fflush(stderr);
    shown_ = true;
  }
  void Clear() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
    shown_ = false;
  }

 private:
  bool enabled_;
  bool shown_ = false;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point last_{};
};

// An error through the tool: "salta-egtb: ..." on standard error, and one
// JSON object on standard output with --json.
struct Common;
int Fail(const Common& c, absl::string_view message);

struct Common {
  salta::tools::Tool* tool = nullptr;  // messages, JSON errors, standard output
  std::string db;
  bool json = false;
  int threads = 0;
};

int RunBuild(const Common& c, salta::Cluster& cluster, const salta::tools::VariantFlags& vf,
             const std::string& white, const std::string& black, uint64_t memory_mb,
             double checkpoint_seconds) {
  absl::StatusOr<const salta::Variant*> variant = vf.Make();
  if (!variant.ok()) return Fail(c, std::string(variant.status().message()));
  absl::StatusOr<salta::egtb::Material> material =
      salta::egtb::Material::Parse(**variant, white, black);
  if (!material.ok()) return Fail(c, std::string(material.status().message()));
  absl::StatusOr<salta::egtb::TableClass> cls = salta::egtb::TableClass::Make(**variant, *material);
  if (!cls.ok()) return Fail(c, std::string(cls.status().message()));

  BuildBar bar(!c.json && cluster.rank() == 0);
  salta::egtb::BuildOptions options;
  options.cluster = &cluster;
  options.threads = c.threads;
  options.memory_mb = memory_mb;
  options.checkpoint_seconds = checkpoint_seconds;
  options.progress = [&](const salta::egtb::BuildProgress& p) { bar.Show(p); };
  options.note = [&](absl::string_view note) {
    bar.Clear();
    c.tool->Note(note);
  };
  absl::StatusOr<salta::egtb::BuildReport> r = salta::egtb::Build(*cls, c.db, options);
  bar.Clear();
  if (!r.ok()) return Fail(c, std::string(r.status().message()));
  const salta::egtb::Tally& t = r->tally;
  const uint64_t bytes = salta::Table::DiskBytes(c.db);
  if (c.json) {
    nlohmann::ordered_json out = {
        {"class", cls->ToString()},
        {"positions", t.positions},
        {"wins", t.wins},
        {"losses", t.losses},
        {"draws", t.draws},
        {"longest_win", t.longest_win},
        {"checksum", absl::StrCat(absl::Hex(t.checksum, absl::kZeroPad16))},
        {"bytes", bytes},
        {"seconds", r->seconds},
        {"levels", r->levels},
        {"already_built", r->already_built},
        {"resumed", r->resumed},
        {"memory_bytes", r->memory_bytes},
        {"processes", cluster.size()},
        {"bytes_exchanged", r->bytes_exchanged},
    };
    std::cout << out.dump() << "\n";
  } else {
    if (r->already_built)
      std::cout << c.db << " already holds this table; nothing to build\n";
    else if (r->resumed)
      std::cout << "resumed from the checkpoint at level " << r->resumed_level << "\n";
    std::cout << "class: " << cls->ToString() << "\n"
              << "positions: " << t.positions << " (" << t.wins << " wins, " << t.losses
              << " losses, " << t.draws << " draws)\n"
              << "longest win: " << t.longest_win << " plies\n"
              << "checksum: " << absl::StrCat(absl::Hex(t.checksum, absl::kZeroPad16)) << "\n"
              << "size on disk: " << bytes << " bytes\n";
    if (!r->already_built)
      std::cout << absl::StrFormat("built in %.2f s, %d levels\n", r->seconds, r->levels);
  }
  return Done(kExitOk);
}

absl::StatusOr<std::unique_ptr<salta::egtb::EndgameTable>> OpenTable(const std::string& db) {
  return salta::egtb::EndgameTable::Open(db);
}

// A probe's answer as JSON.
nlohmann::ordered_json ResultJson(const salta::Position& pos, const salta::egtb::ProbeResult& r,
                                  bool line) {
  nlohmann::ordered_json out = {{"value", salta::egtb::WdlName(salta::egtb::WdlOf(r.code))},
                                {"plies", PliesJson(r.code)},
                                {"best_moves", MovesJson(pos, r.best_moves, false)}};
  if (line) out["line"] = MovesJson(pos, r.line, true);
  return out;
}

// One probe as JSON; errors as {"error": ...}.
nlohmann::ordered_json ProbeJson(const salta::egtb::EndgameTable& table, const salta::Position& pos,
                                 bool line, absl::Status* error) {
  absl::StatusOr<salta::egtb::ProbeResult> r = salta::egtb::Probe(table, pos, line);
  if (!r.ok()) {
    *error = r.status();
    return {{"error", std::string(r.status().message())}};
  }
  return ResultJson(pos, *r, line);
}

int RunProbe(const Common& c, const std::string& position_text, bool have_position,
             const std::string& moves_text, bool have_moves, bool batch, bool line) {
  if (int(have_position) + int(have_moves) + int(batch) != 1)
    return Fail(
        c, "probe: give exactly one of --position TEXT, --moves \"...\" or - (standard input)");
  absl::StatusOr<std::unique_ptr<salta::egtb::EndgameTable>> table = OpenTable(c.db);
  if (!table.ok()) return Fail(c, std::string(table.status().message()));
  const salta::egtb::TableClass& cls = (*table)->cls();
  const salta::Variant& v = cls.variant();

  if (batch) {
    // One JSON line per input line; a bad line is answered with its error
    // and the exit status says some were bad.
    absl::StatusOr<std::unique_ptr<salta::tools::Input>> in = salta::tools::Input::Open("-");
    if (!in.ok()) return Fail(c, in.status().message());
    std::string text;
    int status = kExitOk;
    uint64_t number = 0;
    while (std::getline((*in)->stream(), text)) {
      ++number;
      absl::StatusOr<salta::Position> pos = salta::ParsePosition(v, text);
      absl::Status error;
      nlohmann::ordered_json out;
      if (!pos.ok()) {
        error = pos.status();
        out = {{"error", std::string(pos.status().message())}};
      } else {
        out = ProbeJson(**table, *pos, line, &error);
      }
      if (!error.ok()) {
        out["line_number"] = number;
        std::cerr << "salta-egtb: standard input line " << number << ": " << error.message()
                  << "\n";
        status = kExitBadInput;
        if (error.code() == absl::StatusCode::kDataLoss)
          return Fail(c, std::string(error.message()));
      }
      std::cout << out.dump() << "\n";
    }
    if (absl::Status s = (*in)->status(); !s.ok()) return Fail(c, s.message());
    return Done(status);
  }

  absl::StatusOr<salta::Position> pos =
      have_position ? salta::ParsePosition(v, position_text) : cls.Start();
  if (!pos.ok()) return Fail(c, std::string(pos.status().message()));
  if (have_moves)
    if (absl::Status s = salta::PlayMoves(*pos, moves_text); !s.ok())
      return Fail(c, std::string(s.message()));
  absl::StatusOr<salta::egtb::ProbeResult> r = salta::egtb::Probe(**table, *pos, line);
  if (!r.ok()) return Fail(c, std::string(r.status().message()));
  if (c.json) {
    std::cout << ResultJson(*pos, *r, line).dump() << "\n";
  } else {
    std::cout << "position: " << salta::PositionToString(*pos) << "\n"
              << "value: " << ValueText(r->code) << " for " << salta::SideName(pos->side_to_move())
              << "\n"
              << "best moves: "
              << (r->best_moves.empty() ? std::string("none (the game is over)")
                                        : MovesText(*pos, r->best_moves, false))
              << "\n";
    if (line)
      std::cout << "line: "
                << (r->best_moves.empty() ? std::string("none (the game is over)")
                    : r->code == salta::egtb::kDraw
                        ? std::string("none (a draw: the table keeps no distance to follow)")
                        : MovesText(*pos, r->line, true))
                << "\n";
  }
  return Done(kExitOk);
}

int RunVerify(const Common& c) {
  absl::StatusOr<std::unique_ptr<salta::ThreadPool>> pool = salta::ThreadPool::Make(c.threads);
  if (!pool.ok()) return Fail(c, std::string(pool.status().message()));
  BuildBar bar(!c.json);
  salta::egtb::BuildProgress shown;
  shown.stage = salta::egtb::BuildProgress::kLevels;
  absl::StatusOr<salta::egtb::VerifyReport> r = salta::egtb::Verify(c.db, **pool, [&](double f) {
    salta::egtb::BuildProgress p;
    p.stage = salta::egtb::BuildProgress::kWrite;
    p.fraction = f;
    bar.Show(p);
  });
  bar.Clear();
  if (!r.ok()) return Fail(c, std::string(r.status().message()));
  // The problem can quote a damaged file's bytes (RocksDB's messages do).
  const std::string problem = salta::EscapeForMessage(r->problem);
  if (c.json) {
    nlohmann::ordered_json out = {{"ok", r->ok}, {"positions", r->positions}};
    if (!r->ok) {
      out["problem"] = problem;
      out["first_bad_index"] = r->first_bad ? nlohmann::json(*r->first_bad) : nlohmann::json();
      out["first_bad_position"] =
          r->first_bad ? nlohmann::json(r->first_bad_position) : nlohmann::json();
    }
    std::cout << out.dump() << "\n";
  } else if (r->ok) {
    std::cout << "verified: " << r->positions
              << " positions agree with their successors; every checksum matches\n";
  } else {
    std::cout << "verification failed: " << problem << "\n";
    if (r->first_bad)
      std::cout << "first bad position: " << r->first_bad_position << " (index " << *r->first_bad
                << ")\n";
  }
  if (!r->ok) std::cerr << "salta-egtb: verification failed: " << problem << "\n";
  return Done(r->ok ? kExitOk : kExitVerifyFailed);
}

int RunInfo(const Common& c) {
  absl::StatusOr<std::unique_ptr<salta::egtb::EndgameTable>> table = OpenTable(c.db);
  if (!table.ok()) return Fail(c, std::string(table.status().message()));
  const salta::egtb::EndgameTable& t = **table;
  const salta::egtb::Tally& tl = t.tally();
  const uint64_t bytes = t.disk_bytes();
  const double bits = tl.positions ? 8.0 * double(bytes) / double(tl.positions) : 0;
  const std::string longest =
      tl.longest_win >= 0 ? salta::PositionToString(t.cls().At(tl.longest_win_index)) : "";
  const salta::Position start = t.cls().Start();
  absl::StatusOr<Code> start_code = t.Get(t.cls().Index(start));
  if (!start_code.ok()) return Fail(c, std::string(start_code.status().message()));
  const std::string checksum = absl::StrCat(absl::Hex(tl.checksum, absl::kZeroPad16));
  if (c.json) {
    nlohmann::ordered_json out = {
        {"class", t.cls().ToString()},
        {"board", t.cls().variant().geometry().size()},
        {"rows", t.cls().variant().geometry().rows()},
        {"rules", t.cls().variant().rules().ToString()},
        {"white",
         t.cls().material().ToString().substr(0, t.cls().material().ToString().find(" v "))},
        {"black",
         t.cls().material().ToString().substr(t.cls().material().ToString().find(" v ") + 3)},
        {"positions", tl.positions},
        {"wins", tl.wins},
        {"losses", tl.losses},
        {"draws", tl.draws},
        {"longest_win", tl.longest_win >= 0 ? nlohmann::json(tl.longest_win) : nlohmann::json()},
        {"longest_win_position", tl.longest_win >= 0 ? nlohmann::json(longest) : nlohmann::json()},
        {"start",
         {{"value", salta::egtb::WdlName(salta::egtb::WdlOf(*start_code))},
          {"plies", PliesJson(*start_code)}}},
        {"bytes", bytes},
        {"bits_per_position", bits},
        {"checksum", checksum},
        {"format_version", salta::egtb::kFormatVersion},
    };
    std::cout << out.dump() << "\n";
  } else {
    std::cout << "class: " << t.cls().ToString() << "\n"
              << "positions: " << tl.positions << "\n"
              << "wins: " << tl.wins << "\nlosses: " << tl.losses << "\ndraws: " << tl.draws
              << "\n";
    if (tl.longest_win >= 0)
      std::cout << "longest win: " << tl.longest_win << " plies, in " << longest << "\n";
    else
      std::cout << "longest win: none (no position is won)\n";
    std::cout << "start: " << ValueText(*start_code) << " for White ("
              << salta::PositionToString(start) << ")\n"
              << absl::StrFormat("size on disk: %llu bytes (%.3f bits per position)\n",
                                 (unsigned long long)bytes, bits)
              << "checksum: " << checksum << "\n";
  }
  return Done(kExitOk);
}

int Fail(const Common& c, absl::string_view message) {
  return c.tool->Fail(message);
}

int Run(salta::tools::Tool& tool, int argc, char** argv) {
  absl::StatusOr<std::unique_ptr<salta::Cluster>> processes =
      salta::tools::StartProcesses(&argc, &argv);
  if (!processes.ok()) return tool.Fail(processes.status().message());
  salta::Cluster& cluster = **processes;
  CLI::App app{
      "Endgame tables for Salta by retrograde analysis, stored in RocksDB (docs/salta-egtb.md).\n\n"
      "Exit status: 0 done; 1 verification failed; 2 bad arguments, a bad position, or an\n"
      "unreadable, damaged, unfinished or foreign database (the message says which)."};
  app.require_subcommand(1);
  Common c;
  c.tool = &tool;
  auto add_db = [&](CLI::App* sub) {
    sub->add_option("--db", c.db, "The table's directory (one RocksDB database)")
        ->required()
        ->check(salta::tools::NonEmpty());
    sub->add_flag("--json", c.json, "Print one JSON object on one line");
  };

  CLI::App* build = app.add_subcommand(
      "build", "Build the table of a class (resumes an unfinished build in the same --db)");
  add_db(build);
  salta::tools::VariantFlags vf;
  vf.Add(*build);
  std::string white, black;
  uint64_t memory_mb = 0;
  double checkpoint_seconds = 60;
  build
      ->add_option("--white", white,
                   "White's pieces, e.g. S1,S2 (kind S/M/U and number); default every piece")
      ->check(salta::tools::NonEmpty());
  build->add_option("--black", black, "Black's pieces, as --white; default every piece")
      ->check(salta::tools::NonEmpty());
  salta::tools::AddThreadsOption(*build, c.threads);
  build
      ->add_option("--memory", memory_mb,
                   "Memory the build may use, in MB; 0: the machine's (a class that needs "
                   "more is refused at once)")
      ->capture_default_str()
      ->transform(salta::tools::Integer(0, uint64_t(1) << 40));
  build
      ->add_option("--checkpoint-seconds", checkpoint_seconds,
                   "Save a checkpoint at the end of a level at most this often (0: every "
                   "level); a killed build resumes from the last one")
      ->capture_default_str()
      ->transform(salta::tools::Real(0, 1e9));

  CLI::App* probe = app.add_subcommand("probe", "The value, distance and best moves of positions");
  add_db(probe);
  std::string position_text, moves_text;
  bool line = false;
  CLI::Option* position_opt =
      probe->add_option("--position", position_text, "The position (docs/notation.md)");
  CLI::Option* moves_opt = probe->add_option(
      "--moves", moves_text,
      "Moves played from the class's start position (its pieces on their start squares); "
      "\"\" is the start itself");
  probe->add_flag("--line", line, "Also print an optimal line of play to the end");
  std::string input;
  probe
      ->add_option("INPUT", input,
                   "- reads positions from standard input, one per line, and answers each with "
                   "one JSON line")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            return text == "-" ? std::string()
                               : absl::StrCat("\"", text,
                                              "\": the only INPUT is - (positions on standard "
                                              "input); one position is given with --position");
          },
          "-"));

  CLI::App* verify = app.add_subcommand(
      "verify", "Re-derive every value from its successors and check every checksum");
  add_db(verify);
  salta::tools::AddThreadsOption(*verify, c.threads);

  CLI::App* info = app.add_subcommand("info", "What a table holds");
  add_db(info);

  const int parsed = salta::tools::ParseCommandLine(app, tool, argc, argv);
  if (int status = salta::tools::AgreeOnCommandLine(cluster, tool, parsed); status >= 0)
    return status;
  if (build->parsed()) return RunBuild(c, cluster, vf, white, black, memory_mb, checkpoint_seconds);
  // The other commands run on the first process alone.
  if (cluster.rank() != 0) return kExitOk;
  if (probe->parsed())
    return RunProbe(c, position_text, position_opt->count() > 0, moves_text, moves_opt->count() > 0,
                    input == "-", line);
  if (verify->parsed()) return RunVerify(c);
  return RunInfo(c);
}

}  // namespace

int main(int argc, char** argv) {
  return salta::tools::Main("salta-egtb", argc, argv,
                            [&](salta::tools::Tool& tool) { return Run(tool, argc, argv); });
}
