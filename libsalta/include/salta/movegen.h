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
// The number of legal two-move sequences (perft 2), the bulk of perft's work.
uint64_t CountLegalTwoPly(const Position& pos);
// The set M of side s, as if s were to move: steps and jumps, no filter.
void GenerateRaw(const Position& pos, Side s, MoveList& moves);
// Whether side s has any step or jump in the position (M is not empty).
bool IsMobile(const Position& pos, Side s);

// The squares a piece of side `side` on `from` can reach by jumps alone (one
// jump, or a chain where chains are on), over `occupied` (the moving piece
// itself excluded) where `jumpable` are the pieces it may jump over.
Bitboard JumpTargets(const Variant& v, Side side, Square from, Bitboard occupied,
                     Bitboard jumpable);

}  // namespace salta
