// Shortening a way to finish: one piece at a time, the piece's moves are
// taken out and the fewest moves that bring it to its target between the
// other pieces' moves, in their order, are put back (a search over the
// piece's square and the number of the others' moves made); then two
// pieces at a time the same way. Detours that a
// beam search takes around pieces that later leave are removed; the others'
// moves stay as they are, so the way remains legal. Steps only.
#pragma once

#include <vector>

#include "finish/problem.h"

namespace salta::finish_internal {

// Shortens `way` (a way to finish of p, every move a step) while replanning
// a piece gains, and with `pairs_too` (slower: the search is over both
// squares) a piece that detours together with each other piece; returns
// whether it got shorter. Stops replanning at the deadline.
bool Shorten(const Problem& p, bool pairs_too, Clock::time_point deadline,
             std::vector<PieceMove>& way);

// Makes `way`, a sequence of steps in which some pieces do not reach their
// targets (a way of some of the pieces alone, the others standing still),
// a way to finish: each piece short of its target, the farthest first,
// gets the fewest moves that bring it there between the moves of the
// others, in their order (the search Shorten replans with). False where
// some piece finds no such moves.
bool CompleteWay(const Problem& p, std::vector<PieceMove>& way);

}  // namespace salta::finish_internal
