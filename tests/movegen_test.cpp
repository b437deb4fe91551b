// Legal moves, one test per rule and option value (shared/salta-rules.md,
// "Moves", "Legal moves, blocking and passing", "Game end and result",
// "Goal"). Every expected move set below was worked out by hand from the
// rules; the positions are small so that the sets can be checked by eye.
#include "salta/movegen.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "salta/game.h"
#include "salta/notation.h"
#include "salta/perft.h"
#include "salta/position.h"
#include "salta/variant.h"
#include "test_util.h"

namespace salta {
namespace {

using Moves = std::set<std::string>;

Position P(const Variant& v, const std::string& text) {
  absl::StatusOr<Position> pos = ParsePosition(v, text);
  EXPECT_TRUE(pos.ok()) << text << ": " << pos.status();
  return pos.value();
}

Position P(const std::string& spec, const std::string& text) {
  return P(V(spec), text);
}

// "c3-d4" for a step, "c3xe5" for a jump or chain (by its ends), "--" for a pass.
std::string Text(const Position& pos, Move m) {
  if (m.is_pass()) return "--";
  const Geometry& g = pos.variant().geometry();
  return SquareName(g, m.from) + (m.jump ? "x" : "-") + SquareName(g, m.to);
}

Moves Set(const Position& pos, const MoveList& list) {
  Moves out;
  for (Move m : list) out.insert(Text(pos, m));
  EXPECT_EQ(int(out.size()), list.size()) << "a move is listed twice";
  return out;
}

// The legal moves; also checks that CountLegal agrees with the list.
Moves Legal(const Position& pos) {
  MoveList list;
  GenerateLegal(pos, list);
  EXPECT_EQ(CountLegal(pos), list.size()) << PositionToString(pos);
  return Set(pos, list);
}

// M: every step and jump of side s, no filter.
Moves Raw(const Position& pos, Side s) {
  MoveList list;
  GenerateRaw(pos, s, list);
  return Set(pos, list);
}

Move Find(const Position& pos, const std::string& text) {
  MoveList list;
  GenerateLegal(pos, list);
  for (Move m : list)
    if (Text(pos, m) == text) return m;
  ADD_FAILURE() << text << " is not legal in " << PositionToString(pos);
  return Move::Pass();
}

// Plays a legal move given as Text().
void Play(Position& pos, const std::string& text) {
  pos.Make(Find(pos, text));
}

// ---------------------------------------------------------------------------
// Steps

TEST(Steps, AnyGoesToAllFourDiagonals) {
  EXPECT_EQ(Legal(P("standard", "w S1e5,s1h10 0 -")), (Moves{"e5-d4", "e5-f4", "e5-d6", "e5-f6"}));
  EXPECT_EQ(Legal(P("standard", "b S1b4,s1e5 1 -")), (Moves{"e5-d4", "e5-f4", "e5-d6", "e5-f6"}));
}

TEST(Steps, AnyAtTheEdgeAndInTheCorner) {
  EXPECT_EQ(Legal(P("standard", "w S1a5,s1h10 0 -")), (Moves{"a5-b4", "a5-b6"}));
  EXPECT_EQ(Legal(P("standard", "w S1j10,s1a1 0 -")), (Moves{"j10-i9"}));
  EXPECT_EQ(Legal(P("standard", "b S1j10,s1a1 1 -")), (Moves{"a1-b2"}));
}

TEST(Steps, OnlyToEmptySquares) {
  // Own and opponent's pieces both stop a step (the black pieces are
  // behind the white one, so no forward jump is possible).
  EXPECT_EQ(Legal(P("standard", "w S1e5,M1f6,s1d4,s2h10 0 -")),
            (Moves{"e5-f4", "e5-d6", "f6-g5", "f6-e7", "f6-g7"}));
}

TEST(Steps, ForwardOnly) {
  EXPECT_EQ(Legal(P("standard steps=forward", "w S1e5,s1h10 0 -")), (Moves{"e5-d6", "e5-f6"}));
  // Forward for Black is toward rank 1.
  EXPECT_EQ(Legal(P("standard steps=forward", "b S1b4,s1e5 1 -")), (Moves{"e5-d4", "e5-f4"}));
  EXPECT_EQ(Legal(P("forward", "w S1e5,s1h10 0 -")), (Moves{"e5-d6", "e5-f6"}));
  EXPECT_EQ(Legal(P("forward", "b S1b4,s1e5 1 -")), (Moves{"e5-d4", "e5-f4"}));
}

// ---------------------------------------------------------------------------
// Jumps: direction, what may be jumped

TEST(Jumps, ForwardOnlyByDefault) {
  // e5 has an opponent ahead on f6 (g7 free) and behind on d4 (c3 free).
  const std::string text = "w S1e5,s1f6,s2d4,s3j10 0 -";
  EXPECT_EQ(Legal(P("standard", text)), (Moves{"e5xg7"}));
  EXPECT_EQ(Raw(P("standard", text), Side::kWhite), (Moves{"e5-f4", "e5-d6", "e5xg7"}));
  EXPECT_EQ(Legal(P("standard jump-dir=any", text)), (Moves{"e5xg7", "e5xc3"}));
  EXPECT_EQ(Legal(P("standard jumps=optional", text)), (Moves{"e5-f4", "e5-d6", "e5xg7"}));
}

TEST(Jumps, ForwardForBlackIsDownward) {
  // Black f6 can jump White e5 (to d4) forward, White g7 (to h8) only backward.
  const std::string text = "b S1e5,S2g7,s1f6 1 -";
  EXPECT_EQ(Legal(P("standard", text)), (Moves{"f6xd4"}));
  EXPECT_EQ(Legal(P("standard jump-dir=any", text)), (Moves{"f6xd4", "f6xh8"}));
}

TEST(Jumps, NeedAnEmptyLandingSquareOnTheBoard) {
  // d4 beyond e5's opponent is taken; the jump from a9 over b10 would leave the board.
  EXPECT_EQ(Legal(P("standard", "b S1e5,S2d4,S3g7,s1f6 1 -")), (Moves{"f6-g5", "f6-e7"}));
  EXPECT_EQ(Legal(P("standard", "w S1i9,s1j10,s2a1 0 -")), (Moves{"i9-h8", "i9-j8", "i9-h10"}));
}

TEST(Jumps, OverOpponentOnlyByDefault) {
  // e5 next to its own moon on f6: no jump over it.
  const std::string own = "w S1e5,M1f6,s1h10 0 -";
  EXPECT_EQ(Legal(P("standard", own)),
            (Moves{"e5-d4", "e5-f4", "e5-d6", "f6-g5", "f6-e7", "f6-g7"}));
  EXPECT_EQ(Legal(P("standard jump-over=any", own)), (Moves{"e5xg7"}));
  // With an opponent on d6 as well: only that one may be jumped by default.
  const std::string both = "w S1e5,M1f6,s2d6,s1h10 0 -";
  EXPECT_EQ(Legal(P("standard", both)), (Moves{"e5xc7"}));
  EXPECT_EQ(Legal(P("standard jump-over=any", both)), (Moves{"e5xc7", "e5xg7"}));
}

TEST(Jumps, NothingIsCaptured) {
  Position pos = P("standard", "w S1e5,s1f6,s3j10 0 -");
  Play(pos, "e5xg7");
  EXPECT_EQ(PositionToString(pos), "b S1g7,s1f6,s3j10 1 -");
}

// ---------------------------------------------------------------------------
// Chains

TEST(Chains, EveryPrefixIsAMove) {
  // c3 over d4 to e5, then over f6 to g7 or over d6 to c7.
  const std::string text = "w S1c3,s1d4,s2f6,s3d6,s4j10 0 -";
  EXPECT_EQ(Legal(P("standard chain=on", text)), (Moves{"c3xe5", "c3xg7", "c3xc7"}));
  EXPECT_EQ(Legal(P("standard", text)), (Moves{"c3xe5"}));
  EXPECT_EQ(Legal(P("standard chain=on jumps=optional", text)),
            (Moves{"c3-b2", "c3-d2", "c3-b4", "c3xe5", "c3xg7", "c3xc7"}));
}

TEST(Chains, SameEndsAreOneMove) {
  // c7 is reached by c3-a5-c7 and by c3-e5-c7: one move.
  Position pos = P("standard chain=on", "w S1c3,s1b4,s2d4,s3b6,s4d6,s5j10 0 -");
  EXPECT_EQ(Legal(pos), (Moves{"c3xa5", "c3xe5", "c3xc7"}));
  MoveList list;
  GenerateLegal(pos, list);
  EXPECT_EQ(list.size(), 3);
  // The text of the chain lists one of the two shortest paths.
  const std::string text = MoveToString(pos, Find(pos, "c3xc7"));
  EXPECT_TRUE(text == "c3-a5-c7" || text == "c3-e5-c7") << text;
}

TEST(Chains, NeverVisitASquareTwice) {
  // Backward jumps allowed: a ring c3 -> e5 -> g3 -> e1 -> c3 over d4 f4 f2 d2.
  // The piece reaches e5, g3 and e1 but never comes back to c3 as a move.
  const std::string text = "w S1c3,s1d4,s2f4,s3f2,s4d2,s5j10 0 -";
  EXPECT_EQ(Legal(P("standard chain=on jump-dir=any", text)), (Moves{"c3xe5", "c3xg3", "c3xe1"}));
  EXPECT_EQ(Legal(P("standard jump-dir=any", text)), (Moves{"c3xe5", "c3xe1"}));
  // Forward only, the ring is cut: c3 reaches e5 only.
  EXPECT_EQ(Legal(P("standard chain=on", text)), (Moves{"c3xe5"}));
}

TEST(Chains, OverOwnPiecesInTheForwardPreset) {
  // forward: steps forward, jumps over any piece, chains, jumps optional.
  EXPECT_EQ(Legal(P("forward", "w S1c3,M1d4,s1f6,s2j10 0 -")),
            (Moves{"c3-b4", "c3xe5", "c3xg7", "d4-c5", "d4-e5"}));
}

TEST(Chains, JumpTargetsMatchesTheMoves) {
  const Variant& v = V("standard chain=on jump-dir=any");
  Position pos = P(v, "w S1c3,s1d4,s2f4,s3f2,s4d2,s5j10 0 -");
  const Geometry& g = v.geometry();
  const Square c3 = *ParseSquare(g, "c3");
  const Bitboard others = pos.occupied() & ~SquareBit(c3);
  const Bitboard t = JumpTargets(v, Side::kWhite, c3, others, pos.pieces(Side::kBlack));
  EXPECT_EQ(t, SquareBit(*ParseSquare(g, "e5")) | SquareBit(*ParseSquare(g, "g3")) |
                   SquareBit(*ParseSquare(g, "e1")));
}

// ---------------------------------------------------------------------------
// Mandatory and optional jumps

TEST(MandatoryJumps, AnyOneOfSeveralJumps) {
  const std::string text = "w S1c3,S2g3,s1d4,s2h4,s3j10 0 -";
  EXPECT_EQ(Legal(P("standard", text)), (Moves{"c3xe5", "g3xi5"}));
  EXPECT_EQ(Legal(P("standard jumps=optional", text)),
            (Moves{"c3-b2", "c3-d2", "c3-b4", "c3xe5", "g3-f2", "g3-h2", "g3-f4", "g3xi5"}));
  // One piece with two jumps.
  EXPECT_EQ(Legal(P("standard", "w S1e5,s1d6,s2f6,s3j10 0 -")), (Moves{"e5xc7", "e5xg7"}));
}

// ---------------------------------------------------------------------------
// block=forbid: the filter, its fallback and its exemptions

TEST(BlockFilter, RemovesAMoveThatLeavesTheOpponentWithoutAMove) {
  // Black's a1 has one move, to b2; White's c3-b2 would take it.
  const std::string text = "w S1c3,s1a1 0 -";
  EXPECT_EQ(Legal(P("standard", text)), (Moves{"c3-d2", "c3-b4", "c3-d4"}));
  EXPECT_EQ(Raw(P("standard", text), Side::kWhite), (Moves{"c3-b2", "c3-d2", "c3-b4", "c3-d4"}));
  EXPECT_EQ(Legal(P("standard block=allow", text)), (Moves{"c3-b2", "c3-d2", "c3-b4", "c3-d4"}));
  EXPECT_EQ(Legal(P("standard block=lose", text)), (Moves{"c3-b2", "c3-d2", "c3-b4", "c3-d4"}));
}

TEST(BlockFilter, ForBlackToo) {
  // White's a1 moves only by b2 (step, or jump to c3 over a piece there).
  // a3-b2 blocks it; c3-b2 does not (a1 can jump to the emptied c3).
  const std::string text = "b S1a1,s1c3,m1a3 1 -";
  EXPECT_EQ(Legal(P("standard", text)), (Moves{"c3-b2", "c3-d2", "c3-b4", "c3-d4", "a3-b4"}));
  EXPECT_EQ(Legal(P("standard block=allow", text)),
            (Moves{"c3-b2", "c3-d2", "c3-b4", "c3-d4", "a3-b2", "a3-b4"}));
}

TEST(BlockFilter, KeepsOnlyMovesThatFreeABlockedOpponent) {
  // Black's a1 is blocked by White's b2; only moving b2 away gives it a move.
  const std::string text = "w S1c3,U1b2,s1a1 0 -";
  EXPECT_EQ(Legal(P("standard", text)), (Moves{"b2-c1", "b2-a3"}));
  EXPECT_EQ(Legal(P("standard block=allow", text)),
            (Moves{"b2-c1", "b2-a3", "c3-d2", "c3-b4", "c3-d4"}));
}

TEST(BlockFilter, KeepsEveryMoveWhenEveryMoveBlocks) {
  // Black's a1 is shut in by b2, and no White move frees it: M is kept whole.
  Position pos = P("standard", "w S1a3,M1c3,M3c1,U1b2,s1a1 0 -");
  EXPECT_FALSE(IsMobile(pos, Side::kBlack));
  const Moves all = {"a3-b4", "c3-d2", "c3-b4", "c3-d4", "c1-d2"};
  EXPECT_EQ(Legal(pos), all);
  EXPECT_EQ(Legal(P("standard block=allow", "w S1a3,M1c3,M3c1,U1b2,s1a1 0 -")), all);
  // Black then passes.
  Play(pos, "a3-b4");
  EXPECT_EQ(Legal(pos), (Moves{"--"}));
}

TEST(BlockFilter, BlockingJumpIsNotForcedWhenANonBlockingMoveExists) {
  // jump-over=any: g7 can jump its own h8 to i9, the only square Black's j10
  // can step to; j10 then cannot jump i9 either, as h8 beyond it is taken.
  // The filter removes that jump, no jump is left in M, so the steps are
  // legal. (After h8-i9 instead, j10 can jump i9 to the emptied h8.)
  const std::string text = "w S1g7,S2h8,s1j10 0 -";
  EXPECT_EQ(Legal(P("standard jump-over=any", text)),
            (Moves{"g7-f6", "g7-h6", "g7-f8", "h8-i7", "h8-g9", "h8-i9"}));
  EXPECT_EQ(Legal(P("standard jump-over=any block=allow", text)), (Moves{"g7xi9"}));
}

TEST(BlockFilter, WhitesCompletingMoveIsFilteredUnderExtraMove) {
  // g7-h8 completes White (S4 h8, M5 i9 home) and shuts Black's j10 in (i9
  // taken, h8 beyond it taken). With extra-move=on Black must keep a move for
  // its extra move, so the move is filtered like any other.
  const std::string text = "w S4g7,M5i9,s1j10 0 -";
  const Moves others = {"g7-f6", "g7-h6", "g7-f8", "i9-h8", "i9-j8", "i9-h10"};
  EXPECT_EQ(Legal(P("standard", text)), others);
  // With extra-move=off the completing move ends the game: it is exempt.
  Moves all = others;
  all.insert("g7-h8");
  EXPECT_EQ(Legal(P("standard extra-move=off", text)), all);
}

TEST(BlockFilter, BlacksCompletingMoveIsExempt) {
  // a3-b2 completes Black (s4 c3, m5 b2 home) and shuts White's a1 in: Black
  // completing first ends the game, so the move is legal.
  EXPECT_EQ(Legal(P("standard", "b S1a1,s4c3,m5a3 1 -")),
            (Moves{"c3-b2", "c3-d2", "c3-b4", "c3-d4", "a3-b2", "a3-b4"}));
  // The same squares with a moon whose target is not b2: filtered.
  EXPECT_EQ(Legal(P("standard", "b S1a1,s4c3,m4a3 1 -")),
            (Moves{"c3-b2", "c3-d2", "c3-b4", "c3-d4", "a3-b4"}));
}

TEST(BlockFilter, BlacksExtraMoveIsExempt) {
  // White's star 1 is home on b8: Black makes its extra move. b10-c9 shuts
  // b8 in (a7 c7 a9 c9 taken, d10 beyond c9 taken) but is legal.
  Position extra = P("standard", "b S1b8,s1a7,s2c7,s3a9,s4d10,s5b10 1 x");
  EXPECT_EQ(extra.phase(), Phase::kExtraMove);
  const Moves all = {"a7-b6", "c7-b6", "c7-d6", "c7-d8", "d10-c9", "d10-e9", "b10-c9"};
  EXPECT_EQ(Legal(extra), all);
  // White's moon 1 on b8 is not home: normal play, b10-c9 is filtered.
  Moves others = all;
  others.erase("b10-c9");
  EXPECT_EQ(Legal(P("standard", "b M1b8,s1a7,s2c7,s3a9,s4d10,s5b10 1 -")), others);
}

TEST(BlockFilter, TheMoveThatReachesTheMoveLimitIsExempt) {
  // As in ForBlackToo: a3-b2 shuts White's a1 in. With move-limit=10 the
  // move at ply 20 ends the game, so it is legal there.
  const std::string rules = "standard move-limit=10";
  EXPECT_EQ(Legal(P(rules, "b S1a1,s1c3,m1a3 19 -")),
            (Moves{"c3-b2", "c3-d2", "c3-b4", "c3-d4", "a3-b2", "a3-b4"}));
  EXPECT_EQ(Legal(P(rules, "b S1a1,s1c3,m1a3 17 -")),
            (Moves{"c3-b2", "c3-d2", "c3-b4", "c3-d4", "a3-b4"}));
  Position pos = P(rules, "b S1a1,s1c3,m1a3 19 -");
  Play(pos, "a3-b2");
  EXPECT_TRUE(pos.over());
  EXPECT_EQ(pos.ply(), 20);
  EXPECT_EQ(StatusOf(pos).reason, EndReason::kMoveLimit);
}

// ---------------------------------------------------------------------------
// Passing and block=lose

TEST(Pass, ForcedWhenThereIsNoMove) {
  // White's a1: b2 taken, c3 beyond it taken.
  const std::string text = "w S1a1,s1b2,s2c3 0 -";
  for (const char* rules : {"standard", "standard block=allow", "pre1900"}) {
    Position pos = P(rules, text);
    EXPECT_FALSE(IsMobile(pos, Side::kWhite)) << rules;
    EXPECT_EQ(Legal(pos), (Moves{"--"})) << rules;
    EXPECT_EQ(StatusOf(pos).reason, EndReason::kNone) << rules;
    // A pass is a move: one node, and it hands the move to Black.
    Position root = pos;
    EXPECT_EQ(PerftPlain(root, 1), 1u);
    const uint64_t hash = pos.hash();
    const Position::Undo undo = pos.Make(Move::Pass());
    EXPECT_EQ(pos.side_to_move(), Side::kBlack);
    EXPECT_EQ(pos.ply(), 1);
    EXPECT_EQ(pos.hash(), pos.ComputeHash());
    EXPECT_FALSE(Legal(pos).empty());
    pos.Unmake(Move::Pass(), undo);
    EXPECT_EQ(pos.hash(), hash);
    EXPECT_EQ(pos, root);
  }
}

TEST(Pass, BlockLoseHasNoPassTheSideLoses) {
  // The blocked side to move has lost: the game is over (state #).
  EXPECT_FALSE(ParsePosition(V("standard block=lose"), "w S1a1,s1b2,s2c3 0 -").ok());
  Position white = P("standard block=lose", "w S1a1,s1b2,s2c3 0 #");
  EXPECT_TRUE(white.over());
  EXPECT_EQ(Legal(white), Moves{});
  EXPECT_EQ(StatusOf(white).reason, EndReason::kBlocked);
  EXPECT_EQ(StatusOf(white).outcome, Outcome::kBlackWins);
  Position root = white;
  EXPECT_EQ(PerftPlain(root, 1), 0u);
  EXPECT_EQ(PerftPlain(root, 3), 0u);

  Position black = P("forward", "b S1a1,s1j10,S2i9,S3h8 1 #");
  EXPECT_EQ(Legal(black), Moves{});
  EXPECT_EQ(StatusOf(black).reason, EndReason::kBlocked);
  EXPECT_EQ(StatusOf(black).outcome, Outcome::kWhiteWins);
}

TEST(Pass, BlockLoseMovingIntoABlockEndsTheGame) {
  // Black's j10 moves only by jumping White's i9 to h8; g7-h8 shuts it in.
  // block=lose has no filter, and Black, to move without a move, has lost.
  Position open = P("standard block=lose", "w S1g7,M1i9,s1j10,s2a5 0 -");
  Play(open, "g7-h8");
  EXPECT_FALSE(open.over());  // Black can still move a5
  Position alone = P("standard block=lose", "w S1g7,M1i9,s1j10 0 -");
  Play(alone, "g7-h8");
  EXPECT_TRUE(alone.over());
  EXPECT_EQ(Legal(alone), Moves{});
  EXPECT_EQ(StatusOf(alone).reason, EndReason::kBlocked);
  EXPECT_EQ(StatusOf(alone).outcome, Outcome::kWhiteWins);
  EXPECT_EQ(PositionToString(alone), "b S1h8,M1i9,s1j10 1 #");
}

TEST(Pass, NotWhenAMoveExists) {
  EXPECT_EQ(Legal(P("standard", "w S1a1,s1b2,s2j10 0 -")), (Moves{"a1xc3"}));
}

// ---------------------------------------------------------------------------
// Game end: the extra move, extra-move=off, the move limit

TEST(GameEnd, WhiteCompletesThenBlackMakesItsExtraMove) {
  Position pos = P("standard", "w S1a7,s1e5 0 -");
  EXPECT_EQ(Legal(pos), (Moves{"a7-b6", "a7-b8"}));
  Play(pos, "a7-b8");
  EXPECT_TRUE(pos.Completed(Side::kWhite));
  EXPECT_EQ(pos.phase(), Phase::kExtraMove);
  EXPECT_FALSE(pos.over());
  EXPECT_EQ(StatusOf(pos).reason, EndReason::kNone);
  EXPECT_EQ(Legal(pos), (Moves{"e5-d4", "e5-f4", "e5-d6", "e5-f6"}));
  Play(pos, "e5-d4");
  EXPECT_TRUE(pos.over());
  EXPECT_EQ(Legal(pos), Moves{});
  EXPECT_EQ(StatusOf(pos).reason, EndReason::kExtraMove);
  EXPECT_EQ(StatusOf(pos).outcome, Outcome::kWhiteWins);
  // Perft: nothing after the extra move.
  Position root = P("standard", "w S1a7,s1e5 0 -");
  EXPECT_EQ(PerftPlain(root, 2), 8u);
  Play(root, "a7-b8");
  EXPECT_EQ(PerftPlain(root, 1), 4u);
  EXPECT_EQ(PerftPlain(root, 2), 0u);
  EXPECT_EQ(PerftPlain(root, 5), 0u);
}

TEST(GameEnd, BlackCompletingWithItsExtraMoveDraws) {
  Position pos = P("standard", "w S1a7,s1h4 0 -");
  Play(pos, "a7-b8");
  EXPECT_EQ(Legal(pos), (Moves{"h4-g3", "h4-i3", "h4-g5", "h4-i5"}));
  Play(pos, "h4-i3");
  EXPECT_TRUE(pos.over());
  EXPECT_EQ(StatusOf(pos).reason, EndReason::kExtraMove);
  EXPECT_EQ(StatusOf(pos).outcome, Outcome::kDraw);
}

TEST(GameEnd, NoExtraMoveWhenBlackHasNoMove) {
  // White's completion leaves j10 without a move: the game is over at once.
  Position pos = P("standard block=allow", "w S4g7,M5i9,s1j10 0 -");
  Play(pos, "g7-h8");
  EXPECT_TRUE(pos.over());
  EXPECT_EQ(Legal(pos), Moves{});
  EXPECT_EQ(StatusOf(pos).outcome, Outcome::kWhiteWins);
  // The same, written as a position: its state is #, not x.
  EXPECT_TRUE(P("standard", "b S4h8,M5i9,s1j10 1 #").over());
  EXPECT_FALSE(ParsePosition(V("standard"), "b S4h8,M5i9,s1j10 1 x").ok());
}

TEST(GameEnd, BlackCompletingFirstEndsTheGameAtOnce) {
  Position pos = P("standard", "b S1e5,s1h4 1 -");
  Play(pos, "h4-i3");
  EXPECT_TRUE(pos.over());
  EXPECT_EQ(Legal(pos), Moves{});
  EXPECT_EQ(StatusOf(pos).reason, EndReason::kGoal);
  EXPECT_EQ(StatusOf(pos).outcome, Outcome::kBlackWins);
}

TEST(GameEnd, ExtraMoveOffWhiteCompletingEndsTheGame) {
  Position pos = P("standard extra-move=off", "w S1a7,s1e5 0 -");
  Play(pos, "a7-b8");
  EXPECT_TRUE(pos.over());
  EXPECT_EQ(Legal(pos), Moves{});
  EXPECT_EQ(StatusOf(pos).reason, EndReason::kGoal);
  EXPECT_EQ(StatusOf(pos).outcome, Outcome::kWhiteWins);
}

TEST(GameEnd, MoveLimitEndsTheGameAfterPly2L) {
  const Variant& v = V("standard move-limit=3");
  Position pos = Position::Start(v);
  // Two forced jumps on the way: e5 over f6, then f8 over g7.
  const char* moves[] = {"c3-d4", "h8-g7", "d4-e5", "g7-f6", "e5-g7", "f8-h6"};
  for (int i = 0; i < 6; ++i) {
    EXPECT_FALSE(pos.over()) << "ply " << i;
    ASSERT_TRUE(PlayMoves(pos, moves[i]).ok()) << moves[i];
  }
  EXPECT_EQ(pos.ply(), 6);
  EXPECT_TRUE(pos.over());
  EXPECT_EQ(Legal(pos), Moves{});
  EXPECT_EQ(StatusOf(pos).reason, EndReason::kMoveLimit);
  EXPECT_EQ(StatusOf(pos).outcome, Outcome::kUndecided);
}

TEST(GameEnd, MoveLimitCapsPerft) {
  // With move-limit=2 nothing is played after ply 4: no sequence of five
  // moves exists.
  Position start = Position::Start(V("standard"));
  Position limited = Position::Start(V("standard move-limit=2"));
  EXPECT_EQ(PerftPlain(limited, 3), PerftPlain(start, 3));
  EXPECT_EQ(PerftPlain(limited, 4), PerftPlain(start, 4));
  EXPECT_EQ(PerftPlain(limited, 5), 0u);
  EXPECT_EQ(PerftPlain(limited, 6), 0u);
  PerftOptions options;
  options.threads = 2;
  EXPECT_EQ(Perft(limited, 4, options)->nodes, PerftPlain(start, 4));
  EXPECT_EQ(Perft(limited, 6, options)->nodes, 0u);
}

TEST(GameEnd, MoveLimitScoredByPieces) {
  // limit-scoring=pieces: more pieces on their targets wins.
  Position pos = P("standard move-limit=5 limit-scoring=pieces", "w S1b8,S2a1,s1i3,s2h4,s3a9 10 #");
  EXPECT_EQ(StatusOf(pos).reason, EndReason::kMoveLimit);
  EXPECT_EQ(StatusOf(pos).outcome, Outcome::kDraw);
  pos = P("standard move-limit=5 limit-scoring=pieces", "w S1b8,S2f6,S3f8,s1i3,s2h4,s3a9 10 #");
  EXPECT_EQ(StatusOf(pos).reason, EndReason::kMoveLimit);
  EXPECT_EQ(StatusOf(pos).outcome, Outcome::kWhiteWins);
}

// ---------------------------------------------------------------------------
// Target squares

struct Expected {
  PieceId piece;
  const char* square;
};

std::vector<Expected> Table(const std::vector<std::vector<const char*>>& rows) {
  // rows: White stars, moons, suns, then Black stars, moons, suns; numbers from 1.
  std::vector<Expected> out;
  for (int i = 0; i < int(rows.size()); ++i)
    for (int n = 0; n < int(rows[i].size()); ++n)
      out.push_back({MakePiece(Side(i / 3), Kind(i % 3), n + 1), rows[i][n]});
  return out;
}

void ExpectTargets(const Variant& v, const std::vector<Expected>& table) {
  int checked = 0;
  for (const Expected& e : table) {
    ASSERT_TRUE(v.HasPiece(e.piece)) << PieceDescription(e.piece);
    EXPECT_EQ(SquareName(v.geometry(), v.target(e.piece)), e.square)
        << PieceDescription(e.piece) << " on " << v.geometry().ToString() << ", "
        << v.rules().ToString();
    ++checked;
  }
  int pieces = 0;
  for (PieceId p = 0; p < kMaxPieces; ++p) pieces += v.HasPiece(p);
  EXPECT_EQ(checked, pieces) << "the table must cover every piece";
}

void ExpectStarts(const Variant& v, const std::vector<Expected>& table) {
  for (const Expected& e : table)
    EXPECT_EQ(SquareName(v.geometry(), v.start(e.piece)), e.square) << PieceDescription(e.piece);
}

const std::vector<Expected> kStart10 = Table({
    {"a1", "c1", "e1", "g1", "i1"},
    {"b2", "d2", "f2", "h2", "j2"},
    {"a3", "c3", "e3", "g3", "i3"},
    {"j10", "h10", "f10", "d10", "b10"},
    {"i9", "g9", "e9", "c9", "a9"},
    {"j8", "h8", "f8", "d8", "b8"},
});

TEST(Targets, StartSquares10x10) {
  ExpectStarts(V("standard"), kStart10);
}

TEST(Targets, Translate10x10AllThirty) {
  ExpectTargets(V("standard"), Table({
                                   {"b8", "d8", "f8", "h8", "j8"},
                                   {"a9", "c9", "e9", "g9", "i9"},
                                   {"b10", "d10", "f10", "h10", "j10"},
                                   {"i3", "g3", "e3", "c3", "a3"},
                                   {"j2", "h2", "f2", "d2", "b2"},
                                   {"i1", "g1", "e1", "c1", "a1"},
                               }));
}

TEST(Targets, Mirror10x10AllThirty) {
  // Each piece goes to the start square of the opponent's piece of the same
  // kind and number.
  const std::vector<Expected> mirror = Table({
      {"j10", "h10", "f10", "d10", "b10"},
      {"i9", "g9", "e9", "c9", "a9"},
      {"j8", "h8", "f8", "d8", "b8"},
      {"a1", "c1", "e1", "g1", "i1"},
      {"b2", "d2", "f2", "h2", "j2"},
      {"a3", "c3", "e3", "g3", "i3"},
  });
  ExpectTargets(V("pre1900"), mirror);
  ExpectTargets(V("forward"), mirror);
  ExpectTargets(V("standard goal=mirror"), mirror);
}

TEST(Targets, OtherGeometries) {
  // 8x8, two rows: N-R = 6 ranks forward.
  ExpectStarts(V("standard", 8, 2), Table({{"a1", "c1", "e1", "g1"},
                                           {"b2", "d2", "f2", "h2"},
                                           {},
                                           {"h8", "f8", "d8", "b8"},
                                           {"g7", "e7", "c7", "a7"}}));
  // (6 is even: the targets keep the colour pattern of the start ranks.)
  ExpectTargets(V("standard", 8, 2), Table({{"a7", "c7", "e7", "g7"},
                                            {"b8", "d8", "f8", "h8"},
                                            {},
                                            {"h2", "f2", "d2", "b2"},
                                            {"g1", "e1", "c1", "a1"}}));
  ExpectTargets(V("pre1900", 8, 2), Table({{"h8", "f8", "d8", "b8"},
                                           {"g7", "e7", "c7", "a7"},
                                           {},
                                           {"a1", "c1", "e1", "g1"},
                                           {"b2", "d2", "f2", "h2"}}));
  // 6x6, one row: 5 ranks forward.
  ExpectTargets(V("standard", 6, 1), Table({{"b6", "d6", "f6"}, {}, {}, {"e1", "c1", "a1"}}));
  ExpectTargets(V("forward", 6, 1), Table({{"f6", "d6", "b6"}, {}, {}, {"a1", "c1", "e1"}}));
  // 6x6, two rows: 4 ranks forward.
  ExpectTargets(
      V("standard", 6, 2),
      Table({{"a5", "c5", "e5"}, {"b6", "d6", "f6"}, {}, {"f2", "d2", "b2"}, {"e1", "c1", "a1"}}));
  // 4x4, one row.
  ExpectStarts(V("standard", 4, 1), Table({{"a1", "c1"}, {}, {}, {"d4", "b4"}}));
  ExpectTargets(V("standard", 4, 1), Table({{"b4", "d4"}, {}, {}, {"c1", "a1"}}));
  ExpectTargets(V("pre1900", 4, 1), Table({{"d4", "b4"}, {}, {}, {"a1", "c1"}}));
  // Pieces outside the geometry do not exist.
  EXPECT_FALSE(V("standard", 8, 2).HasPiece(MakePiece(Side::kWhite, Kind::kSun, 1)));
  EXPECT_FALSE(V("standard", 8, 2).HasPiece(MakePiece(Side::kWhite, Kind::kStar, 5)));
  EXPECT_FALSE(V("standard", 6, 1).HasPiece(MakePiece(Side::kBlack, Kind::kMoon, 1)));
}

TEST(Targets, PositionTargetsCoverThePiecesOnTheBoard) {
  const Variant& v = V("standard");
  Position pos = P(v, "w S1a1,m2g9 0 -");
  const Geometry& g = v.geometry();
  EXPECT_EQ(pos.targets(Side::kWhite), SquareBit(*ParseSquare(g, "b8")));
  EXPECT_EQ(pos.targets(Side::kBlack), SquareBit(*ParseSquare(g, "h2")));
  Position start = Position::Start(v);
  EXPECT_EQ(PopCount(start.targets(Side::kWhite)), 15);
  EXPECT_EQ(start.targets(Side::kWhite), g.rank_mask(7) | g.rank_mask(8) | g.rank_mask(9));
  EXPECT_EQ(start.targets(Side::kBlack), g.rank_mask(0) | g.rank_mask(1) | g.rank_mask(2));
}

TEST(Targets, CompletedNeedsEveryPieceHome) {
  const Variant& v = V("standard");
  EXPECT_TRUE(P(v, "b S1b8,M1a9,s1e5 1 x").Completed(Side::kWhite));
  EXPECT_FALSE(P(v, "b S1b8,M1c9,s1e5 1 -").Completed(Side::kWhite));
  // A piece on another piece's target does not count.
  EXPECT_FALSE(P(v, "b S1d8,s1e5 1 -").Completed(Side::kWhite));
  // No pieces: not completed.
  EXPECT_FALSE(P(v, "w s1e5 0 -").Completed(Side::kWhite));
}

// ---------------------------------------------------------------------------
// Geometries other than 10x10

TEST(Geometries, StartPositionMoves) {
  EXPECT_EQ(
      Legal(Position::Start(V("standard"))),
      (Moves{"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4", "i3-h4", "i3-j4"}));
  EXPECT_EQ(Legal(Position::Start(V("standard", 4, 1))), (Moves{"a1-b2", "c1-b2", "c1-d2"}));
  EXPECT_EQ(Legal(Position::Start(V("standard", 6, 1))),
            (Moves{"a1-b2", "c1-b2", "c1-d2", "e1-d2", "e1-f2"}));
  EXPECT_EQ(Legal(Position::Start(V("standard", 8, 2))),
            (Moves{"b2-a3", "b2-c3", "d2-c3", "d2-e3", "f2-e3", "f2-g3", "h2-g3"}));
  EXPECT_EQ(Legal(Position::Start(V("standard", 8, 3))),
            (Moves{"a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"}));
  EXPECT_EQ(Legal(Position::Start(V("forward", 6, 1))),
            (Moves{"a1-b2", "c1-b2", "c1-d2", "e1-d2", "e1-f2"}));
}

TEST(Geometries, BlackRepliesOnSmallBoards) {
  Position pos = Position::Start(V("standard", 4, 1));
  Play(pos, "a1-b2");
  EXPECT_EQ(Legal(pos), (Moves{"d4-c3", "b4-a3", "b4-c3"}));
  Position six = Position::Start(V("standard", 6, 1));
  Play(six, "c1-d2");
  EXPECT_EQ(Legal(six), (Moves{"f6-e5", "d6-c5", "d6-e5", "b6-a5", "b6-c5"}));
}

TEST(Geometries, JumpsAndEdgesOn6x6) {
  // f-file is the right edge of 6x6; rank 6 the top.
  const Variant& v = V("standard", 6, 1);
  EXPECT_EQ(Legal(P(v, "w S1d4,s1e5,s2a1 0 -")), (Moves{"d4xf6"}));
  EXPECT_EQ(Legal(P(v, "w S1e5,s1f6,s2a1 0 -")), (Moves{"e5-d4", "e5-f4", "e5-d6"}));
  EXPECT_EQ(Legal(P(V("standard chain=on", 6, 1), "w S1a1,s1b2,s2d4,s3f6 0 -")),
            (Moves{"a1xc3", "a1xe5"}));
}

TEST(Geometries, FourByFourGameEnds) {
  // 4x4 with one row: White star 1 a1 -> b4, star 2 c1 -> d4.
  const Variant& v = V("standard", 4, 1);
  Position pos = P(v, "w S1a3,S2d4,s1a1,s2d2 5 -");
  EXPECT_EQ(Legal(pos), (Moves{"a3-b2", "a3-b4", "d4-c3"}));
  Play(pos, "a3-b4");
  EXPECT_EQ(pos.phase(), Phase::kExtraMove);
  // Black's extra move. d2-c1 puts Black's star 2 on star 1's target c1:
  // not a completion, White wins.
  EXPECT_EQ(Legal(pos), (Moves{"a1-b2", "d2-c1", "d2-c3"}));
  Play(pos, "d2-c1");
  EXPECT_TRUE(pos.over());
  EXPECT_EQ(StatusOf(pos).outcome, Outcome::kWhiteWins);
}

// The counts of the fast paths agree with the move lists in the positions above.
TEST(Geometries, CountLegalMatchesGenerateLegalOnSmallBoardsInRandomPlay) {
  for (int size : {4, 6, 8}) {
    for (const char* spec : {"standard", "pre1900", "forward", "standard chain=on jump-dir=any",
                             "standard block=allow jump-over=any", "standard extra-move=off"}) {
      const Variant& v = V(spec, size, size == 4 ? 1 : 2);
      uint64_t state = 12345;
      for (int game = 0; game < 20; ++game) {
        Position pos = Position::Start(v);
        for (int ply = 0; ply < 200 && !pos.over(); ++ply) {
          MoveList list;
          GenerateLegal(pos, list);
          ASSERT_EQ(CountLegal(pos), list.size()) << spec << " " << PositionToString(pos);
          if (list.empty()) break;
          state = state * 6364136223846793005ull + 1442695040888963407ull;
          pos.Make(list[int((state >> 33) % uint64_t(list.size()))]);
        }
      }
    }
  }
}

}  // namespace
}  // namespace salta
