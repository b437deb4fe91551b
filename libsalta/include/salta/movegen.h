// Legal moves, exactly as docs/rules.md defines them.
//
// M is every step and jump (chains with every prefix) the options allow.
// Legal moves are M after the block filter (block=forbid; kept whole when it
// would remove everything), then only the jumps of it if jumps are mandatory
// and it holds one. With M empty the side passes (block=forbid or allow) or
// has no move (block=lose, or Black's extra move: the game is then over).
#pragma once

#include "salta/bitboard.h"
#include "salta/move.h"
#include "salta/piece.h"
#include "salta/position.h"

namespace salta {

// Legal moves of the side to move, a pass if that is its only move, nothing
// when the game is over or the side has lost by being blocked.
void GenerateLegal(const Position& pos, MoveList& moves);
// The size of GenerateLegal's list, counted without listing where possible.
int CountLegal(const Position& pos);
// CountLegal of the position after the legal move m, mostly without making it.
int CountLegalAfter(const Position& pos, Move m);
// The number of legal two-move sequences (perft 2), and of three-move ones
// (perft 3): the bulk of perft's work, counted from the boards where the
// position allows (movegen.cpp says when) and the general way elsewhere.
uint64_t CountLegalTwoPly(const Position& pos);
uint64_t CountLegalThreePly(const Position& pos);
// The set M of side s, as if s were to move: steps and jumps, no filter.
void GenerateRaw(const Position& pos, Side s, MoveList& moves);
// Whether side s has any step or jump in the position (M is not empty).
bool IsMobile(const Position& pos, Side s);
// Whether m is among GenerateLegal's moves (from, to and the jump flag).
bool IsLegal(const Position& pos, Move m);

// Retrograde move generation: every step, jump and pass of the side that
// moved last (the opponent of the side to move) that could have led here,
// as moves of the position before it (Position::Unplay undoes one). These
// are candidates: whether one was legal there is IsLegal's judgement.
void GenerateUnmoves(const Position& pos, MoveList& moves);

// The pieces a jump may go over, seen from the side that owns `own`: the
// opponent's (jump-over=opponent) or every piece (jump-over=any).
Bitboard Jumpable(const Rules& rules, Bitboard own, Bitboard opp);

// One jump from every square of `from` in each of the directions: the
// landing squares in `empty` beyond a piece of `jumpable`.
Bitboard JumpStep(const Geometry& g, const Direction* dirs, int num_dirs, Bitboard from,
                  Bitboard empty, Bitboard jumpable);

// The jump walk: the squares a piece on `from` reaches by one jump, or, with
// `chain`, by a chain of jumps (every prefix a move), in the given
// directions, over pieces of `jumpable`, landing only on squares outside
// `occupied` (which must not hold the moving piece). A chain never lands on
// a square twice; every walk contains such a chain, so the reach is the
// closure of single jumps.
Bitboard JumpReach(const Geometry& g, const Direction* dirs, int num_dirs, bool chain, Square from,
                   Bitboard occupied, Bitboard jumpable);

// JumpReach with the jump directions and chain rule of the variant for a
// piece of side `side`.
Bitboard JumpTargets(const Variant& v, Side side, Square from, Bitboard occupied,
                     Bitboard jumpable);

}  // namespace salta
