// Squares and moves as text, and why a written move is not legal
// (shared/salta-rules.md, "Board and pieces": both square notations;
// "Moves": chains written with or without their landing squares).
#include "salta/notation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "salta/game.h"
#include "salta/legality.h"
#include "salta/movegen.h"
#include "test_util.h"

namespace salta {
namespace {

Position P(const std::string& spec, const std::string& text) {
  absl::StatusOr<Position> pos = ParsePosition(V(spec), text);
  EXPECT_TRUE(pos.ok()) << text << ": " << pos.status();
  return pos.value();
}

Geometry G(int size) {
  return *Geometry::Make(size, 1);
}

Square Sq(const Geometry& g, const std::string& text) {
  absl::StatusOr<Square> s = ParseSquare(g, text);
  EXPECT_TRUE(s.ok()) << text << ": " << s.status();
  return s.value_or(kNoSquare);
}

bool Mentions(const absl::Status& s, const std::string& text) {
  return std::string(s.message()).find(text) != std::string::npos;
}

// ---------------------------------------------------------------------------
// Squares

// Every dark square of every board size, in both notations, from the
// definitions: algebraic is file letter and rank; numeric is the rank, then
// the index of the dark square on that rank counted from White's left.
TEST(Squares, EverySquareInBothNotations) {
  for (int n = 4; n <= 10; n += 2) {
    const Geometry g = G(n);
    int dark = 0;
    for (int rank = 0; rank < n; ++rank) {
      int index = 0;
      for (int file = 0; file < n; ++file) {
        const std::string name = std::string(1, char('a' + file)) + std::to_string(rank + 1);
        if ((file + rank) % 2 != 0) {
          absl::StatusOr<Square> light = ParseSquare(g, name);
          ASSERT_FALSE(light.ok()) << name << " is light on " << n << "x" << n;
          EXPECT_TRUE(Mentions(light.status(), "\"" + name + "\"")) << light.status();
          EXPECT_TRUE(Mentions(light.status(), "light")) << light.status();
          continue;
        }
        ++index;
        ++dark;
        const std::string number = std::to_string(rank + 1) + std::to_string(index);
        const Square s = Sq(g, name);
        EXPECT_EQ(s, g.at(file, rank)) << name;
        EXPECT_EQ(Sq(g, number), s) << number << " vs " << name << " on " << n << "x" << n;
        EXPECT_EQ(SquareName(g, s), name);
        EXPECT_EQ(SquareNumber(g, s), number);
        // Upper-case file letters are accepted too.
        EXPECT_EQ(Sq(g, std::string(1, char('A' + file)) + std::to_string(rank + 1)), s);
      }
      EXPECT_EQ(index, n / 2);
    }
    EXPECT_EQ(dark, g.num_squares());
    // Every index round-trips.
    for (Square s = 0; s < g.num_squares(); ++s) {
      EXPECT_EQ(Sq(g, SquareName(g, s)), s);
      EXPECT_EQ(Sq(g, SquareNumber(g, s)), s);
    }
  }
}

TEST(Squares, Examples10x10) {
  const Geometry g;
  EXPECT_EQ(Sq(g, "a1"), 0);
  EXPECT_EQ(Sq(g, "11"), 0);
  EXPECT_EQ(Sq(g, "15"), Sq(g, "i1"));
  EXPECT_EQ(Sq(g, "21"), Sq(g, "b2"));
  EXPECT_EQ(Sq(g, "25"), Sq(g, "j2"));
  EXPECT_EQ(Sq(g, "32"), Sq(g, "c3"));
  EXPECT_EQ(Sq(g, "101"), Sq(g, "b10"));
  EXPECT_EQ(Sq(g, "105"), Sq(g, "j10"));
  EXPECT_EQ(Sq(g, "j10"), 49);
  EXPECT_EQ(SquareNumber(g, Sq(g, "e5")), "53");
  EXPECT_EQ(SquareNumber(g, Sq(g, "f10")), "103");
}

TEST(Squares, ErrorsNameTheText) {
  struct Case {
    int size;
    const char* text;
    const char* why;  // a word the message must contain
  };
  for (const Case& c : std::vector<Case>{
           {10, "k1", "off"},
           {10, "a11", "off"},
           {10, "a0", "off"},
           {10, "b1", "light"},
           {10, "j9", "light"},
           {10, "106", "index"},
           {10, "110", "off"},
           {10, "10", "index"},
           {10, "0", "rank"},
           {10, "1", "rank"},
           {10, "zz", "e.g."},
           {10, "c", "e.g."},
           {10, "3c", "rank"},
           {10, "c3x", "e.g."},
           {10, "-3", "e.g."},
           {10, "c+3", "e.g."},
           {10, "c 3", "e.g."},
           {10, "é3", "e.g."},
           {10, "c99999999", "off"},
           {10, "c9999999999", "e.g."},
           {8, "i1", "off"},
           {8, "a9", "off"},
           {8, "15", "index"},
           {8, "91", "off"},
           {8, "h8", ""},
           {6, "g1", "off"},
           {6, "a7", "off"},
           {6, "14", "index"},
           {6, "71", "off"},
           {4, "e1", "off"},
           {4, "13", "index"},
           {4, "b3", "light"},
       }) {
    const Geometry g = G(c.size);
    absl::StatusOr<Square> s = ParseSquare(g, c.text);
    if (std::string(c.text) == "h8") {  // the last square of 8x8 is fine
      EXPECT_TRUE(s.ok());
      continue;
    }
    ASSERT_FALSE(s.ok()) << c.text << " on " << c.size << "x" << c.size;
    EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_TRUE(Mentions(s.status(), std::string("\"") + c.text + "\"")) << s.status();
    EXPECT_TRUE(Mentions(s.status(), c.why)) << c.text << ": " << s.status();
  }
  EXPECT_FALSE(ParseSquare(Geometry(), "").ok());
}

// ---------------------------------------------------------------------------
// Move text (syntax)

TEST(MoveText, StepsJumpsChainsAndPass) {
  const Geometry g;
  absl::StatusOr<MoveText> step = ParseMoveText(g, "c3-d4");
  ASSERT_TRUE(step.ok()) << step.status();
  EXPECT_EQ(step->path, (std::vector<Square>{Sq(g, "c3"), Sq(g, "d4")}));
  EXPECT_FALSE(step->is_pass());

  absl::StatusOr<MoveText> chain = ParseMoveText(g, "c3-e5-g7");
  ASSERT_TRUE(chain.ok()) << chain.status();
  EXPECT_EQ(chain->path, (std::vector<Square>{Sq(g, "c3"), Sq(g, "e5"), Sq(g, "g7")}));

  absl::StatusOr<MoveText> numeric = ParseMoveText(g, "32-41");
  ASSERT_TRUE(numeric.ok()) << numeric.status();
  EXPECT_EQ(numeric->path, (std::vector<Square>{Sq(g, "c3"), Sq(g, "b4")}));

  absl::StatusOr<MoveText> pass = ParseMoveText(g, "--");
  ASSERT_TRUE(pass.ok()) << pass.status();
  EXPECT_TRUE(pass->is_pass());
}

TEST(MoveText, SyntaxErrorsNameTheMove) {
  const Geometry g;
  for (const char* text : {"c3", "c3-", "-c3", "c3--d4", "c3-z9", "---", "", "c3-b1", "c3 d4",
                           "c3:d4", "c3-d4-", "x", "--c3"}) {
    absl::StatusOr<MoveText> m = ParseMoveText(g, text);
    ASSERT_FALSE(m.ok()) << "\"" << text << "\" parsed";
    EXPECT_TRUE(Mentions(m.status(), std::string("move \"") + text + "\"")) << m.status();
  }
  // The square at fault is named too.
  EXPECT_TRUE(Mentions(ParseMoveText(g, "c3-z9").status(), "\"z9\""));
  EXPECT_TRUE(Mentions(ParseMoveText(g, "c3-b1").status(), "light"));
  // So is the place of a square left out (it said "square: missing").
  EXPECT_TRUE(Mentions(ParseMoveText(g, "c3--d4").status(), "no square between two '-'"));
  EXPECT_TRUE(Mentions(ParseMoveText(g, "-c3").status(), "no square before the first '-'"));
  EXPECT_TRUE(Mentions(ParseMoveText(g, "c3-d4-").status(), "no square after the last '-'"));
}

// ---------------------------------------------------------------------------
// Moves as the library writes them

TEST(MoveToString, StepsJumpsChainsAndPass) {
  Position start = Position::Start(V("standard"));
  EXPECT_EQ(MoveToString(start, *ParseMove(start, "c3-d4")), "c3-d4");
  EXPECT_EQ(MoveToString(start, *ParseMove(start, "32-42")), "c3-d4");

  Position jump = P("standard", "w S1c3,s1d4,s2f6,s3d6,s4j10 0 -");
  EXPECT_EQ(MoveToString(jump, Move::Jump(Sq(jump.variant().geometry(), "c3"),
                                          Sq(jump.variant().geometry(), "e5"))),
            "c3-e5");

  Position chains = P("standard chain=on", "w S1c3,s1d4,s2f6,s3d6,s4j10 0 -");
  const Geometry& g = chains.variant().geometry();
  EXPECT_EQ(MoveToString(chains, Move::Jump(Sq(g, "c3"), Sq(g, "g7"))), "c3-e5-g7");
  EXPECT_EQ(MoveToString(chains, Move::Jump(Sq(g, "c3"), Sq(g, "c7"))), "c3-e5-c7");
  EXPECT_EQ(MoveToString(chains, Move::Jump(Sq(g, "c3"), Sq(g, "e5"))), "c3-e5");
  EXPECT_EQ(JumpPath(chains, Move::Jump(Sq(g, "c3"), Sq(g, "g7"))),
            (std::vector<Square>{Sq(g, "e5"), Sq(g, "g7")}));

  Position pass = P("standard", "w S1a1,s1b2,s2c3 0 -");
  EXPECT_EQ(MoveToString(pass, Move::Pass()), "--");
}

// Every legal move, written by the library, reads back as the same move,
// in positions from seeded random play of several rule sets.
TEST(MoveToString, ReadsBackInRandomPlay) {
  int moves_checked = 0, chains_seen = 0, passes_seen = 0;
  for (const char* spec : {"standard", "forward", "standard chain=on jump-dir=any",
                           "standard chain=on jump-over=any", "pre1900 block=allow"}) {
    for (int size : {10, 6}) {
      const Variant& v = V(spec, size, size == 10 ? 3 : 2);
      std::mt19937 rng(7);
      for (int game = 0; game < 6; ++game) {
        Position pos = Position::Start(v);
        for (int ply = 0; ply < 150 && !pos.over(); ++ply) {
          MoveList list;
          GenerateLegal(pos, list);
          if (list.empty()) break;
          for (Move m : list) {
            const std::string text = MoveToString(pos, m);
            absl::StatusOr<Move> back = ParseMove(pos, text);
            ASSERT_TRUE(back.ok())
                << spec << " " << PositionToString(pos) << " " << text << ": " << back.status();
            EXPECT_EQ(*back, m) << text;
            EXPECT_EQ(back->jump, m.jump) << text;
            // The ends alone name the same move.
            if (!m.is_pass()) {
              const Geometry& g = v.geometry();
              absl::StatusOr<Move> ends =
                  ParseMove(pos, SquareName(g, m.from) + "-" + SquareName(g, m.to));
              ASSERT_TRUE(ends.ok()) << text << ": " << ends.status();
              EXPECT_EQ(*ends, m);
              absl::StatusOr<Move> numeric =
                  ParseMove(pos, SquareNumber(g, m.from) + "-" + SquareNumber(g, m.to));
              ASSERT_TRUE(numeric.ok()) << text << ": " << numeric.status();
              EXPECT_EQ(*numeric, m);
            }
            chains_seen += std::count(text.begin(), text.end(), '-') > 1 && !m.is_pass();
            passes_seen += m.is_pass();
            ++moves_checked;
          }
          pos.Make(list[rng() % list.size()]);
        }
      }
    }
  }
  EXPECT_GT(moves_checked, 10000);
  EXPECT_GT(chains_seen, 0);
  (void)passes_seen;
}

// ---------------------------------------------------------------------------
// Legality: why a written move is not legal

struct Illegal {
  const char* rules;
  const char* position;
  const char* move;
  std::vector<std::string> mentions;
};

void ExpectIllegal(const Illegal& c) {
  Position pos = P(c.rules, c.position);
  absl::StatusOr<Move> m = ParseMove(pos, c.move);
  ASSERT_FALSE(m.ok()) << c.move << " accepted in " << c.position;
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  for (const std::string& text : c.mentions)
    EXPECT_TRUE(Mentions(m.status(), text))
        << c.move << " in " << c.position << ": \"" << text << "\" missing in: " << m.status();
}

const char* kStart = "start";

TEST(Legality, NoPieceThere) {
  ExpectIllegal({"standard", kStart, "d4-e5", {"no piece on d4"}});
  ExpectIllegal({"standard", kStart, "53-64", {"no piece on e5"}});
}

TEST(Legality, OpponentsPiece) {
  ExpectIllegal({"standard", kStart, "j8-i7", {"j8", "Black sun 1", "opponent", "White"}});
  Position pos = Position::Start(V("standard"));
  ASSERT_TRUE(PlayMoves(pos, "c3-d4").ok());
  absl::StatusOr<Move> m = ParseMove(pos, "d4-e5");
  ASSERT_FALSE(m.ok());
  EXPECT_TRUE(Mentions(m.status(), "White sun 2")) << m.status();
  EXPECT_TRUE(Mentions(m.status(), "Black is to move")) << m.status();
}

TEST(Legality, DestinationOccupied) {
  ExpectIllegal({"standard", kStart, "b2-c3", {"destination c3 is occupied"}});
  ExpectIllegal({"standard", kStart, "b2-a3", {"destination a3 is occupied"}});
  // A jump onto a piece.
  ExpectIllegal({"standard", "w S1c3,s1d4,s2e5 0 -", "c3-e5", {"destination e5 is occupied"}});
}

TEST(Legality, NotAStepOrJump) {
  ExpectIllegal({"standard", kStart, "c3-c5", {"c3-c5", "not a legal step or jump"}});
  ExpectIllegal({"standard", kStart, "a3-d6", {"a3-d6", "not a legal step or jump"}});
  ExpectIllegal({"standard", kStart, "i3-j6", {"i3-j6", "not a legal step or jump"}});
  // A chain written by its ends when chains are off.
  ExpectIllegal({"standard", "w S1c3,s1d4,s2f6,s3j10 0 -", "c3-g7", {"not a legal step or jump"}});
  ExpectIllegal({"standard", kStart, "c3-c3", {"same square"}});
}

TEST(Legality, JumpOverNothingOrTheWrongPiece) {
  ExpectIllegal({"standard", kStart, "c3-e5", {"no piece on d4 to jump over"}});
  ExpectIllegal({"standard",
                 "w S1c3,S2d4,s1j10 0 -",
                 "c3-e5",
                 {"wrong piece", "d4", "White star 2", "jump-over=opponent"}});
  // Allowed with jump-over=any.
  Position pos = P("standard jump-over=any", "w S1c3,S2d4,s1j10 0 -");
  EXPECT_TRUE(ParseMove(pos, "c3-e5").ok());
}

TEST(Legality, BackwardJumpAndStep) {
  ExpectIllegal(
      {"standard", "w S1e5,s1d4,s2j10 0 -", "e5-c3", {"backward jump e5-c3", "jump-dir=forward"}});
  ExpectIllegal(
      {"standard", "b S1e5,S2g7,s1f6 1 -", "f6-h8", {"backward jump f6-h8", "jump-dir=forward"}});
  ExpectIllegal(
      {"standard steps=forward", "w S1e5,s1h10 0 -", "e5-d4", {"backward step e5-d4", "steps"}});
  ExpectIllegal({"forward", "b S1b4,s1e5 1 -", "e5-f6", {"backward step e5-f6"}});
  // Backward steps are fine under steps=any.
  EXPECT_TRUE(ParseMove(P("standard", "w S1e5,s1h10 0 -"), "e5-d4").ok());
}

TEST(Legality, JumpRequiredListsTheJumps) {
  const char* position = "w S1c3,S2g3,s1d4,s2h4,s3j10 0 -";
  ExpectIllegal({"standard", position, "c3-b2", {"jump required (Salta!)", "c3-e5", "g3-i5"}});
  ExpectIllegal({"standard", position, "g3-f4", {"Salta!", "c3-e5", "g3-i5"}});
  // Not with jumps=optional.
  EXPECT_TRUE(ParseMove(P("standard jumps=optional", position), "c3-b2").ok());
  Position pos = P("standard", position);
  const Geometry& g = pos.variant().geometry();
  EXPECT_TRUE(IsMissedJump(pos, Move::Step(Sq(g, "c3"), Sq(g, "b2"))));
  EXPECT_FALSE(IsMissedJump(pos, Move::Jump(Sq(g, "c3"), Sq(g, "e5"))));
  EXPECT_FALSE(IsMissedJump(pos, Move::Step(Sq(g, "c3"), Sq(g, "c5"))));
}

TEST(Legality, MoveWouldLeaveTheOpponentWithoutAMove) {
  ExpectIllegal(
      {"standard", "w S1c3,s1a1 0 -", "c3-b2", {"would leave Black without a move", "block"}});
  ExpectIllegal(
      {"standard", "b S1a1,s1c3,m1a3 1 -", "a3-b2", {"would leave White without a move"}});
  EXPECT_TRUE(ParseMove(P("standard block=allow", "w S1c3,s1a1 0 -"), "c3-b2").ok());
}

TEST(Legality, GameAlreadyOver) {
  ExpectIllegal({"standard", "b S4h8,M5i9,s1j10 1 #", "j10-i9", {"game is already over"}});
  ExpectIllegal({"standard", "b S4h8,M5i9,s1j10 1 #", "--", {"game is already over"}});
  ExpectIllegal({"standard move-limit=1", "w S1c3,s1h8 2 #", "c3-d4", {"already over"}});
  // The message says why in words (issue 10: it said "(extra-move)").
  ExpectIllegal({"standard",
                 "b S4h8,M5i9,s1j10 1 #",
                 "j10-i9",
                 {"already over: White completed its goal and Black has no move"}});
  ExpectIllegal({"standard",
                 "w U1b10,s1i9 2 #",
                 "b10-a9",
                 {"already over: White completed its goal and Black's extra move ended the game"}});
  ExpectIllegal(
      {"standard move-limit=1", "w S1c3,s1h8 2 #", "c3-d4", {"move limit of 1 move each"}});
  ExpectIllegal({"standard move-limit=2", "w S1c3,s1h8 4 #", "c3-d4", {"limit of 2 moves each"}});
}

// Issue 10, item 9: one ply limit, kMaxPly, where positions are read and
// where plies advance, so that every position printed reads back.
TEST(Legality, NoMovePastThePlyLimit) {
  const Variant& v = V("standard");
  absl::StatusOr<Position> last = ParsePosition(v, "w S1a1,s1j10 1000000");
  ASSERT_TRUE(last.ok()) << last.status();
  EXPECT_EQ(PositionToString(*last), "w S1a1,s1j10 1000000 -");
  ExpectIllegal({"standard", "w S1a1,s1j10 1000000", "a1-b2", {"ply limit", "1000000"}});
  Position pos = *ParsePosition(v, "w - 999999");
  absl::Status s = PlayMoves(pos, "-- -- --");
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(Mentions(s, "\"--\" at ply 1000001")) << s;
  EXPECT_TRUE(Mentions(s, "ply limit")) << s;
  EXPECT_EQ(pos.ply(), kMaxPly);
  absl::StatusOr<Position> back = ParsePosition(v, PositionToString(pos));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(*back == pos);
}

TEST(Legality, Passes) {
  Position forced = P("standard", "w S1a1,s1b2,s2c3 0 -");
  absl::StatusOr<Move> pass = ParseMove(forced, "--");
  ASSERT_TRUE(pass.ok()) << pass.status();
  EXPECT_TRUE(pass->is_pass());
  ExpectIllegal({"standard", kStart, "--", {"cannot pass", "White has a legal move"}});
  // block=lose: the side without a move has lost; the game is over.
  ExpectIllegal({"standard block=lose", "w S1a1,s1b2,s2c3 0 #", "--", {"already over"}});
}

TEST(Legality, ChainsWithAndWithoutLandingSquares) {
  // c3 over d4 to e5, then over f6 to g7 or over d6 to c7.
  const char* position = "w S1c3,s1d4,s2f6,s3d6,s4j10 0 -";
  Position pos = P("standard chain=on", position);
  const Geometry& g = pos.variant().geometry();
  for (const char* text : {"c3-e5-g7", "c3-g7", "32-53-74"}) {
    absl::StatusOr<Move> m = ParseMove(pos, text);
    ASSERT_TRUE(m.ok()) << text << ": " << m.status();
    EXPECT_EQ(*m, Move::Jump(Sq(g, "c3"), Sq(g, "g7"))) << text;
    EXPECT_TRUE(m->jump);
  }
  ASSERT_TRUE(ParseMove(pos, "c3-e5-c7").ok());
  EXPECT_EQ(*ParseMove(pos, "c3-c7"), Move::Jump(Sq(g, "c3"), Sq(g, "c7")));
  // The landing squares, when given, must be jumps the rules allow.
  ExpectIllegal({"standard chain=on", position, "c3-a5-g7", {"no piece on b4 to jump over"}});
  ExpectIllegal({"standard chain=on", position, "c3-d4-g7", {"c3-d4", "not a legal step or jump"}});
  ExpectIllegal({"standard chain=on", position, "c3-e5-g7-e5", {"backward jump g7-e5"}});
  ExpectIllegal({"standard chain=on", position, "c3-e5-e9", {"not a legal step or jump"}});
  // With chains off, a chain is not a move, with or without landing squares.
  ExpectIllegal({"standard", position, "c3-e5-g7", {"chain=off"}});
  ExpectIllegal({"standard", position, "c3-g7", {"not a legal step or jump"}});
  // A step has no landing squares.
  ExpectIllegal({"standard chain=on jumps=optional", position, "c3-a5-b4", {"intermediate"}});
}

TEST(Legality, AChainNeverVisitsASquareTwice) {
  // A ring c3 -> e5 -> g3 -> e1 -> c3 over d4 f4 f2 d2, and b4 to jump to a5.
  const char* position = "w S1c3,s1d4,s2f4,s3f2,s4d2,s5b4 0 -";
  const char* rules = "standard chain=on jump-dir=any";
  Position pos = P(rules, position);
  ASSERT_TRUE(ParseMove(pos, "c3-e5-g3-e1").ok());
  ASSERT_TRUE(ParseMove(pos, "c3-a5").ok());
  ExpectIllegal({rules, position, "c3-e5-g3-e1-c3-a5", {"visits c3 twice"}});
  ExpectIllegal({rules, position, "c3-e5-g3-e5", {"visits e5 twice"}});
}

// ---------------------------------------------------------------------------
// Pieces

TEST(Pieces, NamesAndDescriptions) {
  EXPECT_EQ(PieceName(MakePiece(Side::kWhite, Kind::kStar, 1)), "S1");
  EXPECT_EQ(PieceName(MakePiece(Side::kWhite, Kind::kMoon, 3)), "M3");
  EXPECT_EQ(PieceName(MakePiece(Side::kBlack, Kind::kSun, 5)), "u5");
  EXPECT_EQ(PieceDescription(MakePiece(Side::kWhite, Kind::kStar, 1)), "White star 1");
  EXPECT_EQ(PieceDescription(MakePiece(Side::kBlack, Kind::kSun, 5)), "Black sun 5");
  EXPECT_EQ(SerialOf(MakePiece(Side::kWhite, Kind::kMoon, 1)), 6);
  EXPECT_EQ(SerialOf(MakePiece(Side::kBlack, Kind::kSun, 5)), 15);
  EXPECT_EQ(SideName(Side::kWhite), "White");
  EXPECT_EQ(SideName(Side::kBlack), "Black");
}

// ---------------------------------------------------------------------------
// PlayMoves: errors name the move, its ply and why

TEST(PlayMoves, ErrorNamesTheMovePlyAndReason) {
  Position pos = Position::Start(V("standard"));
  absl::Status s = PlayMoves(pos, "1. c3-d4 h8-g7 2. d4-e5 d4-c5");
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(Mentions(s, "\"d4-c5\"")) << s;
  EXPECT_TRUE(Mentions(s, "ply 4")) << s;
  EXPECT_TRUE(Mentions(s, "Black")) << s;
  EXPECT_TRUE(Mentions(s, "no piece on d4")) << s;
  // Left after the last legal move.
  EXPECT_EQ(pos.ply(), 3);
}

}  // namespace
}  // namespace salta
