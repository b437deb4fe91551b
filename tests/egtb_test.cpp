// Endgame tables (salta/egtb/) against the plain solver (egtb_reference.h):
// every entry of whole classes, the counts and the longest win; the best
// moves, optimal lines and playouts from the table; tables built with other
// thread counts and over an in-process cluster of several "processes"
// (including a failed run resumed from its checkpoints); verify against a
// table with a planted wrong value.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "egtb_reference.h"
#include "reference_movegen.h"
#include "salta/cluster.h"
#include "salta/egtb/build.h"
#include "salta/egtb/checkpoint.h"
#include "salta/egtb/probe.h"
#include "salta/egtb/storage.h"
#include "salta/egtb/table_class.h"
#include "salta/egtb/value.h"
#include "salta/egtb/verify.h"
#include "salta/game.h"
#include "salta/movegen.h"
#include "salta/notation.h"
#include "salta/parallel.h"
#include "test_util.h"

namespace salta {
namespace {

namespace ref = reference;
using egtb::Code;
using egtb_reference::CodeName;
using egtb_reference::PlainClass;
using egtb_reference::PlainTable;

// Under the sanitizers everything runs about ten times slower.
bool Sanitized() {
  const char* s = std::getenv("SALTA_SANITIZED");
  return s != nullptr && *s != '\0';
}

// A fresh directory for the test, removed afterwards.
class TempDir {
 public:
  explicit TempDir(const std::string& tag) {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = absl::StrCat("salta_egtb_test_", getpid(), "_", info->name(), "_", tag);
    std::replace_if(
        name.begin(), name.end(), [](char c) { return !std::isalnum(c) && c != '_'; }, '_');
    path_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::remove_all(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string path() const { return path_.string(); }
  std::string sub(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

egtb::TableClass MakeClass(int size, int rows, const std::string& rules, const std::string& white,
                           const std::string& black) {
  const Variant& v = V(rules, size, rows);
  absl::StatusOr<egtb::Material> m = egtb::Material::Parse(v, white, black);
  EXPECT_TRUE(m.ok()) << m.status();
  absl::StatusOr<egtb::TableClass> cls = egtb::TableClass::Make(v, *m);
  EXPECT_TRUE(cls.ok()) << cls.status();
  return *cls;
}

PlainClass PlainOf(const egtb::TableClass& cls) {
  PlainClass p;
  p.size = cls.variant().geometry().size();
  p.rows = cls.variant().geometry().rows();
  p.rules = cls.variant().rules();
  p.pieces = cls.material().white;
  p.pieces.insert(p.pieces.end(), cls.material().black.begin(), cls.material().black.end());
  // The plain solver's own order: Black's pieces first, to share nothing
  // with the library's slot order.
  std::reverse(p.pieces.begin(), p.pieces.end());
  return p;
}

std::unique_ptr<egtb::EndgameTable> BuildAndOpen(const egtb::TableClass& cls,
                                                 const std::string& dir, int threads = 2,
                                                 egtb::BuildReport* report = nullptr) {
  egtb::BuildOptions options;
  options.threads = threads;
  absl::StatusOr<egtb::BuildReport> r = egtb::Build(cls, dir, options);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return nullptr;
  if (report) *report = *r;
  EXPECT_FALSE(r->already_built);
  EXPECT_FALSE(r->resumed);
  absl::StatusOr<std::unique_ptr<egtb::EndgameTable>> t = egtb::EndgameTable::Open(dir);
  EXPECT_TRUE(t.ok()) << t.status();
  if (!t.ok()) return nullptr;
  EXPECT_EQ((*t)->tally(), r->tally);
  return std::move(*t);
}

std::vector<Code> ReadAll(const egtb::EndgameTable& t) {
  std::vector<Code> values(t.cls().size());
  std::unique_ptr<ThreadPool> pool = *ThreadPool::Make(2);
  absl::Status s = t.ReadAll(values, *pool);
  EXPECT_TRUE(s.ok()) << s;
  return values;
}

// The library position of a plain one.
Position ToLib(const ref::RefPosition& rp, const Variant& v) {
  absl::StatusOr<Position> p = ref::ToLibrary(rp, v);
  EXPECT_TRUE(p.ok()) << p.status() << " " << ref::ToString(rp);
  return *p;
}

// (from, to) of a move in dark-square numbers; (-1, -1) for a pass.
std::pair<int, int> Squares(const Move& m) {
  return m.is_pass() ? std::pair<int, int>(-1, -1) : std::pair<int, int>(m.from, m.to);
}
std::pair<int, int> Squares(int size, const ref::RefMove& m) {
  return m.pass ? std::pair<int, int>(-1, -1)
                : std::pair<int, int>(ref::SquareIndex(size, m.from), ref::SquareIndex(size, m.to));
}

// Whether a move to a position of code `child` keeps code c (probe.h's
// definition of a best move).
bool Keeps(Code c, Code child) {
  if (c == egtb::kDraw) return child == egtb::kDraw;
  const int n = egtb::PliesOf(c);
  return egtb::IsWin(c) ? child == egtb::LossIn(n - 1) : child == egtb::WinIn(n - 1);
}

// The library index of every plain position, checking that the plain
// numbering and the library's are a bijection.
std::vector<uint64_t> LibraryIndices(const PlainTable& plain, const egtb::TableClass& cls) {
  std::vector<uint64_t> index(plain.size());
  std::vector<bool> seen(cls.size());
  EXPECT_EQ(plain.size(), cls.size()) << cls.ToString();
  int bad = 0;
  for (uint64_t i = 0; i < plain.size(); ++i) {
    const Position pos = ToLib(plain.Position(i), cls.variant());
    absl::StatusOr<uint64_t> j = cls.IndexOf(pos);
    if (!j.ok() || *j >= cls.size() || seen[*j]) {
      if (++bad <= 5)
        ADD_FAILURE() << "position " << PositionToString(pos) << ": "
                      << (j.ok() ? absl::StrCat("index ", *j, " out of range or repeated")
                                 : std::string(j.status().message()));
      continue;
    }
    seen[*j] = true;
    index[i] = *j;
  }
  return index;
}

// ---------------------------------------------------------------------------
// Every entry of a class against the plain solver.

struct ClassCase {
  int size, rows;
  std::string rules, white, black;
  bool heavy = false;  // skipped under the sanitizers
};

void PrintTo(const ClassCase& c, std::ostream* os) {
  *os << c.size << "x" << c.size << "/" << c.rows << " " << c.rules << ": " << c.white << " v "
      << c.black;
}

std::string CaseName(const ClassCase& c) {
  std::string name =
      absl::StrCat(c.size, "x", c.size, "r", c.rows, "_", c.rules, "_", c.white, "_v_", c.black);
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

std::vector<ClassCase> Cases() {
  std::vector<ClassCase> cases;
  // 4x4, one row: every preset and options that change moves or the end.
  const std::vector<std::string> small_rules = {
      "standard",
      "pre1900",
      "forward",
      "standard chain=on jump-over=any",
      "standard block=allow",
      "standard extra-move=off",
      "standard jumps=optional",
      "standard block=lose",
      "standard jump-dir=any",
      "standard steps=forward",
      "standard chain=on jump-dir=any jump-over=any block=lose",
      "pre1900 chain=on jumps=optional",
      "forward block=forbid",
      "forward block=allow extra-move=on",
      "forward goal=translate steps=any",
  };
  // Every class of the presets (each side one or both of its stars), three of the others.
  const std::vector<std::string> sides = {"S1", "S2", "S1,S2"};
  for (const std::string& r : small_rules) {
    const bool preset = r.find(' ') == std::string::npos;
    for (const std::string& w : sides)
      for (const std::string& b : sides)
        if (preset || (w == "S1" && b == "S2") || (w == "S2" && b == "S1,S2") ||
            (w == "S1,S2" && b == "S1,S2"))
          cases.push_back({4, 1, r, w, b});
  }
  // 6x6: two against two for every preset, and small classes with moons.
  for (const char* r : {"standard", "pre1900", "forward"}) {
    cases.push_back({6, 1, r, "S1,S2", "S1,S2", true});
    cases.push_back({6, 1, r, "S1,S3", "S2,S3", true});
    cases.push_back({6, 2, r, "S1,M1", "M3", false});
    cases.push_back({6, 2, r, "M2", "S3,M1", false});
  }
  cases.push_back({6, 1, "standard chain=on jump-dir=any jump-over=any", "S1,S2", "S2,S3", true});
  cases.push_back({6, 1, "standard block=allow extra-move=off", "S2,S3", "S1,S3", true});
  // 8x8: one against two and two against one.
  for (const char* r : {"standard", "forward"}) {
    cases.push_back({8, 1, r, "S1", "S2,S4", true});
    cases.push_back({8, 1, r, "S2,S3", "S1", true});
  }
  cases.push_back({8, 2, "pre1900", "M1", "S4,M2", true});
  return cases;
}

// The best moves, the optimal line and playouts of position i.
void CheckBestPlay(const PlainTable& plain, const egtb::EndgameTable& table, uint64_t i,
                   std::mt19937& rng) {
  const egtb::TableClass& cls = table.cls();
  const Variant& v = cls.variant();
  const int size = plain.cls().size;
  const ref::RefPosition rp = plain.Position(i);
  const Position pos = ToLib(rp, v);
  const Code code = plain.value(i);
  SCOPED_TRACE(absl::StrCat(PositionToString(pos), " (", CodeName(code), ")"));

  absl::StatusOr<egtb::ProbeResult> r = egtb::Probe(table, pos, true);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->code, code) << CodeName(r->code);

  // The best moves: exactly the legal moves (reference generator) whose
  // position has the value one ply nearer the end.
  std::set<std::pair<int, int>> want, got;
  const std::vector<ref::RefMove> moves = ref::LegalMoves(rp);
  const auto children = plain.children(i);
  ASSERT_EQ(moves.size(), plain.terminal(i) ? 0 : children.size());
  for (size_t k = 0; k < children.size(); ++k)
    if (Keeps(code, plain.value(children[k]))) want.insert(Squares(size, moves[k]));
  for (const Move& m : r->best_moves) got.insert(Squares(m));
  EXPECT_EQ(got, want);
  EXPECT_EQ(got.size(), r->best_moves.size()) << "a best move listed twice";
  if (!plain.terminal(i) && code != egtb::kDraw) {
    EXPECT_FALSE(want.empty());
  }

  // The line: `plies` legal moves to a finished game won by the winner.
  if (code == egtb::kDraw) {
    EXPECT_TRUE(r->line.empty());
    return;
  }
  const int plies = egtb::PliesOf(code);
  const Side mover = pos.side_to_move();
  const Outcome winner =
      (egtb::IsWin(code) == (mover == Side::kWhite)) ? Outcome::kWhiteWins : Outcome::kBlackWins;
  ASSERT_EQ(int(r->line.size()), plies);
  Position at = pos;
  for (int k = 0; k < plies; ++k) {
    ASSERT_FALSE(StatusOf(at).over()) << "over before ply " << k + 1 << " of the line";
    ASSERT_TRUE(IsLegal(at, r->line[k])) << "line move " << k + 1 << " is illegal";
    bool in_reference = false;
    for (const ref::RefMove& m : ref::LegalMoves(ref::FromLibrary(at)))
      in_reference |= Squares(size, m) == Squares(r->line[k]);
    ASSERT_TRUE(in_reference) << "line move " << k + 1 << " is illegal by the reference";
    at.Make(r->line[k]);
  }
  const GameStatus end = StatusOf(at);
  EXPECT_TRUE(end.over()) << "the line ends in play: " << PositionToString(at);
  EXPECT_EQ(end.outcome, winner) << PositionToString(at);

  // Both sides play random best moves: the game ends exactly at `plies`.
  auto pick = [&](const std::vector<Move>& list) {
    return list[std::uniform_int_distribution<size_t>(0, list.size() - 1)(rng)];
  };
  at = pos;
  for (int k = 0; k < plies; ++k) {
    absl::StatusOr<egtb::ProbeResult> step = egtb::Probe(table, at, false);
    ASSERT_TRUE(step.ok()) << step.status();
    ASSERT_FALSE(step->best_moves.empty()) << "no best move at ply " << k + 1;
    ASSERT_FALSE(StatusOf(at).over());
    at.Make(pick(step->best_moves));
  }
  EXPECT_TRUE(StatusOf(at).over()) << PositionToString(at);
  EXPECT_EQ(StatusOf(at).outcome, winner) << PositionToString(at);

  // The winner plays best moves, the loser anything: the winner wins, in
  // no more than `plies`. The loser plays best moves, the winner anything:
  // the winner does not win sooner.
  for (const bool winner_best : {true, false}) {
    at = pos;
    int k = 0;
    for (; k < plies + 40 && !StatusOf(at).over(); ++k) {
      const bool winners_turn = (at.side_to_move() == mover) == egtb::IsWin(code);
      MoveList legal;
      GenerateLegal(at, legal);
      ASSERT_FALSE(legal.empty());
      if (winners_turn == winner_best) {
        absl::StatusOr<egtb::ProbeResult> step = egtb::Probe(table, at, false);
        ASSERT_TRUE(step.ok()) << step.status();
        ASSERT_FALSE(step->best_moves.empty());
        at.Make(pick(step->best_moves));
      } else {
        at.Make(legal[std::uniform_int_distribution<int>(0, legal.size() - 1)(rng)]);
      }
    }
    const GameStatus st = StatusOf(at);
    if (winner_best) {
      EXPECT_TRUE(st.over() && st.outcome == winner && k <= plies)
          << "winner's best play: " << k << " plies to " << PositionToString(at);
    } else if (st.over() && st.outcome == winner) {
      EXPECT_GE(k, plies) << "the loser's best play lost sooner: " << PositionToString(at);
    }
  }
}

class EgtbPlain : public ::testing::TestWithParam<ClassCase> {};

TEST_P(EgtbPlain, EveryEntryCountsAndBestPlay) {
  const ClassCase& c = GetParam();
  if (c.heavy && Sanitized()) GTEST_SKIP() << "a large class: release builds only";
  const egtb::TableClass cls = MakeClass(c.size, c.rows, c.rules, c.white, c.black);
  absl::StatusOr<PlainTable> solved = PlainTable::Solve(PlainOf(cls));
  ASSERT_TRUE(solved.ok()) << solved.status();
  const PlainTable& plain = *solved;

  TempDir dir("table");
  std::unique_ptr<egtb::EndgameTable> table = BuildAndOpen(cls, dir.path());
  ASSERT_NE(table, nullptr);
  const std::vector<Code> values = ReadAll(*table);
  const std::vector<uint64_t> lib = LibraryIndices(plain, cls);
  if (::testing::Test::HasFailure()) return;

  // Every entry, read in bulk and one by one.
  int bad = 0;
  for (uint64_t i = 0; i < plain.size(); ++i) {
    if (values[lib[i]] == plain.value(i)) continue;
    if (++bad <= 10)
      ADD_FAILURE() << PositionToString(cls.At(lib[i])) << " (index " << lib[i]
                    << "): the table says " << CodeName(values[lib[i]]) << ", the plain solver "
                    << CodeName(plain.value(i));
  }
  EXPECT_EQ(bad, 0) << "entries differ";
  for (uint64_t i = 0; i < plain.size(); i += 1 + plain.size() / 2000) {
    absl::StatusOr<Code> g = table->Get(lib[i]);
    ASSERT_TRUE(g.ok()) << g.status();
    EXPECT_EQ(*g, plain.value(i));
    absl::StatusOr<Code> p = egtb::ProbeCode(*table, cls.At(lib[i]));
    ASSERT_TRUE(p.ok()) << p.status();
    EXPECT_EQ(*p, plain.value(i));
  }

  // The counts, the longest win and where, the checksum.
  const egtb_reference::PlainTally pt = plain.Tally();
  const egtb::Tally& t = table->tally();
  EXPECT_EQ(t.positions, pt.positions);
  EXPECT_EQ(t.wins, pt.wins);
  EXPECT_EQ(t.losses, pt.losses);
  EXPECT_EQ(t.draws, pt.draws);
  EXPECT_EQ(t.longest_win, pt.longest_win);
  uint64_t least = UINT64_MAX, checksum = 0;
  Code max_code = 0;
  for (uint64_t i = 0; i < plain.size(); ++i) {
    checksum += egtb::PositionHash(lib[i], plain.value(i));
    max_code = std::max(max_code, plain.value(i));
    if (pt.longest_win >= 0 && plain.value(i) == egtb::WinIn(pt.longest_win))
      least = std::min(least, lib[i]);
  }
  if (pt.longest_win >= 0) {
    EXPECT_EQ(t.longest_win_index, least);
  }
  EXPECT_EQ(t.checksum, checksum);
  EXPECT_EQ(t.max_code, max_code);
  EXPECT_EQ(table->code_bytes(), max_code > 0xFF ? 2 : 1);
  EXPECT_EQ(t.positions, t.wins + t.losses + t.draws);

  // Best moves and lines: every position of a small class, a sample of a
  // large one with the longest wins and losses in it.
  std::vector<uint64_t> sample;
  const uint64_t step = Sanitized()             ? std::max<uint64_t>(1, plain.size() / 300)
                        : plain.size() <= 20000 ? 1
                                                : plain.size() / 1500;
  for (uint64_t i = 0; i < plain.size(); i += step) sample.push_back(i);
  int longest_loss = -1;
  for (uint64_t i = 0; i < plain.size(); ++i)
    if (egtb::IsLoss(plain.value(i)))
      longest_loss = std::max(longest_loss, egtb::PliesOf(plain.value(i)));
  int extremes = 0;
  for (uint64_t i = 0; i < plain.size() && extremes < 6; ++i)
    if (plain.value(i) == egtb::WinIn(pt.longest_win) ||
        plain.value(i) == egtb::LossIn(longest_loss)) {
      sample.push_back(i);
      ++extremes;
    }
  std::mt19937 rng(12345);
  for (uint64_t i : sample) {
    CheckBestPlay(plain, *table, i, rng);
    if (::testing::Test::HasFailure()) break;
  }
}

INSTANTIATE_TEST_SUITE_P(Classes, EgtbPlain, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<ClassCase>& info) {
                           return CaseName(info.param);
                         });

// The plain solver itself: its sweeps reach a fixpoint that Derive agrees
// with everywhere, and positions whose values are known by hand.
TEST(EgtbPlainSolver, FixpointAndHandChecks) {
  PlainClass c;
  c.size = 4;
  c.rows = 1;
  c.rules = Rules::Standard();
  const PieceId white = MakePiece(Side::kWhite, Kind::kStar, 1);
  const PieceId black = MakePiece(Side::kBlack, Kind::kStar, 1);
  c.pieces = {white, black};
  absl::StatusOr<PlainTable> t = PlainTable::Solve(c);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->size(), 8u * 7u * 2u);
  for (uint64_t i = 0; i < t->size(); ++i) EXPECT_EQ(t->Derive(i, t->values()), t->value(i));
  // 4x4, one row, translate goal: White's star 1 goes from a1 to b4 (rank
  // N-R = 3, the first dark square of it), Black's from d4 to c1.
  EXPECT_EQ(ref::TargetSquare(4, 1, Goal::kTranslate, white), (ref::Coord{1, 3}));
  EXPECT_EQ(ref::TargetSquare(4, 1, Goal::kTranslate, black), (ref::Coord{2, 0}));
  auto value = [&](ref::Coord w, ref::Coord b, Side to_move, bool terminal) {
    ref::RefPosition p;
    p.size = 4;
    p.rows = 1;
    p.rules = c.rules;
    p.board[w.file][w.rank] = white;
    p.board[b.file][b.rank] = black;
    p.side_to_move = to_move;
    const int64_t i = t->Find(p);
    EXPECT_GE(i, 0) << ref::ToString(p);
    if (i < 0) return Code(0xFFFF);
    EXPECT_EQ(t->terminal(uint64_t(i)), terminal) << ref::ToString(p);
    return t->value(uint64_t(i));
  };
  // White on a3 steps to b4 and completes; Black on d4 makes its extra
  // move (it cannot complete with it) and White has won: 2 plies.
  EXPECT_EQ(CodeName(value({0, 2}, {3, 3}, Side::kWhite, false)), "win in 2");
  // White on b4 has completed; Black's extra move from d4 (c3 only) ends
  // the game, lost; with White to move the extra move has been played.
  EXPECT_EQ(CodeName(value({1, 3}, {3, 3}, Side::kBlack, false)), "loss in 1");
  EXPECT_EQ(CodeName(value({1, 3}, {3, 3}, Side::kWhite, true)), "win in 0");
  // From d2 Black's extra move reaches c1: both completed, a draw.
  EXPECT_EQ(CodeName(value({1, 3}, {3, 1}, Side::kBlack, false)), "draw");
  EXPECT_EQ(CodeName(value({1, 3}, {2, 0}, Side::kWhite, true)), "draw");
  // Both completed with Black to move: no game gets there (Black's
  // completion ends the game at once); a draw by the tables' convention.
  EXPECT_EQ(CodeName(value({1, 3}, {2, 0}, Side::kBlack, true)), "draw");
  // Black completed first (White to move, White not home): Black has won.
  EXPECT_EQ(CodeName(value({0, 0}, {2, 0}, Side::kWhite, true)), "loss in 0");
  EXPECT_EQ(t->Find(ref::StartPosition(4, 1, c.rules)), -1);  // four pieces: not of the class
}

// Probe refuses positions outside the table's class and says why.
TEST(EgtbProbe, RefusesPositionsOutsideTheClass) {
  const egtb::TableClass cls = MakeClass(4, 1, "standard", "S1,S2", "S1");
  TempDir dir("table");
  std::unique_ptr<egtb::EndgameTable> table = BuildAndOpen(cls, dir.path());
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(egtb::Probe(*table, cls.Start(), true).ok());
  auto probe = [&](const Variant& v, const std::string& text) {
    absl::StatusOr<Position> p = ParsePosition(v, text);
    EXPECT_TRUE(p.ok()) << p.status();
    absl::StatusOr<egtb::ProbeResult> r = egtb::Probe(*table, *p, false);
    EXPECT_FALSE(r.ok()) << text;
    return std::string(r.status().message());
  };
  EXPECT_TRUE(absl::StrContains(probe(V("standard", 4, 1), "w S1a1,s1d4 0"), "missing"));
  EXPECT_TRUE(absl::StrContains(probe(V("standard", 4, 1), "w S1a1,S2c1,s1d4,s2b4 0"),
                                "not one of its pieces"));
  EXPECT_TRUE(
      absl::StrContains(probe(V("forward", 4, 1), "w S1a1,S2c1,s1d4 0"), "another variant"));
  EXPECT_TRUE(absl::StrContains(probe(V("standard", 6, 1), "w S1a1,S2c1,s1d4 0"), "6x6"));
}

// ---------------------------------------------------------------------------
// One process or many.

// An in-process cluster: `size` "processes" on threads, exchanging through
// shared memory. Every collective waits for all of them (a barrier); a wait
// that lasts too long breaks the cluster, and every later call fails, so
// that a mismatched call sequence fails the test instead of hanging it.
// fail_at: the n-th collective call (from 1, of any kind) fails on every
// process, after it has done its work, as a lost link would.
class FakeNet {
 public:
  explicit FakeNet(int size, int fail_at = 0)
      : size_(size),
        fail_at_(fail_at),
        calls_(size, 0),
        mail_(size, std::vector<std::vector<uint64_t>>(size)),
        values_(size),
        status_(size) {}

  int size() const { return size_; }
  // The collective calls process r made.
  int calls(int r) const { return calls_[r]; }

  // Waits until every process has arrived; false if the cluster is broken.
  bool Sync() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (broken_) return false;
    const uint64_t generation = generation_;
    if (++arrived_ == size_) {
      arrived_ = 0;
      ++generation_;
      wake_.notify_all();
      return true;
    }
    if (!wake_.wait_for(lock, std::chrono::seconds(120),
                        [&] { return generation_ != generation || broken_; })) {
      broken_ = true;
      wake_.notify_all();
    }
    return !broken_;
  }
  bool broken() {
    std::lock_guard<std::mutex> lock(mutex_);
    return broken_;
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  int size_, fail_at_, arrived_ = 0;
  std::vector<int> calls_;
  uint64_t generation_ = 0;
  bool broken_ = false;
  std::vector<std::vector<std::vector<uint64_t>>> mail_;  // [from][to]
  std::vector<std::vector<uint64_t>> values_;
  std::vector<absl::Status> status_;
  std::string broadcast_;
};

class FakeCluster : public Cluster {
 public:
  FakeCluster(FakeNet& net, int rank) : net_(net), rank_(rank) {}
  int rank() const override { return rank_; }
  int size() const override { return net_.size(); }

  absl::Status AllToAll(std::vector<std::vector<uint64_t>>& out,
                        std::vector<uint64_t>& in) override {
    if (int(out.size()) != size())
      return absl::InvalidArgumentError("AllToAll: out has no slot per process");
    for (int r = 0; r < size(); ++r)
      if (r != rank_) bytes_ += out[r].size() * sizeof(uint64_t);
    net_.mail_[rank_] = std::move(out);
    if (!net_.Sync()) return Broken();
    in.clear();
    for (int s = 0; s < size(); ++s)
      in.insert(in.end(), net_.mail_[s][rank_].begin(), net_.mail_[s][rank_].end());
    if (!net_.Sync()) return Broken();
    out.assign(size(), {});
    return Done();
  }
  absl::Status SumAll(std::span<uint64_t> values) override {
    return Reduce(values, [](uint64_t a, uint64_t b) { return a + b; });
  }
  absl::Status MaxAll(std::span<uint64_t> values) override {
    return Reduce(values, [](uint64_t a, uint64_t b) { return std::max(a, b); });
  }
  absl::Status Agree(const absl::Status& local) override {
    net_.status_[rank_] = local;
    if (!net_.Sync()) return Broken();
    absl::Status first;
    for (int r = 0; r < size() && first.ok(); ++r) first = net_.status_[r];
    if (!net_.Sync()) return Broken();
    if (absl::Status s = Done(); !s.ok()) return s;
    return first;
  }
  absl::Status Broadcast(std::string& data, int root) override {
    if (rank_ == root) {
      net_.broadcast_ = data;
      bytes_ += data.size() * (size() - 1);
    }
    if (!net_.Sync()) return Broken();
    if (rank_ != root) data = net_.broadcast_;
    if (!net_.Sync()) return Broken();
    return Done();
  }
  uint64_t bytes_sent() const override { return bytes_; }

 private:
  template <typename Op>
  absl::Status Reduce(std::span<uint64_t> values, Op op) {
    net_.values_[rank_].assign(values.begin(), values.end());
    if (!net_.Sync()) return Broken();
    for (int r = 0; r < size(); ++r) {
      if (net_.values_[r].size() != values.size()) {
        net_.Sync();
        return absl::InternalError("processes reduced arrays of different lengths");
      }
    }
    std::vector<uint64_t> result = net_.values_[0];
    for (int r = 1; r < size(); ++r)
      for (size_t k = 0; k < result.size(); ++k) result[k] = op(result[k], net_.values_[r][k]);
    if (!net_.Sync()) return Broken();
    std::copy(result.begin(), result.end(), values.begin());
    return Done();
  }
  absl::Status Done() {
    if (++net_.calls_[rank_] == net_.fail_at_)
      return absl::UnavailableError("the fake cluster's link failed (as the test asked)");
    return absl::OkStatus();
  }
  absl::Status Broken() { return absl::DeadlineExceededError("the fake cluster is broken"); }

  FakeNet& net_;
  int rank_;
  uint64_t bytes_ = 0;
};

// The fake cluster does what cluster.h says, before Build relies on it.
TEST(EgtbFakeCluster, CollectivesAsDocumented) {
  FakeNet net(3);
  std::vector<std::string> errors(3);
  std::vector<std::thread> threads;
  for (int r = 0; r < 3; ++r)
    threads.emplace_back([&, r] {
      FakeCluster c(net, r);
      std::string& e = errors[r];
      std::vector<std::vector<uint64_t>> out(3);
      for (int to = 0; to < 3; ++to)
        for (int k = 0; k <= to; ++k) out[to].push_back(uint64_t(100 * r + 10 * to + k));
      std::vector<uint64_t> in;
      if (!c.AllToAll(out, in).ok()) e += "AllToAll failed; ";
      std::vector<uint64_t> want;
      for (int from = 0; from < 3; ++from)
        for (int k = 0; k <= r; ++k) want.push_back(uint64_t(100 * from + 10 * r + k));
      if (in != want) e += "AllToAll delivered the wrong data; ";
      uint64_t v[2] = {uint64_t(r + 1), uint64_t(10 * r)};
      if (!c.SumAll(v).ok() || v[0] != 6 || v[1] != 30) e += "SumAll; ";
      uint64_t m[2] = {uint64_t(r), uint64_t(5 - r)};
      if (!c.MaxAll(m).ok() || m[0] != 2 || m[1] != 5) e += "MaxAll; ";
      const absl::Status a =
          c.Agree(r == 0 ? absl::OkStatus() : absl::NotFoundError(absl::StrCat("rank ", r)));
      if (a.code() != absl::StatusCode::kNotFound || a.message() != "rank 1") e += "Agree; ";
      if (!c.Agree(absl::OkStatus()).ok()) e += "Agree ok; ";
      std::string data = r == 2 ? "from two" : "";
      if (!c.Broadcast(data, 2).ok() || data != "from two") e += "Broadcast; ";
    });
  for (std::thread& t : threads) t.join();
  for (int r = 0; r < 3; ++r) EXPECT_EQ(errors[r], "") << "rank " << r;
  EXPECT_FALSE(net.broken());
}

// Builds the class over a fake cluster of `processes`; the reports of every process.
std::vector<absl::StatusOr<egtb::BuildReport>> BuildOnCluster(const egtb::TableClass& cls,
                                                              const std::string& dir, FakeNet& net,
                                                              int threads,
                                                              double checkpoint_seconds) {
  std::vector<absl::StatusOr<egtb::BuildReport>> reports(net.size(), absl::UnknownError("not run"));
  std::vector<std::thread> workers;
  for (int r = 0; r < net.size(); ++r)
    workers.emplace_back([&, r] {
      FakeCluster cluster(net, r);
      egtb::BuildOptions options;
      options.threads = threads;
      options.cluster = &cluster;
      options.checkpoint_seconds = checkpoint_seconds;
      reports[r] = egtb::Build(cls, dir, options);
    });
  for (std::thread& t : workers) t.join();
  return reports;
}

TEST(EgtbProcesses, ThreadsAndProcessesGiveTheSameTable) {
  // 6x6, one row, two against two: 146880 positions, five blocks.
  const egtb::TableClass cls = Sanitized() ? MakeClass(6, 1, "standard", "S1,S2", "S3")
                                           : MakeClass(6, 1, "standard", "S1,S2", "S1,S2");
  TempDir dir("tables");
  std::unique_ptr<egtb::EndgameTable> one = BuildAndOpen(cls, dir.sub("threads1"), 1);
  ASSERT_NE(one, nullptr);
  const std::vector<Code> want = ReadAll(*one);
  for (int threads : {2, 3}) {
    std::unique_ptr<egtb::EndgameTable> t =
        BuildAndOpen(cls, dir.sub(absl::StrCat("threads", threads)), threads);
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->tally(), one->tally()) << threads << " threads";
    EXPECT_TRUE(ReadAll(*t) == want) << threads << " threads: other values";
  }
  for (const auto& [processes, threads] : {std::pair{2, 1}, std::pair{3, 2}, std::pair{5, 1}}) {
    SCOPED_TRACE(absl::StrCat(processes, " processes of ", threads, " threads"));
    FakeNet net(processes);
    const std::string at = dir.sub(absl::StrCat("processes", processes));
    std::vector<absl::StatusOr<egtb::BuildReport>> reports =
        BuildOnCluster(cls, at, net, threads, 60);
    EXPECT_FALSE(net.broken()) << "the processes' calls did not match";
    for (int r = 0; r < processes; ++r) {
      ASSERT_TRUE(reports[r].ok()) << "rank " << r << ": " << reports[r].status();
      EXPECT_EQ(reports[r]->tally, one->tally()) << "rank " << r;
    }
    if (processes > 1 && cls.size() > egtb::kBlockPositions) {
      EXPECT_GT(reports[0]->bytes_exchanged, 0u);
    }
    absl::StatusOr<std::unique_ptr<egtb::EndgameTable>> t = egtb::EndgameTable::Open(at);
    ASSERT_TRUE(t.ok()) << t.status();
    EXPECT_EQ((*t)->tally(), one->tally());
    EXPECT_TRUE(ReadAll(**t) == want) << "other values";
  }
}

// A run that fails part-way (on every process at once, as a lost link
// does: the n-th collective call fails) leaves its checkpoints; the same
// run again resumes from them, or finds the table finished, and ends with
// the identical table, for one process and for three.
TEST(EgtbProcesses, FailedRunResumesToTheSameTable) {
  const egtb::TableClass cls = Sanitized() ? MakeClass(6, 1, "forward", "S1,S2", "S3")
                                           : MakeClass(6, 1, "forward", "S1,S2", "S1,S2");
  TempDir dir("tables");
  std::unique_ptr<egtb::EndgameTable> whole = BuildAndOpen(cls, dir.sub("whole"), 2);
  ASSERT_NE(whole, nullptr);
  const std::vector<Code> want = ReadAll(*whole);
  for (int processes : {1, 3}) {
    // The collective calls of a whole run.
    FakeNet counting(processes);
    std::vector<absl::StatusOr<egtb::BuildReport>> counted =
        BuildOnCluster(cls, dir.sub(absl::StrCat("counted", processes)), counting, 1, 0);
    ASSERT_TRUE(counted[0].ok()) << counted[0].status();
    const int calls = counting.calls(0);
    for (int r = 1; r < processes; ++r) EXPECT_EQ(counting.calls(r), calls);
    ASSERT_GE(calls, 20);
    int resumed = 0;
    std::set<int> moments = {1,         3,         6,    calls / 4, calls / 2, 3 * calls / 4,
                             calls - 3, calls - 1, calls};
    for (int fail_at : moments) {
      SCOPED_TRACE(absl::StrCat(processes, " processes, collective call ", fail_at, " of ", calls,
                                " fails"));
      const std::string at = dir.sub(absl::StrCat("resumed", processes, "_", fail_at));
      {
        FakeNet net(processes, fail_at);
        std::vector<absl::StatusOr<egtb::BuildReport>> failed = BuildOnCluster(cls, at, net, 1, 0);
        EXPECT_FALSE(net.broken()) << "the processes' calls did not match after the failure";
        for (int r = 0; r < processes; ++r) {
          EXPECT_FALSE(failed[r].ok()) << "rank " << r << " did not see the failure";
          EXPECT_EQ(failed[r].status().code(), absl::StatusCode::kUnavailable)
              << "rank " << r << ": " << failed[r].status();
        }
      }
      FakeNet net(processes);
      std::vector<absl::StatusOr<egtb::BuildReport>> reports = BuildOnCluster(cls, at, net, 1, 0);
      for (int r = 0; r < processes; ++r) {
        ASSERT_TRUE(reports[r].ok()) << "rank " << r << ": " << reports[r].status();
        // A run that finds the table finished reports its figures on rank 0 only.
        if (r == 0 || !reports[0]->already_built) {
          EXPECT_EQ(reports[r]->tally, whole->tally()) << "rank " << r;
        }
      }
      resumed += reports[0]->resumed;
      absl::StatusOr<std::unique_ptr<egtb::EndgameTable>> t = egtb::EndgameTable::Open(at);
      ASSERT_TRUE(t.ok()) << t.status();
      EXPECT_TRUE(ReadAll(**t) == want) << "other values";
      for (const auto& e : std::filesystem::directory_iterator(at))
        EXPECT_EQ(e.path().filename().string().find("checkpoint"), std::string::npos)
            << e.path().filename() << " left in the finished table (the run again "
            << (reports[0]->already_built ? "found it finished" : "built it") << ")";
      // Another run finds the finished table.
      FakeNet again(processes);
      std::vector<absl::StatusOr<egtb::BuildReport>> done = BuildOnCluster(cls, at, again, 1, 0);
      ASSERT_TRUE(done[0].ok()) << done[0].status();
      EXPECT_TRUE(done[0]->already_built);
      EXPECT_EQ(done[0]->tally, whole->tally());
    }
    EXPECT_GE(resumed, 3) << "few runs resumed from a checkpoint";
  }
}

// Processes killed while they save their checkpoints hold different levels:
// some the new one (and the one before it, kept until all have saved), some
// only the one before, one killed between its two renames only the previous
// file. The run again resumes from the newest level all hold, and ends with
// the identical table; where no level is held by all, it starts afresh.
TEST(EgtbProcesses, KilledWhileSavingResumesFromTheLevelAllHold) {
  const egtb::TableClass cls = Sanitized() ? MakeClass(6, 1, "forward", "S1,S2", "S3")
                                           : MakeClass(6, 1, "forward", "S1,S2", "S1,S2");
  constexpr int kProcesses = 3;
  namespace fs = std::filesystem;
  TempDir dir("tables");
  std::unique_ptr<egtb::EndgameTable> whole = BuildAndOpen(cls, dir.sub("whole"), 2);
  ASSERT_NE(whole, nullptr);
  const std::vector<Code> want = ReadAll(*whole);
  FakeNet counting(kProcesses);
  ASSERT_TRUE(BuildOnCluster(cls, dir.sub("counted"), counting, 1, 0)[0].ok());
  const int calls = counting.calls(0);
  // Two runs that fail, the first a third of the way, the second two
  // thirds: their checkpoints are of an earlier and a later level.
  auto failed_run = [&](const std::string& name, int fail_at) {
    const std::string at = dir.sub(name);
    FakeNet net(kProcesses, fail_at);
    BuildOnCluster(cls, at, net, 1, 0);
    for (int r = 0; r < kProcesses; ++r)
      fs::remove(egtb::CheckpointPath(at, r, kProcesses) + ".previous");
    return at;
  };
  const std::string early = failed_run("early", calls / 3);
  const std::string late = failed_run("late", 2 * calls / 3);
  auto checkpoint = [&](const std::string& at, int r) {
    return egtb::CheckpointPath(at, r, kProcesses);
  };
  // The level of the early checkpoints, as a run again resumes from them.
  auto run_again = [&](const std::string& at) {
    FakeNet net(kProcesses);
    std::vector<absl::StatusOr<egtb::BuildReport>> reports = BuildOnCluster(cls, at, net, 1, 0);
    EXPECT_FALSE(net.broken());
    for (int r = 0; r < kProcesses; ++r)
      EXPECT_TRUE(reports[r].ok()) << "rank " << r << ": " << reports[r].status();
    absl::StatusOr<std::unique_ptr<egtb::EndgameTable>> t = egtb::EndgameTable::Open(at);
    EXPECT_TRUE(t.ok()) << t.status();
    if (t.ok()) {
      EXPECT_TRUE(ReadAll(**t) == want) << "other values";
    }
    for (const auto& e : fs::directory_iterator(at)) {
      const std::string name = e.path().filename().string();
      EXPECT_EQ(name.find("checkpoint"), std::string::npos)
          << name << " left in the finished table";
      EXPECT_EQ(name.find("blocks-"), std::string::npos) << name << " left in the finished table";
    }
    return reports[0].ok() ? *reports[0] : egtb::BuildReport{};
  };
  const std::string plain = dir.sub("plain");
  fs::copy(early, plain, fs::copy_options::recursive);
  const egtb::BuildReport from_early = run_again(plain);
  ASSERT_TRUE(from_early.resumed);
  const std::string later = dir.sub("later");
  fs::copy(late, later, fs::copy_options::recursive);
  const egtb::BuildReport from_late = run_again(later);
  ASSERT_TRUE(from_late.resumed);
  ASSERT_LT(from_early.resumed_level, from_late.resumed_level);

  // Rank 0 saved the late level, rank 1 did not begin, rank 2 was killed
  // between keeping its early checkpoint and renaming the late one in.
  const std::string mixed = dir.sub("mixed");
  fs::copy(late, mixed, fs::copy_options::recursive);
  fs::copy_file(checkpoint(early, 0), checkpoint(mixed, 0) + ".previous");
  fs::copy_file(checkpoint(early, 1), checkpoint(mixed, 1), fs::copy_options::overwrite_existing);
  fs::remove(checkpoint(mixed, 2));
  fs::copy_file(checkpoint(early, 2), checkpoint(mixed, 2) + ".previous");
  // A run with another number of processes left its own, and a block file,
  // of no use after.
  fs::copy_file(checkpoint(early, 2), egtb::CheckpointPath(mixed, 0, 2));
  fs::copy_file(checkpoint(early, 1), fs::path(mixed) / "blocks-1-of-2.sst");
  const egtb::BuildReport from_mixed = run_again(mixed);
  EXPECT_TRUE(from_mixed.resumed) << "started afresh";
  EXPECT_EQ(from_mixed.resumed_level, from_early.resumed_level);

  // Every process saved the late level; one was killed before it dropped
  // the early one: the late level.
  const std::string saved = dir.sub("saved");
  fs::copy(late, saved, fs::copy_options::recursive);
  fs::copy_file(checkpoint(early, 1), checkpoint(saved, 1) + ".previous");
  const egtb::BuildReport from_saved = run_again(saved);
  EXPECT_TRUE(from_saved.resumed);
  EXPECT_EQ(from_saved.resumed_level, from_late.resumed_level);

  // No level that every process holds: afresh, the same table.
  const std::string apart = dir.sub("apart");
  fs::copy(late, apart, fs::copy_options::recursive);
  fs::copy_file(checkpoint(early, 1), checkpoint(apart, 1), fs::copy_options::overwrite_existing);
  EXPECT_FALSE(run_again(apart).resumed);
}

// A table that is whole by every checksum but holds one wrong value:
// verify names the least index whose value disagrees with its successors'
// (the planted one or a predecessor of it), as the plain solver finds it.
TEST(EgtbVerify, FindsAPlantedWrongValue) {
  const egtb::TableClass cls = MakeClass(6, 1, "standard", "S1,S3", "S2");
  absl::StatusOr<PlainTable> plain = PlainTable::Solve(PlainOf(cls));
  ASSERT_TRUE(plain.ok()) << plain.status();
  const std::vector<uint64_t> lib = LibraryIndices(*plain, cls);
  std::vector<uint64_t> plain_of(cls.size());
  for (uint64_t i = 0; i < plain->size(); ++i) plain_of[lib[i]] = i;
  std::vector<Code> truth(cls.size());
  for (uint64_t i = 0; i < plain->size(); ++i) truth[lib[i]] = plain->value(i);

  std::unique_ptr<ThreadPool> pool = *ThreadPool::Make(2);
  TempDir dir("planted");
  // Plants: a win one ply longer, a loss turned into a draw, a draw into a
  // win in 1, a finished game's value changed.
  std::vector<std::pair<uint64_t, Code>> plants;
  for (uint64_t j = 0; j < cls.size() && plants.size() < 1; ++j)
    if (egtb::IsWin(truth[j]) && egtb::PliesOf(truth[j]) > 2)
      plants.push_back({j, Code(truth[j] + 2)});
  for (uint64_t j = cls.size() / 2; j < cls.size() && plants.size() < 2; ++j)
    if (egtb::IsLoss(truth[j]) && egtb::PliesOf(truth[j]) > 0) plants.push_back({j, egtb::kDraw});
  for (uint64_t j = cls.size() / 3; j < cls.size() && plants.size() < 3; ++j)
    if (truth[j] == egtb::kDraw && !plain->terminal(plain_of[j]))
      plants.push_back({j, egtb::WinIn(1)});
  for (uint64_t j = 0; j < cls.size() && plants.size() < 4; ++j)
    if (plain->terminal(plain_of[j]) && truth[j] != egtb::kDraw) plants.push_back({j, egtb::kDraw});
  ASSERT_EQ(plants.size(), 4u);

  for (const auto& [index, code] : plants) {
    SCOPED_TRACE(absl::StrCat("index ", index, " set to ", CodeName(code), " (is ",
                              CodeName(truth[index]), ")"));
    std::vector<Code> values = truth;
    values[index] = code;
    // The first index the plain derivation disagrees with.
    std::vector<Code> plain_values(plain->size());
    for (uint64_t i = 0; i < plain->size(); ++i) plain_values[i] = values[lib[i]];
    uint64_t first = UINT64_MAX;
    for (uint64_t i = 0; i < plain->size(); ++i)
      if (plain->Derive(i, plain_values) != plain_values[i]) first = std::min(first, lib[i]);
    ASSERT_NE(first, UINT64_MAX);

    const std::string at = dir.sub(absl::StrCat("t", index));
    {
      absl::StatusOr<std::unique_ptr<Table>> t = Table::Create(at, egtb::MetaOf(cls));
      ASSERT_TRUE(t.ok()) << t.status();
      const std::string blocks = dir.sub(absl::StrCat("blocks", index, ".sst"));
      ASSERT_TRUE(egtb::WriteBlocks(blocks, 0, values, 1).ok());
      const absl::Status s =
          egtb::CompleteTable(**t, {blocks}, cls, egtb::TallyOf(0, values, *pool));
      ASSERT_TRUE(s.ok()) << s;
    }
    absl::StatusOr<egtb::VerifyReport> r = egtb::Verify(at, *pool, nullptr);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_FALSE(r->ok);
    EXPECT_EQ(r->positions, cls.size());
    ASSERT_TRUE(r->first_bad.has_value()) << r->problem;
    EXPECT_EQ(*r->first_bad, first) << r->problem;
    EXPECT_EQ(r->first_bad_position, PositionToString(cls.At(first)));
    EXPECT_NE(r->problem, "");
  }
  // The true values pass.
  const std::string good = dir.sub("good");
  {
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Create(good, egtb::MetaOf(cls));
    ASSERT_TRUE(t.ok()) << t.status();
    const std::string blocks = dir.sub("blocks_good.sst");
    ASSERT_TRUE(egtb::WriteBlocks(blocks, 0, truth, 1).ok());
    ASSERT_TRUE(egtb::CompleteTable(**t, {blocks}, cls, egtb::TallyOf(0, truth, *pool)).ok());
  }
  absl::StatusOr<egtb::VerifyReport> r = egtb::Verify(good, *pool, nullptr);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->ok) << r->problem;
  // An info entry that does not match the values: refused.
  const std::string lying = dir.sub("lying");
  {
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Create(lying, egtb::MetaOf(cls));
    ASSERT_TRUE(t.ok()) << t.status();
    const std::string blocks = dir.sub("blocks_lying.sst");
    ASSERT_TRUE(egtb::WriteBlocks(blocks, 0, truth, 1).ok());
    egtb::Tally tally = egtb::TallyOf(0, truth, *pool);
    tally.checksum ^= 1;
    ASSERT_TRUE(egtb::CompleteTable(**t, {blocks}, cls, tally).ok());
  }
  r = egtb::Verify(lying, *pool, nullptr);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->ok);
  EXPECT_NE(r->problem.find("checksum"), std::string::npos) << r->problem;
}

}  // namespace
}  // namespace salta
