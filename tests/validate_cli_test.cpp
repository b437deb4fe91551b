// salta-validate and salta-play as programs: exit statuses, JSON Lines,
// standard input, --quiet, threads, determinism of salta-play.
#include <gtest/gtest.h>
#include <sys/wait.h>

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

const std::string kTools = SALTA_TOOLS_DIR;
const std::string kGames = std::string(SALTA_DATA_DIR) + "/games";

using Output = salta::CommandResult;

Output Sh(const std::string& command) {
  return salta::RunCommand(command);
}

std::string Validate(const std::string& args) {
  return kTools + "/salta-validate " + args;
}

std::vector<nlohmann::json> JsonLines(const std::string& out) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

fs::path TempFile(const std::string& name) {
  return fs::temp_directory_path() /
         ("salta_validate_cli_" + std::to_string(getpid()) + "_" + name);
}

TEST(ValidateCliTest, ExitStatuses) {
  EXPECT_EQ(Sh(Validate(kGames + "/valid/*.sgn >/dev/null")).status, 0);
  EXPECT_EQ(Sh(Validate(kGames + "/invalid/moves.sgn >/dev/null")).status, 1);
  EXPECT_EQ(Sh(Validate(kGames + "/valid/features.sgn " + kGames + "/invalid/moves.sgn >/dev/null"))
                .status,
            1);
  // A missing file is an I/O error even when another file has invalid games.
  EXPECT_EQ(Sh(Validate(kGames + "/invalid/moves.sgn /no/such/file.sgn >/dev/null 2>&1")).status,
            2);
  EXPECT_EQ(Sh(Validate(kGames + " >/dev/null 2>&1")).status, 2);  // a directory
  EXPECT_EQ(Sh(Validate("--rules blitz x.sgn >/dev/null 2>&1")).status, 2);
  // An empty preset is refused, as the other tools refuse it (not standard).
  EXPECT_EQ(Sh(Validate("--rules= " + kGames + "/valid/features.sgn >/dev/null 2>&1")).status, 2);
  EXPECT_EQ(Sh(Validate("--rule steps=sideways x.sgn >/dev/null 2>&1")).status, 2);
  EXPECT_EQ(Sh(Validate("--strict --lenient x.sgn >/dev/null 2>&1")).status, 2);
  EXPECT_EQ(Sh(Validate(">/dev/null 2>&1")).status, 2);  // no FILE
  EXPECT_EQ(Sh(Validate("--no-such-flag x.sgn >/dev/null 2>&1")).status, 2);
  const Output help = Sh(Validate("--help"));
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("Exit status"), std::string::npos);
}

TEST(ValidateCliTest, JsonLinesOneObjectPerGameThenASummary) {
  const Output r = Sh(Validate("--json --threads 1 " + kGames + "/invalid/moves.sgn"));
  EXPECT_EQ(r.status, 1);
  std::vector<nlohmann::json> lines = JsonLines(r.out);
  ASSERT_EQ(lines.size(), 17u);
  for (size_t k = 0; k + 1 < lines.size(); ++k) {
    const nlohmann::json& g = lines[k];
    for (const char* key : {"file", "game", "valid", "plies", "result", "error", "warnings"})
      EXPECT_TRUE(g.contains(key)) << key;
    EXPECT_EQ(g["game"], k + 1);
    EXPECT_EQ(g["valid"], false);
    EXPECT_TRUE(g["result"].is_null());
    for (const char* key : {"line", "column", "ply", "move", "reason"})
      EXPECT_TRUE(g["error"].contains(key)) << key;
  }
  // Game 7: 1. e3-f4 d8-e7 2. f4-g5 e7-f6 3. a3-b4 (White must jump g5-e7).
  const nlohmann::json& e = lines[6]["error"];
  EXPECT_EQ(e["line"], 36);
  EXPECT_EQ(e["column"], 34);
  EXPECT_EQ(e["ply"], 5);
  EXPECT_EQ(e["move_number"], 3);
  EXPECT_EQ(e["side"], "White");
  EXPECT_EQ(e["move"], "a3-b4");
  EXPECT_NE(e["reason"].get<std::string>().find("Salta!"), std::string::npos);
  const nlohmann::json& s = lines.back()["summary"];
  EXPECT_EQ(s["games"], 16);
  EXPECT_EQ(s["invalid"], 16);
  EXPECT_EQ(s["valid"], 0);

  const Output v = Sh(Validate("--json " + kGames + "/valid/features.sgn"));
  EXPECT_EQ(v.status, 0);
  lines = JsonLines(v.out);
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0]["valid"], true);
  EXPECT_TRUE(lines[0]["error"].is_null());
  EXPECT_EQ(lines[0]["result"], "*");
  EXPECT_EQ(lines[0]["plies"], 5);
  EXPECT_TRUE(lines[0]["warnings"].is_array());
}

TEST(ValidateCliTest, LenientTurnsAMissedJumpIntoAWarning) {
  const std::string game = kGames + "/invalid/moves.sgn";
  std::vector<nlohmann::json> strict = JsonLines(Sh(Validate("--json " + game)).out);
  std::vector<nlohmann::json> lenient = JsonLines(Sh(Validate("--json --lenient " + game)).out);
  EXPECT_EQ(strict[6]["valid"], false);
  EXPECT_EQ(lenient[6]["valid"], true);
  ASSERT_EQ(lenient[6]["warnings"].size(), 1u);
  EXPECT_EQ(lenient[6]["warnings"][0]["ply"], 5);
}

TEST(ValidateCliTest, TheSummaryCountsTheWarningsNotListedToo) {
  // 300 plies there and back, every move numbered 9: 298 wrong numbers, of
  // which the game lists 100 and one line for the 198 more.
  std::string moves;
  for (int i = 0; i < 75; ++i) moves += "9. e3-f4 9... h8-g7 9. f4-e3 9... g7-h8 ";
  const Output r = Sh("echo '" + moves + "*' | " + Validate("--json -"));
  ASSERT_EQ(r.status, 0) << r.out;
  std::vector<nlohmann::json> lines = JsonLines(r.out);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["warnings"].size(), 101u);
  EXPECT_EQ(lines[0]["warnings"][100]["ply"], 0);
  EXPECT_EQ(lines[1]["summary"]["warnings"], 298);
}

// A game whose rules cannot be read was replayed under none: "rules" is
// null (it was "", which reads as the standard rules).
TEST(ValidateCliTest, RulesAreNullWhereTheTagCannotBeRead) {
  const Output r = Sh("printf '[Rules \"blitz\"]\n\n1. c3-d4 *\n[Rules \"pre1900\"]\n\n*\n' | " +
                      Validate("--json -"));
  ASSERT_EQ(r.status, 1) << r.out;
  std::vector<nlohmann::json> lines = JsonLines(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_TRUE(lines[0]["rules"].is_null()) << r.out;
  EXPECT_EQ(lines[0]["valid"], false);
  EXPECT_EQ(lines[1]["rules"], "pre1900") << r.out;
}

TEST(ValidateCliTest, StandardInputQuietAndThreadsGiveTheSameAnswers) {
  const fs::path games = TempFile("games.sgn");
  ASSERT_EQ(
      Sh(kTools + "/salta-play --games 60 --max-plies 80 --seed 4 -o " + games.string()).status, 0);
  // Append the invalid corpus so that both verdicts are in the stream.
  {
    std::ofstream out(games, std::ios::app | std::ios::binary);
    std::ifstream in(kGames + "/invalid/moves.sgn", std::ios::binary);
    out << "\n" << in.rdbuf();
  }
  const Output one = Sh(Validate("--json --threads 1 " + games.string() + " | grep -v summary"));
  const Output four = Sh(Validate("--json --threads 4 " + games.string() + " | grep -v summary"));
  const Output piped =
      Sh("cat " + games.string() + " | " +
         Validate("--json --threads 3 - | grep -v summary | sed 's/\"file\":\"-\"/X/'"));
  EXPECT_EQ(one.out, four.out);
  EXPECT_EQ(JsonLines(one.out).size(), 76u);
  // The same objects, but for the file name.
  const std::string name = "\"file\":\"" + games.string() + "\"";
  std::string renamed;
  for (size_t from = 0, at; from < one.out.size(); from = at + name.size()) {
    at = one.out.find(name, from);
    if (at == std::string::npos) {
      renamed.append(one.out, from, std::string::npos);
      break;
    }
    renamed.append(one.out, from, at - from).push_back('X');
  }
  EXPECT_EQ(renamed, piped.out);

  const Output quiet = Sh(Validate("--quiet " + games.string()));
  EXPECT_EQ(quiet.status, 1);
  int lines = 0;
  std::istringstream in(quiet.out);
  for (std::string line; std::getline(in, line); ++lines)
    EXPECT_NE(line.find("invalid"), std::string::npos) << line;
  EXPECT_EQ(lines, 16);
  fs::remove(games);
}

TEST(ValidateCliTest, SaltaPlayIsDeterministicAndValid) {
  for (const char* rules :
       {"--rules standard", "--rules pre1900", "--rules forward --board 6 --rows 2",
        "--rules standard --board 4 --rows 1 --rule block=allow --player random"}) {
    const std::string play = kTools + "/salta-play " + rules + " --games 5 --max-plies 120";
    const Output a = Sh(play + " --seed 11"), b = Sh(play + " --seed 11"),
                 c = Sh(play + " --seed 12");
    EXPECT_EQ(a.status, 0);
    EXPECT_EQ(a.out, b.out) << rules;
    EXPECT_NE(a.out, c.out) << rules;
    EXPECT_EQ(Sh(play + " --seed 11 | " + Validate("--quiet -")).status, 0) << rules;
  }
  EXPECT_EQ(Sh(kTools + "/salta-play --player perfect >/dev/null 2>&1").status, 2);
  EXPECT_EQ(Sh(kTools + "/salta-play --board 7 >/dev/null 2>&1").status, 2);
}

TEST(ValidateCliTest, DamagedFilesNeverCrash) {
  const fs::path damaged = TempFile("damaged.sgn");
  {
    std::ofstream out(damaged, std::ios::binary);
    out << "[Event \"x\"\n1. c3-d4 {\xff\n[[[[]]]] ;;; \"\"\" ((( 1-0 1/2 0-0 99999999999. "
        << std::string(100000, '{') << "\n\x00\x01";
  }
  const Output r = Sh(Validate(damaged.string() + " >/dev/null 2>&1"));
  EXPECT_EQ(r.status, 1);
  fs::remove(damaged);
}

}  // namespace

// A game's lines come in the order of the text: under --lenient, game 8's
// missed jump (41:34) before the error it leads to (41:49).
TEST(ValidateCliTest, AGamesLinesFollowTheText) {
  const Output r = Sh(Validate("--lenient " + kGames + "/invalid/moves.sgn"));
  ASSERT_EQ(r.status, 1) << r.out;
  const size_t warning = r.out.find(":41:34: game 8: warning:");
  const size_t error = r.out.find(":41:49: game 8: invalid:");
  ASSERT_NE(warning, std::string::npos) << r.out;
  ASSERT_NE(error, std::string::npos) << r.out;
  EXPECT_LT(warning, error) << r.out;
}
