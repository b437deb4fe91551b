// The pieces the endgame tables are made of: the class and its position
// index (against a plain odometer over the squares), piece lists, codes,
// the partition of the index, checkpoints, and the retrograde move
// generation (GenerateUnmoves, Unplay, IsLegal) against forward generation
// over whole classes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "rocksdb/db.h"
#include "salta/cluster.h"
#include "salta/egtb/checkpoint.h"
#include "salta/egtb/retrograde.h"
#include "salta/egtb/storage.h"
#include "salta/egtb/table_class.h"
#include "salta/egtb/value.h"
#include "salta/egtb/verify.h"
#include "salta/movegen.h"
#include "salta/notation.h"
#include "salta/parallel.h"
#include "test_util.h"

namespace salta {
namespace {

bool Sanitized() {
  const char* s = std::getenv("SALTA_SANITIZED");
  return s != nullptr && *s != '\0';
}

egtb::TableClass MakeClass(const Variant& v, const std::string& white, const std::string& black) {
  absl::StatusOr<egtb::Material> m = egtb::Material::Parse(v, white, black);
  EXPECT_TRUE(m.ok()) << m.status();
  absl::StatusOr<egtb::TableClass> cls = egtb::TableClass::Make(v, *m);
  EXPECT_TRUE(cls.ok()) << cls.status();
  return *cls;
}

std::vector<PieceId> PiecesOf(const egtb::TableClass& cls) {
  std::vector<PieceId> p = cls.material().white;
  p.insert(p.end(), cls.material().black.begin(), cls.material().black.end());
  return p;
}

// ---------------------------------------------------------------------------
// Codes.

TEST(EgtbValue, CodesRoundTrip) {
  EXPECT_EQ(egtb::WdlOf(egtb::kDraw), egtb::Wdl::kDraw);
  EXPECT_EQ(egtb::PliesOf(egtb::kDraw), -1);
  for (int n : {0, 1, 2, 77, egtb::kMaxPlies}) {
    EXPECT_TRUE(egtb::IsWin(egtb::WinIn(n)));
    EXPECT_FALSE(egtb::IsLoss(egtb::WinIn(n)));
    EXPECT_TRUE(egtb::IsLoss(egtb::LossIn(n)));
    EXPECT_FALSE(egtb::IsWin(egtb::LossIn(n)));
    EXPECT_EQ(egtb::PliesOf(egtb::WinIn(n)), n);
    EXPECT_EQ(egtb::PliesOf(egtb::LossIn(n)), n);
    EXPECT_EQ(egtb::WinIn(n), 2 * n + 1);
    EXPECT_EQ(egtb::LossIn(n), 2 * n + 2);
    EXPECT_NE(egtb::LossIn(n), egtb::kDraw);
  }
  EXPECT_EQ(egtb::WdlName(egtb::Wdl::kWin), "win");
  EXPECT_EQ(egtb::WdlName(egtb::Wdl::kLoss), "loss");
  EXPECT_EQ(egtb::WdlName(egtb::Wdl::kDraw), "draw");
}

// ---------------------------------------------------------------------------
// Piece lists and classes.

TEST(EgtbMaterial, ParsesAndRefuses) {
  const Variant& v6 = V("standard", 6, 1);
  absl::StatusOr<egtb::Material> m = egtb::Material::Parse(v6, " s2, S1 ", "S3");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->white, (std::vector<PieceId>{MakePiece(Side::kWhite, Kind::kStar, 1),
                                            MakePiece(Side::kWhite, Kind::kStar, 2)}));
  EXPECT_EQ(m->black, (std::vector<PieceId>{MakePiece(Side::kBlack, Kind::kStar, 3)}));
  EXPECT_EQ(m->ToString(), "S1,S2 v S3");
  // Empty: every piece of that side.
  m = egtb::Material::Parse(V("standard", 8, 2), "", "m4");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->white.size(), 8u);
  EXPECT_EQ(m->ToString(), "S1,S2,S3,S4,M1,M2,M3,M4 v M4");
  EXPECT_EQ(egtb::Material::All(V("standard", 10, 3)).ToString(),
            "S1,S2,S3,S4,S5,M1,M2,M3,M4,M5,U1,U2,U3,U4,U5 v S1,S2,S3,S4,S5,M1,M2,M3,M4,M5,U1,"
            "U2,U3,U4,U5");
  EXPECT_EQ(egtb::Material::Parse(V("standard", 10, 3), "U5", "u1")->ToString(), "U5 v U1");

  // Errors name the flag and the token.
  struct Bad {
    std::string white, black, flag, token;
  };
  for (const Bad& b : std::vector<Bad>{
           {"X1", "S1", "--white", "X1"},
           {"S1", "S0", "--black", "S0"},
           {"S1", "S6", "--black", "S6"},
           {"S", "S1", "--white", "S"},
           {"S12", "S1", "--white", "S12"},
           {"S1,S1", "S1", "--white", "S1"},
           {"S1", "S2,s2", "--black", "s2"},
           {"M1", "S1", "--white", "M1"},  // no moons with one row
           {"S1", "U2", "--black", "U2"},
           {"S4", "S1", "--white", "S4"},  // three stars on 6x6
           {"S1,,S2", "S1", "--white", ""},
           {"S1", "1S", "--black", "1S"},
       }) {
    SCOPED_TRACE(b.white + " v " + b.black);
    absl::StatusOr<egtb::Material> bad = egtb::Material::Parse(v6, b.white, b.black);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(absl::StrContains(bad.status().message(), b.flag)) << bad.status();
    EXPECT_TRUE(absl::StrContains(bad.status().message(), "\"" + b.token + "\"")) << bad.status();
  }
}

TEST(EgtbTableClass, RefusesWhatIsNoClass) {
  const Variant& v = V("standard", 6, 1);
  const PieceId w1 = MakePiece(Side::kWhite, Kind::kStar, 1),
                w2 = MakePiece(Side::kWhite, Kind::kStar, 2),
                b1 = MakePiece(Side::kBlack, Kind::kStar, 1);
  auto make = [](const Variant& var, std::vector<PieceId> w, std::vector<PieceId> b) {
    egtb::Material m;
    m.white = std::move(w);
    m.black = std::move(b);
    return egtb::TableClass::Make(var, m);
  };
  EXPECT_TRUE(make(v, {w1, w2}, {b1}).ok());
  absl::StatusOr<egtb::TableClass> c = make(V("standard move-limit=120", 6, 1), {w1}, {b1});
  ASSERT_FALSE(c.ok());
  EXPECT_TRUE(absl::StrContains(c.status().message(), "move limit")) << c.status();
  EXPECT_TRUE(absl::StrContains(c.status().message(), "move-limit=120")) << c.status();
  EXPECT_FALSE(make(v, {}, {b1}).ok());
  EXPECT_FALSE(make(v, {w1}, {}).ok());
  EXPECT_FALSE(make(v, {w2, w1}, {b1}).ok());                                   // not in id order
  EXPECT_FALSE(make(v, {w1, w1}, {b1}).ok());                                   // twice
  EXPECT_FALSE(make(v, {w1, b1}, {b1}).ok());                                   // wrong side
  EXPECT_FALSE(make(v, {w1}, {w1}).ok());                                       // wrong side
  EXPECT_FALSE(make(v, {MakePiece(Side::kWhite, Kind::kMoon, 1)}, {b1}).ok());  // no moons
  EXPECT_FALSE(make(v, {MakePiece(Side::kWhite, Kind::kStar, 4)}, {b1}).ok());  // no star 4
  EXPECT_FALSE(make(v, {-1}, {b1}).ok());
  EXPECT_FALSE(make(v, {w1}, {kMaxPieces}).ok());
}

// Every index of small classes: At and Index are inverse, At gives the
// class's pieces only, White to move in the first half, ply 0; and the
// placements the test enumerates itself (an odometer over the squares, no
// salta/index.h) map one to one onto the indices.
TEST(EgtbTableClass, IndexRoundTripsAndCoversEveryPlacement) {
  struct Case {
    int size, rows;
    std::string white, black;
  };
  std::vector<Case> cases = {{4, 1, "", ""},           {6, 2, "S1,M1", "S2"}, {10, 3, "U5", "S1"},
                             {6, 1, "S1,S2", "S1,S2"}, {8, 1, "S2", "S1,S3"}, {8, 3, "U1", "M4"}};
  if (Sanitized()) cases.erase(cases.begin() + 3);
  for (const Case& c : cases) {
    const Variant& v = V("standard", c.size, c.rows);
    const egtb::TableClass cls = MakeClass(v, c.white, c.black);
    SCOPED_TRACE(cls.ToString());
    const std::vector<PieceId> pieces = PiecesOf(cls);
    const int squares = v.geometry().num_squares();
    uint64_t expected = 2;
    for (int k = 0; k < int(pieces.size()); ++k) expected *= uint64_t(squares - k);
    ASSERT_EQ(cls.size(), expected);
    for (uint64_t i = 0; i < cls.size(); ++i) {
      const Position p = cls.At(i);
      ASSERT_EQ(cls.Index(p), i);
      absl::StatusOr<uint64_t> j = cls.IndexOf(p);
      ASSERT_TRUE(j.ok()) << j.status();
      ASSERT_EQ(*j, i);
      ASSERT_EQ(p.side_to_move(), i < cls.size() / 2 ? Side::kWhite : Side::kBlack);
      ASSERT_EQ(p.ply(), 0);
      for (PieceId q = 0; q < kMaxPieces; ++q)
        ASSERT_EQ(p.square_of(q) != kNoSquare,
                  std::find(pieces.begin(), pieces.end(), q) != pieces.end())
            << PositionToString(p);
    }
    std::vector<bool> seen(cls.size());
    std::vector<int> digit(pieces.size(), 0);
    uint64_t placements = 0;
    for (;;) {
      bool distinct = true;
      for (size_t a = 0; a < digit.size(); ++a)
        for (size_t b = a + 1; b < digit.size(); ++b) distinct &= digit[a] != digit[b];
      if (distinct) {
        std::vector<std::pair<PieceId, Square>> placed;
        for (size_t k = 0; k < pieces.size(); ++k) placed.push_back({pieces[k], Square(digit[k])});
        for (Side s : {Side::kWhite, Side::kBlack}) {
          absl::StatusOr<Position> p = Position::Make(v, placed, s, 0);
          ASSERT_TRUE(p.ok()) << p.status();
          const uint64_t j = cls.Index(*p);
          ASSERT_LT(j, cls.size());
          ASSERT_FALSE(seen[j]) << "two placements share index " << j;
          seen[j] = true;
          ASSERT_EQ(cls.At(j).phase(), p->phase());
          ASSERT_EQ(PositionToString(cls.At(j)), PositionToString(*p));
        }
        ++placements;
      }
      size_t k = digit.size();
      while (k > 0 && ++digit[k - 1] == squares) digit[--k] = 0;
      if (k == 0) break;
    }
    EXPECT_EQ(2 * placements, cls.size());
  }
}

TEST(EgtbTableClass, IndexOfSaysWhatDiffers) {
  const Variant& v = V("standard", 6, 1);
  const egtb::TableClass cls = MakeClass(v, "S1,S2", "S3");
  const PieceId w1 = MakePiece(Side::kWhite, Kind::kStar, 1),
                w2 = MakePiece(Side::kWhite, Kind::kStar, 2),
                w3 = MakePiece(Side::kWhite, Kind::kStar, 3),
                b3 = MakePiece(Side::kBlack, Kind::kStar, 3);
  auto index_of = [&](const Variant& var, std::vector<std::pair<PieceId, Square>> pieces) {
    absl::StatusOr<Position> p = Position::Make(var, pieces, Side::kWhite, 0);
    EXPECT_TRUE(p.ok()) << p.status();
    return cls.IndexOf(*p);
  };
  EXPECT_TRUE(index_of(v, {{w1, 0}, {w2, 1}, {b3, 17}}).ok());
  absl::StatusOr<uint64_t> r = index_of(v, {{w1, 0}, {b3, 17}});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(r.status().message(), "White star 2 is missing")) << r.status();
  r = index_of(v, {{w1, 0}, {w2, 1}, {w3, 2}, {b3, 17}});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(r.status().message(), "White star 3 is not one of its pieces"))
      << r.status();
  r = index_of(V("standard", 8, 1), {{w1, 0}, {w2, 1}, {b3, 17}});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StrContains(r.status().message(), "8x8")) << r.status();
  EXPECT_TRUE(absl::StrContains(r.status().message(), "6x6")) << r.status();
  // The start position of the class: its pieces on their start squares.
  const Position start = cls.Start();
  EXPECT_EQ(start.side_to_move(), Side::kWhite);
  for (PieceId p : PiecesOf(cls)) EXPECT_EQ(start.square_of(p), v.start(p));
  EXPECT_TRUE(cls.IndexOf(start).ok());
}

// ---------------------------------------------------------------------------
// The partition of the index over processes.

TEST(EgtbPartition, BlocksDealtRoundRobinCoverTheIndexOnce) {
  for (uint64_t size : {uint64_t(0), uint64_t(1), uint64_t(1000), uint64_t(32768), uint64_t(146880),
                        uint64_t(5) * 32768 + 17}) {
    for (int parts : {1, 2, 3, 5, 7, 64}) {
      for (uint64_t block : {uint64_t(1), uint64_t(64), uint64_t(1) << 15}) {
        SCOPED_TRACE(absl::StrCat(size, " in ", parts, " parts of blocks of ", block));
        const egtb::Partition p(size, parts, block);
        EXPECT_EQ(p.parts(), parts);
        EXPECT_EQ(p.block(), block);
        // Every index has one owner, at one local place; the local places of
        // a process are dense from 0 and map back to the index.
        std::vector<uint64_t> next(size_t(parts), 0);
        for (uint64_t i = 0; i < size; ++i) {
          const int r = p.owner(i);
          ASSERT_GE(r, 0);
          ASSERT_LT(r, parts);
          ASSERT_EQ(r, int(i / block % uint64_t(parts))) << i;
          ASSERT_EQ(p.local(i), next[size_t(r)]) << i;
          ASSERT_EQ(p.global(r, p.local(i)), i) << i;
          ++next[size_t(r)];
        }
        uint64_t total = 0;
        for (int r = 0; r < parts; ++r) {
          ASSERT_EQ(p.size(r), next[size_t(r)]) << "rank " << r;
          // As even as whole blocks allow.
          ASSERT_LE(p.size(r), (size / block / uint64_t(parts) + 1) * block) << "rank " << r;
          total += p.size(r);
        }
        EXPECT_EQ(total, size);
      }
    }
  }
  // A large index: sizes add up without walking it.
  const uint64_t big = (uint64_t(1) << 33) + 12345;
  const egtb::Partition p(big, 7, uint64_t(1) << 15);
  uint64_t total = 0;
  for (int r = 0; r < 7; ++r) {
    total += p.size(r);
    const uint64_t last = p.global(r, p.size(r) - 1);
    EXPECT_LT(last, big);
    EXPECT_EQ(p.owner(last), r);
    EXPECT_EQ(p.local(last), p.size(r) - 1);
  }
  EXPECT_EQ(total, big);
}

// ---------------------------------------------------------------------------
// Checkpoints.

// A build killed between creating its database and writing the table's
// metadata leaves an empty database: refused as an unfinished build, not as
// a damaged table, by Open and by Verify.
TEST(EgtbStorage, AnEmptyDatabaseIsABuildThatDidNotFinish) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / absl::StrCat("salta_egtb_empty_", getpid());
  std::filesystem::remove_all(dir);
  {
    rocksdb::Options options;
    options.create_if_missing = true;
    rocksdb::DB* db = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(options, dir.string(), &db).ok());
    delete db;
  }
  absl::StatusOr<std::unique_ptr<egtb::EndgameTable>> t = egtb::EndgameTable::Open(dir.string());
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kFailedPrecondition) << t.status();
  EXPECT_TRUE(absl::StrContains(t.status().message(), "did not finish")) << t.status();
  absl::StatusOr<std::unique_ptr<ThreadPool>> pool = ThreadPool::Make(1);
  ASSERT_TRUE(pool.ok());
  absl::StatusOr<egtb::VerifyReport> v = egtb::Verify(dir.string(), **pool, nullptr);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().code(), absl::StatusCode::kFailedPrecondition) << v.status();
  std::filesystem::remove_all(dir);
}

class EgtbCheckpoint : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           absl::StrCat("salta_egtb_checkpoint_", getpid(), "_",
                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(EgtbCheckpoint, RoundTripsAndRejectsDamageAndOtherRuns) {
  const std::string path = egtb::CheckpointPath(dir_.string(), 1, 3);
  EXPECT_TRUE(absl::StartsWith(path, dir_.string()));
  EXPECT_NE(path, egtb::CheckpointPath(dir_.string(), 0, 3));
  EXPECT_NE(path, egtb::CheckpointPath(dir_.string(), 1, 2));
  egtb::CheckpointHeader h{"6x6, 1 row, standard: S1 v S1", 1, 3, 1000};
  h.level = 7;
  h.resolved = 321;
  h.done = false;
  std::vector<egtb::Code> values(1000);
  std::vector<uint8_t> counts(1000);
  std::mt19937 rng(7);
  for (auto& c : values) c = egtb::Code(rng() % 300);
  for (auto& c : counts) c = uint8_t(rng());
  ASSERT_TRUE(egtb::SaveCheckpoint(path, h, values, counts).ok());
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));

  std::vector<egtb::Code> v2(1000);
  std::vector<uint8_t> c2(1000);
  std::string why;
  absl::StatusOr<std::optional<egtb::CheckpointHeader>> got =
      egtb::LoadCheckpoint(path, h, v2, c2, why);
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_TRUE(got->has_value()) << why;
  EXPECT_EQ((*got)->level, 7);
  EXPECT_EQ((*got)->resolved, 321u);
  EXPECT_FALSE((*got)->done);
  EXPECT_TRUE((*got)->SameRun(h));
  EXPECT_EQ(v2, values);
  EXPECT_EQ(c2, counts);

  // Another run: class, rank, processes or the positions owned differ.
  for (int k = 0; k < 4; ++k) {
    egtb::CheckpointHeader other = h;
    if (k == 0) other.class_text = "6x6, 1 row, standard: S2 v S1";
    if (k == 1) other.rank = 2;
    if (k == 2) other.processes = 4;
    if (k == 3) other.positions = 999;
    why.clear();
    got = egtb::LoadCheckpoint(path, other, v2, c2, why);
    ASSERT_TRUE(got.ok());
    EXPECT_FALSE(got->has_value()) << k;
    EXPECT_NE(why, "");
  }
  // No file.
  why.clear();
  got = egtb::LoadCheckpoint(path + "-none", h, v2, c2, why);
  ASSERT_TRUE(got.ok());
  EXPECT_FALSE(got->has_value());
  EXPECT_NE(why, "");

  // Every byte flipped in turn (a sample of them), and truncations: rejected.
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  ASSERT_GT(bytes.size(), 3000u);
  const std::string damaged = (dir_ / "damaged").string();
  auto write = [&](const std::string& b) {
    std::ofstream out(damaged, std::ios::binary | std::ios::trunc);
    out.write(b.data(), std::streamsize(b.size()));
  };
  for (size_t at = 0; at < bytes.size(); at += (at < 200 ? 1 : 97)) {
    std::string b = bytes;
    b[at] = char(b[at] ^ 0x10);
    write(b);
    why.clear();
    got = egtb::LoadCheckpoint(damaged, h, v2, c2, why);
    ASSERT_TRUE(got.ok()) << got.status();
    ASSERT_FALSE(got->has_value()) << "a flipped byte at " << at << " is accepted";
    EXPECT_NE(why, "");
  }
  for (size_t keep : {size_t(0), size_t(5), size_t(40), bytes.size() / 2, bytes.size() - 1}) {
    write(bytes.substr(0, keep));
    why.clear();
    got = egtb::LoadCheckpoint(damaged, h, v2, c2, why);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_FALSE(got->has_value()) << "truncated to " << keep << " bytes is accepted";
  }
  write(bytes + "x");
  got = egtb::LoadCheckpoint(damaged, h, v2, c2, why);
  ASSERT_TRUE(got.ok());
  EXPECT_FALSE(got->has_value()) << "a byte appended is accepted";
}

// A second save keeps the first as the previous checkpoint until it is
// dropped; one process resumes from its newest whole checkpoint: the
// current one, or the previous one where the current is missing or damaged.
TEST_F(EgtbCheckpoint, ThePreviousOneIsKeptUntilDropped) {
  const std::string path = egtb::CheckpointPath(dir_.string(), 0, 1);
  egtb::CheckpointHeader h{"6x6, 1 row, standard: S1 v S1", 0, 1, 100};
  std::vector<egtb::Code> values(100, egtb::Code(3));
  std::vector<uint8_t> counts(100, 1);
  h.level = 4;
  ASSERT_TRUE(egtb::SaveCheckpoint(path, h, values, counts).ok());
  EXPECT_FALSE(std::filesystem::exists(path + ".previous"));
  h.level = 6;
  values[5] = egtb::Code(9);
  ASSERT_TRUE(egtb::SaveCheckpoint(path, h, values, counts).ok());
  ASSERT_TRUE(std::filesystem::exists(path + ".previous"));

  std::unique_ptr<Cluster> one = SingleProcess();
  std::vector<egtb::Code> v(100);
  std::vector<uint8_t> c(100);
  std::string note = "stale";
  absl::StatusOr<std::optional<egtb::CheckpointHeader>> got =
      egtb::LoadCommonCheckpoint(*one, path, h, v, c, note);
  ASSERT_TRUE(got.ok() && got->has_value()) << got.status();
  EXPECT_EQ((*got)->level, 6);
  EXPECT_EQ(v, values);
  EXPECT_EQ(note, "");
  // The current one damaged: the previous one, and the note says so.
  std::filesystem::resize_file(path, 50);
  got = egtb::LoadCommonCheckpoint(*one, path, h, v, c, note);
  ASSERT_TRUE(got.ok() && got->has_value()) << got.status();
  EXPECT_EQ((*got)->level, 4);
  EXPECT_EQ(v[5], egtb::Code(3));
  EXPECT_TRUE(absl::StartsWith(note, path + ": the checkpoint is truncated")) << note;
  EXPECT_TRUE(absl::EndsWith(note, "; the build resumes from the checkpoint before it")) << note;
  // Damaged and no previous one: a fresh start, said so.
  const std::string previous = path + ".previous", kept = path + ".kept";
  std::filesystem::rename(previous, kept);
  got = egtb::LoadCommonCheckpoint(*one, path, h, v, c, note);
  ASSERT_TRUE(got.ok());
  EXPECT_FALSE(got->has_value());
  EXPECT_TRUE(absl::StartsWith(note, path + ": the checkpoint is truncated")) << note;
  EXPECT_TRUE(absl::EndsWith(note, "; the build starts afresh")) << note;
  std::filesystem::rename(kept, previous);
  // Gone, as a process killed between its two renames leaves it: nothing
  // to say.
  std::filesystem::remove(path);
  got = egtb::LoadCommonCheckpoint(*one, path, h, v, c, note);
  ASSERT_TRUE(got.ok() && got->has_value()) << got.status();
  EXPECT_EQ((*got)->level, 4);
  EXPECT_EQ(note, "");
  egtb::DropPreviousCheckpoint(path);
  EXPECT_FALSE(std::filesystem::exists(path + ".previous"));
  got = egtb::LoadCommonCheckpoint(*one, path, h, v, c, note);
  ASSERT_TRUE(got.ok());
  EXPECT_FALSE(got->has_value());
  EXPECT_EQ(note, "");
}

// ---------------------------------------------------------------------------
// Retrograde move generation against forward generation.

// An edge of the game graph: position index, move (from, to, jump), child index.
using Edge = std::tuple<uint64_t, int, int, bool, uint64_t>;

std::string EdgeText(const egtb::TableClass& cls, const Edge& e) {
  const auto& [q, from, to, jump, p] = e;
  return absl::StrCat(PositionToString(cls.At(q)), " --", from, "-", to, jump ? " jump" : "",
                      "--> ", PositionToString(cls.At(p)));
}

struct RulesCase {
  int size, rows;
  std::string white, black;
  std::vector<std::string> specs;
};

std::vector<RulesCase> UnmoveCases() {
  const std::vector<std::string> all = {
      "standard",
      "pre1900",
      "forward",
      "standard chain=on",
      "standard jump-dir=any",
      "standard jump-over=any",
      "standard chain=on jump-dir=any jump-over=any",
      "standard block=allow",
      "standard block=lose",
      "standard steps=forward",
      "standard jumps=optional",
      "standard extra-move=off",
      "pre1900 chain=on jump-dir=any block=lose",
      "forward block=forbid",
      "forward block=allow jump-dir=any",
      "forward extra-move=on jumps=mandatory",
      "forward steps=any jump-over=opponent chain=off",
  };
  const std::vector<std::string> some = {"standard", "pre1900", "forward",
                                         "standard chain=on jump-dir=any jump-over=any block=lose",
                                         "standard block=allow jump-over=any chain=on"};
  if (Sanitized())
    return {{4, 1, "", "", all}, {6, 1, "S1,S2", "S3", some}, {8, 2, "M1", "S4,M2", {"standard"}}};
  return {
      {4, 1, "", "", all},
      {6, 1, "S1,S2", "S3", all},
      {6, 2, "S1,M2", "M1,S3", some},
      {8, 2, "M1", "S4,M2", some},
  };
}

// For every position of the class, the predecessors that GenerateUnmoves,
// Unplay and IsLegal find are exactly the positions from which a legal
// move (GenerateLegal, Make) leads to it, move for move, none twice; and
// the phase derived from the board after Make and Unplay is the phase of
// the class's position with that index.
TEST(EgtbUnmoves, BackwardEdgesAreTheForwardEdges) {
  for (const RulesCase& c : UnmoveCases()) {
    for (const std::string& spec : c.specs) {
      const Variant& v = V(spec, c.size, c.rows);
      const egtb::TableClass cls = MakeClass(v, c.white, c.black);
      SCOPED_TRACE(cls.ToString());
      std::vector<Edge> forward, backward;
      MoveList moves;
      int phase_bad = 0;
      for (uint64_t q = 0; q < cls.size(); ++q) {
        const Position Q = cls.At(q);
        GenerateLegal(Q, moves);
        for (const Move& m : moves) {
          Position P = Q;
          P.Make(m);
          const uint64_t p = cls.Index(P);
          if (P.phase() != cls.At(p).phase() && ++phase_bad <= 3)
            ADD_FAILURE() << "after a move, phase " << int(P.phase()) << " where the class has "
                          << int(cls.At(p).phase()) << ": " << PositionToString(P);
          forward.emplace_back(q, m.from, m.to, m.jump, p);
        }
      }
      for (uint64_t p = 0; p < cls.size(); ++p) {
        const Position P = cls.At(p);
        GenerateUnmoves(P, moves);
        for (const Move& m : moves) {
          Position Q = P;
          Q.Unplay(m);
          const uint64_t q = cls.Index(Q);
          if (Q.phase() != cls.At(q).phase() && ++phase_bad <= 3)
            ADD_FAILURE() << "after Unplay, phase " << int(Q.phase()) << " where the class has "
                          << int(cls.At(q).phase()) << ": " << PositionToString(Q);
          if (IsLegal(Q, m)) backward.emplace_back(q, m.from, m.to, m.jump, p);
        }
      }
      EXPECT_EQ(phase_bad, 0);
      std::sort(forward.begin(), forward.end());
      std::sort(backward.begin(), backward.end());
      EXPECT_EQ(std::adjacent_find(forward.begin(), forward.end()), forward.end())
          << "a forward edge twice";
      std::vector<Edge> missing, extra;
      std::set_difference(forward.begin(), forward.end(), backward.begin(), backward.end(),
                          std::back_inserter(missing));
      std::set_difference(backward.begin(), backward.end(), forward.begin(), forward.end(),
                          std::back_inserter(extra));
      EXPECT_EQ(forward.size(), backward.size());
      for (size_t k = 0; k < std::min<size_t>(missing.size(), 3); ++k)
        ADD_FAILURE() << "no unmove for " << EdgeText(cls, missing[k]);
      for (size_t k = 0; k < std::min<size_t>(extra.size(), 3); ++k)
        ADD_FAILURE() << "an unmove that is no move: " << EdgeText(cls, extra[k]);
      EXPECT_TRUE(missing.empty() && extra.empty())
          << missing.size() << " missing, " << extra.size() << " extra of " << forward.size();
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// IsLegal(pos, m) is "m is among GenerateLegal(pos)" (from, to and the
// jump flag) for every raw move of either side, the same squares with the
// other jump flag, a pass, and random square pairs.
TEST(EgtbUnmoves, IsLegalIsMembershipInGenerateLegal) {
  std::mt19937 rng(99);
  for (const RulesCase& c : UnmoveCases()) {
    for (const std::string& spec : c.specs) {
      const Variant& v = V(spec, c.size, c.rows);
      const egtb::TableClass cls = MakeClass(v, c.white, c.black);
      SCOPED_TRACE(cls.ToString());
      const int squares = v.geometry().num_squares();
      const uint64_t step = cls.size() <= 20000 ? 1 : cls.size() / 20000;
      int bad = 0;
      for (uint64_t i = 0; i < cls.size(); i += step) {
        const Position pos = cls.At(i);
        MoveList legal, raw, candidates;
        GenerateLegal(pos, legal);
        for (Side s : {Side::kWhite, Side::kBlack}) {
          GenerateRaw(pos, s, raw);
          for (const Move& m : raw) {
            candidates.push(m);
            candidates.push(Move{m.from, m.to, !m.jump});
          }
        }
        candidates.push(Move::Pass());
        for (int k = 0; k < 4; ++k) {
          const int from = int(rng() % squares), to = int(rng() % squares);
          candidates.push(Move{int8_t(from), int8_t(to), bool(rng() & 1)});
        }
        for (const Move& m : legal) candidates.push(m);
        for (const Move& m : candidates) {
          bool member = false;
          for (const Move& l : legal) member |= l == m && l.jump == m.jump;
          if (IsLegal(pos, m) != member && ++bad <= 5)
            ADD_FAILURE() << PositionToString(pos) << ": IsLegal(" << int(m.from) << "-"
                          << int(m.to) << (m.jump ? " jump" : "") << ") is " << !member;
        }
      }
      EXPECT_EQ(bad, 0);
      if (bad) return;
    }
  }
}

}  // namespace
}  // namespace salta
