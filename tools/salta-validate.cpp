// salta-validate: replays every game of record files and reports the first
// illegal move of each, and results and scores that contradict the replay.
// The contract (flags, JSON keys, exit statuses) is in docs/salta-validate.md.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "cli.h"
#include "nlohmann/json.hpp"
#include "salta/notation.h"
#include "salta/parallel.h"
#include "salta/record.h"
#include "salta/replay.h"
#include "salta/rules.h"

namespace {

constexpr int kExitValid = 0;
constexpr int kExitInvalid = 1;
constexpr int kExitBadInput = 2;

using salta::ParsedGame;
using salta::ReplayIssue;
using salta::ReplayReport;

struct Entry {
  salta::SourcePos start;
  ReplayReport report;
};

// Games handed to a worker together, and what it made of them.
struct Batch {
  uint64_t seq = 0;
  std::vector<salta::GameText> texts;
  std::vector<Entry> entries;
};

void Process(Batch& batch, const salta::ReplayOptions& options) {
  for (const salta::GameText& text : batch.texts)
    salta::ParseGames(text, [&](ParsedGame&& game) {
      Entry& e = batch.entries.emplace_back();
      e.start = game.record.start;
      e.report = salta::ReplayGame(game, options);
    });
  batch.texts.clear();
  batch.texts.shrink_to_fit();
}

struct Summary {
  int files = 0;
  int64_t games = 0, valid = 0, invalid = 0, plies = 0, warnings = 0;
  nlohmann::ordered_json io_errors = nlohmann::ordered_json::array();
};

class Printer {
 public:
  Printer(bool json, bool quiet, Summary& summary) : json_(json), quiet_(quiet), sum_(summary) {}

  void Game(const std::string& file, int64_t number, const Entry& e) {
    const ReplayReport& r = e.report;
    ++sum_.games;
    (r.valid ? sum_.valid : sum_.invalid) += 1;
    sum_.plies += r.plies;
    sum_.warnings += int64_t(r.warnings.size());
    if (json_) {
      nlohmann::ordered_json j;
      j["file"] = file;
      j["game"] = number;
      j["line"] = e.start.line;
      j["valid"] = r.valid;
      j["plies"] = r.plies;
      j["result"] =
          r.result.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.result);
      j["end"] = r.valid ? nlohmann::ordered_json(std::string(salta::EndReasonName(r.end)))
                         : nlohmann::ordered_json(nullptr);
      j["score"] = r.score ? nlohmann::ordered_json(*r.score) : nlohmann::ordered_json(nullptr);
      j["rules"] = r.rules;
      j["error"] = r.error ? Issue(*r.error) : nlohmann::ordered_json(nullptr);
      nlohmann::ordered_json w = nlohmann::ordered_json::array();
      for (const ReplayIssue& i : r.warnings) w.push_back(Issue(i));
      j["warnings"] = std::move(w);
      std::cout << j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
      return;
    }
    if (r.valid) {
      if (quiet_) return;
      std::cout << file << ": game " << number << ": valid, " << r.plies << " plies, result "
                << r.result;
      if (r.end != salta::EndReason::kNone) std::cout << " (" << salta::EndReasonName(r.end) << ")";
      if (r.score) std::cout << ", score " << *r.score;
      std::cout << "\n";
    } else {
      std::cout << file << ":" << Where(*r.error) << " game " << number
                << ": invalid: " << Text(*r.error) << "\n";
    }
    if (!quiet_)
      for (const ReplayIssue& i : r.warnings)
        std::cout << file << ":" << Where(i) << " game " << number << ": warning: " << Text(i)
                  << "\n";
  }

  void IoError(const std::string& file, const std::string& message) {
    std::cerr << "salta-validate: " << file << ": " << message << "\n";
    sum_.io_errors.push_back({{"file", file}, {"message", message}});
  }

 private:
  static nlohmann::ordered_json Issue(const ReplayIssue& i) {
    nlohmann::ordered_json j;
    j["line"] = i.at.line;
    j["column"] = i.at.column;
    j["ply"] = i.ply;
    j["move_number"] = i.move_number;
    j["side"] = i.side ? nlohmann::ordered_json(std::string(salta::SideName(*i.side)))
                       : nlohmann::ordered_json(nullptr);
    j["move"] = i.move.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(i.move);
    j["reason"] = i.reason;
    return j;
  }
  static std::string Where(const ReplayIssue& i) {
    return std::to_string(i.at.line) + ":" + std::to_string(i.at.column) + ":";
  }
  static std::string Text(const ReplayIssue& i) {
    std::string t;
    if (i.ply > 0) {
      t = "ply " + std::to_string(i.ply);
      if (i.side)
        t += " (move " + std::to_string(i.move_number) + ", " +
             std::string(salta::SideName(*i.side)) + ")";
      if (!i.move.empty()) t += " \"" + i.move + "\"";
      t += ": ";
    }
    return t + i.reason;
  }

  bool json_, quiet_;
  Summary& sum_;
};

// Reads one input and reports its games in order, replaying them on the
// pool's threads with a bounded number of batches in memory.
class Validator {
 public:
  // pool: the workers for more than one thread, or null for one.
  Validator(const salta::ReplayOptions& options, salta::ThreadPool* pool, Printer& printer)
      : options_(options), pool_(pool), printer_(printer) {}

  // False on an I/O error (reported).
  bool Run(const std::string& name, std::istream& in) {
    salta::GameSplitter splitter(in);
    number_ = 0;
    name_ = name;
    if (pool_ == nullptr) {
      Batch batch;
      salta::GameText text;
      while (splitter.Next(text)) {
        batch.texts.push_back(std::move(text));
        Process(batch, options_);
        Emit(batch);
        batch.entries.clear();
      }
    } else {
      RunThreaded(splitter);
    }
    if (splitter.io_error()) {
      printer_.IoError(name, std::string("read error: ") + std::strerror(errno));
      return false;
    }
    return true;
  }

 private:
  void Emit(const Batch& batch) {
    for (const Entry& e : batch.entries) printer_.Game(name_, ++number_, e);
  }

  // Reads a wave of batches, replays them on the pool and prints them in
  // order, wave after wave. The worker that finishes the next batch to print
  // prints it (and any finished ones after it), so printing overlaps the
  // replay. A wave holds at most 16 batches per thread and 64 MiB of game
  // text (or one batch, however large).
  void RunThreaded(salta::GameSplitter& splitter) {
    const size_t max_batches = size_t(pool_->threads()) * 16;
    constexpr size_t kMaxWaveBytes = size_t{64} << 20;
    constexpr size_t kBatchBytes = 64 << 10, kBatchGames = 64;
    std::vector<std::unique_ptr<Batch>> wave;
    salta::GameText text;
    bool more = true;
    while (more) {
      wave.clear();
      size_t wave_bytes = 0, bytes = 0;
      auto batch = std::make_unique<Batch>();
      while (wave.size() < max_batches && (more = splitter.Next(text))) {
        bytes += text.text.size();
        batch->texts.push_back(std::move(text));
        if (bytes >= kBatchBytes || batch->texts.size() >= kBatchGames) {
          wave.push_back(std::move(batch));
          batch = std::make_unique<Batch>();
          wave_bytes += bytes;
          bytes = 0;
          if (wave_bytes >= kMaxWaveBytes) break;
        }
      }
      if (!batch->texts.empty()) wave.push_back(std::move(batch));
      if (wave.empty()) break;
      std::mutex mu;
      std::vector<char> done(wave.size(), 0);
      size_t next_emit = 0;
      pool_->Run(0, wave.size(), 1, [&](uint64_t lo, uint64_t hi, int) {
        for (uint64_t i = lo; i < hi; ++i) {
          Process(*wave[i], options_);
          std::lock_guard lock(mu);
          done[i] = 1;
          for (; next_emit < wave.size() && done[next_emit]; ++next_emit) {
            Emit(*wave[next_emit]);
            wave[next_emit].reset();
          }
        }
      });
    }
  }

  const salta::ReplayOptions& options_;
  salta::ThreadPool* pool_;
  Printer& printer_;
  std::string name_;
  int64_t number_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Replays every game of Salta game records (docs/records.md) and reports, for each\n"
      "game, the first illegal move (line:column, ply, move number, side, the move as\n"
      "written, why) and a Result or Score tag that contradicts the replay.\n"
      "FILE - reads standard input. Games are numbered from 1 in each file.\n\n"
      "Exit status: 0 every game valid; 1 some game invalid; 2 usage error, or a file\n"
      "missing or unreadable (the other files are still validated)."};
  std::string preset = "standard";
  std::vector<std::string> overrides, files;
  bool strict = false, lenient = false, json = false, quiet = false;
  int threads = 0;
  app.add_option("--rules", preset,
                 "Rules preset for games without a Rules tag: standard, pre1900 or forward")
      ->capture_default_str();
  app.add_option("--rule", overrides,
                 "Override one rule option in every game, KEY=VALUE (repeatable), e.g. "
                 "--rule move-limit=120");
  auto* strict_flag = app.add_flag("--strict", strict, "A missed jump is an error (the default)");
  app.add_flag("--lenient", lenient,
               "The \"Salta!\" custom: a missed jump is a warning, and the same side must jump "
               "on its next move if it can")
      ->excludes(strict_flag);
  app.add_flag("--json", json,
               "JSON Lines: one object per game (file, game, line, valid, plies, result, end, "
               "score, rules, error, warnings), then one {\"summary\": ...} object");
  app.add_flag("--quiet", quiet, "Print only the invalid games");
  app.add_option("--threads", threads, "Worker threads; 0 uses every core")
      ->capture_default_str()
      ->check(CLI::Range(0, 1024));
  app.add_option("FILE", files, "Record files; - for standard input")->required();
  if (int status = salta::tools::ParseCommandLine(app, argc, argv, kExitBadInput); status >= 0)
    return status;

  absl::StatusOr<salta::Rules> rules = salta::Rules::Parse(preset);
  if (!rules.ok()) {
    std::cerr << "salta-validate: --rules: " << rules.status().message() << "\n";
    return kExitBadInput;
  }
  for (const std::string& o : overrides)
    if (absl::Status s = rules->SetFromString(o); !s.ok()) {
      std::cerr << "salta-validate: --rule " << o << ": " << s.message() << "\n";
      return kExitBadInput;
    }
  // The library's one thread pool; a single thread replays without one.
  std::unique_ptr<salta::ThreadPool> pool;
  if (threads != 1) {
    absl::StatusOr<std::unique_ptr<salta::ThreadPool>> made = salta::ThreadPool::Make(threads);
    if (!made.ok()) {
      std::cerr << "salta-validate: --threads: " << made.status().message() << "\n";
      return kExitBadInput;
    }
    if ((*made)->threads() > 1) pool = std::move(*made);
  }

  salta::ReplayOptions options;
  options.rules = preset;
  options.overrides = overrides;
  options.lenient = lenient;

  std::ios::sync_with_stdio(false);
  const auto t0 = std::chrono::steady_clock::now();
  Summary summary;
  Printer printer(json, quiet, summary);
  Validator validator(options, pool.get(), printer);
  bool io_ok = true;
  for (const std::string& file : files) {
    ++summary.files;
    if (file == "-") {
      io_ok &= validator.Run("-", std::cin);
      continue;
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      printer.IoError(file, std::string("cannot open: ") + std::strerror(errno));
      io_ok = false;
      continue;
    }
    io_ok &= validator.Run(file, in);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (json) {
    nlohmann::ordered_json s;
    s["files"] = summary.files;
    s["games"] = summary.games;
    s["valid"] = summary.valid;
    s["invalid"] = summary.invalid;
    s["plies"] = summary.plies;
    s["warnings"] = summary.warnings;
    s["io_errors"] = summary.io_errors;
    s["seconds"] = seconds;
    s["plies_per_second"] = seconds > 0 ? double(summary.plies) / seconds : 0.0;
    std::cout << nlohmann::ordered_json{{"summary", s}}.dump(
                     -1, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
              << "\n";
  } else if (!quiet) {
    std::cout << summary.games << " games in " << summary.files << " files: " << summary.valid
              << " valid, " << summary.invalid << " invalid, " << summary.plies << " plies";
    if (!io_ok) std::cout << "; " << summary.io_errors.size() << " files unreadable";
    std::cout << "\n";
  }
  std::cout.flush();
  if (!io_ok) return kExitBadInput;
  return summary.invalid > 0 ? kExitInvalid : kExitValid;
}
