// A plain endgame solver, independent of the library's tables: it numbers
// the positions of a class itself (an odometer over the dark squares, not
// salta/index.h), builds the game graph with the reference move generator
// (reference_movegen.h: its LegalMoves, Play and StatusOf), and finds the
// values by value iteration until nothing changes. Obvious and slow: the
// endgame tables (salta/egtb/) are checked against it entry by entry.
//
// Values are the tables' codes (salta/egtb/value.h): 0 a draw, 2n+1 a win in
// n plies for the side to move, 2n+2 a loss in n plies.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "reference_movegen.h"
#include "salta/egtb/value.h"
#include "salta/piece.h"
#include "salta/rules.h"

namespace salta::egtb_reference {

using egtb::Code;

// A class as the plain solver sees it: a board, rules and pieces.
struct PlainClass {
  int size = 4;
  int rows = 1;
  Rules rules;
  std::vector<PieceId> pieces;  // any order; each piece once
};

struct PlainTally {
  uint64_t positions = 0, wins = 0, losses = 0, draws = 0;
  int longest_win = -1;  // plies; -1 if nothing is won
};

class PlainTable {
 public:
  // Every placement of the class's pieces on distinct dark squares, each side
  // to move, solved. Finished games get their value from reference::StatusOf,
  // except that both goals completed is a draw whoever is to move (the
  // reference infers a winner for the placements no game reaches, which
  // the solver checks no move leads to). An error if the reference
  // generator contradicts itself (a position in play with no legal move, a
  // move out of the class) or a move reaches such a placement.
  static absl::StatusOr<PlainTable> Solve(const PlainClass& cls);

  const PlainClass& cls() const { return cls_; }
  uint64_t size() const { return side_.size(); }
  // Position i at ply 0; its pieces' squares are dark-square numbers
  // (reference::SquareIndex).
  reference::RefPosition Position(uint64_t i) const;
  // The number of a position of the class; -1 if it is not one.
  int64_t Find(const reference::RefPosition& pos) const;

  Code value(uint64_t i) const { return values_[i]; }
  const std::vector<Code>& values() const { return values_; }
  bool terminal(uint64_t i) const { return terminal_[i]; }
  // The positions the legal moves of i lead to, in reference::LegalMoves order.
  std::span<const uint32_t> children(uint64_t i) const {
    return std::span<const uint32_t>(children_).subspan(first_child_[i],
                                                        first_child_[i + 1] - first_child_[i]);
  }
  // Sweeps of value iteration until the fixpoint.
  int sweeps() const { return sweeps_; }
  PlainTally Tally() const;

  // What position i's value must be given every position's `values`: the
  // outcome for a finished game; else a win in 1 + the least n over children
  // lost in n, or a loss in 1 + the most n over children if every child is a
  // win, or a draw.
  Code Derive(uint64_t i, std::span<const Code> values) const;

 private:
  PlainClass cls_;
  int squares_ = 0;
  std::vector<int8_t> placement_;  // size() x pieces: each piece's square
  std::vector<uint8_t> side_;
  std::vector<int64_t> by_key_;  // odometer key * 2 + side -> position number, or -1
  std::vector<uint8_t> terminal_;
  // Both goals completed where reference::StatusOf has no draw: unreachable.
  std::vector<uint8_t> both_completed_;
  std::vector<Code> values_;
  std::vector<uint64_t> first_child_;
  std::vector<uint32_t> children_;
  int sweeps_ = 0;
};

// "win in 3", "loss in 0", "draw".
std::string CodeName(Code c);

}  // namespace salta::egtb_reference
