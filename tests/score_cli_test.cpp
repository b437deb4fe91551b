// salta-score as a user runs it (docs/salta-score.md, issue 4): the one-line
// JSON, the exit statuses, --side, the result and score of finished and
// move-limited games, --solution, --record, --help and bad input.
//
// The expected counts come from a small model in this file, independent of
// salta/finish.h and salta/score.h: the targets as shared/salta-rules.md
// defines them ("Goal"), a plain iterative-deepening search over steps on a
// clear board (standard and pre1900 allow no jump there), and the rules of
// "Game end and result" applied by hand.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "raw_table.h"
#include "salta/finish.h"
#include "salta/game.h"
#include "salta/legality.h"
#include "salta/notation.h"
#include "salta/record.h"
#include "salta/replay.h"
#include "salta/store.h"
#include "small_disk.h"
#include "test_util.h"

namespace salta {
namespace {

// ---------------------------------------------------------------------------
// Running the tool.

using ToolRun = CommandOutcome;

std::string Tool() {
  return std::string(SALTA_TOOLS_DIR) + "/salta-score";
}

std::string DataPath(const std::string& name) {
  return std::string(SALTA_DATA_DIR) + "/" + name;
}

// Runs the tool with `args` (already quoted for the shell).
ToolRun RunTool(const std::string& args) {
  std::string command = "'";  // (appended: GCC 12 warns of "'" + std::string)
  command.append(Tool()).append("' ").append(args);
  return RunCapturing(command);
}

nlohmann::json ParseOneLine(const std::string& out) {
  EXPECT_FALSE(out.empty());
  if (out.empty()) return nlohmann::json();
  EXPECT_EQ(out.back(), '\n') << out;
  EXPECT_EQ(out.find('\n'), out.size() - 1) << "more than one line: " << out;
  nlohmann::json j = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(j.is_discarded()) << "not JSON: " << out;
  EXPECT_TRUE(j.is_object()) << out;
  return j.is_object() ? j : nlohmann::json::object();
}

// Runs with --json, expects `status`, and returns the parsed line.
nlohmann::json RunJson(const std::string& args, int status = 0) {
  const ToolRun r = RunTool(args + " --json");
  EXPECT_EQ(r.status, status) << args << "\nstdout: " << r.out << "\nstderr: " << r.err;
  return ParseOneLine(r.out);
}

// A JSON integer or -1 for null/missing.
int IntOr(const nlohmann::json& j, const char* key, int otherwise = -1) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number_integer()) return otherwise;
  return j[key].get<int>();
}

std::string StringOr(const nlohmann::json& j, const char* key, const std::string& otherwise) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_string()) return otherwise;
  return j[key].get<std::string>();
}

// The count object of one side has every key of the contract, and an exact
// count has moves == lower == upper.
void ExpectExactCount(const nlohmann::json& side, int moves, const std::string& what) {
  ASSERT_TRUE(side.is_object()) << what;
  for (const char* key : {"moves", "exact", "lower", "upper", "seconds", "nodes"})
    EXPECT_TRUE(side.contains(key)) << what << ": no \"" << key << "\" in " << side.dump();
  EXPECT_EQ(side.value("exact", false), true) << what << ": " << side.dump();
  EXPECT_EQ(IntOr(side, "moves"), moves) << what << ": " << side.dump();
  EXPECT_EQ(IntOr(side, "lower"), moves) << what << ": " << side.dump();
  EXPECT_EQ(IntOr(side, "upper"), moves) << what << ": " << side.dump();
  EXPECT_TRUE(side.contains("seconds") && side["seconds"].is_number() &&
              side["seconds"].get<double>() >= 0)
      << what << ": " << side.dump();
  EXPECT_TRUE(side.contains("nodes") && side["nodes"].is_number_unsigned())
      << what << ": " << side.dump();
}

// ---------------------------------------------------------------------------
// The model: squares, pieces and targets (shared/salta-rules.md).

struct Sq {
  int f = 0, r = 0;  // file and rank, from 0
  bool operator==(const Sq&) const = default;
};

struct Piece {
  char kind = 'S';  // S, M or U (uppercase whatever the side)
  int number = 1;
  bool white = true;
  Sq at;
};

std::string Name(Sq s) {
  return std::string(1, char('a' + s.f)) + std::to_string(s.r + 1);
}

Sq ParseSq(const std::string& text) {
  return Sq{text[0] - 'a', std::stoi(text.substr(1)) - 1};
}

int Row(char kind) {
  return kind == 'S' ? 1 : kind == 'M' ? 2 : 3;
}

Sq Rotate(Sq s, int n) {
  return Sq{n - 1 - s.f, n - 1 - s.r};
}

// White's piece of that kind and number starts on rank Row, the number-th
// dark square from the left (a1 is dark).
Sq WhiteStart(char kind, int number) {
  const int r = Row(kind) - 1;
  return Sq{r % 2 + 2 * (number - 1), r};
}

// goal=translate: N-R ranks forward in the same order (Black: turned 180°).
// goal=mirror: the start square of the opponent's piece of the same kind
// and number.
Sq Target(const Piece& p, int n, int rows, bool mirror) {
  if (mirror) {
    const Sq s = WhiteStart(p.kind, p.number);
    return p.white ? Rotate(s, n) : s;
  }
  const int r = Row(p.kind) - 1 + n - rows;
  const Sq t{r % 2 + 2 * (p.number - 1), r};
  return p.white ? t : Rotate(t, n);
}

// "S1b8,s2h10" (algebraic squares only) into pieces.
std::vector<Piece> ParsePieces(const std::string& list) {
  std::vector<Piece> pieces;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    Piece p;
    p.white = std::isupper(static_cast<unsigned char>(item[0]));
    p.kind = char(std::toupper(static_cast<unsigned char>(item[0])));
    p.number = item[1] - '0';
    p.at = ParseSq(item.substr(2));
    pieces.push_back(p);
  }
  return pieces;
}

std::vector<Piece> SideOf(const std::vector<Piece>& pieces, bool white) {
  std::vector<Piece> out;
  for (const Piece& p : pieces)
    if (p.white == white) out.push_back(p);
  return out;
}

std::string PieceText(const Piece& p) {
  std::string text(1, p.white ? p.kind : char(std::tolower(p.kind)));
  text += std::to_string(p.number);
  text += Name(p.at);
  return text;
}

std::string PiecesText(const std::vector<Piece>& pieces) {
  std::string out;
  for (const Piece& p : pieces) {
    if (!out.empty()) out += ',';
    out += PieceText(p);
  }
  return out.empty() ? "-" : out;
}

int Home(const std::vector<Piece>& side, int n, int rows, bool mirror) {
  int home = 0;
  for (const Piece& p : side) home += p.at == Target(p, n, rows, mirror);
  return home;
}

bool Completed(const std::vector<Piece>& side, int n, int rows, bool mirror) {
  return !side.empty() && Home(side, n, rows, mirror) == int(side.size());
}

// The minimum number of steps (one square diagonally, any direction, to an
// empty square) that bring every piece of `side` to its target on a board
// holding only these pieces: iterative deepening on g + h, h the summed
// per-piece distances (a step changes one piece's distance by one, so h is
// admissible). Moves that undo the previous move are not tried.
class StepSolver {
 public:
  StepSolver(const std::vector<Piece>& side, int n, int rows, bool mirror) : n_(n) {
    for (const Piece& p : side) {
      at_.push_back(p.at);
      target_.push_back(Target(p, n, rows, mirror));
    }
    occupied_.assign(n * n, false);
    for (Sq s : at_) occupied_[s.f + n * s.r] = true;
  }

  int Solve() {
    int bound = H();
    for (;;) {
      const int next = Search(0, bound, -1, Sq{-1, -1});
      if (next < 0) return bound;
      if (next > 200) return -1;  // unreachable (cannot happen with steps in every direction)
      bound = next;
    }
  }

 private:
  static int Dist(Sq a, Sq b) { return std::max(std::abs(a.f - b.f), std::abs(a.r - b.r)); }
  int H() const {
    int h = 0;
    for (size_t i = 0; i < at_.size(); ++i) h += Dist(at_[i], target_[i]);
    return h;
  }
  // -1: found within bound; else the least f above bound.
  int Search(int g, int bound, int last_piece, Sq last_from) {
    const int h = H();
    if (h == 0) return -1;
    if (g + h > bound) return g + h;
    int least = 1 << 20;
    for (int i = 0; i < int(at_.size()); ++i) {
      const Sq from = at_[i];
      for (int df : {-1, 1})
        for (int dr : {-1, 1}) {
          const Sq to{from.f + df, from.r + dr};
          if (to.f < 0 || to.r < 0 || to.f >= n_ || to.r >= n_) continue;
          if (occupied_[to.f + n_ * to.r]) continue;
          if (i == last_piece && to == last_from) continue;
          occupied_[from.f + n_ * from.r] = false;
          occupied_[to.f + n_ * to.r] = true;
          at_[i] = to;
          const int t = Search(g + 1, bound, i, from);
          at_[i] = from;
          occupied_[to.f + n_ * to.r] = false;
          occupied_[from.f + n_ * from.r] = true;
          if (t < 0) return -1;
          least = std::min(least, t);
        }
    }
    return least;
  }

  int n_;
  std::vector<Sq> at_, target_;
  std::vector<bool> occupied_;
};

int Need(const std::vector<Piece>& side, int n = 10, int rows = 3, bool mirror = false) {
  return StepSolver(side, n, rows, mirror).Solve();
}

// The position text's fields.
struct PositionText {
  char to_move = 'w';
  std::string pieces;
  int ply = 0;
};

PositionText SplitPosition(const std::string& text) {
  PositionText p;
  std::stringstream in(text);
  std::string side;
  in >> side >> p.pieces >> p.ply;
  p.to_move = side[0];
  return p;
}

// ---------------------------------------------------------------------------

TEST(ScoreCli, ToolIsBuilt) {
  FILE* f = std::fopen(Tool().c_str(), "rb");
  ASSERT_NE(f, nullptr) << Tool() << " is missing";
  std::fclose(f);
}

TEST(ScoreCli, HelpExitsZeroAndMentionsEveryFlag) {
  const ToolRun r = RunTool("--help");
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* flag :
       {"--rules", "--rule", "--board", "--rows", "--position", "--moves", "--record", "--game",
        "--side", "--time-limit", "--solution", "--json", "--pattern-dir", "--pattern-size",
        "--build-patterns", "--bound-table-mb", "--threads", "--help"})
    EXPECT_TRUE(Has(r.out, flag)) << flag << " not in --help:\n" << r.out;
}

// The model's targets agree with the examples the rules give.
TEST(ScoreCli, ModelTargetsAgreeWithTheRules) {
  auto target = [](const std::string& piece, bool mirror) {
    return Name(Target(ParsePieces(piece + "a1")[0], 10, 3, mirror));
  };
  EXPECT_EQ(target("S1", false), "b8");
  EXPECT_EQ(target("S5", false), "j8");
  EXPECT_EQ(target("M1", false), "a9");
  EXPECT_EQ(target("U1", false), "b10");
  EXPECT_EQ(target("U5", false), "j10");
  EXPECT_EQ(target("s1", false), "i3");
  EXPECT_EQ(target("u1", false), "i1");
  EXPECT_EQ(target("S1", true), "j10");
  EXPECT_EQ(target("S5", true), "b10");
  EXPECT_EQ(target("M1", true), "i9");
  EXPECT_EQ(target("U1", true), "j8");
  EXPECT_EQ(target("s1", true), "a1");
  // Black star 1 starts on j10 and White's a1: one rotates to the other.
  EXPECT_EQ(Name(Rotate(WhiteStart('S', 1), 10)), "j10");
  // Two stars swapped on an open board: each goes round the other.
  EXPECT_EQ(Need(ParsePieces("S1d8,S2b8")), 4);
  // With the ranks behind them filled, the swap costs more.
  EXPECT_GT(Need(ParsePieces("S1d8,S2b8,M1a9,M2c9,U1b10,U2d10")), 4);
}

TEST(ScoreCli, JsonIsOneLineWithTheCountsOfBothSides) {
  const std::string pieces = "S1c3,S2e5,U1a3,s1h8,s2g5,m1f4";
  const std::vector<Piece> all = ParsePieces(pieces);
  const nlohmann::json j = RunJson("--position 'w " + pieces + " 10'");
  ExpectExactCount(j["white"], Need(SideOf(all, true)), "white");
  ExpectExactCount(j["black"], Need(SideOf(all, false)), "black");
  ASSERT_TRUE(j.contains("result") && j.contains("score")) << j.dump();
  EXPECT_TRUE(j["result"].is_null()) << "the game is in play: " << j.dump();
  EXPECT_TRUE(j["score"].is_null()) << "the game is in play: " << j.dump();
  EXPECT_FALSE(j.contains("reason")) << j.dump();
  EXPECT_FALSE(j["white"].contains("solution")) << "only with --solution: " << j.dump();
}

TEST(ScoreCli, SideSelectsTheKeysPresent) {
  const std::string position = "--position 'w S1c3,s1h8'";
  const nlohmann::json w = RunJson(position + " --side white");
  EXPECT_TRUE(w.contains("white") && !w.contains("black")) << w.dump();
  ExpectExactCount(w["white"], Need(ParsePieces("S1c3")), "white");
  const nlohmann::json b = RunJson(position + " --side black");
  EXPECT_TRUE(b.contains("black") && !b.contains("white")) << b.dump();
  ExpectExactCount(b["black"], Need(ParsePieces("s1h8")), "black");
  const nlohmann::json both = RunJson(position + " --side both");
  EXPECT_TRUE(both.contains("white") && both.contains("black")) << both.dump();
  const nlohmann::json default_sides = RunJson(position);
  EXPECT_TRUE(default_sides.contains("white") && default_sides.contains("black"))
      << "both is the default: " << default_sides.dump();

  const ToolRun text = RunTool(position + " --side black");
  EXPECT_EQ(text.status, 0) << text.err;
  EXPECT_TRUE(Has(text.out, "Black:")) << text.out;
  EXPECT_FALSE(Has(text.out, "White:")) << text.out;
}

// Every placement of White's two stars on 4x4, counted by the tool and by
// the model.
TEST(ScoreCli, CountsAgreeWithThePlainSearchOn4x4) {
  std::vector<Sq> dark;
  for (int r = 0; r < 4; ++r)
    for (int f = 0; f < 4; ++f)
      if ((f + r) % 2 == 0) dark.push_back(Sq{f, r});
  int runs = 0;
  for (Sq a : dark)
    for (Sq b : dark) {
      if (a == b) continue;
      const std::vector<Piece> white = {{'S', 1, true, a}, {'S', 2, true, b}};
      const int expected = Need(white, 4, 1);
      const std::string args =
          "--board 4 --rows 1 --side white --position 'w " + PiecesText(white) + "'";
      const nlohmann::json j = RunJson(args);
      ExpectExactCount(j["white"], expected, args);
      ++runs;
    }
  EXPECT_EQ(runs, 56);
}

// Hand-made hard cases on 10x10: a swap in the last ranks, a piece walled in
// behind home pieces, several pieces crossing.
TEST(ScoreCli, HardCasesAgreeWithThePlainSearch) {
  for (const std::string pieces : {"S1d8,S2b8,U1b10,M1a9", "U1b8,M1a9,M2c9,S2d8",
                                   "U1d10,U2b10,M1c9,M2a9", "s1h2,s2i3,u1i1", "S1f6,S2b8,S3d8"}) {
    const std::vector<Piece> all = ParsePieces(pieces);
    const bool white = all[0].white;
    const std::string args = std::string("--side ") + (white ? "white" : "black") +
                             " --position '" + (white ? "w " : "b ") + pieces + "'";
    const nlohmann::json j = RunJson(args);
    ExpectExactCount(j[white ? "white" : "black"], Need(all), args);
  }
}

// ---------------------------------------------------------------------------
// Result and score ("Game end and result").

// White completed and Black's extra move was played: White wins by Black's
// count from the final position.
TEST(ScoreCli, ExtraMovePlayedScoresBlacksCount) {
  const nlohmann::json j = RunJson("--position 'b U1b10,s1j10,s2h10 1' --moves 'j10-i9'");
  const int need = Need(ParsePieces("s1i9,s2h10"));
  EXPECT_EQ(StringOr(j, "result", "?"), "1-0") << j.dump();
  EXPECT_EQ(IntOr(j, "score"), need) << j.dump();
  ExpectExactCount(j["black"], need, "black");
  ExpectExactCount(j["white"], 0, "white");

  const ToolRun text = RunTool("--position 'b U1b10,s1j10,s2h10 1' --moves 'j10-i9'");
  EXPECT_EQ(text.status, 0) << text.err;
  EXPECT_TRUE(Has(text.out, "Result: 1-0")) << text.out;
  EXPECT_TRUE(Has(text.out, "Score: " + std::to_string(need))) << text.out;
}

// White completed and Black's extra move is not recorded: scored as if Black
// played it optimally, max(need - 1, 0), 0 being a draw.
TEST(ScoreCli, ExtraMoveNotRecordedCreditsBlackOneMove) {
  {
    const nlohmann::json j = RunJson("--position 'b U1b10,s1j10,s2h10 1'");
    const int need = Need(ParsePieces("s1j10,s2h10"));
    ASSERT_GT(need, 1);
    EXPECT_EQ(StringOr(j, "result", "?"), "1-0") << j.dump();
    EXPECT_EQ(IntOr(j, "score"), need - 1) << j.dump();
  }
  {
    // Black's star one step from home: its extra move would complete it.
    const nlohmann::json j = RunJson("--position 'b U1b10,s1j4 1'");
    ASSERT_EQ(Need(ParsePieces("s1j4")), 1);
    EXPECT_EQ(StringOr(j, "result", "?"), "1/2-1/2") << j.dump();
    EXPECT_EQ(IntOr(j, "score"), 0) << j.dump();
  }
}

TEST(ScoreCli, BlackCompletingWithItsExtraMoveIsADraw) {
  const nlohmann::json j = RunJson("--position 'b U1b10,s1j4 1' --moves 'j4-i3'");
  EXPECT_EQ(StringOr(j, "result", "?"), "1/2-1/2") << j.dump();
  EXPECT_EQ(IntOr(j, "score"), 0) << j.dump();
}

// Black completes first: Black wins by White's count. --side black still
// gives the result and score (they use White's count).
TEST(ScoreCli, BlackCompletingFirstScoresWhitesCount) {
  const std::string args = "--position 'b S1a1,S2c3,s1j4 5' --moves 'j4-i3'";
  const int need = Need(ParsePieces("S1a1,S2c3"));
  const nlohmann::json j = RunJson(args);
  EXPECT_EQ(StringOr(j, "result", "?"), "0-1") << j.dump();
  EXPECT_EQ(IntOr(j, "score"), need) << j.dump();
  ExpectExactCount(j["white"], need, "white");
  const nlohmann::json b = RunJson(args + " --side black");
  EXPECT_FALSE(b.contains("white")) << b.dump();
  EXPECT_EQ(StringOr(b, "result", "?"), "0-1") << b.dump();
  EXPECT_EQ(IntOr(b, "score"), need) << b.dump();
}

// extra-move=off: the first side to complete wins by the loser's whole count.
TEST(ScoreCli, ExtraMoveOffScoresTheLosersWholeCount) {
  const nlohmann::json j = RunJson("--rule extra-move=off --position 'b U1b10,s1j10,s2h10 1'");
  EXPECT_EQ(StringOr(j, "result", "?"), "1-0") << j.dump();
  EXPECT_EQ(IntOr(j, "score"), Need(ParsePieces("s1j10,s2h10"))) << j.dump();
}

// limit-scoring=moves: need_W against need_B' = max(need_B - 1, 0); the
// smaller wins by the difference, equal draws.
TEST(ScoreCli, MoveLimitScoresTheDifferenceWithBlackCreditedOneMove) {
  struct Case {
    std::string pieces;
    std::string outcome;  // which case of the rule this position exercises
  };
  for (const Case& c : std::vector<Case>{{"S1b8,S2c1,s1i3,s2h10,s3b4", "1-0"},
                                         {"S1a1,S2c1,s1i3,s2h6", "0-1"},
                                         {"S1b2,s1j10", "1/2-1/2"},
                                         {"S1a7,s1h6", "1-0"}}) {
    const std::vector<Piece> all = ParsePieces(c.pieces);
    const int need_w = Need(SideOf(all, true));
    const int need_b = Need(SideOf(all, false));
    const int credited = std::max(need_b - 1, 0);
    const std::string outcome = need_w < credited ? "1-0" : need_w > credited ? "0-1" : "1/2-1/2";
    ASSERT_EQ(outcome, c.outcome) << c.pieces << ": the case is not what it claims";
    const std::string args = "--rule move-limit=120 --position 'w " + c.pieces + " 240'";
    const nlohmann::json j = RunJson(args);
    ExpectExactCount(j["white"], need_w, args);
    ExpectExactCount(j["black"], need_b, args);
    EXPECT_EQ(StringOr(j, "result", "?"), outcome) << args << ": " << j.dump();
    EXPECT_EQ(IntOr(j, "score"), std::abs(need_w - credited)) << args << ": " << j.dump();
    EXPECT_EQ(StringOr(j, "reason", "?"), "move-limit") << args << ": " << j.dump();
  }
}

TEST(ScoreCli, BeforeTheMoveLimitThereIsNoResult) {
  const nlohmann::json j =
      RunJson("--rule move-limit=120 --position 'w S1b8,S2c1,s1i3,s2h10,s3b4 238'");
  EXPECT_TRUE(j.contains("result") && j["result"].is_null()) << j.dump();
  EXPECT_TRUE(j.contains("score") && j["score"].is_null()) << j.dump();
  // Black's 120th move reaches the limit.
  const nlohmann::json after = RunJson(
      "--rule move-limit=120 --position 'b S1b8,S2c1,s1i3,s2h10,s3b4 239' --moves 'h10-g9'");
  const int need_w = Need(ParsePieces("S1b8,S2c1"));
  const int need_b = Need(ParsePieces("s1i3,s2g9,s3b4"));
  const int credited = std::max(need_b - 1, 0);
  ASSERT_LT(need_w, credited);
  EXPECT_EQ(StringOr(after, "result", "?"), "1-0") << after.dump();
  EXPECT_EQ(IntOr(after, "score"), credited - need_w) << after.dump();
}

// limit-scoring=pieces: more pieces home wins by the difference.
TEST(ScoreCli, MoveLimitByPiecesHome) {
  for (const std::string pieces :
       {"S1b8,S2c1,s1i3,s2h10,s3b4", "S1b8,S2d8,S3a1,s1i3,s2h10", "S1a1,S2c1,s1i3,s2g3,s3j10"}) {
    const std::vector<Piece> all = ParsePieces(pieces);
    ASSERT_FALSE(Completed(SideOf(all, true), 10, 3, false)) << pieces;
    ASSERT_FALSE(Completed(SideOf(all, false), 10, 3, false)) << pieces;
    const int home_w = Home(SideOf(all, true), 10, 3, false);
    const int home_b = Home(SideOf(all, false), 10, 3, false);
    const std::string outcome = home_w > home_b ? "1-0" : home_w < home_b ? "0-1" : "1/2-1/2";
    const std::string args =
        "--rule move-limit=120 --rule limit-scoring=pieces --position 'w " + pieces + " 240'";
    const nlohmann::json j = RunJson(args);
    EXPECT_EQ(StringOr(j, "result", "?"), outcome) << args << ": " << j.dump();
    EXPECT_EQ(IntOr(j, "score"), std::abs(home_w - home_b)) << args << ": " << j.dump();
    EXPECT_EQ(StringOr(j, "reason", "?"), "move-limit") << args << ": " << j.dump();
  }
}

// Forward-only steps: a piece beyond reach of its target cannot finish; the
// count says so and is still exact (exit 0).
TEST(ScoreCli, ForwardOnlyStepsCanMakeTheGoalUnreachable) {
  // Under forward (goal=mirror) White's star 1 goes to j10 and Black's to a1.
  // A lone piece moves one rank and one file a move, forward only.
  const Sq w = ParseSq("d8"), wt = Target(ParsePieces("S1a1")[0], 10, 3, true);
  const Sq b = ParseSq("j10"), bt = Target(ParsePieces("s1a1")[0], 10, 3, true);
  ASSERT_LT(wt.r - w.r, std::abs(wt.f - w.f));  // unreachable
  ASSERT_GE(b.r - bt.r, std::abs(bt.f - b.f));  // reachable, in b.r - bt.r moves
  const nlohmann::json j = RunJson("--rules forward --position 'w S1d8,s1j10'");
  ASSERT_TRUE(j["white"].is_object()) << j.dump();
  EXPECT_EQ(j["white"].value("reachable", true), false) << j.dump();
  EXPECT_TRUE(j["white"]["moves"].is_null()) << j.dump();
  EXPECT_EQ(j["white"].value("exact", false), true) << j.dump();
  ExpectExactCount(j["black"], b.r - bt.r, "black");
}

// ---------------------------------------------------------------------------
// --solution: the moves of one side alone on the clear board.

// Replays `solution` for the side's pieces: each move a step of one of its
// pieces to an empty diagonal neighbour (independently of the library, and
// through salta::ParseMove on a board holding only that side's pieces), the
// goal completed by the last move and not before.
void ExpectSolutionReplays(std::vector<Piece> side, const nlohmann::json& solution, int moves,
                           int n, int rows, const std::string& what) {
  ASSERT_TRUE(solution.is_array()) << what << ": " << solution.dump();
  ASSERT_EQ(int(solution.size()), moves) << what << ": " << solution.dump();
  absl::StatusOr<const Variant*> variant = MakeVariant("standard", {}, n, rows);
  ASSERT_TRUE(variant.ok()) << variant.status();
  const bool white = side.empty() || side[0].white;
  for (int i = 0; i < moves; ++i) {
    EXPECT_FALSE(Completed(side, n, rows, false)) << what << ": goal completed before move " << i;
    ASSERT_TRUE(solution[i].is_string()) << what;
    const std::string move = solution[i].get<std::string>();
    const size_t dash = move.find('-');
    ASSERT_NE(dash, std::string::npos) << what << ": " << move;
    const Sq from = ParseSq(move.substr(0, dash)), to = ParseSq(move.substr(dash + 1));
    // The library accepts it on the clear board.
    const std::string text = std::string(white ? "w " : "b ") + PiecesText(side) + " 0";
    absl::StatusOr<Position> pos = ParsePosition(**variant, text);
    ASSERT_TRUE(pos.ok()) << text << ": " << pos.status();
    absl::StatusOr<Move> m = ParseMove(*pos, move);
    EXPECT_TRUE(m.ok()) << what << ": move " << i + 1 << " " << move << " in " << text << ": "
                        << m.status();
    // And so does the model.
    auto piece =
        std::find_if(side.begin(), side.end(), [&](const Piece& p) { return p.at == from; });
    ASSERT_NE(piece, side.end()) << what << ": no piece on " << Name(from) << " at move " << i + 1;
    ASSERT_TRUE(to.f >= 0 && to.r >= 0 && to.f < n && to.r < n) << what << ": " << move;
    ASSERT_EQ(std::abs(to.f - from.f), 1) << what << ": not a step: " << move;
    ASSERT_EQ(std::abs(to.r - from.r), 1) << what << ": not a step: " << move;
    for (const Piece& p : side) ASSERT_FALSE(p.at == to) << what << ": " << move << " occupied";
    piece->at = to;
  }
  EXPECT_TRUE(Completed(side, n, rows, false)) << what << ": " << PiecesText(side);
}

TEST(ScoreCli, SolutionReplaysToTheGoalInExactlyTheCount) {
  struct Case {
    std::string pieces;
    int n, rows;
    bool white;
  };
  for (const Case& c : std::vector<Case>{{"S1d8,S2b8,U1b10,M1a9", 10, 3, true},
                                         {"U1b8,M1a9,M2c9,S2d8", 10, 3, true},
                                         {"s1h2,s2i3,u1i1,m1j4", 10, 3, false},
                                         {"S1e5,S2a5,M1b6,M2f4", 6, 2, true},
                                         {"s1a3,s2e1,m1b4", 6, 2, false}}) {
    const std::vector<Piece> side = ParsePieces(c.pieces);
    const int need = Need(side, c.n, c.rows);
    const std::string key = c.white ? "white" : "black";
    const std::string args = "--board " + std::to_string(c.n) + " --rows " +
                             std::to_string(c.rows) + " --side " + key +
                             " --solution --position '" + (c.white ? "w " : "b ") + c.pieces + "'";
    const nlohmann::json j = RunJson(args);
    ExpectExactCount(j[key], need, args);
    ASSERT_TRUE(j[key].contains("solution")) << args << ": " << j.dump();
    ExpectSolutionReplays(side, j[key]["solution"], need, c.n, c.rows, args);
  }
}

// --threads: a count whose count back from the goal runs (unseen far
// position seed 2 #42, 62 moves, about a million nodes) is the same on one
// thread, in turns, and on two, side by side (the library's tests check
// the ways replay).
TEST(ScoreCli, ThreadsGiveTheSameCount) {
  const std::string args =
      "--pattern-dir '' --side white --solution --rule move-limit=120 --position 'w "
      "S1i7,S2c9,S3d8,S4h8,S5d6,M1g9,M2e9,M3b6,M4j10,M5d10,U1g7,U2b10,U3a5,U4c7,U5h10,s1i9,s2b2,"
      "s3c5,s4a3,s5d2,m1h4,m2h6,m3j2,m4e3,m5g3,u1h2,u2f2,u3c1,u4i3,u5a1 240'";
  for (const char* threads : {" --threads 1", " --threads 2", ""}) {
    const nlohmann::json j = RunJson(args + threads);
    ExpectExactCount(j["white"], 62, args + threads);
    EXPECT_EQ(j["white"].value("solution", nlohmann::json::array()).size(), 62u) << threads;
  }
}

// Where pieces jump (forward: over their own pieces, in chains), a chain is
// written by its landing squares, as every tool writes moves (it was
// written by its two ends alone); each move reads back on the clear board,
// and the goal is complete after the last.
TEST(ScoreCli, SolutionChainsAreWrittenByTheirLandingSquares) {
  const nlohmann::json j = RunJson("--rules forward --board 8 --rows 1 --side white --solution");
  ASSERT_TRUE(j["white"]["exact"].get<bool>()) << j.dump();
  const nlohmann::json& solution = j["white"]["solution"];
  ASSERT_EQ(solution.size(), j["white"]["moves"].get<size_t>()) << j.dump();
  absl::StatusOr<const Variant*> variant = MakeVariant("forward", {}, 8, 1);
  ASSERT_TRUE(variant.ok()) << variant.status();
  absl::StatusOr<Position> board = ClearBoard(Position::Start(**variant), Side::kWhite);
  ASSERT_TRUE(board.ok()) << board.status();
  int chains = 0;
  for (const auto& word : solution) {
    const std::string text = word.get<std::string>();
    absl::StatusOr<MoveText> parsed = ParseMoveText((*variant)->geometry(), text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status();
    chains += parsed->path.size() > 2;
    absl::StatusOr<Move> m = ParseMove(*board, text);
    ASSERT_TRUE(m.ok()) << text << " in " << PositionToString(*board) << ": " << m.status();
    // Written as the tools write that move there.
    EXPECT_EQ(MoveToString(*board, *m), text);
    board->Make(*m);
    board->Make(Move::Pass());
  }
  EXPECT_GT(chains, 0) << solution.dump();
  EXPECT_TRUE(board->Completed(Side::kWhite)) << PositionToString(*board);
}

// A full side of 15 pieces at a game end (data/finish-bench.txt): the
// solution replays to the goal in exactly the count, which is at least the
// summed distances.
TEST(ScoreCli, SolutionOfAFullSideReplays) {
  const std::string pos =
      "w S1a9,S2d8,S3f8,S4h8,S5j8,M1b8,M2b10,M3e9,M4g9,M5i7,U1c9,U2d10,U3f10,U4h10,U5j10,"
      "s1i3,s2g3,s3e3,s4c3,s5a3,m1j2,m2h2,m3f2,m4d2,m5b2,u1i1,u2g1,u3e1,u4c1,u5a1 238 #";
  const std::vector<Piece> white = SideOf(ParsePieces(SplitPosition(pos).pieces), true);
  ASSERT_EQ(white.size(), 15u);
  const nlohmann::json j = RunJson("--side white --solution --position '" + pos + "'");
  ASSERT_TRUE(j["white"].is_object()) << j.dump();
  const int moves = IntOr(j["white"], "moves");
  int distance = 0;
  for (const Piece& p : white) {
    const Sq t = Target(p, 10, 3, false);
    distance += std::max(std::abs(t.f - p.at.f), std::abs(t.r - p.at.r));
  }
  EXPECT_GE(moves, distance) << j.dump();
  ExpectSolutionReplays(white, j["white"]["solution"], moves, 10, 3, "bench position");
  // Black completed its goal there: Black wins by that count.
  EXPECT_EQ(StringOr(j, "result", "?"), "0-1") << j.dump();
  EXPECT_EQ(IntOr(j, "score"), moves) << j.dump();

  const ToolRun text = RunTool("--side white --solution --position '" + pos + "'");
  EXPECT_EQ(text.status, 0) << text.err;
  std::string expected = "White solution:";
  for (const auto& m : j["white"]["solution"]) expected.append(" ").append(m.get<std::string>());
  EXPECT_TRUE(Has(text.out, expected + "\n")) << text.out;
}

// ---------------------------------------------------------------------------
// A time limit that is reached: proven bounds, not exact, exit 3.

TEST(ScoreCli, ReachedTimeLimitGivesBoundsAndExitThree) {
  // The slowest position of data/finish-bench.txt (1.7 million nodes, about
  // 34 moves): no machine solves it in a millisecond.
  const std::string pos =
      "w S1b8,S2d8,S3f8,S4h8,S5j8,M1a9,M2c9,M3e9,M4g9,M5i9,U1b10,U2d10,U3f10,U4h10,U5j10,"
      "s1j2,s2e5,s3d4,s4c3,s5a3,m1i3,m2f4,m3f2,m4g1,m5b2,u1i1,u2e3,u3e1,u4c1,u5g3 188 #";
  {
    std::ifstream bench(DataPath("finish-bench.txt"));
    std::string line;
    bool found = false;
    while (std::getline(bench, line)) found |= line == "black " + pos;
    ASSERT_TRUE(found) << "the position is no longer in data/finish-bench.txt";
  }
  for (const char* limit : {"0.001", "0.3"}) {
    const std::string args =
        "--side black --time-limit " + std::string(limit) + " --position '" + pos + "'";
    const ToolRun r = RunTool(args + " --json");
    const nlohmann::json j = ParseOneLine(r.out);
    const nlohmann::json& b = j["black"];
    ASSERT_TRUE(b.is_object()) << args << ": " << r.out;
    if (b.value("exact", false)) {  // only conceivable for the larger limit
      EXPECT_STREQ(limit, "0.3") << args << ": solved in a millisecond? " << r.out;
      EXPECT_EQ(r.status, 0) << args << ": " << r.out;
      continue;
    }
    EXPECT_EQ(r.status, 3) << args << ": " << r.out << r.err;
    EXPECT_TRUE(b.contains("moves") && b["moves"].is_null()) << args << ": " << r.out;
    EXPECT_EQ(b.value("reachable", false), true) << args << ": " << r.out;
    ASSERT_TRUE(b.contains("lower") && b["lower"].is_number_integer()) << args << ": " << r.out;
    ASSERT_TRUE(b.contains("upper")) << args << ": " << r.out;
    EXPECT_GE(b["lower"].get<int>(), 0) << args;
    if (!b["upper"].is_null()) {
      ASSERT_TRUE(b["upper"].is_number_integer()) << args << ": " << r.out;
      EXPECT_LE(b["lower"].get<int>(), b["upper"].get<int>()) << args << ": " << r.out;
    }
    EXPECT_TRUE(b.contains("nodes") && b["nodes"].is_number_unsigned()) << r.out;
    EXPECT_TRUE(b.contains("seconds") && b["seconds"].is_number()) << r.out;
    // White completed and Black played its extra move: White wins, but the
    // points are not known.
    EXPECT_EQ(StringOr(j, "result", "?"), "1-0") << r.out;
    EXPECT_TRUE(j.contains("score") && j["score"].is_null()) << r.out;

    // A second run: under the larger limit (the count takes about 0.3 s
    // here) it may end either way.
    const ToolRun text = RunTool(args);
    if (text.status == 0) {
      EXPECT_STREQ(limit, "0.3") << args << ": solved in a millisecond? " << text.out;
      continue;
    }
    EXPECT_EQ(text.status, 3) << args << ": " << text.out << text.err;
    EXPECT_TRUE(Has(text.out, "not exact")) << text.out;
  }
}

// ---------------------------------------------------------------------------
// --record FILE [--game K].

// data/games/valid/scored.sgn carries Score tags counted by hand.
TEST(ScoreCli, RecordScoresMatchTheHandCountedScoreTags) {
  const std::string file = "'" + DataPath("games/valid/scored.sgn") + "'";
  const nlohmann::json first = RunJson("--record " + file);
  EXPECT_EQ(StringOr(first, "result", "?"), "1-0") << first.dump();
  EXPECT_EQ(IntOr(first, "score"), 1) << first.dump();
  EXPECT_EQ(StringOr(RunJson("--record " + file + " --game 1"), "result", "?"), "1-0");
  EXPECT_EQ(IntOr(RunJson("--record " + file + " --game 1"), "score"), 1);

  // White needs 4, Black 3 less one for moving second: Black wins by 2.
  const nlohmann::json second = RunJson("--record " + file + " --game 2");
  ExpectExactCount(second["white"], 4, "white");
  ExpectExactCount(second["black"], 3, "black");
  EXPECT_EQ(StringOr(second, "result", "?"), "0-1") << second.dump();
  EXPECT_EQ(IntOr(second, "score"), 2) << second.dump();
  EXPECT_EQ(StringOr(second, "reason", "?"), "move-limit") << second.dump();

  // The same game given as moves.
  const nlohmann::json moves =
      RunJson("--board 4 --rows 1 --rule move-limit=2 --moves '1. c1-d2 b4-a3 2. d2-c3 d4-b2'");
  EXPECT_EQ(moves["result"], second["result"]) << moves.dump();
  EXPECT_EQ(moves["score"], second["score"]) << moves.dump();
  EXPECT_EQ(IntOr(moves["white"], "moves"), 4) << moves.dump();
  EXPECT_EQ(IntOr(moves["black"], "moves"), 3) << moves.dump();
}

// Every game of the small-board records: the result (as the Result tag says)
// and the score (by the model, from the final position) under the game's
// own Rules and Board tags.
TEST(ScoreCli, RecordResultsAndScoresFollowTheRules) {
  int checked = 0;
  for (const char* name : {"scored.sgn", "passes-4x4.sgn", "standard-6x6.sgn", "pre1900-8x8.sgn",
                           "forward-6x6.sgn", "forward-10x10.sgn"}) {
    const std::string path = DataPath(std::string("games/valid/") + name);
    std::ifstream in(path, std::ios::binary);
    ASSERT_TRUE(in) << path;
    RecordReader reader(in);
    ParsedGame game;
    for (int k = 1; reader.Next(game); ++k) {
      const std::string what = std::string(name) + " game " + std::to_string(k);
      ASSERT_FALSE(game.error) << what;
      const ReplayReport report = ReplayGame(game, ReplayOptions{});
      ASSERT_TRUE(report.valid && report.final_position) << what;
      const Position& final_pos = *report.final_position;
      const Rules& rules = final_pos.variant().rules();
      const int n = final_pos.variant().geometry().size();
      const int rows = final_pos.variant().geometry().rows();
      const std::string text = PositionToString(final_pos);
      const PositionText fields = SplitPosition(text);
      const std::vector<Piece> all = ParsePieces(fields.pieces == "-" ? "" : fields.pieces);
      const std::vector<Piece> white = SideOf(all, true), black = SideOf(all, false);
      const bool mirror = rules.goal == Goal::kMirror;
      const bool forward = rules.steps == Steps::kForward;
      const char state = text.back();

      const std::string args = "--record '" + path + "' --game " + std::to_string(k);
      const nlohmann::json j = RunJson(args);
      const std::string* tag = game.record.Tag("Result");
      const std::string result = tag ? *tag : "*";
      EXPECT_EQ(StringOr(j, "result", "*"), result) << what << ": " << j.dump();

      // The score by the model (steps only: standard and pre1900 rules).
      if (forward) {
        if (result != "*") {
          EXPECT_EQ(IntOr(j, "score"), 0) << what << " (blocked): " << j.dump();
        }
        ++checked;
        continue;
      }
      const bool w_done = Completed(white, n, rows, mirror);
      const bool b_done = Completed(black, n, rows, mirror);
      std::string expected_result = "*";
      int expected_score = -1;
      if (w_done && b_done) {
        expected_result = "1/2-1/2", expected_score = 0;
      } else if (b_done) {
        expected_result = "0-1", expected_score = Need(white, n, rows, mirror);
      } else if (w_done && state == 'x') {
        expected_score = std::max(Need(black, n, rows, mirror) - 1, 0);
        expected_result = expected_score == 0 ? "1/2-1/2" : "1-0";
      } else if (w_done) {
        expected_result = "1-0", expected_score = Need(black, n, rows, mirror);
      } else if (rules.move_limit > 0 && fields.ply >= 2 * rules.move_limit) {
        ASSERT_EQ(rules.limit_scoring, LimitScoring::kMoves) << what;
        const int need_w = Need(white, n, rows, mirror);
        const int credited = std::max(Need(black, n, rows, mirror) - 1, 0);
        expected_result = need_w < credited ? "1-0" : need_w > credited ? "0-1" : "1/2-1/2";
        expected_score = std::abs(need_w - credited);
      }
      EXPECT_EQ(expected_result, result) << what << ": the model disagrees with the Result tag";
      EXPECT_EQ(IntOr(j, "score"), expected_score) << what << ": " << text << ": " << j.dump();
      if (const std::string* score = game.record.Tag("Score")) {
        EXPECT_EQ(IntOr(j, "score"), std::stoi(*score)) << what << ": Score tag";
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 15);
}

// ---------------------------------------------------------------------------
// Bad input: exit 2, a message on stderr, nothing on stdout.

TEST(ScoreCli, BadInputExitsTwoWithAMessage) {
  const std::string record = "'" + DataPath("games/valid/scored.sgn") + "'";
  struct Case {
    std::string args;
    std::string message;  // a part of stderr
  };
  for (const Case& c : std::vector<Case>{
           {"--position 'w S1a2'", "a2"},
           {"--position 'x S1a1'", "side to move"},
           {"--position 'w S1a1,S1c1'", "S1c1"},
           {"--position ''", "position: has 0 fields"},  // not the start
           {"--moves 'c3-d4 c9-d8'", "c9-d8"},
           {"--moves 'c3-e5'", "c3-e5"},
           {"--position 'w S1a1,s1j10' --moves 'a1-b2 j10-i9 b2-c4'", "b2-c4"},
           {"--rules nosuch", "nosuch"},
           {"--rule nosuch=1", "nosuch"},
           {"--rule steps=sideways", "sideways"},
           {"--rule move-limit", "move-limit"},
           {"--side red", "red"},
           {"--board 7", "7"},
           {"--record /nonexistent/salta-score-test.sgn", "salta-score-test.sgn"},
           {"--record " + record + " --game 3", "3"},
           {"--record " + record + " --game 0", "--game"},
           {"--record '" + DataPath("games/invalid/moves.sgn") + "'", "moves.sgn"},
           {"--game 2", "--game"},
           {"--record " + record + " --position start", "--position"},
           {"--time-limit -1", "--time-limit"},
           {"--bound-table-mb 0", "--bound-table-mb"},
           {"--bound-table-mb 1048577", "--bound-table-mb"},
           {"--threads -1", "--threads"},
           {"--threads 1025", "--threads"},
           {"--threads two", "--threads"},
           {"--no-such-flag", "--no-such-flag"},
       }) {
    for (const char* json : {"", " --json"}) {
      const ToolRun r = RunTool(c.args + json);
      EXPECT_EQ(r.status, 2) << c.args << json << "\nstdout: " << r.out << "\nstderr: " << r.err;
      EXPECT_TRUE(Has(r.err, "salta-score: ")) << c.args << json << ": " << r.err;
      EXPECT_TRUE(Has(r.err, c.message))
          << c.args << json << ": stderr does not mention " << c.message << ": " << r.err;
      if (*json == 0) {
        EXPECT_TRUE(r.out.empty()) << c.args << ": " << r.out;
        continue;
      }
      // With --json the error is also one JSON object on stdout (issue 10, item 6).
      const nlohmann::json j = ParseOneLine(r.out);
      EXPECT_TRUE(Has(StringOr(j, "error", ""), c.message)) << c.args << json << ": " << r.out;
      EXPECT_EQ(StringOr(j, "tool", ""), "salta-score") << r.out;
      EXPECT_EQ(IntOr(j, "exit_status"), 2) << r.out;
    }
  }
}

// ---------------------------------------------------------------------------
// Pattern tables (--pattern-dir, --build-patterns) and --solution under a
// limit.

std::string TempDirectory() {
  char path[] = "/tmp/salta_score_patterns_XXXXXX";
  EXPECT_NE(mkdtemp(path), nullptr);
  return path;
}

std::vector<std::string> TableDirs(const std::string& dir) {
  std::vector<std::string> tables;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.is_directory()) tables.push_back(e.path().string());
  std::sort(tables.begin(), tables.end());
  return tables;
}

// Overwrites the start of every data file of the tables; returns how many.
int Damage(const std::vector<std::string>& tables) {
  int files = 0;
  for (const std::string& t : tables)
    for (const auto& f : std::filesystem::directory_iterator(t))
      if (f.path().extension() == ".sst") {
        std::fstream out(f.path(), std::ios::in | std::ios::out | std::ios::binary);
        out.seekp(0);
        out.write("damaged!damaged!", 16);
        ++files;
      }
  return files;
}

// The large (four-piece) tables in the pattern directory are read only by
// counts the first short search with the three-piece ones does not end
// (reading them takes longer than most counts): damaged, they go unnoticed
// by the start's count (60 moves, 60 nodes) and are reported by a count
// after random play on 8x8 (41 moves, hundreds of thousands of nodes).
TEST(ScoreCli, LargePatternTablesAreReadOnlyByLongerCounts) {
  const std::string dir = TempDirectory() + "/tables";
  const std::string board = " --board 8 --rows 3 --pattern-dir '" + dir + "'";
  const ToolRun built = RunTool("--build-patterns" + board);
  ASSERT_EQ(built.status, 0) << built.out << built.err;
  std::vector<std::string> large;
  for (const std::string& t : TableDirs(dir))
    if (Has(t, "_groups_of_4_")) large.push_back(t);
  ASSERT_EQ(large.size(), 1u) << "the four-piece tables stored together";
  ASSERT_GT(Damage(large), 0);
  const ToolRun start = RunTool("--side white --json" + board);
  EXPECT_EQ(start.status, 0) << start.out << start.err;
  EXPECT_FALSE(Has(start.err, "damaged")) << start.err;
  const nlohmann::json in_memory = RunJson("--side white --board 8 --rows 3 --pattern-dir ''");
  EXPECT_EQ(IntOr(ParseOneLine(start.out)["white"], "moves"), IntOr(in_memory["white"], "moves"))
      << start.out;
  const std::string longer_count =
      "--side white --json --rule move-limit=120 --position 'w S1b8,S2a7,S3d6,S4d4,M1b6,M2f4,"
      "M3g7,M4d8,U1f6,U2h6,U3h8,U4c7,s1d2,s2a3,s3f2,s4e3,m1h4,m2e1,m3h2,m4b4,u1c3,u2g3,u3b2,"
      "u4c1 240 #'" +
      board;
  // Under a time limit shorter than their loading, not even then.
  const ToolRun hurried = RunTool(longer_count + " --time-limit 0.2");
  EXPECT_TRUE(hurried.status == 0 || hurried.status == 3) << hurried.out << hurried.err;
  EXPECT_FALSE(Has(hurried.err, "damaged")) << hurried.err;
  const ToolRun longer = RunTool(longer_count);
  EXPECT_EQ(longer.status, 0) << longer.out << longer.err;
  EXPECT_TRUE(Has(longer.err, "damaged")) << longer.err;
  EXPECT_TRUE(ParseOneLine(longer.out)["white"].value("exact", false)) << longer.out;
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

// The flags of the tests below: a count of a set --pattern-size opens its
// tables as it starts (by the board, it starts on three-piece tables built
// in memory, and opens the stored ones only where it needs them).
std::string SixBySixTables(const std::string& dir) {
  return " --board 6 --rows 2 --pattern-size 4 --pattern-dir '" + dir + "'";
}

// A count by the board stores the tables it starts on (its pairs', and the
// three-piece ones) together, a table each (opening them takes a fifth of
// building them), the same for both sides, and the next count reads them
// from there: damaged, they are reported and rebuilt.
TEST(ScoreCli, TablesACountStartsOnAreStoredTogether) {
  const std::string dir = TempDirectory() + "/tables";
  const std::string flags = "--position start --json --pattern-dir '" + dir + "'";
  const nlohmann::json start = RunJson(flags);
  EXPECT_EQ(IntOr(start["white"], "moves"), 105) << start.dump();
  EXPECT_EQ(IntOr(start["black"], "moves"), 105) << start.dump();
  const std::vector<std::string> tables = TableDirs(dir);
  ASSERT_EQ(tables.size(), 2u);
  EXPECT_TRUE(Has(tables[0], "_groups_of_3_")) << tables[0];
  EXPECT_TRUE(Has(tables[1], "_pairs_")) << tables[1];
  ASSERT_GT(Damage(tables), 0);
  const ToolRun again = RunTool(flags);
  EXPECT_EQ(again.status, 0) << again.out << again.err;
  EXPECT_TRUE(Has(again.err, "damaged, rebuilding it")) << again.err;
  EXPECT_EQ(IntOr(ParseOneLine(again.out)["white"], "moves"), 105) << again.out;
  const ToolRun whole = RunTool(flags);
  EXPECT_FALSE(Has(whole.err, "damaged")) << whole.err;
  EXPECT_EQ(TableDirs(dir), tables);
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

// A table that lost a file (here CURRENT, which names its other files) is
// damaged, as one whose bytes changed: reported and rebuilt, the count
// unchanged; the table is whole again afterwards.
TEST(ScoreCli, PatternTableMissingAFileIsRebuilt) {
  const std::string dir = TempDirectory() + "/tables";
  const std::string board = SixBySixTables(dir);
  const ToolRun built = RunTool("--build-patterns" + board);
  ASSERT_EQ(built.status, 0) << built.out << built.err;
  const nlohmann::json whole = RunJson("--side white" + board);
  for (const std::string& t : TableDirs(dir)) std::filesystem::remove(t + "/CURRENT");
  const ToolRun count = RunTool("--side white --json" + board);
  EXPECT_EQ(count.status, 0) << count.out << count.err;
  EXPECT_TRUE(Has(count.err, "damaged, rebuilding it")) << count.err;
  EXPECT_TRUE(Has(count.err, "a file of it is missing")) << count.err;
  EXPECT_EQ(IntOr(ParseOneLine(count.out)["white"], "moves"), IntOr(whole["white"], "moves"))
      << count.out;
  const ToolRun again = RunTool("--side white --json" + board);
  EXPECT_EQ(again.status, 0) << again.out << again.err;
  EXPECT_FALSE(Has(again.err, "damaged")) << again.err;
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

// --pattern-size: tables of five pieces are built ahead (on 6x6, in
// moments) and used; on 10x10, where they are not built, a count says so
// once and uses those of the board.
TEST(ScoreCli, PatternSizeFiveIsBuiltAheadOnly) {
  const std::string dir = TempDirectory() + "/tables";
  const std::string small = " --board 6 --rows 2 --pattern-size 5 --pattern-dir '" + dir + "'";
  const ToolRun built = RunTool("--build-patterns" + small);
  ASSERT_EQ(built.status, 0) << built.out << built.err;
  int fives = 0;
  for (const std::string& t : TableDirs(dir)) fives += Has(t, "_groups_of_5_");
  EXPECT_EQ(fives, 1) << built.out;
  EXPECT_TRUE(Has(built.err, "stored")) << built.err;
  const nlohmann::json five = RunJson("--side white" + small);
  const nlohmann::json none = RunJson("--side white --board 6 --rows 2 --pattern-size 0");
  EXPECT_EQ(IntOr(five["white"], "moves"), IntOr(none["white"], "moves")) << five.dump();

  const std::string empty = TempDirectory() + "/none";
  const ToolRun large =
      RunTool("--position start --json --pattern-size 5 --pattern-dir '" + empty + "'");
  EXPECT_EQ(large.status, 0) << large.out << large.err;
  EXPECT_TRUE(Has(large.err, "built ahead only")) << large.err;
  EXPECT_EQ(large.err.find("built ahead only"), large.err.rfind("built ahead only")) << large.err;
  EXPECT_EQ(IntOr(ParseOneLine(large.out)["white"], "moves"), 105) << large.out;
  for (const char* bad : {"6", "-2", "x", "4.5"}) {
    const ToolRun r = RunTool(std::string("--position start --pattern-size ") + bad);
    EXPECT_EQ(r.status, 2) << bad << ": " << r.err;
    EXPECT_TRUE(Has(r.err, "--pattern-size")) << r.err;
  }
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
  std::filesystem::remove_all(std::filesystem::path(empty).parent_path());
}

// Tables larger than the board's (built ahead only) take seconds to load
// (five pieces on 10x10: 1.5 to 5 s): a count under a shorter time limit
// does without them, says so, and keeps to its limit (before, a limit of
// 0.05 s took 5.2 s, all of it loading, and the count stayed unproven).
TEST(ScoreCli, TablesBuiltAheadAreNotLoadedUnderAShortLimit) {
  const std::string dir = TempDirectory() + "/tables";
  const std::string five = " --board 8 --rows 2 --pattern-size 5 --pattern-dir '" + dir + "'";
  ASSERT_EQ(RunTool("--build-patterns" + five).status, 0);
  const ToolRun loaded = RunTool("--side white --json" + five);
  ASSERT_EQ(loaded.status, 0) << loaded.out << loaded.err;
  EXPECT_EQ(loaded.err, "");
  const ToolRun limited = RunTool("--side white --json --time-limit 4" + five);
  ASSERT_EQ(limited.status, 0) << limited.out << limited.err;
  EXPECT_TRUE(Has(limited.err, "pattern tables of 5 pieces take seconds to load")) << limited.err;
  EXPECT_TRUE(Has(limited.err, "counting with tables of 4")) << limited.err;
  EXPECT_EQ(IntOr(ParseOneLine(limited.out)["white"], "moves"),
            IntOr(ParseOneLine(loaded.out)["white"], "moves"));
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

TEST(ScoreCli, PatternTablesAreBuiltAheadCheckedAndRebuilt) {
  const std::string dir = TempDirectory() + "/tables";
  const std::string board = SixBySixTables(dir);
  const ToolRun built = RunTool("--build-patterns" + board);
  ASSERT_EQ(built.status, 0) << built.out << built.err;
  EXPECT_TRUE(Has(built.out, dir)) << built.out;
  const std::vector<std::string> tables = TableDirs(dir);
  ASSERT_FALSE(tables.empty());
  const nlohmann::json first = RunJson("--side white" + board);
  const int count = IntOr(first["white"], "moves");
  ASSERT_GT(count, 0) << first.dump();

  // Damage the data of every table: reported, rebuilt, the same count.
  Damage(tables);
  const ToolRun damaged = RunTool("--side white --json" + board);
  EXPECT_EQ(damaged.status, 0) << damaged.out << damaged.err;
  EXPECT_TRUE(Has(damaged.err, "damaged")) << damaged.err;
  EXPECT_EQ(IntOr(ParseOneLine(damaged.out)["white"], "moves"), count) << damaged.out;
  const ToolRun again = RunTool("--side white --json" + board);
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_FALSE(Has(again.err, "damaged")) << "rebuilt tables are whole: " << again.err;

  // A table's directory left empty holds no table: the table is built into
  // it and stored, with no complaint.
  std::filesystem::remove_all(tables.front());
  std::filesystem::create_directory(tables.front());
  const ToolRun emptied = RunTool("--side white --json" + board);
  EXPECT_EQ(emptied.status, 0) << emptied.out << emptied.err;
  EXPECT_EQ(IntOr(ParseOneLine(emptied.out)["white"], "moves"), count) << emptied.out;
  EXPECT_TRUE(Table::ReadMeta(tables.front()).ok()) << "stored again";
  // Built ahead with --json: one JSON line, as every --json output.
  const nlohmann::json ready = RunJson("--build-patterns" + board);
  EXPECT_EQ(ready["pattern_dir"], dir) << ready.dump();
  EXPECT_EQ(ready["ready"], true) << ready.dump();

  // A chunk changed behind the table's back, RocksDB's own checks whole:
  // the table's checksum, checked as it is loaded, finds it.
  std::string chunk;
  {
    absl::StatusOr<std::unique_ptr<Table>> t =
        Table::Open(tables.front(), *Table::ReadMeta(tables.front()));
    ASSERT_TRUE(t.ok()) << t.status();
    absl::StatusOr<std::optional<std::string>> v = (*t)->Get(EncodeKey(0));
    ASSERT_TRUE(v.ok() && v->has_value()) << v.status();
    chunk = **v;
  }
  for (char& c : chunk) c = char(c + 1);
  testing::PutRaw(tables.front(), "d/" + EncodeKey(0), chunk);
  const ToolRun changed = RunTool("--side white --json" + board);
  EXPECT_EQ(changed.status, 0) << changed.out << changed.err;
  EXPECT_TRUE(Has(changed.err, "is damaged")) << changed.err;
  // Rebuilt here, so the user is not told to delete it and build it again.
  EXPECT_TRUE(Has(changed.err, "rebuilding it")) << changed.err;
  EXPECT_FALSE(Has(changed.err, "delete it")) << changed.err;
  EXPECT_EQ(IntOr(ParseOneLine(changed.out)["white"], "moves"), count) << changed.out;

  // Another kind of table where a pattern table belongs: an error, and the
  // table is left alone.
  std::filesystem::remove_all(tables.front());
  {
    TableMeta meta;
    meta.kind = "endgame";
    absl::StatusOr<std::unique_ptr<Table>> other = Table::Create(tables.front(), meta);
    ASSERT_TRUE(other.ok()) << other.status();
    ASSERT_TRUE((*other)->Finish().ok());
  }
  const ToolRun foreign = RunTool("--side white" + board);
  EXPECT_EQ(foreign.status, 2) << foreign.out << foreign.err;
  EXPECT_TRUE(Has(foreign.err, "not a pattern table")) << foreign.err;
  EXPECT_EQ(Table::ReadMeta(tables.front())->kind, "endgame");
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
}

// Damaged tables repaired by several processes at once, one building the
// tables ahead and three counting: each replaces what it finds damaged,
// and none may see half a table or fail to store its own. (Before, a
// table replaced was removed where it lay: about one run in ten, a
// process failed, "cannot rename ...: Directory not empty", or "cannot
// open table ...: No such file or directory".)
TEST(ScoreCli, DamagedPatternTablesAreRepairedByManyProcessesAtOnce) {
  const std::string base = TempDirectory();
  const std::string good = base + "/good";
  // (Far position 39: 0.5 s, its four-piece tables loaded.)
  const std::string position =
      "w S1e7,S2c7,S3i9,S4g7,S5i5,M1e9,M2b8,M3f6,M4d8,M5g5,U1a9,U2d10,U3c9,U4j8,U5h8,s1j2,s2b6,"
      "s3j4,s4e5,s5d4,m1h2,m2c5,m3d2,m4c3,m5i1,u1e1,u2a3,u3f4,u4i3,u5d6 240 #";
  const std::string count = "--side black --json --rules 'standard move-limit=120' --position '" +
                            position + "' --pattern-dir ";
  const ToolRun alone = RunTool(count + "'" + good + "'");
  ASSERT_EQ(alone.status, 0) << alone.out << alone.err;
  ASSERT_EQ(RunTool("--build-patterns --pattern-dir '" + good + "'").status, 0);
  const nlohmann::json want = ParseOneLine(alone.out)["black"]["moves"];
  ASSERT_TRUE(want.is_number()) << alone.out;
  const std::string tool = "'" + Tool() + "'";
  for (int run = 0; run < 4; ++run) {
    const std::string dir = absl::StrCat(base, "/run", run);
    std::filesystem::copy(good, dir, std::filesystem::copy_options::recursive);
    for (const std::string& table : TableDirs(dir)) std::filesystem::remove(table + "/CURRENT");
    std::string line = "(" + tool + " --build-patterns --pattern-dir '" + dir +
                       "' >/dev/null 2>&1; echo ahead $?) &";
    for (int c = 0; c < 3; ++c)
      line += absl::StrCat(" (", c == 2 ? "sleep 0.2; " : "", tool, " ", count, "'", dir, "' > '",
                           dir, ".", c, "' 2>/dev/null; echo count $?) &");
    line += " wait";
    const CommandOutcome ran = RunCapturing(line);
    std::istringstream finished(ran.out);
    int processes = 0;
    for (std::string done; std::getline(finished, done); ++processes)
      EXPECT_TRUE(absl::EndsWith(done, " 0")) << "run " << run << ": " << ran.out;
    EXPECT_EQ(processes, 4) << ran.out;
    for (int c = 0; c < 3; ++c) {
      std::ifstream in(absl::StrCat(dir, ".", c));
      std::string out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      EXPECT_EQ(ParseOneLine(out)["black"]["moves"], want) << "run " << run << ": " << out;
    }
    // Whole again: read back without a note.
    const ToolRun after = RunTool(count + "'" + dir + "'");
    EXPECT_EQ(after.status, 0) << after.err;
    EXPECT_EQ(after.err, "") << "run " << run;
  }
  std::filesystem::remove_all(base);
}

// An option of one value given twice is said in the tools' words, not
// CLI11's ("--side: At Most 1 required but received 2").
TEST(ScoreCli, AnOptionGivenTwiceIsSaidPlainly) {
  const ToolRun r = RunTool("--side white --side black --board 4 --rows 1");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  EXPECT_TRUE(Has(r.err, "--side is given 2 times; it takes one value")) << r.err;
  EXPECT_FALSE(Has(r.err, "At Most")) << r.err;
}

TEST(ScoreCli, PatternDirectoryThatCannotBeMadeExitsTwo) {
  const std::string base = TempDirectory();
  std::ofstream(base + "/file") << "a file\n";
  const ToolRun r =
      RunTool("--board 6 --rows 2 --side white --pattern-dir '" + base + "/file/tables'");
  EXPECT_EQ(r.status, 2) << r.out << r.err;
  // In the words of the directory it cannot make, not RocksDB's.
  EXPECT_TRUE(Has(r.err, "cannot create directory " + base + "/file/tables: Not a directory"))
      << r.err;
  std::filesystem::remove_all(base);
}

// A pattern directory on a disk that fills as the tables are stored: exit 2
// with the reason, never an abort (RocksDB's informational log, written
// again after a failed write, stopped Debian's build on an assertion in
// about one run in six), and no scratch table left behind.
TEST(ScoreCli, AFullPatternDiskIsAnErrorNotAnAbort) {
  int full = 0;
  for (int kib : {1000, 1500, 2000, 3000, 4000}) {
    for (int again = 0; again < 2; ++again) {
      salta::testing::SmallDisk disk(kib);
      if (!disk.ok()) GTEST_SKIP() << "cannot mount a tmpfs here (not root?)";
      const ToolRun r = RunTool("--side white --pattern-dir '" + disk.dir() + "/p'");
      const std::string what = absl::StrCat(kib, " KiB: exit ", r.status, "\n", r.out, r.err);
      ASSERT_TRUE(r.status == 0 || r.status == 2) << what;
      if (r.status == 0) continue;
      ++full;
      EXPECT_TRUE(Has(r.err, "No space left on device")) << what;
      std::error_code ec;
      for (const auto& entry : std::filesystem::directory_iterator(disk.dir() + "/p", ec))
        if (absl::StrContains(entry.path().filename().string(), ".new-"))
          ADD_FAILURE() << what << "\nleft behind: " << entry.path();
    }
  }
  EXPECT_GE(full, 6);
}

// A far position (random play at the move limit) that a tenth of a second
// does not settle: the best way found, as long as the upper bound.
TEST(ScoreCli, SolutionUnderALimitIsTheBestWayFound) {
  const std::string pos =
      "w S1d4,S2a9,S3d10,S4e7,S5i5,M1f8,M2f10,M3g5,M4i9,M5g9,U1b2,U2d8,U3f6,U4j10,U5b8";
  const std::string args = "--side white --solution --time-limit 0.5 --position '" + pos + "'";
  const ToolRun r = RunTool(args + " --json");
  const nlohmann::json j = ParseOneLine(r.out);
  const nlohmann::json& w = j["white"];
  ASSERT_TRUE(w.is_object()) << r.out << r.err;
  ASSERT_TRUE(w.contains("solution") && w["solution"].is_array()) << r.out;
  if (w.value("exact", false)) {
    EXPECT_EQ(w.value("solution_optimal", false), true) << r.out;
    return;  // a fast machine
  }
  EXPECT_EQ(r.status, 3) << r.out;
  EXPECT_EQ(w.value("solution_optimal", true), false) << r.out;
  if (w["upper"].is_null()) {
    EXPECT_TRUE(w["solution"].empty()) << r.out;
    return;
  }
  ASSERT_EQ(int(w["solution"].size()), w["upper"].get<int>()) << r.out;
  const Variant& v = Variant::Default();
  absl::StatusOr<Position> p = ParsePosition(v, pos);
  ASSERT_TRUE(p.ok());
  std::vector<Move> moves;
  for (const auto& m : w["solution"]) {
    const std::string text = m.get<std::string>();
    const size_t dash = text.find('-');
    moves.push_back(Move::Step(*ParseSquare(v.geometry(), text.substr(0, dash)),
                               *ParseSquare(v.geometry(), text.substr(dash + 1))));
  }
  EXPECT_TRUE(CheckSolution(*p, Side::kWhite, moves).ok()) << r.out;
  // The text run is timed afresh: on a loaded machine it may stop before a
  // way is found, and says so.
  const ToolRun text = RunTool(args);
  EXPECT_TRUE(Has(text.out, "not proven optimal") || Has(text.out, "White solution:") ||
              Has(text.out, "no upper bound found"))
      << text.out;
}

}  // namespace
}  // namespace salta
