// The exact count where pieces jump, every move goes forward and the
// pieces are few (the forward preset's one-row boards: five pieces on
// 10x10 that jump over each other, where no database applies and the rank
// bound is far below the count; where pieces only step, the databases do
// better). A piece then only ever stands in its cone: the squares it can
// reach from where it stands and still reach its target from (by moves
// relaxed as if every jump had its piece to jump over). Every placement
// of the pieces within their cones gets its count, in one pass: ordered
// by rank within each cone, a move raises its piece's place there, and so
// the placement's index, so a placement comes after all its successors
// when the indices are taken from the highest down. No way leaves the
// cones, so the start's value is the count.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "finish/limits.h"
#include "finish/problem.h"
#include "huge_page_allocator.h"

namespace salta::finish_internal {

struct ConeTable {
  // No way to the goal (or no placement: two pieces on one square).
  static constexpr uint8_t kNone = 255;
  // cone[i]: piece i's cone, by rank; place[i][s]: where s is in it (-1:
  // not in it); stride[i]: piece i's place's weight in the index.
  std::array<std::vector<int8_t>, kMaxPiecesInProblem> cone;
  std::array<std::array<int8_t, kMaxSquares>, kMaxPiecesInProblem> place{};
  std::array<uint64_t, kMaxPiecesInProblem> stride{};
  // The placements within the cones (the product of their sizes,
  // saturated at UINT64_MAX): the size of `values` once built.
  uint64_t placements = 0;
  // values[index]: the placement's count (kNone: none). On huge pages: the
  // 3.6 MB of the forward start on 10x10 took about 8 ms of page faults
  // on small ones, of a count of 0.14 s.
  std::vector<uint8_t, HugePageAllocator<uint8_t>> values;

  uint64_t IndexOf(const Squares& sq, int k) const {
    uint64_t index = 0;
    for (int i = 0; i < k; ++i) index += uint64_t(place[i][sq[i]]) * stride[i];
    return index;
  }
  // The index after piece i moves from `from` to `to`, both in its cone
  // (`to` after `from`: every move goes forward).
  uint64_t Moved(uint64_t index, int i, Square from, Square to) const {
    return index + uint64_t(place[i][to] - place[i][from]) * stride[i];
  }
};

// The pieces' cones, places, strides and placements of p into `table`
// (not its values); returns the placements (the table's size), or 0
// where the table does not apply: no jumps, a move that does not go
// forward, or a piece that cannot reach its target. Saturates at
// UINT64_MAX.
uint64_t MakeCones(const Problem& p, ConeTable& table);

// The values of the table whose cones MakeCones made (of at most a few
// million placements); false where `limits` stopped it first (time or the
// other count's word: it looks every 65,536 placements; the node limit is
// the caller's, a placement a node).
bool BuildConeTable(const Problem& p, const SearchLimits& limits, ConeTable& table);

// A shortest way from p's start to its goal, by the table (empty where the
// start's value is kNone or 0).
std::vector<PieceMove> ConeWay(const Problem& p, const ConeTable& table);

}  // namespace salta::finish_internal
