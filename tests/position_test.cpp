// Positions: the text format round-trips, Make/Unmake restore the position
// and its hash, the incremental hash equals the one computed from scratch,
// and malformed texts give errors, never crashes.
#include "salta/position.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "salta/movegen.h"
#include "salta/notation.h"
#include "test_util.h"

namespace salta {
namespace {

struct Geo {
  int size, rows;
};

std::vector<Geo> AllGeometries() {
  std::vector<Geo> out;
  for (int n = 4; n <= 10; n += 2)
    for (int r = 1; r <= 3 && 2 * r < n; ++r) out.push_back({n, r});
  return out;
}

// Prints, parses back and compares: the same position, hash and phase included.
void ExpectRoundTrip(const Position& pos) {
  const std::string text = PositionToString(pos);
  absl::StatusOr<Position> back = ParsePosition(pos.variant(), text);
  ASSERT_TRUE(back.ok()) << text << ": " << back.status();
  EXPECT_TRUE(*back == pos) << text << " came back as " << PositionToString(*back);
  EXPECT_EQ(back->hash(), pos.hash()) << text;
  EXPECT_EQ(back->phase(), pos.phase()) << text;
  EXPECT_EQ(PositionToString(*back), text);
}

// Every legal move: Make keeps the hash equal to ComputeHash and the text
// consistent; Unmake restores the position exactly.
int CheckMakeUnmake(Position& pos) {
  MoveList list;
  GenerateLegal(pos, list);
  const Position before = pos;
  for (Move m : list) {
    const Position::Undo undo = pos.Make(m);
    EXPECT_EQ(pos.hash(), pos.ComputeHash())
        << PositionToString(before) << " then " << MoveToString(before, m);
    EXPECT_EQ(pos.ply(), before.ply() + 1);
    EXPECT_NE(pos.side_to_move(), before.side_to_move());
    ExpectRoundTrip(pos);
    pos.Unmake(m, undo);
    EXPECT_TRUE(pos == before) << PositionToString(before) << " after " << MoveToString(before, m)
                               << " and back: " << PositionToString(pos);
  }
  return list.size();
}

// ---------------------------------------------------------------------------
// Start positions

TEST(PositionText, StartPositions) {
  EXPECT_EQ(PositionToString(Position::Start(V("standard"))),
            "w S1a1,S2c1,S3e1,S4g1,S5i1,M1b2,M2d2,M3f2,M4h2,M5j2,U1a3,U2c3,U3e3,U4g3,U5i3,"
            "s1j10,s2h10,s3f10,s4d10,s5b10,m1i9,m2g9,m3e9,m4c9,m5a9,u1j8,u2h8,u3f8,u4d8,u5b8 0 -");
  EXPECT_EQ(
      PositionToString(Position::Start(V("standard", 8, 2))),
      "w S1a1,S2c1,S3e1,S4g1,M1b2,M2d2,M3f2,M4h2,s1h8,s2f8,s3d8,s4b8,m1g7,m2e7,m3c7,m4a7 0 -");
  EXPECT_EQ(PositionToString(Position::Start(V("forward", 6, 1))),
            "w S1a1,S2c1,S3e1,s1f6,s2d6,s3b6 0 -");
  EXPECT_EQ(PositionToString(Position::Start(V("pre1900", 4, 1))), "w S1a1,S2c1,s1d4,s2b4 0 -");
}

TEST(PositionText, StartOfEveryGeometryAndPresetRoundTrips) {
  for (const Geo& geo : AllGeometries()) {
    for (const char* preset : {"standard", "pre1900", "forward"}) {
      const Variant& v = V(preset, geo.size, geo.rows);
      const Position start = Position::Start(v);
      SCOPED_TRACE(v.geometry().ToString() + " " + preset);
      ExpectRoundTrip(start);
      EXPECT_EQ(PopCount(start.pieces(Side::kWhite)), geo.rows * geo.size / 2);
      EXPECT_EQ(PopCount(start.pieces(Side::kBlack)), geo.rows * geo.size / 2);
      EXPECT_EQ(start.phase(), Phase::kPlay);
      EXPECT_EQ(start.side_to_move(), Side::kWhite);
      EXPECT_EQ(start.hash(), start.ComputeHash());
      absl::StatusOr<Position> named = ParsePosition(v, "start");
      ASSERT_TRUE(named.ok()) << named.status();
      EXPECT_TRUE(*named == start);
      EXPECT_TRUE(*ParsePosition(v, "  start\n") == start);
    }
  }
}

TEST(PositionText, OptionalFields) {
  const Variant& v = V("standard");
  absl::StatusOr<Position> two = ParsePosition(v, "b S1a1,s1e5");
  ASSERT_TRUE(two.ok()) << two.status();
  EXPECT_EQ(two->ply(), 0);
  EXPECT_EQ(two->side_to_move(), Side::kBlack);
  EXPECT_EQ(PositionToString(*two), "b S1a1,s1e5 0 -");
  absl::StatusOr<Position> three = ParsePosition(v, "w S1a1,s1e5 12");
  ASSERT_TRUE(three.ok()) << three.status();
  EXPECT_EQ(three->ply(), 12);
  // The ply runs to kMaxPly, as docs/notation.md says.
  absl::StatusOr<Position> last = ParsePosition(v, "w S1a1,s1e5 1000000");
  ASSERT_TRUE(last.ok()) << last.status();
  EXPECT_EQ(last->ply(), kMaxPly);
  // No pieces at all.
  absl::StatusOr<Position> empty = ParsePosition(v, "w - 0 -");
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->occupied(), 0u);
  EXPECT_EQ(PositionToString(*empty), "w - 0 -");
  // Pieces in any order print in identity order; numeric squares are accepted.
  absl::StatusOr<Position> shuffled = ParsePosition(v, "w s1e5,S1a1 0 -");
  ASSERT_TRUE(shuffled.ok());
  EXPECT_TRUE(*shuffled == *ParsePosition(v, "w S1a1,s1e5 0 -"));
  EXPECT_EQ(PositionToString(*shuffled), "w S1a1,s1e5 0 -");
  EXPECT_EQ(PositionToString(*ParsePosition(v, "w S111,s153 0 -")), "w S1a1,s1e5 0 -");
  // Tabs separate fields as spaces do.
  absl::StatusOr<Position> tabs = ParsePosition(v, "w\tS1a1,s1e5 \t 12\t-");
  ASSERT_TRUE(tabs.ok()) << tabs.status();
  EXPECT_EQ(PositionToString(*tabs), "w S1a1,s1e5 12 -");
}

// ---------------------------------------------------------------------------
// Random play: round trip, Make/Unmake, incremental hash

TEST(PositionText, RoundTripAndMakeUnmakeInRandomPlay) {
  int positions = 0, moves = 0;
  for (const char* spec :
       {"standard", "pre1900", "forward", "standard chain=on jump-dir=any jump-over=any",
        "standard move-limit=20", "forward block=allow extra-move=on",
        "standard block=lose steps=forward"}) {
    for (Geo geo : {Geo{10, 3}, Geo{8, 2}, Geo{6, 1}, Geo{4, 1}}) {
      const Variant& v = V(spec, geo.size, geo.rows);
      std::mt19937 rng(2024);
      for (int game = 0; game < 4; ++game) {
        Position pos = Position::Start(v);
        for (int ply = 0; ply < 120; ++ply) {
          ExpectRoundTrip(pos);
          ASSERT_EQ(pos.hash(), pos.ComputeHash()) << PositionToString(pos);
          ++positions;
          moves += CheckMakeUnmake(pos);
          MoveList list;
          GenerateLegal(pos, list);
          if (list.empty()) break;
          pos.Make(list[rng() % list.size()]);
        }
      }
    }
  }
  EXPECT_GT(positions, 2500);
  EXPECT_GT(moves, 25000);
}

// Reduced material near the goal: random pieces, most on their targets, so
// that completed goals, extra moves and finished games occur.
TEST(PositionText, RoundTripAndMakeUnmakeNearTheEnd) {
  int extra = 0, over = 0, positions = 0;
  for (const char* spec : {"standard", "pre1900", "forward", "standard extra-move=off",
                           "standard move-limit=40", "pre1900 block=allow chain=on"}) {
    for (Geo geo : {Geo{10, 3}, Geo{6, 2}, Geo{4, 1}}) {
      const Variant& v = V(spec, geo.size, geo.rows);
      const Geometry& g = v.geometry();
      std::mt19937 rng(99);
      for (int trial = 0; trial < 60; ++trial) {
        std::vector<std::pair<PieceId, Square>> pieces;
        Bitboard used = 0;
        for (PieceId p = 0; p < kMaxPieces; ++p) {
          if (!v.HasPiece(p) || rng() % 4 == 0) continue;
          Square s = rng() % 3 != 0 ? v.target(p) : Square(rng() % g.num_squares());
          if (Contains(used, s)) s = Square(rng() % g.num_squares());
          if (Contains(used, s)) continue;
          used |= SquareBit(s);
          pieces.emplace_back(p, s);
        }
        const Side side = rng() % 2 ? Side::kBlack : Side::kWhite;
        const int ply = int(rng() % 90) * 2 + (side == Side::kBlack);
        absl::StatusOr<Position> made = Position::Make(v, pieces, side, ply);
        ASSERT_TRUE(made.ok()) << made.status();
        Position pos = *made;
        for (int step = 0; step < 12; ++step) {
          ExpectRoundTrip(pos);
          ASSERT_EQ(pos.hash(), pos.ComputeHash()) << PositionToString(pos);
          extra += pos.phase() == Phase::kExtraMove;
          over += pos.over();
          ++positions;
          CheckMakeUnmake(pos);
          MoveList list;
          GenerateLegal(pos, list);
          if (list.empty()) break;
          pos.Make(list[rng() % list.size()]);
        }
      }
    }
  }
  EXPECT_GT(positions, 2000);
  EXPECT_GT(extra, 20);
  EXPECT_GT(over, 100);
}

TEST(Position, HashDependsOnSideAndSquares) {
  const Variant& v = V("standard");
  const Position w = *ParsePosition(v, "w S1c7,s1e5 0 -");
  const Position b = *ParsePosition(v, "b S1c7,s1e5 0 -");
  const Position moved = *ParsePosition(v, "w S1a7,s1e5 0 -");
  const Position other = *ParsePosition(v, "w M1c7,s1e5 0 -");
  EXPECT_NE(w.hash(), b.hash());
  EXPECT_NE(w.hash(), moved.hash());
  EXPECT_NE(w.hash(), other.hash());
  // The ply is not part of the hash.
  EXPECT_EQ(w.hash(), ParsePosition(v, "w S1c7,s1e5 8 -")->hash());
}

// ---------------------------------------------------------------------------
// Position::Make errors

TEST(Position, MakeRejectsBadInput) {
  const Variant& v = V("standard");
  const Variant& small = V("standard", 6, 1);
  const PieceId s1 = MakePiece(Side::kWhite, Kind::kStar, 1);
  const PieceId m1 = MakePiece(Side::kWhite, Kind::kMoon, 1);
  EXPECT_FALSE(Position::Make(v, {{-1, 0}}, Side::kWhite, 0).ok());
  EXPECT_FALSE(Position::Make(v, {{30, 0}}, Side::kWhite, 0).ok());
  EXPECT_FALSE(Position::Make(v, {{s1, -1}}, Side::kWhite, 0).ok());
  EXPECT_FALSE(Position::Make(v, {{s1, 50}}, Side::kWhite, 0).ok());
  EXPECT_FALSE(Position::Make(small, {{s1, 18}}, Side::kWhite, 0).ok());
  EXPECT_FALSE(Position::Make(small, {{m1, 3}}, Side::kWhite, 0).ok());
  EXPECT_FALSE(Position::Make(v, {{s1, 0}, {s1, 1}}, Side::kWhite, 0).ok());
  EXPECT_FALSE(Position::Make(v, {{s1, 0}, {m1, 0}}, Side::kWhite, 0).ok());
  EXPECT_FALSE(Position::Make(v, {{s1, 0}}, Side::kWhite, -1).ok());
  EXPECT_TRUE(Position::Make(v, {{s1, 0}, {m1, 1}}, Side::kWhite, 0).ok());
  EXPECT_TRUE(Position::Make(v, std::vector<std::pair<PieceId, Square>>{}, Side::kBlack, 7).ok());
}

// ---------------------------------------------------------------------------
// Malformed texts

struct Bad {
  const char* text;
  std::vector<std::string> mentions;
  int size = 10, rows = 3;
};

TEST(PositionText, MalformedTextsSayWhatIsWrong) {
  for (const Bad& c : std::vector<Bad>{
           {"", {"0 fields"}},
           {"w", {"1 field", "<side"}},
           {"w S1a1 0 - extra", {"5 fields"}},
           {"x S1a1 0 -", {"field 1 \"x\"", "w or b"}},
           {"white S1a1", {"field 1 \"white\""}},
           {"start 0", {"\"start\"", "stands alone"}},
           {"w S1 0 -", {"piece 1 \"S1\"", "e.g. S1a1"}},
           {"w Q1a1", {"piece 1 \"Q1a1\"", "unknown kind 'Q'"}},
           {"w S1a1,X2c1", {"piece 2 \"X2c1\"", "unknown kind"}},
           {"w S0a1", {"\"S0a1\"", "1 to 5"}},
           {"w S6a1", {"\"S6a1\"", "1 to 5"}},
           {"w Sxa1", {"\"Sxa1\"", "1 to 5"}},
           {"w S10a1", {"\"S10a1\"", "piece number", "1 to 5"}},
           {"w S1k1", {"\"S1k1\"", "off"}},
           {"w S1b1", {"\"S1b1\"", "light"}},
           {"w S1a11", {"\"S1a11\"", "off"}},
           {"w S1a1,S1c1", {"piece 2 \"S1c1\"", "White star 1", "already placed", "S1a1"}},
           {"w S1a1,s1c3,M1a1", {"piece 3 \"M1a1\"", "square a1", "already taken", "S1a1"}},
           {"w S1a1,s1a1", {"\"s1a1\"", "already taken"}},
           {"w S1a1,,M1b2", {"piece 2 \"\""}},
           {"w S1a1, M1b2", {"piece 2 \"\""}},
           {"w S1a1 -1 -", {"field 3 \"-1\"", "ply"}},
           {"w S1a1 1000001 -", {"field 3 \"1000001\"", "from 0 to 1000000"}},
           {"w S1a1 +5 -", {"field 3 \"+5\"", "from 0 to 1000000"}},
           {"w S1a1 99999999999 -", {"field 3", "from 0 to 1000000"}},
           {"w S1a1 x -", {"field 3 \"x\"", "ply"}},
           {"w S1a1 1.5 -", {"field 3 \"1.5\""}},
           {"w S1a1 99999999 -", {"field 3"}},
           {"w S1a1 0 ?", {"field 4 \"?\"", "- (in play)"}},
           {"w S1a1 0 #", {"field 4 \"#\"", "in play", "so the state is -"}},
           {"w S1a1 0 x", {"field 4 \"x\"", "so the state is -"}},
           {"b S1b8,s1e5 1 -", {"field 4 \"-\"", "extra move", "so the state is x"}},
           {"b S1b8,s1e5 1 #", {"field 4 \"#\"", "so the state is x"}},
           {"w S1b8,s1e5 2 x", {"field 4 \"x\"", "so the state is #"}},
           {"w U1a3", {"\"U1a3\"", "White sun 1 does not exist", "6x6"}, 6, 1},
           {"w S4a1", {"\"S4a1\"", "White star 4 does not exist"}, 6, 1},
           {"w m1b2", {"\"m1b2\"", "Black moon 1 does not exist"}, 6, 1},
           {"w S5a1", {"\"S5a1\"", "does not exist", "8x8"}, 8, 2},
           {"w S1i1", {"\"S1i1\"", "off"}, 8, 2},
           {"w S1a1,S2e1", {"\"S2e1\"", "off"}, 4, 1},
       }) {
    const Variant& v = V("standard", c.size, c.rows);
    absl::StatusOr<Position> pos = ParsePosition(v, c.text);
    ASSERT_FALSE(pos.ok()) << "\"" << c.text << "\" parsed as " << PositionToString(*pos);
    EXPECT_EQ(pos.status().code(), absl::StatusCode::kInvalidArgument);
    const std::string message(pos.status().message());
    for (const std::string& m : c.mentions)
      EXPECT_NE(message.find(m), std::string::npos)
          << "\"" << c.text << "\": \"" << m << "\" missing in: " << message;
  }
}

// Random garbage and random mutations of valid texts: an error or a
// position that prints and parses back to itself; never a crash.
TEST(PositionText, GarbageAndMutationsNeverCrash) {
  std::mt19937 rng(31337);
  const std::string alphabet = "wbWBSMUsmu0123456789abcdefghijk,-x#  \t\n.";
  int accepted = 0, rejected = 0;
  auto check = [&](const Variant& v, const std::string& text) {
    absl::StatusOr<Position> pos = ParsePosition(v, text);
    if (!pos.ok()) {
      ++rejected;
      EXPECT_FALSE(pos.status().message().empty());
      return;
    }
    ++accepted;
    ExpectRoundTrip(*pos);
    EXPECT_EQ(pos->hash(), pos->ComputeHash());
    MoveList list;
    GenerateLegal(*pos, list);  // must not crash on any accepted position
  };
  for (Geo geo : {Geo{10, 3}, Geo{6, 1}}) {
    const Variant& v = V("standard", geo.size, geo.rows);
    for (int i = 0; i < 3000; ++i) {
      std::string text;
      const int length = rng() % 40;
      for (int k = 0; k < length; ++k)
        text += rng() % 8 == 0 ? char(rng() % 256) : alphabet[rng() % alphabet.size()];
      check(v, text);
    }
    // Valid texts from random play, mutated.
    std::vector<std::string> valid;
    Position pos = Position::Start(v);
    for (int ply = 0; ply < 60; ++ply) {
      valid.push_back(PositionToString(pos));
      MoveList list;
      GenerateLegal(pos, list);
      if (list.empty()) break;
      pos.Make(list[rng() % list.size()]);
    }
    for (const std::string& base : valid) {
      for (int i = 0; i < 60; ++i) {
        std::string text = base;
        const int edits = 1 + rng() % 3;
        for (int e = 0; e < edits && !text.empty(); ++e) {
          const size_t at = rng() % text.size();
          switch (rng() % 5) {
            case 0:
              text[at] = char(rng() % 256);
              break;
            case 1:
              text[at] = alphabet[rng() % alphabet.size()];
              break;
            case 2:
              text.erase(at, 1 + rng() % 3);
              break;
            case 3:
              text.insert(at, 1, alphabet[rng() % alphabet.size()]);
              break;
            case 4:
              text.insert(at, text.substr(rng() % text.size(), 1 + rng() % 6));
              break;
          }
        }
        check(v, text);
      }
    }
  }
  EXPECT_GT(rejected, 1000);
  EXPECT_GT(accepted, 10);
}

}  // namespace
}  // namespace salta
