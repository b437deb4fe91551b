// What every tool promises a script (issue 10): output that could not be
// written is never success, errors parse as JSON with --json, numbers are
// read strictly, unknown options are named, one --threads limit, --version,
// inputs opened one way ("-" is standard input) with errors located as
// FILE:LINE:COLUMN:, and memory that cannot be had is a clear error.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;

using Outcome = salta::CommandOutcome;
using salta::Has;

// Runs a shell command line (tool names are replaced by their paths).
Outcome Sh(const std::string& command) {
  return salta::RunCapturing("PATH='" + std::string(SALTA_TOOLS_DIR) + "':\"$PATH\"; " + command);
}

const std::string kGames = std::string(SALTA_DATA_DIR) + "/games";

// One command of each tool that writes something, text and JSON.
const std::vector<std::string>& Writers() {
  static const std::vector<std::string> commands = {
      "salta-perft 2",
      "salta-perft --json --divide 2",
      "salta-validate " + kGames + "/valid/features.sgn",
      "salta-validate --json " + kGames + "/valid/features.sgn",
      "salta-score --position 'w S1a5,s1j10'",
      "salta-score --json --position 'w S1a5,s1j10'",
      "salta-play --games 2 --max-plies 20",
      "salta-perft --help",
      "salta-score --version",
  };
  return commands;
}

// Item 4: lost output is never success.
TEST(ToolsCli, OutputThatCannotBeWrittenExitsTwoWithTheReason) {
  for (const std::string& c : Writers()) {
    const std::string tool = c.substr(0, c.find(' '));
    Outcome full = Sh(c + " >/dev/full");
    EXPECT_EQ(full.status, 2) << c << ": " << full.err;
    EXPECT_TRUE(Has(full.err, tool + ": cannot write to standard output: No space left on device"))
        << c << ": " << full.err;
    Outcome closed = Sh(c + " >&-");
    EXPECT_EQ(closed.status, 2) << c << ": " << closed.err;
    EXPECT_TRUE(Has(closed.err, "cannot write to standard output: Bad file descriptor"))
        << c << ": " << closed.err;
    EXPECT_EQ(Sh(c + " >/dev/null").status, 0) << c;
  }
  // salta-play's -o FILE: the reason too.
  Outcome play = Sh("salta-play --games 2 --max-plies 20 -o /dev/full");
  EXPECT_EQ(play.status, 2);
  EXPECT_TRUE(Has(play.err, "salta-play: cannot write to /dev/full: No space left on device"))
      << play.err;
  play = Sh("salta-play -o /no/such/dir/games.sgn");
  EXPECT_EQ(play.status, 2);
  EXPECT_TRUE(Has(play.err, "/no/such/dir/games.sgn: cannot open: No such file or directory"))
      << play.err;
}

// Item 5: memory that cannot be had is a clear error, exit 2, not an abort.
TEST(ToolsCli, MemoryThatCannotBeHadIsAClearError) {
  // The documented maximum, 1 TiB: no test machine has it, and it is refused
  // before any allocation (an overcommitting system would grant it).
  Outcome r = Sh("salta-perft --hash 1048576 1");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(Has(r.err, "salta-perft: cannot allocate 1048576 MB for the hash table")) << r.err;
  r = Sh("salta-perft --json --hash 1048576 1");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Has(r.out, "\"error\":\"cannot allocate")) << r.out;
}

// Item 6: with --json, usage and input errors are one JSON object on stdout.
TEST(ToolsCli, JsonErrorsAreOneObject) {
  for (const std::string& c : std::vector<std::string>{
           "salta-perft --json --bogus 2",
           "salta-perft --json --threads 99999 2",
           "salta-perft --json --position 'w S1a2' 1",
           "salta-perft --json",
           "salta-validate --json --rules nope x.sgn",
           "salta-validate --json --bogus x.sgn",
           "salta-score --json --moves 'c3-c4'",
           "salta-score --json --time-limit nan",
           "salta-egtb info --json --db /no/such/table",
       }) {
    const Outcome r = Sh(c);
    EXPECT_EQ(r.status, 2) << c;
    ASSERT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << c << ": " << r.out;
    const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
    ASSERT_TRUE(j.is_object()) << c << ": " << r.out;
    EXPECT_TRUE(j.contains("error") && j["error"].is_string()) << r.out;
    EXPECT_EQ(j.value("exit_status", 0), 2) << r.out;
    EXPECT_EQ(j.value("tool", ""), c.substr(0, c.find(' '))) << r.out;
    // And the message on stderr, with the tool's name.
    EXPECT_TRUE(Has(r.err, c.substr(0, c.find(' ')) + ": ")) << c << ": " << r.err;
  }
  // A located error carries its place.
  const Outcome r = Sh("salta-score --json --record " + kGames + "/invalid/moves.sgn --game 7");
  EXPECT_EQ(r.status, 2);
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j.value("file", ""), kGames + "/invalid/moves.sgn");
  EXPECT_EQ(j.value("line", 0), 36);
  EXPECT_EQ(j.value("column", 0), 34);
  // A tool without --json takes "--json" as any unknown option: a message
  // on stderr alone, naming the other arguments it does not know too.
  for (const char* tool : {"salta-play", "salta-show"}) {
    const Outcome no_json = Sh(std::string(tool) + " --json --frob 1");
    EXPECT_EQ(no_json.status, 2) << tool;
    EXPECT_EQ(no_json.out, "") << tool;
    EXPECT_EQ(no_json.err, std::string(tool) +
                               ": unknown option \"--json\" (and 2 more: \"--frob\", \"1\"); "
                               "see --help\n");
  }
}

// Item 11: one way to open inputs and to say where an error is.
TEST(ToolsCli, InputsAndLocations) {
  const std::string moves = kGames + "/invalid/moves.sgn";
  // salta-score locates an illegal move as salta-validate does.
  Outcome score = Sh("salta-score --record " + moves + " --game 7");
  EXPECT_EQ(score.status, 2);
  EXPECT_TRUE(Has(score.err, "salta-score: " + moves +
                                 ":36:34: game 7: invalid: ply 5 (move 3, White) \"a3-b4\": "))
      << score.err;
  Outcome validate = Sh("salta-validate --quiet " + moves);
  EXPECT_TRUE(
      Has(validate.out, moves + ":36:34: game 7: invalid: ply 5 (move 3, White) \"a3-b4\": "))
      << validate.out;
  // Standard input.
  Outcome piped = Sh("cat " + kGames + "/valid/scored.sgn | salta-score --record - --json");
  EXPECT_EQ(piped.status, 0) << piped.err;
  Outcome direct = Sh("salta-score --record " + kGames + "/valid/scored.sgn --json");
  const auto a = nlohmann::json::parse(piped.out, nullptr, false),
             b = nlohmann::json::parse(direct.out, nullptr, false);
  ASSERT_TRUE(a.is_object() && b.is_object()) << piped.out << direct.out;
  EXPECT_EQ(a["result"], b["result"]);
  EXPECT_EQ(a["score"], b["score"]);
  // I/O errors say why.
  for (const std::string& tool :
       {std::string("salta-score --record"), std::string("salta-validate")}) {
    Outcome dir = Sh(tool + " " + kGames);
    EXPECT_EQ(dir.status, 2);
    EXPECT_TRUE(Has(dir.err, kGames + ": cannot read: Is a directory")) << dir.err;
    Outcome missing = Sh(tool + " /no/such.sgn");
    EXPECT_EQ(missing.status, 2);
    EXPECT_TRUE(Has(missing.err, "/no/such.sgn: cannot open: No such file or directory"))
        << missing.err;
  }
  Outcome many = Sh("salta-score --record " + kGames + "/valid/scored.sgn --game 999");
  EXPECT_EQ(many.status, 2);
  EXPECT_TRUE(Has(many.err, "scored.sgn: has ")) << many.err;
}

// Item 12: command lines.
TEST(ToolsCli, CommandLinesAreReadStrictly) {
  struct Case {
    std::string command, message;
  };
  for (const Case& c : std::vector<Case>{
           {"salta-perft --bogus", "salta-perft: unknown option \"--bogus\""},
           {"salta-perft --bogus 2", "salta-perft: unknown option \"--bogus\""},
           {"salta-validate --bogus x.sgn", "salta-validate: unknown option \"--bogus\""},
           {"salta-perft 2 3", "salta-perft: unexpected argument \"3\""},
           {"salta-perft 0x3", "DEPTH: \"0x3\" is not a whole number from 0 to 60"},
           {"salta-perft +3", "DEPTH: \"+3\" is not a whole number"},
           {"salta-perft 1e1", "\"1e1\" is not a whole number"},
           {"salta-perft 61", "\"61\" is not a whole number from 0 to 60"},
           // "--" ends the options; it is no unknown option itself.
           {"salta-perft -- -1", "DEPTH: \"-1\" is not a whole number from 0 to 60"},
           {"salta-play --seed -1", "--seed: \"-1\" is not a whole number from 0"},
           {"salta-play --seed 18446744073709551616",
            "is not a whole number from 0 to 18446744073709551615"},
           {"salta-play --games ' 3'", "--games: \" 3\" is not a whole number"},
           {"salta-score --time-limit nan", "--time-limit: \"nan\" is not a number"},
           {"salta-score --time-limit inf", "--time-limit: \"inf\" is not a number"},
           {"salta-score --time-limit 0x10", "--time-limit: \"0x10\" is not a number"},
           {"salta-score --time-limit -1", "--time-limit: \"-1\" is not a number"},
           {"salta-validate --score-node-limit -5 x.sgn", "--score-node-limit: \"-5\""},
           {"salta-validate --bound-table-mb 0 x.sgn",
            "--bound-table-mb: \"0\" is not a whole number from 1 to 1048576"},
           // One --threads limit for every tool.
           {"salta-perft --threads 1025 1",
            "--threads: \"1025\" is not a whole number from 0 to 1024"},
           {"salta-validate --threads 1025 x.sgn",
            "--threads: \"1025\" is not a whole number from 0 to 1024"},
           {"salta-egtb verify --db x --threads 1025",
            "--threads: \"1025\" is not a whole number from 0 to 1024"},
           // An empty value is refused, never taken as the option left out.
           {"salta-score --record ''", "--record: the value is empty"},
           {"salta-score --record '' --game 3", "--record: the value is empty"},
           {"salta-show --record ''", "--record: the value is empty"},
           {"salta-show --svg ''", "--svg: the value is empty"},
           {"salta-show --html ''", "--html: the value is empty"},
           {"salta-play --player ''", "--player: the value is empty"},
           {"salta-play --white ''", "--white: the value is empty"},
           {"salta-play --black ''", "--black: the value is empty"},
           {"salta-play -o ''", "--output: the value is empty"},
           // A value from a list is quoted as every bad value is.
           {"salta-score --side White", "--side: \"White\" is not one of white, black, both"},
           {"salta-show --color yes", "--color: \"yes\" is not one of auto, always, never"},
           {"salta-egtb probe --db x foo", "INPUT: \"foo\": the only INPUT is -"},
           {"salta-play --black dumb", "--black: unknown player \"dumb\""},
           {"salta-play --player dumb", "--player: unknown player \"dumb\""},
           {"salta-egtb build --db x --white ''", "--white: the value is empty"},
           {"salta-egtb build --db x --black ''", "--black: the value is empty"},
           {"salta-egtb info --db ''", "--db: the value is empty"},
           // "--name=" is an empty value, as getopt reads it: the next
           // argument is not taken as the value.
           {"salta-perft --board= 5", "--board: \"\" is not a whole number"},
           {"salta-score --board= --position start", "--board: \"\" is not a whole number"},
           {"salta-egtb build --db= --board 4 --rows 1", "--db: the value is empty"},
           {"salta-validate --rule= x.sgn", "--rule: rule option \"\" must be written KEY=VALUE"},
           {"salta-validate --rule move-limit=abc x.sgn",
            "--rule: invalid value \"abc\" for rule option move-limit"},
           // Every game salta-play writes reads back: no more moves than a
           // record holds.
           {"salta-play --max-plies 100001",
            "--max-plies: \"100001\" is not a whole number from 0 to 100000"},
           // Building the pattern tables counts nothing: what a count takes
           // is refused with it, not ignored.
           {"salta-score --build-patterns --position start",
            "--position excludes --build-patterns"},
           {"salta-score --build-patterns --record x.sgn", "--record excludes --build-patterns"},
           {"salta-score --build-patterns --solution", "--solution excludes --build-patterns"},
       }) {
    const Outcome r = Sh(c.command);
    EXPECT_EQ(r.status, 2) << c.command << ": " << r.out << r.err;
    EXPECT_TRUE(Has(r.err, c.message)) << c.command << ": " << r.err;
    EXPECT_TRUE(r.err.rfind(c.command.substr(0, c.command.find(' ')) + ": ", 0) == 0)
        << c.command << ": no tool prefix: " << r.err;
  }
  // Numbers that are fine, however written.
  EXPECT_EQ(Sh("salta-perft --threads 1024 --hash 0 02 >/dev/null").status, 0);
  // "--name=VALUE" as "--name VALUE"; "--flag=" leaves the flag as it was.
  EXPECT_EQ(Sh("salta-perft --board=6 --rows=2 2").out, Sh("salta-perft --board 6 --rows 2 2").out);
  const Outcome flag = Sh("salta-perft --json= 2");
  EXPECT_EQ(flag.status, 0) << flag.err;
  EXPECT_TRUE(Has(flag.out, "\"nodes\":")) << flag.out;
  // An empty pattern directory written "--pattern-dir=": tables in memory.
  const Outcome no_dir = Sh("salta-score --pattern-dir= --json --position 'w S1a5,s1j10'");
  EXPECT_EQ(no_dir.status, 0) << no_dir.err;
  // --version on every tool.
  for (const char* tool :
       {"salta-perft", "salta-validate", "salta-score", "salta-play", "salta-egtb", "salta-show"}) {
    const Outcome r = Sh(std::string(tool) + " --version");
    EXPECT_EQ(r.status, 0) << tool << ": " << r.err;
    EXPECT_TRUE(r.out.rfind(std::string(tool) + " ", 0) == 0) << r.out;
  }
  // ... and on each of salta-egtb's subcommands.
  for (const char* sub : {"build", "probe", "verify", "info"}) {
    const Outcome r = Sh(std::string("salta-egtb ") + sub + " --version");
    EXPECT_EQ(r.status, 0) << sub << ": " << r.err;
    EXPECT_TRUE(r.out.rfind("salta-egtb ", 0) == 0) << sub << ": " << r.out;
  }
  // "1 file", not "1 files".
  const Outcome one = Sh("salta-validate " + kGames + "/valid/features.sgn");
  EXPECT_TRUE(Has(one.out, " in 1 file: ")) << one.out;
  // --rule takes one value: the FILE after it stays a FILE.
  const Outcome rule = Sh("salta-validate --rule jumps=mandatory " + kGames +
                          "/valid/features.sgn " + kGames + "/valid/standard-6x6.sgn");
  EXPECT_EQ(rule.status, 0) << rule.err;
  EXPECT_TRUE(Has(rule.out, " in 2 files: ")) << rule.out;
}

// Item 10: messages quote the input with what is not valid UTF-8 escaped,
// whoever wrote the message (the library, CLI11).
TEST(ToolsCli, MessagesAreValidUtf8) {
  Outcome r = Sh("salta-perft --position \"w $(printf '\\305')1a1\" 1");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Has(r.err, "piece 1 \"\\xc51a1\": unknown kind '\\xc5'")) << r.err;
  r = Sh("salta-perft --position 'w Ś1a1' 1");
  EXPECT_TRUE(Has(r.err, "unknown kind 'Ś'")) << r.err;
  r = Sh("salta-perft --json --t$(printf '\\377') 1");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(Has(r.err, "unknown option \"--t\\xff\"")) << r.err;
  EXPECT_TRUE(nlohmann::json::parse(r.out, nullptr, false).is_object()) << r.out;
}

// A file's name is shown as messages show it, with invalid UTF-8 escaped:
// on standard output and in JSON too (before, salta-validate printed the raw
// byte on its report lines and U+FFFD in its JSON, unlike its messages).
TEST(ToolsCli, FileNamesAreShownEscaped) {
  const std::string setup =
      "d=$(mktemp -d) && trap 'rm -rf \"$d\"' EXIT && cp " + kGames +
      "/invalid/moves.sgn \"$d/bad$(printf '\\305')name.sgn\" && cd \"$d\" && ";
  const std::string name = "bad\\xc5name.sgn";
  Outcome r = Sh(setup + "salta-validate bad*name.sgn");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(Has(r.out, name + ":6:4: game 1: invalid")) << r.out;
  EXPECT_FALSE(Has(r.out, "\305")) << r.out;
  r = Sh(setup + "salta-validate --json bad*name.sgn nothing$(printf '\\305').sgn");
  EXPECT_EQ(r.status, 2);
  std::istringstream lines(r.out);
  std::vector<nlohmann::json> all;
  for (std::string line; std::getline(lines, line);) all.push_back(nlohmann::json::parse(line));
  ASSERT_GE(all.size(), 2u) << r.out;
  EXPECT_EQ(all.front()["file"], name) << r.out;
  EXPECT_EQ(all.back()["summary"]["io_errors"][0]["file"], "nothing\\xc5.sgn") << r.out;
  r = Sh(setup + "salta-score --json --record bad*name.sgn");
  EXPECT_EQ(r.status, 2);
  const nlohmann::json error = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(error.is_object()) << r.out;
  EXPECT_EQ(error["file"], name) << r.out;
  EXPECT_TRUE(Has(error["error"].get<std::string>(), name + ":6:4:")) << r.out;
}

// Item 13: the flags do what they say.
TEST(ToolsCli, QuietSaysWhatItDoesAndDoesItWithJsonToo) {
  const std::string files = kGames + "/invalid/moves.sgn " + kGames + "/valid/features.sgn";
  const Outcome text = Sh("salta-validate --quiet " + files);
  EXPECT_EQ(text.status, 1);
  std::istringstream lines(text.out);
  int n = 0;
  for (std::string line; std::getline(lines, line); ++n)
    EXPECT_TRUE(Has(line, ": invalid: ")) << line;
  EXPECT_EQ(n, 16);
  const Outcome json = Sh("salta-validate --quiet --json " + files);
  EXPECT_EQ(json.status, 1);
  std::istringstream objects(json.out);
  std::vector<nlohmann::json> all;
  for (std::string line; std::getline(objects, line);) all.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(all.size(), 17u);  // 16 invalid games, then the summary
  for (size_t k = 0; k + 1 < all.size(); ++k) EXPECT_EQ(all[k]["valid"], false);
  EXPECT_EQ(all.back()["summary"]["games"], 20);
  EXPECT_EQ(all.back()["summary"]["invalid"], 16);
  const Outcome help = Sh("salta-validate --help");
  EXPECT_TRUE(Has(help.out, "no summary line")) << help.out;
  EXPECT_TRUE(Has(help.out, "--score-node-limit")) << help.out;
  EXPECT_TRUE(Has(help.out, "--bound-table-mb")) << help.out;
  // The counts of Score tags with the smallest bound table: the same verdicts.
  const Outcome small = Sh("salta-validate --bound-table-mb 1 " + kGames + "/valid/scored.sgn");
  EXPECT_EQ(small.status, 0) << small.out << small.err;
  EXPECT_TRUE(Has(small.out, "game 2: valid, 4 plies, result 0-1 (move-limit), score 2"))
      << small.out;
  const Outcome score = Sh("salta-score --help");
  EXPECT_TRUE(Has(score.out, "take far longer")) << score.out;
}

}  // namespace

// The rules a tool prints (JSON "rules", a record's Rules tag) are what
// every tool's --rules takes back (perft took a preset's name alone, while
// salta-validate took the whole text).
TEST(ToolsCli, TheRulesPrintedAreTheRulesTaken) {
  const Outcome first =
      Sh("salta-perft --rules pre1900 --rule move-limit=120 --rule chain=on --json 3");
  ASSERT_EQ(first.status, 0) << first.err;
  const nlohmann::json a = nlohmann::json::parse(first.out);
  const std::string rules = a["rules"];
  EXPECT_EQ(rules, "pre1900 chain=on move-limit=120");
  const Outcome again = Sh("salta-perft --rules '" + rules + "' --json 3");
  ASSERT_EQ(again.status, 0) << again.err;
  const nlohmann::json b = nlohmann::json::parse(again.out);
  EXPECT_EQ(b["rules"], rules);
  EXPECT_EQ(b["nodes"], a["nodes"]);
  // --rule still overrides on top; a bad word is named.
  EXPECT_EQ(nlohmann::json::parse(
                Sh("salta-perft --rules '" + rules + "' --rule chain=off --json 1").out)["rules"],
            "pre1900 move-limit=120");
  const Outcome bad = Sh("salta-play --rules 'standard chain=maybe'");
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(Has(bad.err, "\"maybe\"")) << bad.err;
  EXPECT_EQ(Sh("salta-perft --rules '' 1").status, 2);
}
