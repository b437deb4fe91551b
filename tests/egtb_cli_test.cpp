// salta-egtb, the command-line tool (docs/salta-egtb.md): build, info and
// probe against the plain solver (egtb_reference.h); `probe -` line by
// line; refusals (move limits, memory, positions outside the class); and
// robustness: a flipped byte anywhere in the database, truncated, foreign
// and unfinished directories, and builds killed with SIGKILL at several
// moments and run again, which must end with the identical table.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "egtb_reference.h"
#include "nlohmann/json.hpp"
#include "raw_table.h"
#include "reference_movegen.h"
#include "salta/egtb/build.h"
#include "salta/egtb/probe.h"
#include "salta/egtb/storage.h"
#include "salta/egtb/table_class.h"
#include "salta/game.h"
#include "salta/movegen.h"
#include "salta/notation.h"
#include "salta/parallel.h"
#include "salta/store.h"
#include "small_disk.h"
#include "test_util.h"

namespace salta {
namespace {

namespace fs = std::filesystem;
namespace ref = reference;
using egtb::Code;
using egtb_reference::PlainClass;
using egtb_reference::PlainTable;
using nlohmann::json;

bool Sanitized() {
  const char* s = std::getenv("SALTA_SANITIZED");
  return s != nullptr && *s != '\0';
}

std::string Tool() {
  return std::string(SALTA_TOOLS_DIR) + "/salta-egtb";
}

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct ToolRun {
  int status = -1;
  std::string out, err;
  double seconds = 0;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs the tool with `args` (already quoted), `input` on standard input.
ToolRun RunTool(const std::string& args, const std::string& input = "") {
  const auto start = std::chrono::steady_clock::now();
  CommandOutcome ran = RunCapturing(Quote(Tool()) + " " + args, input);
  ToolRun r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.status = ran.status;
  r.out = std::move(ran.out);
  r.err = std::move(ran.err);
  return r;
}

std::string Describe(const ToolRun& r) {
  return absl::StrCat("exit ", r.status, "\nstdout: ", r.out, "\nstderr: ", r.err);
}

// What a failed run prints on stdout: nothing, or with --json one line, the
// error as a JSON object ({"error": ..., "exit_status": ...}; docs).
::testing::AssertionResult NoResult(const ToolRun& r, bool json_flag) {
  if (!json_flag) {
    if (r.out.empty()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "stdout not empty: " << r.out;
  }
  const json j = json::parse(r.out, nullptr, false);
  if (r.out.empty() || r.out.back() != '\n' || r.out.find('\n') != r.out.size() - 1 ||
      !j.is_object() || !j.contains("error") || !j["error"].is_string() ||
      j.value("exit_status", -1) != r.status || j.contains("value"))
    return ::testing::AssertionFailure() << "not one JSON error line: " << r.out;
  return ::testing::AssertionSuccess();
}

json ParseJson(const std::string& text) {
  json j = json::parse(text, nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << "not JSON: " << text;
  return j;
}

class TempDir {
 public:
  TempDir() {
    std::string name =
        absl::StrCat("salta_egtb_cli_", getpid(), "_",
                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    path_ = fs::temp_directory_path() / name;
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string sub(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

// A class on the command line and in the library.
struct ClassArgs {
  int size, rows;
  std::string rules;  // --rules preset
  std::string white, black;

  std::string Flags() const {
    return absl::StrCat("--board ", size, " --rows ", rows, " --rules ", rules, " --white ", white,
                        " --black ", black);
  }
  egtb::TableClass Class() const {
    const Variant& v = V(rules, size, rows);
    absl::StatusOr<egtb::TableClass> c =
        egtb::TableClass::Make(v, *egtb::Material::Parse(v, white, black));
    EXPECT_TRUE(c.ok()) << c.status();
    return *c;
  }
};

ToolRun Build(const ClassArgs& c, const std::string& db, const std::string& extra = "") {
  return RunTool(
      absl::StrCat("build --db ", Quote(db), " ", c.Flags(), " --threads 2 --json ", extra));
}

std::string Hex16(uint64_t x) {
  return absl::StrCat(absl::Hex(x, absl::kZeroPad16));
}

// The library position of plain position i.
Position LibPosition(const PlainTable& plain, uint64_t i, const Variant& v) {
  absl::StatusOr<Position> p = ref::ToLibrary(plain.Position(i), v);
  EXPECT_TRUE(p.ok()) << p.status();
  return *p;
}

PlainTable SolvePlain(const egtb::TableClass& cls) {
  PlainClass p;
  p.size = cls.variant().geometry().size();
  p.rows = cls.variant().geometry().rows();
  p.rules = cls.variant().rules();
  p.pieces = cls.material().black;
  p.pieces.insert(p.pieces.end(), cls.material().white.begin(), cls.material().white.end());
  absl::StatusOr<PlainTable> t = PlainTable::Solve(p);
  EXPECT_TRUE(t.ok()) << t.status();
  return *std::move(t);
}

// The best moves of plain position i as the tool writes them.
std::set<std::string> PlainBestMoves(const PlainTable& plain, uint64_t i, const Position& pos) {
  std::set<std::string> best;
  const std::vector<ref::RefMove> moves = ref::LegalMoves(plain.Position(i));
  const auto children = plain.children(i);
  const Code c = plain.value(i);
  MoveList legal;
  GenerateLegal(pos, legal);
  for (size_t k = 0; k < moves.size() && k < children.size(); ++k) {
    const Code child = plain.value(children[k]);
    const bool keeps = c == egtb::kDraw ? child == egtb::kDraw
                       : egtb::IsWin(c) ? child == egtb::LossIn(egtb::PliesOf(c) - 1)
                                        : child == egtb::WinIn(egtb::PliesOf(c) - 1);
    if (!keeps) continue;
    for (const Move& m : legal) {
      const bool same = moves[k].pass
                            ? m.is_pass()
                            : !m.is_pass() &&
                                  m.from == ref::SquareIndex(plain.cls().size, moves[k].from) &&
                                  m.to == ref::SquareIndex(plain.cls().size, moves[k].to);
      if (same) best.insert(MoveToString(pos, m));
    }
  }
  return best;
}

TEST(EgtbCli, ToolIsBuiltAndHelpNamesTheSubcommands) {
  ASSERT_TRUE(fs::exists(Tool())) << Tool();
  const ToolRun r = RunTool("--help");
  EXPECT_EQ(r.status, 0) << Describe(r);
  for (const char* word : {"build", "probe", "verify", "info", "Exit status"})
    EXPECT_TRUE(absl::StrContains(r.out, word)) << word << " not in --help:\n" << r.out;
  const ToolRun b = RunTool("build --help");
  EXPECT_EQ(b.status, 0);
  for (const char* flag : {"--db", "--white", "--black", "--threads", "--memory",
                           "--checkpoint-seconds", "--rules", "--rule", "--board", "--rows"})
    EXPECT_TRUE(absl::StrContains(b.out, flag)) << flag << " not in build --help";
  EXPECT_EQ(RunTool("").status, 2);
  EXPECT_EQ(RunTool("frobnicate").status, 2);
}

// The help points to docs/salta-egtb.md for the details (exit statuses,
// the JSON keys): the page must be there and describe the subcommands.
TEST(EgtbCli, TheDocumentationPageExists) {
  const std::string page = std::string(SALTA_DATA_DIR) + "/../docs/salta-egtb.md";
  ASSERT_TRUE(fs::exists(page)) << "salta-egtb --help names docs/salta-egtb.md, which is missing";
  const std::string text = ReadFile(page);
  for (const char* word : {"build", "probe", "verify", "info", "--checkpoint-seconds", "--memory",
                           "best_moves", "checksum"})
    EXPECT_TRUE(absl::StrContains(text, word)) << word << " not in docs/salta-egtb.md";
}

// build, info, probe (one position, --moves, standard input) against the
// plain solver, and the same table built in the library.
TEST(EgtbCli, BuildInfoAndProbeAgreeWithThePlainSolver) {
  const ClassArgs args{6, 1, "standard", "S1,S3", "S2"};
  const egtb::TableClass cls = args.Class();
  const Variant& v = cls.variant();
  const PlainTable plain = SolvePlain(cls);
  const egtb_reference::PlainTally pt = plain.Tally();
  TempDir dir;
  const std::string db = dir.sub("db");

  const ToolRun built = Build(args, db);
  ASSERT_EQ(built.status, 0) << Describe(built);
  json b = ParseJson(built.out);
  for (const char* key : {"class", "positions", "wins", "losses", "draws", "longest_win",
                          "checksum", "bytes", "seconds", "levels", "already_built", "resumed",
                          "memory_bytes", "processes", "bytes_exchanged"})
    EXPECT_TRUE(b.contains(key)) << key << " missing from build --json: " << built.out;
  EXPECT_EQ(b.value("processes", 0), 1);
  EXPECT_EQ(b.value("class", std::string()), cls.ToString());
  EXPECT_EQ(b.value("positions", uint64_t(0)), pt.positions);
  EXPECT_EQ(b.value("wins", uint64_t(0)), pt.wins);
  EXPECT_FALSE(b.value("already_built", true));
  EXPECT_FALSE(b.value("resumed", true));

  // The library's own build of the class gives the same checksum.
  egtb::BuildOptions options;
  options.threads = 1;
  absl::StatusOr<egtb::BuildReport> lib = egtb::Build(cls, dir.sub("library"), options);
  ASSERT_TRUE(lib.ok()) << lib.status();

  const ToolRun info = RunTool("info --json --db " + Quote(db));
  ASSERT_EQ(info.status, 0) << Describe(info);
  json j = ParseJson(info.out);
  for (const char* key : {"class", "board", "rows", "rules", "white", "black", "positions", "wins",
                          "losses", "draws", "longest_win", "longest_win_position", "start",
                          "bytes", "bits_per_position", "checksum", "format_version"})
    EXPECT_TRUE(j.contains(key)) << key << " missing from info --json: " << info.out;
  EXPECT_EQ(j.value("board", 0), 6);
  EXPECT_EQ(j.value("rows", 0), 1);
  EXPECT_EQ(j.value("white", std::string()), "S1,S3");
  EXPECT_EQ(j.value("black", std::string()), "S2");
  EXPECT_EQ(j.value("positions", uint64_t(0)), pt.positions);
  EXPECT_EQ(j.value("wins", uint64_t(0)), pt.wins);
  EXPECT_EQ(j.value("losses", uint64_t(0)), pt.losses);
  EXPECT_EQ(j.value("draws", uint64_t(0)), pt.draws);
  EXPECT_EQ(j.value("longest_win", -2), pt.longest_win);
  EXPECT_EQ(j.value("checksum", std::string()), Hex16(lib->tally.checksum));
  EXPECT_EQ(b.value("checksum", std::string()), Hex16(lib->tally.checksum));
  EXPECT_EQ(j.value("bytes", uint64_t(0)), Table::DiskBytes(db));
  EXPECT_GT(j.value("bytes", uint64_t(0)), 0u);
  // The longest win's position is one, and the start's value is the plain one.
  ASSERT_TRUE(j.contains("longest_win_position"));
  absl::StatusOr<Position> longest = ParsePosition(v, j["longest_win_position"].get<std::string>());
  ASSERT_TRUE(longest.ok()) << longest.status();
  const int64_t li = plain.Find(ref::FromLibrary(*longest));
  ASSERT_GE(li, 0);
  EXPECT_EQ(plain.value(uint64_t(li)), egtb::WinIn(pt.longest_win));
  const int64_t si = plain.Find(ref::FromLibrary(cls.Start()));
  ASSERT_GE(si, 0);
  const Code start = plain.value(uint64_t(si));
  EXPECT_EQ(j["start"].value("value", std::string()), egtb::WdlName(egtb::WdlOf(start)));
  const ToolRun text_info = RunTool("info --db " + Quote(db));
  EXPECT_EQ(text_info.status, 0);
  EXPECT_TRUE(absl::StrContains(text_info.out, absl::StrCat("positions: ", pt.positions)))
      << text_info.out;

  // A second build finds the table and leaves it be.
  const ToolRun again = Build(args, db);
  ASSERT_EQ(again.status, 0) << Describe(again);
  EXPECT_TRUE(ParseJson(again.out).value("already_built", false));
  EXPECT_EQ(ParseJson(again.out).value("checksum", std::string()), Hex16(lib->tally.checksum));

  // verify passes.
  const ToolRun verified = RunTool("verify --json --db " + Quote(db));
  EXPECT_EQ(verified.status, 0) << Describe(verified);
  EXPECT_TRUE(ParseJson(verified.out).value("ok", false));

  // probe: a sample of positions, each kind of value, one by one and as a batch.
  std::vector<uint64_t> sample;
  bool have_draw = false, have_win = false, have_loss = false, have_terminal = false;
  for (uint64_t i = 0; i < plain.size(); ++i) {
    const Code c = plain.value(i);
    const bool want = (i % 401 == 0) || (c == egtb::kDraw && !have_draw && !plain.terminal(i)) ||
                      (egtb::IsWin(c) && !have_win && egtb::PliesOf(c) > 3) ||
                      (egtb::IsLoss(c) && !have_loss && egtb::PliesOf(c) > 3) ||
                      (plain.terminal(i) && !have_terminal);
    if (!want) continue;
    sample.push_back(i);
    have_draw |= c == egtb::kDraw && !plain.terminal(i);
    have_win |= egtb::IsWin(c) && egtb::PliesOf(c) > 3;
    have_loss |= egtb::IsLoss(c) && egtb::PliesOf(c) > 3;
    have_terminal |= plain.terminal(i);
  }
  EXPECT_TRUE(have_draw && have_win && have_loss && have_terminal);
  std::string batch;
  std::vector<std::string> expected;  // per input line: "" for an error line
  auto check_answer = [&](const json& a, uint64_t i, const Position& pos, bool line) {
    const Code c = plain.value(i);
    SCOPED_TRACE(PositionToString(pos));
    EXPECT_EQ(a.value("value", std::string()), egtb::WdlName(egtb::WdlOf(c))) << a.dump();
    ASSERT_TRUE(a.contains("plies")) << a.dump();
    if (c == egtb::kDraw) {
      EXPECT_TRUE(a["plies"].is_null()) << a.dump();
    } else {
      EXPECT_EQ(a["plies"], egtb::PliesOf(c)) << a.dump();
    }
    ASSERT_TRUE(a.contains("best_moves") && a["best_moves"].is_array()) << a.dump();
    std::set<std::string> got;
    for (const json& m : a["best_moves"]) got.insert(m.get<std::string>());
    EXPECT_EQ(got, PlainBestMoves(plain, i, pos)) << a.dump();
    EXPECT_EQ(a.contains("line"), line) << a.dump();
    if (!line) return;
    ASSERT_TRUE(a["line"].is_array());
    if (c == egtb::kDraw) {
      EXPECT_TRUE(a["line"].empty());
      return;
    }
    ASSERT_EQ(int(a["line"].size()), egtb::PliesOf(c)) << a.dump();
    std::vector<std::string> words;
    for (const json& m : a["line"]) words.push_back(m.get<std::string>());
    Position at = pos;
    const absl::Status played = PlayMoves(at, absl::StrJoin(words, " "));
    ASSERT_TRUE(played.ok()) << played << " " << a.dump();
    const GameStatus end = StatusOf(at);
    EXPECT_TRUE(end.over()) << PositionToString(at);
    const bool white_wins = egtb::IsWin(c) == (pos.side_to_move() == Side::kWhite);
    EXPECT_EQ(end.outcome, white_wins ? Outcome::kWhiteWins : Outcome::kBlackWins);
  };
  for (size_t k = 0; k < sample.size(); ++k) {
    const uint64_t i = sample[k];
    const Position pos = LibPosition(plain, i, v);
    const std::string text = PositionToString(pos);
    if (k < 12) {
      const bool line = k % 2 == 0;
      const ToolRun p = RunTool(absl::StrCat("probe --json --db ", Quote(db), " --position ",
                                             Quote(text), line ? " --line" : ""));
      ASSERT_EQ(p.status, 0) << Describe(p);
      check_answer(ParseJson(p.out), i, pos, line);
      const ToolRun t = RunTool(absl::StrCat("probe --db ", Quote(db), " --position ", Quote(text),
                                             line ? " --line" : ""));
      ASSERT_EQ(t.status, 0) << Describe(t);
      const Code c = plain.value(i);
      const std::string value =
          c == egtb::kDraw
              ? "value: draw"
              : absl::StrCat("value: ", egtb::WdlName(egtb::WdlOf(c)), " in ", egtb::PliesOf(c));
      EXPECT_TRUE(absl::StrContains(t.out, value)) << value << " not in\n" << t.out;
    }
    batch += text + "\n";
    expected.push_back(text);
    if (k == 3) {  // bad lines among the good ones
      for (const char* bad :
           {"garbage", "", "w S1a1,S3c1 0", "w S1a1,S3c1,s2f6,s1b6 0", "w S1a1,S3c1,s2h8 0"}) {
        batch += std::string(bad) + "\n";
        expected.push_back("");
      }
    }
  }
  for (const bool line : {false, true}) {
    const ToolRun p =
        RunTool(absl::StrCat("probe --db ", Quote(db), line ? " --line" : "", " -"), batch);
    EXPECT_EQ(p.status, 2) << "some input lines are bad: " << Describe(p);
    std::vector<std::string> lines = absl::StrSplit(p.out, '\n');
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.back(), "");
    lines.pop_back();
    ASSERT_EQ(lines.size(), expected.size()) << "one answer per input line:\n" << p.out;
    size_t good = 0;
    for (size_t k = 0; k < lines.size(); ++k) {
      const json a = ParseJson(lines[k]);
      if (expected[k].empty()) {
        EXPECT_TRUE(a.contains("error")) << lines[k];
        EXPECT_FALSE(a.contains("value")) << lines[k];
        EXPECT_EQ(a.value("line_number", uint64_t(0)), k + 1) << lines[k];
        continue;
      }
      const uint64_t i = sample[good++];
      check_answer(a, i, LibPosition(plain, i, v), line);
    }
    EXPECT_FALSE(p.err.empty()) << "the bad lines are reported on stderr";
  }
  // Only good lines: exit 0.
  std::string good_batch;
  int good_lines = 0;
  for (size_t k = 0; k < expected.size() && good_lines < 5; ++k)
    if (!expected[k].empty()) {
      good_batch += expected[k] + "\n";
      ++good_lines;
    }
  const ToolRun ok = RunTool(absl::StrCat("probe --db ", Quote(db), " -"), good_batch);
  EXPECT_EQ(ok.status, 0) << Describe(ok);
  EXPECT_EQ(std::count(ok.out.begin(), ok.out.end(), '\n'), 5);

  // --moves from the class's start position.
  const ToolRun m = RunTool("probe --json --db " + Quote(db) + " --moves ''");
  ASSERT_EQ(m.status, 0) << Describe(m);
  check_answer(ParseJson(m.out), uint64_t(si), cls.Start(), false);
}

// A table whole by every checksum but with one wrong value: verify --json
// says so and names the first position (least index) whose value
// disagrees with its successors', as the plain solver finds it.
TEST(EgtbCli, VerifyNamesTheFirstBadPosition) {
  const ClassArgs args{6, 1, "forward", "S1,S3", "S2"};
  const egtb::TableClass cls = args.Class();
  const PlainTable plain = SolvePlain(cls);
  std::vector<uint64_t> lib(plain.size());
  std::vector<Code> values(cls.size());
  for (uint64_t i = 0; i < plain.size(); ++i) {
    lib[i] = *cls.IndexOf(LibPosition(plain, i, cls.variant()));
    values[lib[i]] = plain.value(i);
  }
  // The longest loss made one ply shorter.
  uint64_t planted = 0;
  for (uint64_t j = 0; j < values.size(); ++j)
    if (egtb::IsLoss(values[j]) && values[j] > values[planted]) planted = j;
  ASSERT_TRUE(egtb::IsLoss(values[planted]) && egtb::PliesOf(values[planted]) > 1);
  values[planted] = Code(values[planted] - 2);
  std::vector<Code> by_plain(plain.size());
  for (uint64_t i = 0; i < plain.size(); ++i) by_plain[i] = values[lib[i]];
  uint64_t first = UINT64_MAX;
  for (uint64_t i = 0; i < plain.size(); ++i)
    if (plain.Derive(i, by_plain) != by_plain[i]) first = std::min(first, lib[i]);
  ASSERT_LE(first, planted);

  TempDir dir;
  const std::string db = dir.sub("planted");
  {
    std::unique_ptr<ThreadPool> pool = *ThreadPool::Make(1);
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Create(db, egtb::MetaOf(cls));
    ASSERT_TRUE(t.ok()) << t.status();
    const std::string blocks = dir.sub("blocks.sst");
    ASSERT_TRUE(egtb::WriteBlocks(blocks, 0, values, 1).ok());
    ASSERT_TRUE(egtb::CompleteTable(**t, {blocks}, cls, egtb::TallyOf(0, values, *pool)).ok());
  }
  // probe and info trust the checksums: they open it.
  EXPECT_EQ(RunTool("info --db " + Quote(db)).status, 0);
  const ToolRun r = RunTool("verify --json --db " + Quote(db));
  EXPECT_EQ(r.status, 1) << Describe(r);
  const json j = ParseJson(r.out);
  for (const char* key : {"ok", "positions", "problem", "first_bad_index", "first_bad_position"})
    EXPECT_TRUE(j.contains(key)) << key << " missing from verify --json: " << r.out;
  EXPECT_FALSE(j.value("ok", true));
  EXPECT_EQ(j.value("positions", uint64_t(0)), cls.size());
  EXPECT_EQ(j.value("first_bad_index", uint64_t(0)), first) << r.out;
  EXPECT_EQ(j.value("first_bad_position", std::string()), PositionToString(cls.At(first)));
  const ToolRun text = RunTool("verify --db " + Quote(db));
  EXPECT_EQ(text.status, 1) << Describe(text);
  EXPECT_TRUE(absl::StrContains(text.out, absl::StrCat("(index ", first, ")"))) << text.out;
  EXPECT_FALSE(text.err.empty());
}

TEST(EgtbCli, RefusesMoveLimitsMemoryAndBadClasses) {
  TempDir dir;
  const std::string db = dir.sub("db");
  ToolRun r = RunTool("build --db " + Quote(db) +
                      " --board 6 --rows 1 --white S1 --black S1 --rule move-limit=120");
  EXPECT_EQ(r.status, 2) << Describe(r);
  EXPECT_TRUE(absl::StrContains(r.err, "move limit")) << r.err;
  EXPECT_TRUE(NoResult(r, false));
  EXPECT_FALSE(fs::exists(db) && !fs::is_empty(db)) << "a refused build left files";

  // 6x6, one row, every piece: 26.7 million positions, far more than 1 MB.
  const egtb::TableClass full = ClassArgs{6, 1, "standard", "", ""}.Class();
  const uint64_t need_mb = (egtb::BuildMemoryBytes(full, 1) >> 20) + 1;
  r = RunTool("build --db " + Quote(db) + " --board 6 --rows 1 --memory 1");
  EXPECT_EQ(r.status, 2) << Describe(r);
  EXPECT_LT(r.seconds, 10) << "refused at once";
  EXPECT_TRUE(absl::StrContains(r.err, absl::StrCat(need_mb, " MB")))
      << need_mb << " MB: " << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "--memory")) << r.err;
  EXPECT_FALSE(fs::exists(db) && !fs::is_empty(db)) << "a refused build left files";
  // 6x6, two rows, every piece: more than any machine has.
  r = RunTool("build --db " + Quote(db) + " --board 6 --rows 2");
  EXPECT_EQ(r.status, 2) << Describe(r);
  EXPECT_LT(r.seconds, 10) << "refused at once";
  EXPECT_TRUE(absl::StrContains(r.err, "MB")) << r.err;

  for (const char* bad :
       {"--board 6 --rows 1 --white S4 --black S1", "--board 6 --rows 1 --white M1 --black S1",
        "--board 6 --rows 1 --white S1,S1 --black S1", "--board 5 --rows 1 --white S1 --black S1",
        "--board 6 --rows 1 --rules nosuch --white S1 --black S1",
        "--board 6 --rows 1 --rule chain=maybe --white S1 --black S1",
        "--board 6 --rows 1 --white S1 --black S1 --threads -1"}) {
    r = RunTool("build --db " + Quote(db) + " " + bad);
    EXPECT_EQ(r.status, 2) << bad << ": " << Describe(r);
    EXPECT_FALSE(r.err.empty()) << bad;
  }
  EXPECT_FALSE(fs::exists(db) && !fs::is_empty(db)) << "a refused build left files";
}

TEST(EgtbCli, ProbeOfAPositionOutsideTheClassSaysWhy) {
  const ClassArgs args{6, 1, "standard", "S1,S3", "S2"};
  TempDir dir;
  const std::string db = dir.sub("db");
  ASSERT_EQ(Build(args, db).status, 0);
  struct Case {
    std::string position, why;
  };
  for (const Case& c : std::vector<Case>{
           {"w S1a1,S3e1,s2f6,s1b6 0", "not one of its pieces"},
           {"w S1a1,s2f6 0", "missing"},
           {"w S1a1,S3e1,s2h8 0", "h8"},  // a square of a larger board
           {"w S1a1,S3e1,M1b2,s2f6 0", "M1"},
           {"w S1a1,S1c1,s2f6 0", ""},
           {"nonsense", ""},
       }) {
    for (const char* json_flag : {"", " --json"}) {
      const ToolRun r =
          RunTool("probe --db " + Quote(db) + json_flag + " --position " + Quote(c.position));
      EXPECT_EQ(r.status, 2) << c.position << ": " << Describe(r);
      EXPECT_TRUE(NoResult(r, *json_flag != '\0')) << c.position;
      EXPECT_FALSE(r.err.empty()) << c.position;
      EXPECT_TRUE(absl::StrContains(r.err, c.why)) << c.position << ": " << r.err;
    }
  }
  // --moves with an illegal move, and no position at all or two of them.
  ToolRun r = RunTool("probe --db " + Quote(db) + " --moves 'a1-a3'");
  EXPECT_EQ(r.status, 2) << Describe(r);
  EXPECT_TRUE(r.out.empty());
  r = RunTool("probe --db " + Quote(db));
  EXPECT_EQ(r.status, 2) << Describe(r);
  r = RunTool("probe --db " + Quote(db) + " --moves '' -");
  EXPECT_EQ(r.status, 2) << Describe(r);
}

// --line where there is no line: a game that is over, and a draw (here one
// that both sides' goals end, with Black's extra move still to play).
TEST(EgtbCli, ProbeLineSaysWhyThereIsNone) {
  const ClassArgs args{4, 1, "standard", "S1", "S1"};
  TempDir dir;
  const std::string db = dir.sub("db");
  ASSERT_EQ(Build(args, db).status, 0);
  ToolRun r = RunTool("probe --line --db " + Quote(db) + " --position 'w S1b4,s1c1 6'");
  ASSERT_EQ(r.status, 0) << Describe(r);
  EXPECT_TRUE(absl::StrContains(r.out, "best moves: none (the game is over)\n")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "line: none (the game is over)\n")) << r.out;
  r = RunTool("probe --line --db " + Quote(db) + " --position 'b S1b4,s1b2 5'");
  ASSERT_EQ(r.status, 0) << Describe(r);
  EXPECT_TRUE(absl::StrContains(r.out, "value: draw for Black\nbest moves: b2-c1\n")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "line: none (a draw: ")) << r.out;
  r = RunTool("probe --line --json --db " + Quote(db) + " --position 'w S1b4,s1c1 6'");
  ASSERT_EQ(r.status, 0) << Describe(r);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["best_moves"].empty() && j["line"].empty()) << r.out;
}

// ---------------------------------------------------------------------------
// Damage.

// What a table directory holds, by kind.
std::vector<fs::path> FilesOf(const std::string& dir, const std::string& kind) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if ((kind == "sst" && absl::EndsWith(name, ".sst")) ||
        (kind == "MANIFEST" && absl::StartsWith(name, "MANIFEST")))
      files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void CopyDir(const std::string& from, const std::string& to) {
  fs::remove_all(to);
  fs::copy(from, to, fs::copy_options::recursive);
}

// probe and info refuse the directory: exit 2, a message, no value; verify
// finds it damaged: exit 1 ("On any mismatch or damage it prints what is
// wrong ... and exits 1", docs/salta-egtb.md).
void ExpectRefused(const std::string& db, const std::string& what, const std::string& position) {
  SCOPED_TRACE(what);
  const ToolRun probe =
      RunTool("probe --json --db " + Quote(db) + " --position " + Quote(position));
  EXPECT_EQ(probe.status, 2) << Describe(probe);
  EXPECT_TRUE(NoResult(probe, true));
  EXPECT_FALSE(probe.err.empty());
  const ToolRun batch = RunTool("probe --db " + Quote(db) + " -", position + "\n");
  EXPECT_EQ(batch.status, 2) << Describe(batch);
  EXPECT_FALSE(absl::StrContains(batch.out, "\"value\"")) << batch.out;
  const ToolRun info = RunTool("info --json --db " + Quote(db));
  EXPECT_EQ(info.status, 2) << Describe(info);
  EXPECT_TRUE(NoResult(info, true));
  EXPECT_FALSE(info.err.empty());
  const ToolRun verify = RunTool("verify --db " + Quote(db));
  EXPECT_EQ(verify.status, 1) << Describe(verify);
  EXPECT_TRUE(absl::StrContains(verify.out, "verification failed")) << verify.out;
  EXPECT_FALSE(absl::StrContains(verify.out, "verified:")) << verify.out;
  EXPECT_FALSE(verify.err.empty());
}

TEST(EgtbCli, AFlippedByteAnywhereIsDetected) {
  // Two against two: several blocks of values.
  const ClassArgs args = Sanitized() ? ClassArgs{6, 1, "standard", "S1,S3", "S2"}
                                     : ClassArgs{6, 1, "standard", "S1,S2", "S1,S2"};
  TempDir dir;
  const std::string db = dir.sub("db");
  ASSERT_EQ(Build(args, db).status, 0);
  const std::string position = PositionToString(args.Class().Start());
  ASSERT_EQ(RunTool("probe --db " + Quote(db) + " --position " + Quote(position)).status, 0);
  std::vector<fs::path> files = FilesOf(db, "sst");
  EXPECT_FALSE(files.empty()) << "no .sst file in " << db;
  const std::vector<fs::path> manifests = FilesOf(db, "MANIFEST");
  EXPECT_EQ(manifests.size(), 1u);
  files.insert(files.end(), manifests.begin(), manifests.end());
  int cases = 0;
  for (const fs::path& file : files) {
    const uint64_t size = fs::file_size(file);
    ASSERT_GT(size, 0u) << file;
    for (uint64_t offset : {uint64_t(0), size / 3, size / 2, size - 1}) {
      const std::string what =
          absl::StrCat(file.filename().string(), " (", size, " bytes) flipped at ", offset);
      const std::string copy = dir.sub("damaged");
      CopyDir(db, copy);
      const fs::path target = fs::path(copy) / file.filename();
      {
        std::fstream f(target, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(std::streamoff(offset));
        char c = 0;
        f.get(c);
        f.seekp(std::streamoff(offset));
        f.put(char(c ^ 0xFF));
      }
      ASSERT_NE(ReadFile(target.string()), ReadFile(file.string())) << what;
      ExpectRefused(copy, what, position);
      ++cases;
    }
  }
  EXPECT_GE(cases, 8);
}

// RocksDB's message about a damaged property quotes the damaged bytes: verify
// shows them escaped, as every message does, and --json keeps its report
// (before, the raw byte went out, and --json lost the problem to "internal
// error: invalid UTF-8", exit 2 instead of 1).
TEST(EgtbCli, AProblemQuotingDamagedBytesIsShownEscaped) {
  const ClassArgs args{6, 1, "standard", "S1,S3", "S2"};
  TempDir dir;
  const std::string db = dir.sub("db");
  ASSERT_EQ(Build(args, db).status, 0);
  const std::string copy = dir.sub("damaged");
  CopyDir(db, copy);
  // Without its seal (a table finished before seals), which would report
  // the damage first.
  salta::testing::Unseal(copy);
  // The first byte of an ingested file's global sequence number, which the
  // message quotes, made 0xFF.
  bool flipped = false;
  for (const fs::path& file : FilesOf(copy, "sst")) {
    std::string bytes = ReadFile(file.string());
    const size_t at = bytes.find("global_seqno");
    if (at == std::string::npos) continue;
    bytes[at + 12] = char(0xFF);
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
    flipped = true;
    break;
  }
  ASSERT_TRUE(flipped) << "no ingested file in " << db;
  const ToolRun text = RunTool("verify --db " + Quote(copy));
  EXPECT_EQ(text.status, 1) << Describe(text);
  EXPECT_TRUE(absl::StrContains(text.out, "verification failed")) << text.out;
  EXPECT_TRUE(absl::StrContains(text.out, "\\xff")) << text.out;
  EXPECT_FALSE(absl::StrContains(text.out + text.err, "\xff")) << "a raw byte";
  const ToolRun json = RunTool("verify --json --db " + Quote(copy));
  EXPECT_EQ(json.status, 1) << Describe(json);
  const nlohmann::json report = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_TRUE(report.is_object()) << json.out;
  EXPECT_EQ(report["ok"], false) << json.out;
  EXPECT_TRUE(absl::StrContains(report["problem"].get<std::string>(), "\\xff")) << json.out;
}

// RocksDB parses a file's properties, near its end, before it checks their
// checksum as it opens the file, and Debian's build stops on an assertion
// where they are damaged (a byte 97 from the end: SIGABRT, from every
// command). A finished table's seal (the size and last bytes of each file)
// is checked first: the damage is reported, verify exits 1, the others 2.
TEST(EgtbCli, DamageRocksDbReadsUncheckedIsReportedNotAnAbort) {
  const ClassArgs args{6, 1, "standard", "S1,S3", "S2"};
  TempDir dir;
  const std::string db = dir.sub("db");
  ASSERT_EQ(Build(args, db).status, 0);
  ASSERT_TRUE(fs::exists(fs::path(db) / "SEAL"));
  const std::string position = PositionToString(args.Class().Start());
  int cases = 0;
  for (const fs::path& file : FilesOf(db, "sst")) {
    for (uint64_t back : {uint64_t(97), uint64_t(96), uint64_t(1000)}) {
      const uint64_t size = fs::file_size(file);
      if (back > size) continue;
      const std::string what =
          absl::StrCat(file.filename().string(), " flipped ", back, " bytes from its end");
      const std::string copy = dir.sub("damaged");
      CopyDir(db, copy);
      const fs::path target = fs::path(copy) / file.filename();
      std::string bytes = ReadFile(target.string());
      bytes[size - back] = char(bytes[size - back] ^ 0xFF);
      std::ofstream(target, std::ios::binary | std::ios::trunc) << bytes;
      ExpectRefused(copy, what, position);
      const ToolRun verify = RunTool("verify --db " + Quote(copy));
      EXPECT_TRUE(absl::StrContains(verify.out, "does not match its seal")) << what << verify.out;
      ++cases;
    }
  }
  EXPECT_GE(cases, 3);
  // A file the seal does not list, and one it lists gone.
  const std::string extra = dir.sub("extra");
  CopyDir(db, extra);
  const fs::path first = FilesOf(extra, "sst").front();
  fs::copy_file(first, fs::path(extra) / "999999.sst");
  const ToolRun listed = RunTool("info --db " + Quote(extra));
  EXPECT_EQ(listed.status, 2) << Describe(listed);
  EXPECT_TRUE(absl::StrContains(listed.err, "999999.sst is not in its seal")) << listed.err;
  fs::remove(first);
  fs::remove(fs::path(extra) / "999999.sst");
  const ToolRun gone = RunTool("info --db " + Quote(extra));
  EXPECT_EQ(gone.status, 2) << Describe(gone);
  EXPECT_TRUE(absl::StrContains(gone.err, first.filename().string() + " is missing")) << gone.err;
}

// A disk that fills during a build, at whatever point: exit 2 with the
// reason, never an abort (RocksDB's informational log, written again after
// a failed write, stopped Debian's build on an assertion in about half of
// these), and what is left is refused as unfinished, not taken for a table.
TEST(EgtbCli, AFullDiskIsAnErrorNotAnAbort) {
  const ClassArgs args{6, 1, "standard", "S1,S2", "S1,S2"};
  int full = 0;
  for (int kib = 48; kib <= 112; kib += 8) {
    for (int again = 0; again < 2; ++again) {
      salta::testing::SmallDisk disk(kib);
      if (!disk.ok()) GTEST_SKIP() << "cannot mount a tmpfs here (not root?)";
      const std::string db = disk.dir() + "/t";
      const ToolRun built = Build(args, db);
      const std::string what = absl::StrCat(kib, " KiB: ", Describe(built));
      ASSERT_TRUE(built.status == 0 || built.status == 2) << what;
      if (built.status == 0) continue;
      ++full;
      EXPECT_TRUE(absl::StrContains(built.err, "No space left on device")) << what;
      const ToolRun info = RunTool("info --db " + Quote(db));
      EXPECT_EQ(info.status, 2) << what << "\ninfo: " << Describe(info);
    }
  }
  EXPECT_GE(full, 4);
}

// A finished table without its seal -- a build stopped as it sealed the
// table (a full disk), or the seal removed since -- is not taken for a table
// finished before seals: it is unfinished, and the build command seals it.
TEST(EgtbCli, AFinishedTableWithoutItsSealIsUnfinished) {
  const ClassArgs args{6, 1, "standard", "S1,S3", "S2"};
  TempDir dir;
  const std::string db = dir.sub("db");
  const ToolRun built = Build(args, db);
  ASSERT_EQ(built.status, 0) << Describe(built);
  fs::remove(fs::path(db) / "SEAL");
  const ToolRun info = RunTool("info --db " + Quote(db));
  EXPECT_EQ(info.status, 2) << Describe(info);
  EXPECT_TRUE(absl::StrContains(info.err, "did not finish")) << info.err;
  const ToolRun again = Build(args, db);
  ASSERT_EQ(again.status, 0) << Describe(again);
  EXPECT_TRUE(absl::StrContains(again.out, "\"already_built\":false")) << again.out;
  // The same table as the first build's.
  auto checksum = [](const std::string& json) {
    return nlohmann::json::parse(json, nullptr, false).value("checksum", std::string());
  };
  EXPECT_EQ(checksum(again.out), checksum(built.out)) << again.out;
  EXPECT_TRUE(fs::exists(fs::path(db) / "SEAL"));
  const ToolRun verify = RunTool("verify --db " + Quote(db));
  EXPECT_EQ(verify.status, 0) << Describe(verify);
}

TEST(EgtbCli, TruncatedForeignAndMissingDirectoriesAreRefused) {
  const ClassArgs args{6, 1, "standard", "S1,S3", "S2"};
  TempDir dir;
  const std::string db = dir.sub("db");
  ASSERT_EQ(Build(args, db).status, 0);
  const std::string position = PositionToString(args.Class().Start());

  // Each .sst cut to half its size.
  for (const fs::path& file : FilesOf(db, "sst")) {
    const std::string copy = dir.sub("truncated");
    CopyDir(db, copy);
    const fs::path target = fs::path(copy) / file.filename();
    fs::resize_file(target, fs::file_size(target) / 2);
    ExpectRefused(copy, "truncated " + file.filename().string(), position);
    const ToolRun b = Build(args, copy);
    EXPECT_EQ(b.status, 2) << "build over a damaged table: " << Describe(b);
  }
  // CURRENT removed.
  {
    const std::string copy = dir.sub("nocurrent");
    CopyDir(db, copy);
    fs::remove(fs::path(copy) / "CURRENT");
    ExpectRefused(copy, "no CURRENT", position);
    const ToolRun b = Build(args, copy);
    EXPECT_EQ(b.status, 2) << "build over a damaged table: " << Describe(b);
    EXPECT_FALSE(b.err.empty());
  }
  // A directory of junk (no file RocksDB would make), a plain file, nothing.
  const std::string junk = dir.sub("junk");
  fs::create_directories(junk);
  std::ofstream(junk + "/notes.txt") << "not a table\n";
  std::ofstream(junk + "/data.bin") << "junk junk junk";
  const std::string file = dir.sub("file");
  std::ofstream(file) << "a file\n";
  const std::string missing = dir.sub("missing");
  const std::string empty = dir.sub("empty");
  fs::create_directories(empty);
  for (const std::string& d : {junk, file, missing, empty}) {
    SCOPED_TRACE(d);
    for (const char* sub : {"info", "verify"}) {
      const ToolRun r = RunTool(absl::StrCat(sub, " --db ", Quote(d)));
      EXPECT_EQ(r.status, 2) << sub << " of a directory that is no table: " << Describe(r);
      EXPECT_FALSE(r.err.empty());
    }
    const ToolRun p = RunTool("probe --db " + Quote(d) + " --position " + Quote(position));
    EXPECT_EQ(p.status, 2) << Describe(p);
    EXPECT_TRUE(p.out.empty());
    // No table there, in the same words for each subcommand: not a raw
    // RocksDB error about a missing file, nor a table damaged.
    const std::string said = d == junk    ? d + " holds no table (no RocksDB database)"
                             : d == file  ? "no table at " + d + " (it is not a directory)"
                             : d == empty ? "no table at " + d + " (an empty directory)"
                                          : "no table at " + d;
    for (const char* sub : {"info", "verify", "probe"}) {
      const ToolRun r = RunTool(
          absl::StrCat(sub, " --db ", Quote(d), std::string(sub) == "probe" ? " --moves ''" : ""));
      EXPECT_EQ(r.err, "salta-egtb: " + said + "\n") << sub << ": " << Describe(r);
    }
    if (d != missing && d != empty) {
      const ToolRun b = Build(args, d);
      EXPECT_EQ(b.status, 2) << "build into junk: " << Describe(b);
      EXPECT_FALSE(b.err.empty());
    }
  }
  // An empty file too, and a table below a file.
  const std::string empty_file = dir.sub("empty-file");
  std::ofstream(empty_file).close();
  ToolRun b = Build(args, empty_file);
  EXPECT_EQ(b.status, 2) << Describe(b);
  EXPECT_TRUE(absl::StrContains(b.err, empty_file + ": it exists and is not a directory"))
      << Describe(b);
  b = Build(args, file + "/db");
  EXPECT_EQ(b.status, 2) << Describe(b);
  EXPECT_TRUE(absl::StrContains(b.err, "cannot create directory " + file + ": Not a directory"))
      << Describe(b);
  EXPECT_EQ(ReadFile(junk + "/notes.txt"), "not a table\n") << "build touched the junk";

  // A table of another kind.
  const std::string pdb = dir.sub("pdb");
  {
    TableMeta meta{"finish-pdb", 1, "6x6/1", "standard", "pieces=3"};
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Create(pdb, meta);
    ASSERT_TRUE(t.ok()) << t.status();
    ASSERT_TRUE((*t)->Put(EncodeKey(1), "x").ok());
    ASSERT_TRUE((*t)->Finish().ok());
  }
  for (const char* sub : {"info", "verify"}) {
    const ToolRun r = RunTool(absl::StrCat(sub, " --db ", Quote(pdb)));
    EXPECT_EQ(r.status, 2) << sub << ": " << Describe(r);
    EXPECT_TRUE(absl::StrContains(r.err, "finish-pdb")) << sub << ": " << r.err;
  }
  ToolRun r = RunTool("probe --db " + Quote(pdb) + " --position " + Quote(position));
  EXPECT_EQ(r.status, 2) << Describe(r);
  EXPECT_TRUE(absl::StrContains(r.err, "finish-pdb")) << r.err;
  r = Build(args, pdb);
  EXPECT_EQ(r.status, 2) << Describe(r);
  EXPECT_TRUE(absl::StrContains(r.err, "finish-pdb")) << r.err;

  // The table of another class given to build.
  const ClassArgs other{6, 1, "standard", "S1,S3", "S1"};
  r = Build(other, db);
  EXPECT_EQ(r.status, 2) << Describe(r);
  EXPECT_TRUE(absl::StrContains(r.err, "another class")) << r.err;
  EXPECT_TRUE(absl::StrContains(r.err, "S1,S3 v S2")) << r.err;
  const ClassArgs other_rules{6, 1, "forward", "S1,S3", "S2"};
  r = Build(other_rules, db);
  EXPECT_EQ(r.status, 2) << Describe(r);
  EXPECT_TRUE(absl::StrContains(r.err, "another class")) << r.err;
  // ... and the table is unharmed.
  EXPECT_EQ(RunTool("verify --db " + Quote(db)).status, 0);
}

// ---------------------------------------------------------------------------
// Builds killed with SIGKILL.

// Starts the tool with `args`, its output thrown away; kills it with
// SIGKILL after `seconds`, or as soon as `kill_now` says so, unless it has
// finished. True if it was killed.
bool RunAndKill(const std::vector<std::string>& args, double seconds,
                const std::function<bool()>& kill_now = {}) {
  std::vector<char*> argv;
  std::string tool = Tool();
  argv.push_back(tool.data());
  std::vector<std::string> copy = args;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_RDWR);
    dup2(null, 0);
    dup2(null, 1);
    dup2(null, 2);
    execv(argv[0], argv.data());
    _exit(127);
  }
  EXPECT_GT(pid, 0);
  if (pid <= 0) return false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (waitpid(pid, &status, WNOHANG) == pid) return false;
    if (kill_now && kill_now()) break;
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

std::vector<std::string> BuildArgv(const ClassArgs& c, const std::string& db) {
  return {"build",
          "--checkpoint-seconds",
          "0",
          "--threads",
          "2",
          "--board",
          absl::StrCat(c.size),
          "--rows",
          absl::StrCat(c.rows),
          "--rules",
          c.rules,
          "--white",
          c.white,
          "--black",
          c.black,
          "--db",
          db};
}

// Runs the build of `c` in `db` to its end, expecting the given checksum;
// returns whether it resumed from a checkpoint.
bool FinishBuild(const ClassArgs& c, const std::string& db, const std::string& checksum) {
  const ToolRun again = Build(c, db, "--checkpoint-seconds 0");
  EXPECT_EQ(again.status, 0) << "the build run again after the kill: " << Describe(again);
  if (again.status != 0) return false;
  const json j = ParseJson(again.out);
  EXPECT_EQ(j.value("checksum", std::string()), checksum);
  const ToolRun info = RunTool("info --json --db " + Quote(db));
  EXPECT_EQ(info.status, 0) << Describe(info);
  EXPECT_EQ(ParseJson(info.out).value("checksum", std::string()), checksum);
  for (const auto& e : fs::directory_iterator(db))
    EXPECT_FALSE(absl::StrContains(e.path().filename().string(), "checkpoint"))
        << e.path() << " left in the finished table";
  return j.value("resumed", false);
}

TEST(EgtbCli, KilledBuildsRunAgainEndWithTheSameTable) {
  // 6x6, one row, three against two: two million positions, 70 levels.
  const ClassArgs args = Sanitized() ? ClassArgs{6, 1, "standard", "S1,S2", "S1,S2"}
                                     : ClassArgs{6, 1, "standard", "S1,S2,S3", "S1,S2"};
  TempDir dir;
  const ToolRun full = Build(args, dir.sub("whole"), "--checkpoint-seconds 0");
  ASSERT_EQ(full.status, 0) << Describe(full);
  const std::string checksum = ParseJson(full.out).value("checksum", std::string());
  ASSERT_EQ(checksum.size(), 16u);
  const double seconds = full.seconds;
  std::cerr << "uninterrupted build: " << seconds << " s\n";

  int killed = 0, resumed = 0, run = 0;
  for (double f : {0.1, 0.35, 0.65, 0.95}) {
    const std::string db = dir.sub(absl::StrCat("killed", run++));
    SCOPED_TRACE(absl::StrCat("killed after ", f * seconds, " s"));
    const bool was_killed = RunAndKill(BuildArgv(args, db), f * seconds);
    killed += was_killed;
    if (was_killed) {
      // The unfinished table is refused, saying what to do; killed before
      // the table was begun (a slow start on a loaded machine, under the
      // sanitizers), there is none yet.
      for (const char* sub : {"info", "probe --moves ''"}) {
        const ToolRun r = RunTool(absl::StrCat(sub, " --db ", Quote(db)));
        if (r.status == 0) continue;  // killed as it ended
        EXPECT_EQ(r.status, 2) << sub << ": " << Describe(r);
        EXPECT_TRUE(absl::StrContains(r.err, "did not finish") ||
                    (f == 0.1 && absl::StrContains(r.err, "no table at")))
            << sub << ": " << r.err;
      }
      // The run that resumes is killed too.
      if (f == 0.35) killed += RunAndKill(BuildArgv(args, db), 0.3 * seconds);
    }
    resumed += FinishBuild(args, db, checksum);
    if (f == 0.35) {
      const ToolRun v = RunTool("verify --db " + Quote(db));
      EXPECT_EQ(v.status, 0) << Describe(v);
    }
  }
  std::cerr << killed << " kills, " << resumed << " runs resumed from a checkpoint\n";
  EXPECT_GE(killed, 2) << "the builds ended before the kills";

  // Kills at fixed fractions of the time may all fall before the first
  // checkpoint or after the end on a loaded machine; these two wait for
  // one: the first checkpoint written, and a later one (a checkpoint file
  // rewritten, seen by its time of change).
  for (const bool later : {false, true}) {
    const std::string db = dir.sub(later ? "killed-later" : "killed-first");
    SCOPED_TRACE(later ? "killed at a later checkpoint" : "killed at the first checkpoint");
    const fs::path file = fs::path(db) / "checkpoint-0-of-1";
    std::optional<fs::file_time_type> first;
    const bool was_killed = RunAndKill(BuildArgv(args, db), 600, [&] {
      std::error_code ec;
      const fs::file_time_type t = fs::last_write_time(file, ec);
      if (ec) return false;
      if (!later) return true;
      if (!first) first = t;
      return t != *first;
    });
    // A checkpoint follows every level of 70, so the build is killed long
    // before its end.
    EXPECT_TRUE(was_killed) << "the build ended before a checkpoint was seen";
    EXPECT_TRUE(FinishBuild(args, db, checksum)) << "killed after a checkpoint, it started afresh";
  }
}

// Killed in its first moments, while RocksDB creates the directory (before
// the table's metadata is written): the build run again starts afresh.
// Docs: "A build killed at any moment ... started again with the same
// command goes on ... and ends with the identical table".
TEST(EgtbCli, BuildsKilledAtTheStartRunAgain) {
  const ClassArgs args{6, 1, "standard", "S1,S3", "S2"};
  TempDir dir;
  const ToolRun full = Build(args, dir.sub("whole"), "--checkpoint-seconds 0");
  ASSERT_EQ(full.status, 0) << Describe(full);
  const std::string checksum = ParseJson(full.out).value("checksum", std::string());
  // What such kills leave (seen 20 to 80 ms into a run): RocksDB's first
  // files without CURRENT, or an empty database.
  for (const std::vector<std::string>& files :
       {std::vector<std::string>{"LOCK", "LOG", "000000.dbtmp"},
        std::vector<std::string>{"LOCK", "LOG", "IDENTITY"}}) {
    const std::string db = dir.sub(absl::StrCat("interrupted", files.back()));
    SCOPED_TRACE(absl::StrJoin(files, " "));
    fs::create_directories(db);
    for (const std::string& f : files) {
      std::ofstream out(db + "/" + f);
      if (f == "IDENTITY") out << "6d1b9e0c-2f4e-4a7a-9d55-3f0e1c2b4a68\n";
      if (f == "LOG") out << "RocksDB version: 7.8.3\n";
    }
    FinishBuild(args, db, checksum);
  }
  // Real kills, a few milliseconds apart.
  int run = 0;
  for (double ms : {10, 25, 40, 55, 70, 90}) {
    const std::string at = dir.sub(absl::StrCat("early", run++));
    SCOPED_TRACE(absl::StrCat("killed after ", ms, " ms"));
    RunAndKill(BuildArgv(args, at), ms / 1000);
    FinishBuild(args, at, checksum);
  }
}

}  // namespace
}  // namespace salta
