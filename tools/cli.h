// Command-line pieces every tool shares: the variant flags (--rules, --rule,
// --board, --rows), --threads with one limit, strict numbers, --version, and
// parsing with the documented exit statuses and messages.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <system_error>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "salta/finish.h"
#include "salta/game.h"
#include "salta/parallel.h"
#include "salta/variant.h"
#include "tool.h"

// The project's version (CMakeLists.txt), set by tools/CMakeLists.txt.
#ifndef SALTA_VERSION
#define SALTA_VERSION "unknown"
#endif

namespace salta::tools {

// A whole number from `min` to `max`, written in decimal digits with a '-'
// only where negatives are allowed: no '+', hexadecimal, octal, spaces, or
// overflow. As a CLI11 transform it leaves the canonical decimal, which CLI11
// then converts (it would read "010" as octal and wrap "-1" for unsigned).
inline CLI::Validator Integer(int64_t min, uint64_t max) {
  const std::string range = absl::StrCat(min, " to ", max);
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        const std::string bad = absl::StrCat("\"", text, "\" is not a whole number from ", range);
        const bool negative = !text.empty() && text[0] == '-';
        const char* first = text.data() + (negative ? 1 : 0);
        const char* last = text.data() + text.size();
        if (first == last || (negative && min >= 0)) return bad;
        for (const char* p = first; p != last; ++p)
          if (*p < '0' || *p > '9') return bad;
        uint64_t magnitude = 0;
        const auto [end, ec] = std::from_chars(first, last, magnitude);
        if (ec != std::errc() || end != last) return bad;
        if (negative) {
          if (magnitude > uint64_t(-(min + 1)) + 1) return bad;
          text = magnitude == 0 ? "0" : absl::StrCat("-", magnitude);
          return std::string();
        }
        if (magnitude > max || (min > 0 && magnitude < uint64_t(min))) return bad;
        text = absl::StrCat(magnitude);
        return std::string();
      },
      absl::StrCat("INT ", range));
}

// A finite decimal number from `min` to `max` ("1.5", "2e3"): no nan, inf,
// hexadecimal or leading '+'.
inline CLI::Validator Real(double min, double max) {
  const std::string range = absl::StrCat(min, " to ", max);
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        double v = 0;
        const char* last = text.data() + text.size();
        const auto [end, ec] = std::from_chars(text.data(), last, v);
        if (text.empty() || ec != std::errc() || end != last || !std::isfinite(v) || v < min ||
            v > max)
          return absl::StrCat("\"", text, "\" is not a number from ", range);
        return std::string();
      },
      absl::StrCat("NUMBER ", range));
}

// One of `values`, said as the other messages say a bad value (CLI11's
// IsMember wrote `--side: White not in {white,black,both}`).
inline CLI::Validator OneOf(std::vector<std::string> values) {
  const std::string list = absl::StrJoin(values, ", ");
  return CLI::Validator(
      [values, list](std::string& text) -> std::string {
        for (const std::string& v : values)
          if (text == v) return std::string();
        return absl::StrCat("\"", text, "\" is not one of ", list);
      },
      absl::StrCat("{", absl::StrJoin(values, ","), "}"));
}

// A value that must not be empty (a file name, a player, a list of
// pieces): "" is refused, never taken as the option left out.
inline CLI::Validator NonEmpty() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text.empty() ? std::string("the value is empty") : std::string();
      },
      "");
}

// --threads, with the one limit every tool shares (ThreadPool::kMaxThreads).
inline CLI::Option* AddThreadsOption(CLI::App& app, int& threads) {
  return app.add_option("--threads", threads, "Worker threads; 0 uses every core")
      ->capture_default_str()
      ->transform(Integer(0, ThreadPool::kMaxThreads));
}

// The memory of each scoring count's table of proven bounds
// (FinishOptions::bound_table_megabytes).
inline CLI::Option* AddBoundTableOption(CLI::App& app, int& megabytes) {
  return app
      .add_option("--bound-table-mb", megabytes,
                  "The most memory (MiB) each count's table of proven bounds may take: counts "
                  "of tens of millions of nodes search far fewer with a larger one; most take a "
                  "few MiB")
      ->capture_default_str()
      ->transform(Integer(1, kMaxBoundTableMegabytes));
}

struct VariantFlags {
  std::string rules_text = "standard";  // a preset, perhaps with options
  std::vector<std::string> overrides;
  int board = 10;
  int rows = 3;
  CLI::Option* rules_option = nullptr;  // to tell whether --rules was given

  void Add(CLI::App& app) {
    rules_option = app.add_option("--rules", rules_text,
                                  "Rules preset: standard, pre1900 or forward, optionally with "
                                  "options as the JSON's \"rules\" writes them, e.g. \"standard "
                                  "move-limit=120\"")
                       ->capture_default_str()
                       ->check(NonEmpty());
    app.add_option("--rule", overrides,
                   "Override one rule option, KEY=VALUE (repeatable), e.g. --rule "
                   "move-limit=120; keys: steps jump-over jump-dir chain jumps block goal "
                   "extra-move move-limit limit-scoring (see docs/rules.md)")
        ->allow_extra_args(false);  // one value each: never the FILE or DEPTH that follows
    // (The library says more of what fits within these: an even size, and
    // fewer rows than half the board.)
    app.add_option("--board", board, "Board size N (even, 4 to 10)")
        ->capture_default_str()
        ->transform(Integer(Geometry::kMinSize, Geometry::kMaxSize));
    app.add_option("--rows", rows, "Piece rows per side R (1 to 3, 2R < N)")
        ->capture_default_str()
        ->transform(Integer(1, Geometry::kMaxRows));
  }
  absl::StatusOr<const Variant*> Make() const {
    return MakeVariant(rules_text, overrides, board, rows);
  }
};

// CLI11's message in the tools' words where it has its own ("--side: At
// Most 1 required but received 2": an option given twice).
inline std::string Reworded(absl::string_view message) {
  constexpr absl::string_view kTwice = ": At Most 1 required but received ";
  if (const size_t at = message.find(kTwice); at != absl::string_view::npos)
    return absl::StrCat(message.substr(0, at), " is given ", message.substr(at + kTwice.size()),
                        " times; it takes one value");
  return std::string(message);
}

// Parses the command line (adding --version). Returns the status to exit
// with (0 after --help or --version, kExitBadInput after an error, which is
// reported through the tool), or -1 to go on. An argument the tool does not
// know is named before any other complaint (a missing DEPTH, say).
inline int ParseCommandLine(CLI::App& app, Tool& tool, int argc, char** argv) {
  const std::string version = absl::StrCat(tool.name(), " ", SALTA_VERSION);
  app.set_version_flag("--version", version, "Print the version and exit");
  // Every subcommand too (salta-egtb build --version).
  bool has_json = app.get_option_no_throw("--json") != nullptr;
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    sub->set_version_flag("--version", version, "Print the version and exit");
    has_json = has_json || sub->get_option_no_throw("--json") != nullptr;
  }
  // A tool without --json answers "--json" as any unknown option, in text.
  if (!has_json) tool.set_json(false);
  // "--name=" gives the option an empty value, as getopt does: CLI11 would
  // take the next argument as the value instead ("--board= 5" read 5 as
  // the board, then asked for DEPTH).
  std::vector<std::string> args(argv, argv + argc);
  for (size_t i = 1; i < args.size() && args[i] != "--"; ++i) {
    const std::string& arg = args[i];
    if (arg.size() < 4 || arg.rfind("--", 0) != 0 || arg.find('=') != arg.size() - 1) continue;
    const std::string name = arg.substr(0, arg.size() - 1);
    const CLI::Option* option = app.get_option_no_throw(name);
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
      if (!option) option = sub->get_option_no_throw(name);
    if (!option || option->get_expected_max() == 0) continue;  // (a flag takes no value)
    args[i] = name;
    args.insert(args.begin() + i + 1, std::string());
    ++i;
  }
  std::vector<char*> expanded;
  for (std::string& arg : args) expanded.push_back(arg.data());
  try {
    app.parse(int(expanded.size()), expanded.data());
    return -1;
  } catch (const CLI::CallForHelp&) {
    tool.out() << app.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    tool.out() << app.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::CallForVersion& e) {
    tool.out() << e.what() << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    std::vector<std::string> unknown = app.remaining();
    for (CLI::App* sub : app.get_subcommands())
      for (const std::string& arg : sub->remaining()) unknown.push_back(arg);
    // "--" only ends the options: what follows it is what to complain of.
    std::erase(unknown, "--");
    if (!unknown.empty()) {
      const bool option = unknown[0].size() > 1 && unknown[0][0] == '-';
      std::string more;
      for (size_t i = 1; i < unknown.size() && i <= 3; ++i)
        absl::StrAppend(&more, i == 1 ? "" : ", ", "\"", unknown[i], "\"");
      if (unknown.size() > 4) absl::StrAppend(&more, ", ...");
      return tool.Fail(absl::StrCat(
          option ? "unknown option " : "unexpected argument ", "\"", unknown[0], "\"",
          unknown.size() > 1 ? absl::StrCat(" (and ", unknown.size() - 1, " more: ", more, ")")
                             : "",
          "; see --help"));
    }
    return tool.Fail(absl::StrCat(Reworded(e.what()), "; see --help"));
  }
}

}  // namespace salta::tools
