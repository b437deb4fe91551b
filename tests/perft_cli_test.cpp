// salta-perft as a user runs it: output formats, exit status and messages.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "salta/game.h"
#include "salta/notation.h"
#include "salta/perft.h"
#include "test_util.h"

namespace salta {
namespace {

using ToolRun = CommandResult;  // out holds stderr too where merged

std::string Tool() {
  return std::string(SALTA_TOOLS_DIR) + "/salta-perft";
}

// Runs the tool with the given arguments (already quoted for the shell).
// `merge` also captures stderr; otherwise stderr is dropped.
ToolRun RunTool(const std::string& args, bool merge = true) {
  std::string command = "'";
  command.append(Tool()).append("' ").append(args);
  command.append(merge ? " 2>&1" : " 2>/dev/null").append(" </dev/null");
  return RunCommand(command);
}

nlohmann::json ParseOneLine(const std::string& out) {
  EXPECT_FALSE(out.empty());
  EXPECT_EQ(out.back(), '\n') << out;
  EXPECT_EQ(out.find('\n'), out.size() - 1) << "more than one line: " << out;
  nlohmann::json j = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(j.is_discarded()) << "not JSON: " << out;
  return j;
}

TEST(PerftCli, ToolIsBuilt) {
  FILE* f = std::fopen(Tool().c_str(), "rb");
  ASSERT_NE(f, nullptr) << Tool() << " is missing";
  std::fclose(f);
}

TEST(PerftCli, JsonIsOneLineWithTheCounts) {
  const ToolRun r = RunTool("--json 3", /*merge=*/false);
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json j = ParseOneLine(r.out);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j.value("depth", -1), 3);
  EXPECT_EQ(j.value("nodes", uint64_t{0}), 891u);
  ASSERT_TRUE(j.contains("seconds") && j["seconds"].is_number()) << r.out;
  ASSERT_TRUE(j.contains("nodes_per_second") && j["nodes_per_second"].is_number()) << r.out;
  EXPECT_GE(j["seconds"].get<double>(), 0.0);
  EXPECT_GE(j["nodes_per_second"].get<double>(), 0.0);
  EXPECT_FALSE(j.contains("divide")) << r.out;
}

TEST(PerftCli, JsonWithDivide) {
  const ToolRun r = RunTool("--json --divide 2", /*merge=*/false);
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json j = ParseOneLine(r.out);
  EXPECT_EQ(j.value("nodes", uint64_t{0}), 81u);
  ASSERT_TRUE(j.contains("divide") && j["divide"].is_object()) << r.out;
  const nlohmann::json& d = j["divide"];
  // The nine first moves of the start, each answered by nine.
  EXPECT_EQ(d.size(), 9u);
  uint64_t sum = 0;
  for (const char* move :
       {"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4", "i3-h4", "i3-j4"}) {
    ASSERT_TRUE(d.contains(move)) << move << " missing: " << r.out;
    EXPECT_EQ(d[move].get<uint64_t>(), 9u) << move;
  }
  for (const auto& item : d.items()) sum += item.value().get<uint64_t>();
  EXPECT_EQ(sum, 81u);
}

TEST(PerftCli, TextOutput) {
  const ToolRun r = RunTool("3", /*merge=*/false);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(Has(r.out, "nodes 891")) << r.out;
  const ToolRun d = RunTool("--divide 1", /*merge=*/false);
  ASSERT_EQ(d.status, 0) << d.out;
  EXPECT_TRUE(Has(d.out, "a3-b4: 1\n")) << d.out;
  EXPECT_TRUE(Has(d.out, "i3-j4: 1\n")) << d.out;
  EXPECT_TRUE(Has(d.out, "nodes 9")) << d.out;
}

TEST(PerftCli, RulesBoardPositionAndMoves) {
  struct Case {
    std::string args;
    uint64_t nodes;
  };
  // Counts cross-checked in data/perft.txt or by hand.
  for (const Case& c : std::vector<Case>{
           {"--rules forward --json 3", 5457},
           {"--rules pre1900 --threads 1 --hash 16 --json 5", 124515},
           {"--threads 2 --json 5", 124515},
           {"--board 6 --rows 1 --json 4", 676},
           {"--board 4 --rows 1 --rules forward --json 12", 0},
           {"--rule move-limit=1 --json 2", 81},
           {"--rule move-limit=1 --json 3", 0},
           {"--rules standard --rule move-limit=1 --rule goal=mirror --json 3", 0},
           {"--position 'w S1a1,s1b2,s2c3 0 -' --json 1", 1},  // a forced pass
           {"--position 'w S1c3,s1a1 0 -' --json 1", 3},       // c3-b2 would block
           {"--position 'w S1c3,s1a1 0 -' --rule block=allow --json 1", 4},
           {"--position start --moves 'c3-d4 h8-g7 d4-e5 g7-f6' --json 1", 1},  // e5xg7 forced
       }) {
    const ToolRun r = RunTool(c.args, /*merge=*/false);
    ASSERT_EQ(r.status, 0) << c.args << ": " << r.out;
    const nlohmann::json j = ParseOneLine(r.out);
    EXPECT_EQ(j.value("nodes", uint64_t{999}), c.nodes) << c.args << ": " << r.out;
  }
}

TEST(PerftCli, MovesAreAppliedBeforeCounting) {
  const ToolRun r = RunTool("--moves '1. c3-d4 h8-g7 2. d4-e5' --json 3", /*merge=*/false);
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json j = ParseOneLine(r.out);
  Position pos = Position::Start(Variant::Default());
  ASSERT_TRUE(PlayMoves(pos, "c3-d4 h8-g7 d4-e5").ok());
  EXPECT_EQ(j.value("position", std::string()), PositionToString(pos)) << r.out;
  PerftOptions options;
  options.threads = 1;
  EXPECT_EQ(j.value("nodes", uint64_t{0}), Perft(pos, 3, options)->nodes);
}

TEST(PerftCli, IllegalMoveExitsTwoNamingMovePlyAndReason) {
  const ToolRun r = RunTool("--moves 'c3-d4 c3-b4' 3");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(Has(r.out, "\"c3-b4\"")) << r.out;
  EXPECT_TRUE(Has(r.out, "ply 2")) << r.out;
  EXPECT_TRUE(Has(r.out, "no piece on c3")) << r.out;
  EXPECT_FALSE(Has(r.out, "nodes")) << r.out;

  // White must jump e5 over f6 at ply 5.
  const ToolRun salta = RunTool("--moves 'c3-d4 h8-g7 d4-e5 g7-f6 a3-b4' --json 2");
  EXPECT_EQ(salta.status, 2) << salta.out;
  EXPECT_TRUE(Has(salta.out, "\"a3-b4\"")) << salta.out;
  EXPECT_TRUE(Has(salta.out, "ply 5")) << salta.out;
  EXPECT_TRUE(Has(salta.out, "jump required")) << salta.out;
  EXPECT_TRUE(Has(salta.out, "e5-g7")) << salta.out;

  const ToolRun syntax = RunTool("--moves 'c3-d4 h8:g7' 2");
  EXPECT_EQ(syntax.status, 2) << syntax.out;
  EXPECT_TRUE(Has(syntax.out, "h8:g7")) << syntax.out;
  EXPECT_TRUE(Has(syntax.out, "ply 2")) << syntax.out;
}

TEST(PerftCli, BadArgumentsExitTwoWithAClearMessage) {
  struct Case {
    std::string args;
    std::vector<std::string> mentions;
  };
  for (const Case& c : std::vector<Case>{
           {"--rules nope 2", {"\"nope\"", "standard", "pre1900", "forward"}},
           {"--rule chain=maybe 2", {"\"maybe\"", "chain", "off", "on"}},
           {"--rule colour=red 2", {"\"colour\"", "steps", "move-limit"}},
           {"--rule chain 2", {"\"chain\"", "KEY=VALUE"}},
           {"--rule move-limit=-5 2", {"\"-5\"", "move-limit"}},
           {"--board 7 2", {"board size 7"}},
           {"--board 12 2", {"--board: \"12\" is not a whole number from 4 to 10"}},
           {"--board 1001 2", {"--board: \"1001\" is not a whole number from 4 to 10"}},
           {"--rows 5 2", {"--rows: \"5\" is not a whole number from 1 to 3"}},
           {"--board 6 --rows 3 2", {"rows 3", "6x6"}},
           {"--position 'w S1a1,S1c1' 2", {"\"S1c1\"", "already placed"}},
           {"--position 'garbage' 2", {"position", "1 field"}},
           {"--position 'w S1a1 0 #' 2", {"field 4"}},
           {"--board 6 --rows 1 --position 'w U1a3' 2", {"\"U1a3\"", "does not exist"}},
       }) {
    const ToolRun r = RunTool(c.args);
    EXPECT_EQ(r.status, 2) << c.args << ": " << r.out;
    for (const std::string& m : c.mentions)
      EXPECT_TRUE(Has(r.out, m)) << c.args << ": \"" << m << "\" missing in: " << r.out;
  }
  // Flag errors from the parser: also exit status 2.
  for (const char* args :
       {"", "--depth 3", "--threads -1 2", "61", "-1", "abc", "--hash -3 2", "--bogus 2"}) {
    const ToolRun r = RunTool(args);
    EXPECT_EQ(r.status, 2) << "\"" << args << "\": " << r.out;
    EXPECT_FALSE(r.out.empty()) << args;
  }
}

TEST(PerftCli, HelpExitsZeroAndMentionsEveryFlag) {
  const ToolRun r = RunTool("--help", /*merge=*/false);
  EXPECT_EQ(r.status, 0) << r.out;
  for (const char* flag : {"--rules", "--rule", "--board", "--rows", "--position", "--moves",
                           "--divide", "--threads", "--hash", "--json", "DEPTH"})
    EXPECT_TRUE(Has(r.out, flag)) << flag << " missing in: " << r.out;
  EXPECT_EQ(RunTool("-h", /*merge=*/false).status, 0);
}

}  // namespace
}  // namespace salta
