// salta-show as a user runs it (docs/salta-show.md, issue 11): the terminal
// board (characters and colours as the terminal allows), SVG diagrams
// checked with real XML tools (svg_check.py with Python's XML parser,
// xmllint, rsvg-convert), the viewer page written, the errors and exit
// statuses shared with the other tools, write errors, --help and --version.
// The page in a browser: tests/browser/viewer_test.py.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "salta/game.h"
#include "salta/notation.h"
#include "salta/render_text.h"
#include "test_util.h"

namespace salta {
namespace {

using ToolRun = CommandOutcome;

std::string ToolPath(const std::string& name) {
  return std::string(SALTA_TOOLS_DIR) + "/" + name;
}

std::string DataPath(const std::string& name) {
  return std::string(SALTA_DATA_DIR) + "/" + name;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A scratch directory for this process, removed at the end.
class Scratch {
 public:
  Scratch() {
    char dir[] = "/tmp/salta_show_test_XXXXXX";
    if (mkdtemp(dir) != nullptr) path_ = dir;
  }
  ~Scratch() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// A static object, so that its destructor runs as the process exits (each
// test runs in a process of its own under ctest).
const Scratch& Tmp() {
  static const Scratch scratch;
  return scratch;
}

// Runs `env` (variable settings or empty) and a tool with `args` (already
// quoted for the shell), nothing on standard input.
ToolRun Show(const std::string& args, const std::string& env = "LC_ALL=C",
             const std::string& tool = "salta-show") {
  return RunCapturing("env " + env + " '" + ToolPath(tool) + "' " + args);
}

std::string Python() {
  return SALTA_PYTHON3;
}

// ---------------------------------------------------------------------------
// The terminal board.

// Memory running out while the viewer's data are built is an error (exit 2,
// "out of memory", no page written), not an abort: the unwinding after it
// needs memory too (nlohmann::json's destructor allocates), which the
// tools put aside at the start (tools/tool.h, MemoryReserve). 100 games
// take about 130 MB here (200 MB of address space), under a limit of 100 MB
// (the start position alone shows under 60 MB). Not under the sanitizers,
// which reserve far more address space than that.
TEST(ShowCli, RunningOutOfMemoryIsAnErrorNotAnAbort) {
  const char* sanitized = std::getenv("SALTA_SANITIZED");
  if (sanitized != nullptr && *sanitized != '\0') GTEST_SKIP() << "under the sanitizers";
  const std::string games = Tmp().File("oom-games.sgn"), page = Tmp().File("oom.html");
  ASSERT_EQ(Show("--games 100 --seed 7 -o '" + games + "'", "LC_ALL=C", "salta-play").status, 0);
  const ToolRun r = RunCapturing("ulimit -v 100000 && '" + ToolPath("salta-show") + "' --record '" +
                                 games + "' --html '" + page + "'");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("salta-show: out of memory"), std::string::npos) << r.err;
  EXPECT_FALSE(std::ifstream(page).good()) << "a page was written";
}

TEST(ShowCli, DefaultIsTheStartBoardAndItsText) {
  const ToolRun r = Show("--board 6 --rows 2");
  EXPECT_EQ(r.status, 0) << r.err;
  const Position start = Position::Start(V("standard", 6, 2));
  EXPECT_EQ(r.out,
            RenderText(start, {}) + "Position: " + PositionToString(start) + "\nWhite to move\n");
  EXPECT_EQ(r.err, "");
}

TEST(ShowCli, CharsetFromTheLocale) {
  for (const char* env :
       {"LC_ALL=C.UTF-8", "LC_ALL= LC_CTYPE=en_US.utf8", "LC_ALL= LANG=de_DE.UTF-8"})
    EXPECT_TRUE(Has(Show("--board 4 --rows 1", env).out, "\u2606")) << env;  // ☆
  for (const char* env : {"LC_ALL=C", "LC_ALL=C LANG=C.UTF-8", "LC_ALL= LC_CTYPE= LANG="})
    EXPECT_TRUE(Has(Show("--board 4 --rows 1", env).out, " S1 ")) << env;
  EXPECT_TRUE(Has(Show("--board 4 --rows 1 --charset ascii", "LC_ALL=C.UTF-8").out, " S1 "));
  EXPECT_TRUE(Has(Show("--board 4 --rows 1 --charset utf8", "LC_ALL=C").out, "\u2606"));
}

// Colours on a terminal only (a pseudo-terminal from script(1)), never with
// NO_COLOR or TERM=dumb, always with --color always.
TEST(ShowCli, ColoursOnlyOnATerminal) {
  const std::string show = "'" + ToolPath("salta-show") + "' --board 4 --rows 1";
  auto on_terminal = [&](const std::string& env, const std::string& args = "") {
    return RunCommand("env " + env + " script -qec \"" + show + args + "\" /dev/null </dev/null")
        .out;
  };
  EXPECT_TRUE(Has(on_terminal("TERM=xterm NO_COLOR="), "\033[48;5;"));
  EXPECT_FALSE(Has(on_terminal("TERM=xterm NO_COLOR=1"), "\033["));
  EXPECT_FALSE(Has(on_terminal("TERM=dumb"), "\033["));
  EXPECT_FALSE(Has(Show("--board 4 --rows 1").out, "\033["));  // a pipe
  EXPECT_TRUE(Has(Show("--board 4 --rows 1 --color always", "NO_COLOR=1").out, "\033[48;5;"));
  EXPECT_FALSE(Has(on_terminal("TERM=xterm NO_COLOR=", " --color never"), "\033["));
}

TEST(ShowCli, MovesShowTheLastMove) {
  const ToolRun r = Show("--board 6 --rows 2 --moves '1. b2-a3 e5-d4' --targets");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Has(r.out, " 5 (m3)    (m2)    [..]     5\n")) << r.out;
  EXPECT_TRUE(Has(r.out, " 4      ..     [m1]     ..  4\n")) << r.out;
  EXPECT_TRUE(Has(r.out, "Last move: 1... e5-d4 (ply 2)\n")) << r.out;
}

TEST(ShowCli, RecordFinalPositionAndResult) {
  const ToolRun r = Show("--record '" + DataPath("games/valid/scored.sgn") + "'");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "Position: w S1b4,S2d4,s1c1,s2b2 12 #\n")) << r.out;
  EXPECT_TRUE(Has(r.out, "Last move: 6... d2-c1 (ply 12)\n")) << r.out;
  EXPECT_TRUE(Has(r.out, "Result: 1-0, White wins by 1 (Black needs 1 move)\n")) << r.out;
  EXPECT_TRUE(Has(r.out, "White needs: 0 moves\nBlack needs: 1 move\nScore: 1\n")) << r.out;
  const ToolRun limit = Show("--record '" + DataPath("games/valid/scored.sgn") + "' --game 2");
  EXPECT_EQ(limit.status, 0) << limit.err;
  EXPECT_TRUE(Has(limit.out, "White needs: 4 moves\nBlack needs: 3 moves\nScore: 2\n"))
      << limit.out;
}

TEST(ShowCli, RecordPly) {
  const std::string file = "'" + DataPath("games/valid/scored.sgn") + "'";
  const ToolRun start = Show("--record " + file + " --ply 0");
  EXPECT_EQ(start.status, 0) << start.err;
  EXPECT_TRUE(Has(start.out, "Position: w S1a1,S2c1,s1d4,s2b4 0 -\nWhite to move\n")) << start.out;
  EXPECT_FALSE(Has(start.out, "Result"));
  const ToolRun third = Show("--record " + file + " --ply 3");
  EXPECT_TRUE(Has(third.out, "Last move: 2. d2-c3 (ply 3)\n")) << third.out;
  const ToolRun past = Show("--record " + file + " --ply 13");
  EXPECT_EQ(past.status, 2);
  EXPECT_EQ(past.err, "salta-show: --ply 13: the game has 12 plies, so the ply must be 0 to 12\n");
  EXPECT_EQ(past.out, "");
}

// A game with few pieces near home, scored under a node limit too small
// for an exact count: bounds, said to be bounds, and the exit status 0.
TEST(ShowCli, NodeLimitGivesBounds) {
  const ToolRun r =
      Show("--record '" + DataPath("games/valid/standard-6x6.sgn") + "' --node-limit 1");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(Has(r.out, "White needs: at least ")) << r.out;
  EXPECT_TRUE(Has(r.out, "(not exact: a limit was reached)")) << r.out;
  // The result's line says so alike (it said "needs 7 to ? moves (not exact)").
  EXPECT_TRUE(Has(r.out, "Black wins (White needs at least ")) << r.out;
  EXPECT_FALSE(Has(r.out, "?")) << r.out;
  EXPECT_TRUE(Has(r.out, "Score: unknown (not exact)")) << r.out;
}

// ---------------------------------------------------------------------------
// SVG.

void CheckSvg(const std::string& args, int size, const std::string& position,
              const std::string& extra) {
  static int n = 0;
  const std::string svg = Tmp().File("board" + std::to_string(++n) + ".svg");
  const ToolRun r = Show(args + " --svg '" + svg + "'");
  ASSERT_EQ(r.status, 0) << args << ": " << r.err;
  EXPECT_EQ(r.out, "");
  const std::string pieces = position.substr(2, position.find(' ', 2) - 2);
  const CommandResult check =
      RunCommand("'" + Python() + "' '" + SALTA_TESTS_DIR + "/svg_check.py' '" + svg + "' " +
                 std::to_string(size) + " '" + pieces + "' " + extra + " 2>&1");
  EXPECT_EQ(check.status, 0) << args << "\n" << check.out;
  const CommandResult lint = RunCommand("xmllint --noout '" + svg + "' 2>&1");
  EXPECT_EQ(lint.status, 0) << lint.out;
  const std::string png = svg + ".png";
  const CommandResult render = RunCommand("rsvg-convert -w 200 -o '" + png + "' '" + svg +
                                          "' 2>&1 && head -c 8 '" + png + "' | od -An -c");
  EXPECT_EQ(render.status, 0) << render.out;
  EXPECT_TRUE(Has(render.out, "P   N   G")) << render.out;
}

TEST(ShowCli, SvgStartPositionsEveryBoard) {
  for (int n = 4; n <= 10; n += 2)
    for (int rows = 1; rows <= 3 && 2 * rows < n; ++rows)
      for (const char* flip : {"", " --flip"}) {
        const Position start = Position::Start(V("standard", n, rows));
        CheckSvg("--board " + std::to_string(n) + " --rows " + std::to_string(rows) + flip, n,
                 PositionToString(start), flip);
      }
}

TEST(ShowCli, SvgLastMoveAndTargets) {
  Position pos = Position::Start(V("standard", 8, 2));
  ASSERT_TRUE(PlayMoves(pos, "b2-c3 g7-f6 c3-d4 f6-e5 d4-f6").ok());
  const Geometry& g = pos.variant().geometry();
  std::string targets;
  for (Square s = 0; s < g.num_squares(); ++s)
    if (Contains(pos.targets(pos.side_to_move()), s))
      targets += (targets.empty() ? "" : ",") + SquareName(g, s);
  CheckSvg("--board 8 --rows 2 --moves 'b2-c3 g7-f6 c3-d4 f6-e5 d4-f6' --targets", 8,
           PositionToString(pos), "--last d4,f6 --marked " + targets);
  CheckSvg("--board 8 --rows 2 --moves 'b2-c3 g7-f6 c3-d4 f6-e5 d4-f6' --flip", 8,
           PositionToString(pos), "--flip --last d4,f6");
  // A chain of jumps: the arrow through each landing square.
  Position chain = *ParsePosition(V("forward"), "w M1b2,U1c3,u1e5,s1j10");
  ASSERT_TRUE(PlayMoves(chain, "b2-f6").ok());
  CheckSvg("--rules forward --position 'w M1b2,U1c3,u1e5,s1j10' --moves b2-f6", 10,
           PositionToString(chain), "--last b2,d4,f6");
}

TEST(ShowCli, SvgOfARecordPly) {
  const std::string file = DataPath("games/valid/standard-6x6.sgn");
  const ToolRun text = Show("--record '" + file + "' --game 2 --ply 7");
  ASSERT_EQ(text.status, 0) << text.err;
  const size_t at = text.out.find("Position: ");
  ASSERT_NE(at, std::string::npos);
  const std::string position = text.out.substr(at + 10, text.out.find('\n', at) - at - 10);
  CheckSvg("--record '" + file + "' --game 2 --ply 7", 6, position, "--last d2,f4");  // 4. d2-f4
}

TEST(ShowCli, SvgToStandardOutput) {
  const ToolRun r = Show("--board 4 --rows 1 --svg -");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 0), 0u);
  EXPECT_TRUE(Has(r.out, "</svg>\n"));
}

// ---------------------------------------------------------------------------
// The viewer page (in a browser: tests/browser/viewer_test.py).

TEST(ShowCli, HtmlEveryGameOrOne) {
  const std::string file = DataPath("games/valid/standard-6x6.sgn");
  const std::string html = Tmp().File("games.html");
  const ToolRun r = Show("--record '" + file + "' --html '" + html + "'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const std::string page = ReadText(html);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_TRUE(Has(page, "<title>standard-6x6.sgn</title>"));
  EXPECT_TRUE(Has(page, "<a href=\"#game-3\""));
  EXPECT_TRUE(Has(page, "<div class=\"board\" data-game=\"2\" hidden>"));
  const std::string one = Tmp().File("one.html");
  ASSERT_EQ(Show("--record '" + file + "' --game 3 --html '" + one + "' --flip").status, 0);
  const std::string page3 = ReadText(one);
  EXPECT_FALSE(Has(page3, "<a href=\"#game-"));
  EXPECT_TRUE(Has(page3, "data-flip=\"true\""));
  // The page of --moves: one game from the given position.
  const ToolRun moves = Show("--board 6 --rows 2 --moves 'b2-a3 e5-d4' --html -");
  EXPECT_EQ(moves.status, 0) << moves.err;
  EXPECT_TRUE(Has(moves.out, "data-ply=\"2\">e5-d4</span>"));
}

// ---------------------------------------------------------------------------
// Errors: the same messages and status as the other tools.

TEST(ShowCli, BadInputAsTheOtherTools) {
  // Positions and moves: word for word what salta-score says.
  for (const std::string args :
       {"--position 'w S1a2'", "--moves 'c3-d4 c9-d8'", "--board 5", "--rules nosuch",
        "--rule steps=sideways", "--position 'w S1a1 0 #'", "--position ''"}) {
    const ToolRun show = Show(args);
    const ToolRun score = Show(args, "LC_ALL=C", "salta-score");
    EXPECT_EQ(show.status, 2) << args;
    EXPECT_EQ(score.status, 2) << args;
    EXPECT_EQ(show.out, "");
    ASSERT_EQ(score.err.rfind("salta-score: ", 0), 0u) << score.err;
    EXPECT_EQ(show.err, "salta-show: " + score.err.substr(13)) << args;
  }
  // Records.
  const std::string invalid = DataPath("games/invalid/moves.sgn");
  for (const std::string& args : std::vector<std::string>{
           "--record /nonexistent.sgn", "--record '" + invalid + "'",
           "--record '" + DataPath("games/valid/scored.sgn") + "' --game 3",
           "--record '" + DataPath("games/invalid/syntax.sgn") + "'", "--record /dev/null"}) {
    const ToolRun show = Show(args);
    const ToolRun score = Show(args, "LC_ALL=C", "salta-score");
    EXPECT_EQ(show.status, 2) << args;
    ASSERT_EQ(score.err.rfind("salta-score: ", 0), 0u) << score.err;
    EXPECT_EQ(show.err, "salta-show: " + score.err.substr(13)) << args;
  }
  // An empty record: no game to show, whatever --game would have said.
  EXPECT_EQ(Show("--record /dev/null").err, "salta-show: /dev/null: has no games\n");
  // An invalid game in a file stops the page too, naming the game.
  const ToolRun page = Show("--record '" + invalid + "' --html " + Tmp().File("bad.html"));
  EXPECT_EQ(page.status, 2);
  EXPECT_TRUE(Has(page.err, ": game 1: ")) << page.err;
  // Flags.
  for (const char* args : {"--svg a.svg --html a.html", "--ply 1", "--game 2",
                           "--record x --position start", "--record x --ply 1 --html y",
                           "--charset latin1", "--color sometimes", "--nosuch", "--ply -1"}) {
    const ToolRun r = Show(args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.err;
    EXPECT_NE(r.err, "") << args;
    EXPECT_EQ(r.out, "") << args;
  }
}

TEST(ShowCli, WriteErrorsAreReported) {
  const ToolRun dir = Show("--svg /nonexistent/dir/board.svg");
  EXPECT_EQ(dir.status, 2);
  EXPECT_EQ(dir.err,
            "salta-show: /nonexistent/dir/board.svg: cannot open: No such file or "
            "directory\n");
  if (access("/dev/full", W_OK) == 0) {
    const ToolRun full = Show("--html /dev/full");
    EXPECT_EQ(full.status, 2);
    EXPECT_EQ(full.err, "salta-show: cannot write to /dev/full: No space left on device\n");
    const ToolRun text = Show(">/dev/full");
    EXPECT_EQ(text.status, 2);
    EXPECT_EQ(text.err, "salta-show: cannot write to standard output: No space left on device\n");
    const ToolRun svg = Show("--svg - >/dev/full");
    EXPECT_EQ(svg.status, 2);
    EXPECT_EQ(svg.err, "salta-show: cannot write to standard output: No space left on device\n");
  }
}

TEST(ShowCli, HelpAndVersion) {
  const ToolRun help = Show("--help");
  EXPECT_EQ(help.status, 0);
  for (const char* part : {"--position", "--moves", "--record", "--game", "--ply", "--svg",
                           "--html", "--targets", "--flip", "--version", "Exit status: 0", " 2 "})
    EXPECT_TRUE(Has(help.out, part)) << part;
  for (const char* tool :
       {"salta-show", "salta-perft", "salta-validate", "salta-score", "salta-play", "salta-egtb"}) {
    const ToolRun version = Show("--version", "LC_ALL=C", tool);
    EXPECT_EQ(version.status, 0) << tool;
    EXPECT_EQ(version.out, std::string(tool) + " " + SALTA_VERSION + "\n");
  }
}

}  // namespace
}  // namespace salta
