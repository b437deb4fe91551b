// Shortening a way to finish: one piece at a time, the piece's moves are
// taken out and the fewest moves that bring it to its target between the
// other pieces' moves, in their order, are put back (a search over the
// piece's square and the number of the others' moves made); then two
// pieces at a time the same way. Detours that a beam search takes around
// pieces that later leave are removed; the others' moves stay as they are,
// so the way remains legal. And a large neighbourhood search that takes a
// few pieces out at a time and puts them back one by one (the Inserter).
// Steps only.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "finish/problem.h"
#include "finish/search.h"

namespace salta::finish_internal {

// Shortens `way` (a way to finish of p, every move a step) while replanning
// a piece gains, and with `pairs_too` (slower: the search is over both
// squares) a piece that detours together with each other piece; returns
// whether it got shorter. Stops replanning at the deadline.
bool Shorten(const Problem& p, bool pairs_too, Clock::time_point deadline,
             std::vector<PieceMove>& way);

// Puts a piece that has no moves in a way in, with the fewest moves that
// bring it to its target between the way's moves (the way's moves may land
// on its start: it must leave first). The same search as the shortening's
// for one piece, over sets of squares, one set for each number of moves
// made and of the way's moves played; ties between optimal insertions are
// broken at random, so that a large neighbourhood search drifts over ways
// of equal length. Buffers are kept from call to call.
class Inserter {
 public:
  explicit Inserter(const Problem& p) : p_(p) {}

  // False where no insertion exists (the way stays as it is). The pieces
  // of `absent` (put in later) are off the board; the way must be legal
  // without them and the piece (its moves may land on the piece's start).
  bool Insert(int piece, uint32_t absent, std::vector<PieceMove>& way, std::mt19937_64& random);

 private:
  const Problem& p_;
  std::vector<Bitboard> free_, reach_, keep_;
  std::vector<std::pair<int, PieceMove>> steps_;
  std::vector<PieceMove> merged_;
};

// Large neighbourhood search (after Li et al.'s MAPF-LNS): each round
// takes the moves of a few pieces out of `way` (a piece that detours and
// pieces whose squares meet its own) and puts them back one at a time in a
// random order, each with the fewest moves between the moves the way has
// by then, the pieces still out off the board; the result is kept when it
// is no longer (now and then when it is two moves longer than the best
// found). Until the way is `lower` moves long or the limits stop it
// (max_nodes counts rounds); `way` becomes the shortest found, `rounds`
// counts the rounds. Returns whether it got shorter. Steps only.
struct NeighbourhoodOptions {
  int most_pieces = 4;       // taken out in a round, at most
  uint64_t worse_odds = 30;  // a way two moves longer than the best: kept once in so many
  uint64_t seed = 1;
};
bool ShortenByNeighbourhoods(const Problem& p, int lower, const NeighbourhoodOptions& options,
                             const SearchLimits& limits, std::vector<PieceMove>& way,
                             uint64_t& rounds);

// Makes `way`, a sequence of steps in which some pieces do not reach their
// targets (a way of some of the pieces alone, the others standing still),
// a way to finish: each piece short of its target, the farthest first,
// gets the fewest moves that bring it there between the moves of the
// others, in their order (the search Shorten replans with). False where
// some piece finds no such moves.
bool CompleteWay(const Problem& p, std::vector<PieceMove>& way);

}  // namespace salta::finish_internal
