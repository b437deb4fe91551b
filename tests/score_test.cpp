// Results and scores of finished games (salta/score.h). The counts used
// here are small enough to see by hand: the expected values come from the
// positions, not from the solver.
#include "salta/score.h"

#include <gtest/gtest.h>

#include "salta/game.h"
#include "salta/notation.h"

namespace salta {
namespace {

// Every White piece on its target (standard, 10x10).
constexpr const char* kWhiteHome =
    "S1b8,S2d8,S3f8,S4h8,S5j8,M1a9,M2c9,M3e9,M4g9,M5i9,U1b10,U2d10,U3f10,U4h10,U5j10";
// Every Black piece on its target.
constexpr const char* kBlackHome =
    "s1i3,s2g3,s3e3,s4c3,s5a3,m1j2,m2h2,m3f2,m4d2,m5b2,u1i1,u2g1,u3e1,u4c1,u5a1";

Position Parse(const Variant& v, const std::string& text) {
  absl::StatusOr<Position> pos = ParsePosition(v, text);
  EXPECT_TRUE(pos.ok()) << text << ": " << pos.status();
  return *pos;
}

GameScore Score(const Position& pos) {
  FinishOptions options;
  options.pattern_group_size = 2;  // small databases: quick, also under sanitizers
  absl::StatusOr<GameScore> s = ScoreGame(pos, options);
  EXPECT_TRUE(s.ok()) << s.status();
  return s.ok() ? *s : GameScore{};
}

// Black's pieces home except star 1, two steps from its target i3 (on g5:
// g5-h4-i3, both squares free), or one step (on h4).
std::string BlackTwoAway() {
  return "s1g5,s2g3,s3e3,s4c3,s5a3,m1j2,m2h2,m3f2,m4d2,m5b2,u1i1,u2g1,u3e1,u4c1,u5a1";
}
std::string BlackOneAway() {
  return "s1h4,s2g3,s3e3,s4c3,s5a3,m1j2,m2h2,m3f2,m4d2,m5b2,u1i1,u2g1,u3e1,u4c1,u5a1";
}

TEST(Score, BlackCompletesAndWinsByWhitesCount) {
  const Variant& v = Variant::Default();
  // White's pieces all home except star 1 on a5: a5-b6-a7-b8 is 3 moves,
  // and it is 3 ranks from b8.
  const Position pos =
      Parse(v, std::string("w S1a5,S2d8,S3f8,S4h8,S5j8,M1a9,M2c9,M3e9,M4g9,M5i9,U1b10,U2d10,U3f10,"
                           "U4h10,U5j10,") +
                   kBlackHome + " 42");
  const GameScore s = Score(pos);
  EXPECT_EQ(s.reason, EndReason::kGoal);
  EXPECT_EQ(s.outcome, Outcome::kBlackWins);
  EXPECT_EQ(s.points, 3);
  EXPECT_TRUE(s.exact);
  ASSERT_TRUE(s.white.has_value());
  EXPECT_EQ(s.white->moves(), 3);
  EXPECT_FALSE(s.extra_move_credited);
  EXPECT_EQ(ResultToken(s.outcome), "0-1");
}

TEST(Score, WhiteWinsAfterTheExtraMove) {
  const Variant& v = Variant::Default();
  // White completed, Black has played its extra move: White to move, over.
  const Position pos = Parse(v, std::string("w ") + kWhiteHome + "," + BlackTwoAway() + " 60");
  ASSERT_TRUE(pos.over());
  const GameScore s = Score(pos);
  EXPECT_EQ(s.reason, EndReason::kExtraMove);
  EXPECT_EQ(s.outcome, Outcome::kWhiteWins);
  EXPECT_EQ(s.points, 2);
  EXPECT_FALSE(s.extra_move_credited);
  EXPECT_EQ(ResultToken(s.outcome), "1-0");
}

TEST(Score, MissingExtraMoveIsCredited) {
  const Variant& v = Variant::Default();
  // White completed and Black's extra move is not recorded: Black to move.
  const Position two = Parse(v, std::string("b ") + kWhiteHome + "," + BlackTwoAway() + " 59");
  ASSERT_EQ(two.phase(), Phase::kExtraMove);
  GameScore s = Score(two);
  EXPECT_TRUE(s.extra_move_credited);
  EXPECT_EQ(s.outcome, Outcome::kWhiteWins);
  EXPECT_EQ(s.points, 1);  // max(2 - 1, 0)
  // One move from home: the credited move finishes, a draw.
  const Position one = Parse(v, std::string("b ") + kWhiteHome + "," + BlackOneAway() + " 59");
  s = Score(one);
  EXPECT_TRUE(s.extra_move_credited);
  EXPECT_EQ(s.outcome, Outcome::kDraw);
  EXPECT_EQ(s.points, 0);
  EXPECT_EQ(ResultToken(s.outcome), "1/2-1/2");
}

// Issue 10, item 7: White completes with the move that also reaches the move
// limit (a position whose ply does not match its side to move). The game is
// over by the limit before Black's extra move, which is credited: the score
// is max(need - 1, 0), as the rules' text says and the move-limit count
// (need_W = 0 against need_B - 1) agrees; it is not Black's whole count, and
// no extra move "ended the game".
TEST(Score, CompletionAtTheMoveLimitCreditsTheExtraMove) {
  for (const char* scoring : {"moves", "pieces"}) {
    SCOPED_TRACE(scoring);
    absl::StatusOr<const Variant*> v =
        MakeVariant("standard", {"move-limit=1", std::string("limit-scoring=") + scoring}, 10, 3);
    ASSERT_TRUE(v.ok()) << v.status();
    Position pos = Parse(**v, "w U1a9,s1j10 1");
    ASSERT_TRUE(PlayMoves(pos, "a9-b10").ok());
    ASSERT_TRUE(pos.over());
    const GameStatus st = StatusOf(pos);
    EXPECT_EQ(st.reason, EndReason::kMoveLimit);
    EXPECT_TRUE(st.extra_move_cut);
    EXPECT_EQ(st.outcome, Outcome::kUndecided);  // it needs Black's count
    EXPECT_EQ(WhyOver(pos),
              "the move limit of 1 move each was reached as White completed its goal, before "
              "Black's extra move");
    const GameScore s = Score(pos);
    EXPECT_EQ(s.reason, EndReason::kMoveLimit);
    EXPECT_TRUE(s.extra_move_credited);
    ASSERT_TRUE(s.black.has_value());
    EXPECT_EQ(s.black->moves(), 7);  // j10 to i3 is 7 ranks
    EXPECT_EQ(s.outcome, Outcome::kWhiteWins);
    EXPECT_EQ(s.points, 6);
    EXPECT_EQ(s.summary.find("extra move ended"), std::string::npos) << s.summary;
  }
  // Black one step from home: the credited move finishes, a draw.
  absl::StatusOr<const Variant*> v = MakeVariant("standard", {"move-limit=1"}, 10, 3);
  Position pos = Parse(**v, "w U1a9,s1h4 1");
  ASSERT_TRUE(PlayMoves(pos, "a9-b10").ok());
  const GameScore s = Score(pos);
  EXPECT_EQ(s.outcome, Outcome::kDraw);
  EXPECT_EQ(s.points, 0);
  // Black unable to move after White's completion: over at once, no credit.
  pos = Parse(**v, "w S4g7,M5i9,s1j10 1");
  ASSERT_TRUE(PlayMoves(pos, "g7-h8").ok());
  EXPECT_FALSE(StatusOf(pos).extra_move_cut);
  EXPECT_EQ(StatusOf(pos).reason, EndReason::kExtraMove);
}

TEST(Score, BothCompletedIsADraw) {
  const Variant& v = Variant::Default();
  const Position pos = Parse(v, std::string("w ") + kWhiteHome + "," + kBlackHome + " 60");
  const GameScore s = Score(pos);
  EXPECT_EQ(s.outcome, Outcome::kDraw);
  EXPECT_EQ(s.points, 0);
}

TEST(Score, MoveLimitByMoves) {
  absl::StatusOr<const Variant*> v = MakeVariant("standard", {"move-limit=120"}, 10, 3);
  ASSERT_TRUE(v.ok());
  // White needs 3 (S1 on a5), Black needs 2, credited one: 1. Black wins by 2.
  const std::string white3 =
      "S1a5,S2d8,S3f8,S4h8,S5j8,M1a9,M2c9,M3e9,M4g9,M5i9,U1b10,U2d10,U3f10,U4h10,U5j10";
  GameScore s = Score(Parse(**v, "w " + white3 + "," + BlackTwoAway() + " 240"));
  EXPECT_EQ(s.reason, EndReason::kMoveLimit);
  EXPECT_EQ(s.outcome, Outcome::kBlackWins);
  EXPECT_EQ(s.points, 2);
  ASSERT_TRUE(s.white && s.black);
  EXPECT_EQ(s.white->moves(), 3);
  EXPECT_EQ(s.black->moves(), 2);
  // White needs 1 (S1 on a7), Black 2 less one: a draw.
  const std::string white1 =
      "S1a7,S2d8,S3f8,S4h8,S5j8,M1a9,M2c9,M3e9,M4g9,M5i9,U1b10,U2d10,U3f10,U4h10,U5j10";
  s = Score(Parse(**v, "w " + white1 + "," + BlackTwoAway() + " 240"));
  EXPECT_EQ(s.outcome, Outcome::kDraw);
  EXPECT_EQ(s.points, 0);
  // White needs 1, Black 1 less one = 0: Black wins by 1.
  s = Score(Parse(**v, "w " + white1 + "," + BlackOneAway() + " 240"));
  EXPECT_EQ(s.outcome, Outcome::kBlackWins);
  EXPECT_EQ(s.points, 1);
  // White needs 1; Black's stars 1 and 2 are each two steps away (g5-h4-i3,
  // e5-f4-g3): 4, less one: 3. White wins by 2.
  s = Score(Parse(**v, "w " + white1 + "," +
                           "s1g5,s2e5,s3e3,s4c3,s5a3,m1j2,m2h2,m3f2,m4d2,m5b2,u1i1,u2g1,u3e1,"
                           "u4c1,u5a1 240"));
  EXPECT_EQ(s.outcome, Outcome::kWhiteWins);  // 1 against 4 - 1
  EXPECT_EQ(s.points, 2);
}

TEST(Score, MoveLimitByPieces) {
  absl::StatusOr<const Variant*> v = MakeVariant("forward", {"move-limit=120"}, 10, 3);
  ASSERT_TRUE(v.ok());
  // Forward preset: mirror goal. White star 1's target is j10, Black's
  // star 1's is a1. White has two pieces home, Black one.
  const Variant& var = **v;
  std::vector<std::pair<PieceId, Square>> placed;
  for (int k = 0; k < 3; ++k)
    for (int n = 1; n <= 5; ++n) {
      placed.emplace_back(MakePiece(Side::kWhite, Kind(k), n),
                          var.start(MakePiece(Side::kWhite, Kind(k), n)));
      placed.emplace_back(MakePiece(Side::kBlack, Kind(k), n),
                          var.start(MakePiece(Side::kBlack, Kind(k), n)));
    }
  // Free the targets: swap two White pieces with Black's on their targets.
  auto find = [&](PieceId p) -> Square& {
    for (auto& [id, sq] : placed)
      if (id == p) return sq;
    return placed[0].second;
  };
  const PieceId ws1 = MakePiece(Side::kWhite, Kind::kStar, 1);
  const PieceId bs1 = MakePiece(Side::kBlack, Kind::kStar, 1);
  const PieceId ws2 = MakePiece(Side::kWhite, Kind::kStar, 2);
  const PieceId bs2 = MakePiece(Side::kBlack, Kind::kStar, 2);
  // White stars 1 and 2 on their targets (Black stars 1, 2 start there);
  // Black star 1 on its target (White star 1's start), Black star 2 on
  // White star 2's start (its own target too, mirror goal).
  std::swap(find(ws1), find(bs1));
  std::swap(find(ws2), find(bs2));
  absl::StatusOr<Position> pos = Position::Make(var, placed, Side::kWhite, 240);
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_EQ(PiecesHome(*pos, Side::kWhite), 2);
  EXPECT_EQ(PiecesHome(*pos, Side::kBlack), 2);
  GameScore s = Score(*pos);
  EXPECT_EQ(s.reason, EndReason::kMoveLimit);
  EXPECT_EQ(s.outcome, Outcome::kDraw);
  EXPECT_EQ(s.points, 0);
  // Black star 2 off its target, on e5: Black has one piece home.
  find(bs2) = var.geometry().at(4, 4);
  pos = Position::Make(var, placed, Side::kWhite, 240);
  ASSERT_TRUE(pos.ok());
  s = Score(*pos);
  EXPECT_EQ(s.outcome, Outcome::kWhiteWins);
  EXPECT_EQ(s.points, 1);
}

TEST(Score, GameInPlayIsAnError) {
  const Position start = Position::Start(Variant::Default());
  EXPECT_FALSE(ScoreGame(start, FinishOptions{}).ok());
}

}  // namespace
}  // namespace salta
