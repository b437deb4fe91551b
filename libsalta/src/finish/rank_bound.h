// A bound for problems where pieces jump over each other, in which a group
// of pieces alone is no relaxation (the others are what it jumps over):
// the whole placement abstracted to the pieces' ranks. A step goes one rank
// forward; a jump needs some piece one rank ahead (any file) and lands two
// ranks ahead, and a chain goes on while there is one; squares, files and
// whether the landing square is free are forgotten. Every real move is
// such a move, so the exact count of the abstraction, found once for every
// vector of ranks, is a lower bound. Only where every move goes forward
// (the abstraction has no cycles) and the vectors are few (six pieces at
// most on 10x10).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "finish/problem.h"

namespace salta::finish_internal {

struct RankBound {
  // values[Index]: the count of the abstraction (kUnreachable: none).
  static constexpr uint8_t kUnreachable = 255;
  std::vector<uint8_t> values;
  std::array<uint32_t, kMaxPiecesInProblem> weight{};  // of piece i's rank
  std::array<int8_t, kMaxSquares> rank{};              // of each square

  uint32_t Index(const Squares& sq, int k) const {
    uint32_t index = 0;
    for (int i = 0; i < k; ++i) index += weight[i] * uint32_t(rank[sq[i]]);
    return index;
  }
  // The index after piece i moves from `from` to `to`.
  uint32_t Moved(uint32_t index, int i, Square from, Square to) const {
    return index + weight[i] * uint32_t(rank[to] - rank[from]);
  }
};

// The most rank vectors a bound is made for.
inline constexpr uint64_t kMaxRankVectors = uint64_t(1) << 20;

// The bound of p, or null where it does not apply: no jumps, a move that
// does not go forward, or too many rank vectors.
std::shared_ptr<const RankBound> MakeRankBound(const Problem& p);

}  // namespace salta::finish_internal
