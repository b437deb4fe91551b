// salta-validate: replays every game of record files and reports the first
// illegal move of each, and results and scores that contradict the replay.
// The contract (flags, JSON keys, exit statuses) is in docs/salta-validate.md.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/strings/str_cat.h"
#include "cli.h"
#include "input.h"
#include "issue.h"
#include "nlohmann/json.hpp"
#include "salta/notation.h"
#include "salta/parallel.h"
#include "salta/record.h"
#include "salta/replay.h"
#include "salta/rules.h"
#include "tool.h"

namespace {

constexpr int kExitValid = 0;
constexpr int kExitInvalid = 1;
using salta::tools::kExitBadInput;

using salta::ParsedGame;
using salta::ReplayIssue;
using salta::ReplayReport;

struct Entry {
  salta::SourcePos start;
  ReplayReport report;
};

// Games handed to a worker together, and what it made of them.
struct Batch {
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

std::string Plural(int64_t n, const char* one, const char* many) {
  return absl::StrCat(n, " ", n == 1 ? one : many);
}

class Printer {
 public:
  Printer(std::ostream& out, bool json, bool quiet, Summary& summary)
      : out_(out), json_(json), quiet_(quiet), sum_(summary) {}

  // `name`: the file's name as given; shown with invalid UTF-8 escaped, as
  // every message shows it.
  void Game(const std::string& name, int64_t number, const Entry& e) {
    const std::string file = salta::EscapeForMessage(name);
    const ReplayReport& r = e.report;
    ++sum_.games;
    (r.valid ? sum_.valid : sum_.invalid) += 1;
    sum_.plies += r.plies;
    sum_.warnings += r.warning_count;
    // --quiet: the invalid games only (and, in JSON, the summary).
    if (quiet_ && r.valid) return;
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
      j["finished"] =
          r.valid ? nlohmann::ordered_json(r.finished) : nlohmann::ordered_json(nullptr);
      j["termination"] =
          r.termination ? nlohmann::ordered_json(*r.termination) : nlohmann::ordered_json(nullptr);
      j["score"] = r.score ? nlohmann::ordered_json(*r.score) : nlohmann::ordered_json(nullptr);
      // (Empty where the game's rules could not be read.)
      j["rules"] =
          r.rules.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.rules);
      j["error"] = r.error ? Issue(*r.error) : nlohmann::ordered_json(nullptr);
      nlohmann::ordered_json w = nlohmann::ordered_json::array();
      for (const ReplayIssue& i : r.warnings) w.push_back(Issue(i));
      j["warnings"] = std::move(w);
      out_ << j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
      return;
    }
    // Lines in the order of the text: an invalid game's warnings before
    // its error, the error, the warnings after it.
    size_t listed = 0;
    auto warnings_before = [&](const std::optional<salta::SourcePos>& at) {
      if (quiet_) return;
      for (; listed < r.warnings.size() && (!at || r.warnings[listed].at < *at); ++listed)
        out_ << salta::tools::WhereText(salta::tools::WhereOf(file, r.warnings[listed])) << " game "
             << number << ": warning: " << salta::tools::IssueText(r.warnings[listed]) << "\n";
    };
    if (r.valid) {
      out_ << file << ": game " << number << ": valid, " << Plural(r.plies, "ply", "plies")
           << ", result " << r.result;
      if (r.end != salta::EndReason::kNone) {
        out_ << " (" << salta::EndReasonName(r.end) << ")";
      } else if (r.result != "*" || r.termination) {
        // Ended otherwise than by the moves.
        out_ << " (unfinished" << (r.termination ? ": " + *r.termination : std::string()) << ")";
      }
      if (r.score) out_ << ", score " << *r.score;
      out_ << "\n";
    } else {
      warnings_before(r.error->at);
      out_ << salta::tools::WhereText(salta::tools::WhereOf(file, *r.error)) << " game " << number
           << ": invalid: " << salta::tools::IssueText(*r.error) << "\n";
    }
    warnings_before(std::nullopt);
  }

  // An input that cannot be read: `message` without the file's name.
  void IoError(const salta::tools::Tool& tool, const std::string& file,
               const std::string& message) {
    tool.Note(absl::StrCat(file, ": ", message));
    sum_.io_errors.push_back(
        {{"file", salta::EscapeForMessage(file)}, {"message", salta::EscapeForMessage(message)}});
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

  std::ostream& out_;
  bool json_, quiet_;
  Summary& sum_;
};

// Reads one input and reports its games in order, replaying them on the
// pool's threads with a bounded number of batches in memory.
class Validator {
 public:
  // pool: the workers for more than one thread, or null for one.
  Validator(const salta::ReplayOptions& options, salta::ThreadPool* pool, Printer& printer,
            const salta::tools::Output& output)
      : options_(options), pool_(pool), printer_(printer), output_(output) {}

  // Reads the input to its end, or until the output is lost (nothing more
  // could be reported). The read error, or "".
  std::string Run(salta::tools::Input& in) {
    salta::GameSplitter splitter(in.stream());
    number_ = 0;
    name_ = in.name();
    if (pool_ == nullptr) {
      Batch batch;
      salta::GameText text;
      while (!output_.failed() && splitter.Next(text)) {
        batch.texts.push_back(std::move(text));
        Process(batch, options_);
        Emit(batch);
        batch.entries.clear();
      }
    } else {
      RunThreaded(splitter);
    }
    return in.error_text();
  }

 private:
  void Emit(const Batch& batch) {
    for (const Entry& e : batch.entries) printer_.Game(name_, ++number_, e);
  }

  // Reads a wave of batches, replays them on the pool and prints them in
  // order, wave after wave. The worker that finishes the next batch to print
  // prints it (and any finished ones after it), so printing overlaps the
  // replay. A wave holds at most 16 batches per thread and 64 MiB of game
  // text (or one batch, however large). Stops reading once the output is
  // lost.
  void RunThreaded(salta::GameSplitter& splitter) {
    const size_t max_batches = size_t(pool_->threads()) * 16;
    constexpr size_t kMaxWaveBytes = size_t{64} << 20;
    constexpr size_t kBatchBytes = 64 << 10, kBatchGames = 64;
    std::vector<std::unique_ptr<Batch>> wave;
    salta::GameText text;
    bool more = true;
    while (more && !output_.failed()) {
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
      // The first exception of a worker (out of memory), rethrown here.
      std::exception_ptr failure;
      pool_->Run(0, wave.size(), 1, [&](uint64_t lo, uint64_t hi, int) {
        for (uint64_t i = lo; i < hi; ++i) {
          try {
            Process(*wave[i], options_);
          } catch (...) {
            std::lock_guard lock(mu);
            if (!failure) failure = std::current_exception();
          }
          std::lock_guard lock(mu);
          done[i] = 1;
          for (; next_emit < wave.size() && done[next_emit]; ++next_emit) {
            Emit(*wave[next_emit]);
            wave[next_emit].reset();
          }
        }
      });
      if (failure) std::rethrow_exception(failure);
    }
  }

  const salta::ReplayOptions& options_;
  salta::ThreadPool* pool_;
  Printer& printer_;
  const salta::tools::Output& output_;
  std::string name_;
  int64_t number_ = 0;
};

int Run(salta::tools::Tool& tool, int argc, char** argv) {
  CLI::App app{
      "Replays every game of Salta game records (docs/records.md) and reports, for each\n"
      "game, the first illegal move (line:column, ply, move number, side, the move as\n"
      "written, why) and a Result or Score tag that contradicts the replay.\n"
      "FILE - reads standard input. Games are numbered from 1 in each file.\n\n"
      "Exit status: 0 every game valid; 1 some game invalid; 2 usage error, a file\n"
      "missing or unreadable (the other files are still validated), or output that\n"
      "cannot be written."};
  std::string preset = "standard";
  std::vector<std::string> overrides, files;
  bool strict = false, lenient = false, json = false, quiet = false;
  int threads = 0;
  uint64_t score_node_limit = salta::kDefaultScoreNodeLimit;
  int bound_table_mb = salta::kDefaultBoundTableMegabytes;
  app.add_option("--rules", preset,
                 "Rules of games without a Rules tag: standard, pre1900 or forward, optionally "
                 "with options as a Rules tag writes them, e.g. \"standard move-limit=120\"")
      ->capture_default_str()
      ->check(salta::tools::NonEmpty());
  app.add_option("--rule", overrides,
                 "Override one rule option in every game, KEY=VALUE (repeatable), e.g. "
                 "--rule move-limit=120")
      ->allow_extra_args(false);  // one value each: never a FILE
  auto* strict_flag = app.add_flag("--strict", strict, "A missed jump is an error (the default)");
  app.add_flag("--lenient", lenient,
               "The \"Salta!\" custom: a missed jump is a warning, and the same side must jump "
               "on its next move if it can")
      ->excludes(strict_flag);
  app.add_flag("--json", json,
               "JSON Lines: one object per game (file, game, line, valid, plies, result, end, "
               "finished, termination, score, rules, error, warnings), then one "
               "{\"summary\": ...} object; usage errors as one {\"error\": ...} object");
  app.add_flag("--quiet", quiet,
               "Print only the invalid games: no valid games, no warnings and no summary line "
               "(with --json: the invalid games' objects and the summary object)");
  salta::tools::AddThreadsOption(app, threads);
  app.add_option("--score-node-limit", score_node_limit,
                 "The most nodes each scoring count may search (a Score tag or a result that "
                 "needs the count); beyond it the tag is a warning \"not checked\". 0: no limit. "
                 "Verdicts never depend on time, threads or load")
      ->capture_default_str()
      ->transform(salta::tools::Integer(0, std::numeric_limits<uint64_t>::max()));
  salta::tools::AddBoundTableOption(app, bound_table_mb);
  app.add_option("FILE", files, "Record files; - for standard input")->required();
  if (int status = salta::tools::ParseCommandLine(app, tool, argc, argv); status >= 0)
    return status;

  absl::StatusOr<salta::Rules> rules = salta::Rules::Parse(preset);
  if (!rules.ok()) return tool.Fail(absl::StrCat("--rules: ", rules.status().message()));
  for (const std::string& o : overrides)
    if (absl::Status s = rules->SetFromString(o); !s.ok())
      return tool.Fail(absl::StrCat("--rule: ", s.message()));  // (which names the value)
  // The library's one thread pool; a single thread replays without one.
  std::unique_ptr<salta::ThreadPool> pool;
  if (threads != 1) {
    absl::StatusOr<std::unique_ptr<salta::ThreadPool>> made = salta::ThreadPool::Make(threads);
    if (!made.ok()) return tool.Fail(absl::StrCat("--threads: ", made.status().message()));
    if ((*made)->threads() > 1) pool = std::move(*made);
  }

  salta::ReplayOptions options;
  options.rules = preset;
  options.overrides = overrides;
  options.lenient = lenient;
  options.count = salta::ScoreCountOptions(score_node_limit);
  options.count.bound_table_megabytes = bound_table_mb;

  const auto t0 = std::chrono::steady_clock::now();
  Summary summary;
  Printer printer(tool.out(), json, quiet, summary);
  Validator validator(options, pool.get(), printer, tool.output());
  bool io_ok = true;
  for (const std::string& file : files) {
    if (tool.output().failed()) break;
    ++summary.files;
    absl::StatusOr<std::unique_ptr<salta::tools::Input>> in = salta::tools::Input::Open(file);
    if (!in.ok()) {
      // The message without the file's name, which the report gives apart.
      std::string message(in.status().message());
      if (message.rfind(file + ": ", 0) == 0) message.erase(0, file.size() + 2);
      printer.IoError(tool, file, message);
      io_ok = false;
      continue;
    }
    if (std::string error = validator.Run(**in); !error.empty()) {
      printer.IoError(tool, file, error);
      io_ok = false;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::ostream& out = tool.out();
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
    out << nlohmann::ordered_json{{"summary", s}}.dump(
               -1, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
        << "\n";
  } else if (!quiet) {
    out << Plural(summary.games, "game", "games") << " in "
        << Plural(summary.files, "file", "files") << ": " << summary.valid << " valid, "
        << summary.invalid << " invalid, " << Plural(summary.plies, "ply", "plies");
    if (!io_ok)
      out << "; " << Plural(int64_t(summary.io_errors.size()), "file", "files") << " unreadable";
    out << "\n";
  }
  if (!io_ok) return kExitBadInput;
  return summary.invalid > 0 ? kExitInvalid : kExitValid;
}

}  // namespace

int main(int argc, char** argv) {
  return salta::tools::Main("salta-validate", argc, argv,
                            [&](salta::tools::Tool& tool) { return Run(tool, argc, argv); });
}
