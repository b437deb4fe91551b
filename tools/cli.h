// Command-line pieces every tool shares: the variant flags (--rules, --rule,
// --board, --rows) and parsing with the documented exit statuses.
#pragma once

#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "salta/game.h"
#include "salta/variant.h"

// The project's version (CMakeLists.txt), set by tools/CMakeLists.txt.
#ifndef SALTA_VERSION
#define SALTA_VERSION "unknown"
#endif

namespace salta::tools {

struct VariantFlags {
  std::string preset = "standard";
  std::vector<std::string> overrides;
  int board = 10;
  int rows = 3;
  CLI::Option* rules_option = nullptr;  // to tell whether --rules was given

  void Add(CLI::App& app) {
    rules_option = app.add_option("--rules", preset, "Rules preset: standard, pre1900 or forward")
                       ->capture_default_str();
    app.add_option("--rule", overrides,
                   "Override one rule option, KEY=VALUE (repeatable), e.g. --rule "
                   "move-limit=120; keys: steps jump-over jump-dir chain jumps block goal "
                   "extra-move move-limit limit-scoring (see docs/rules.md)");
    app.add_option("--board", board, "Board size N (even, 4 to 10)")->capture_default_str();
    app.add_option("--rows", rows, "Piece rows per side R (1 to 3, 2R < N)")->capture_default_str();
  }
  absl::StatusOr<const Variant*> Make() const {
    return MakeVariant(preset, overrides, board, rows);
  }
};

// Parses the command line, with a --version flag for every tool ("NAME
// VERSION", the project's version). Returns the status to exit with (0
// after --help or --version, `bad_input` after an error CLI11 has already
// explained), or -1 to go on.
inline int ParseCommandLine(CLI::App& app, int argc, char** argv, int bad_input) {
  std::string name = argc > 0 ? argv[0] : "salta";
  if (const size_t slash = name.rfind('/'); slash != std::string::npos) name.erase(0, slash + 1);
  app.set_version_flag("--version", name + " " + SALTA_VERSION, "Print the version and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help or --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return bad_input;
  }
  return -1;
}

}  // namespace salta::tools
