// Diagonal shifts on a board whose size is fixed at compile time, for the
// hot loops: the masks and shift counts are constants, where Geometry reads
// them from its tables. The numbering and the results are Geometry's
// (tests/perft_test.cpp compares every square and direction).
#pragma once

#include "salta/bitboard.h"
#include "salta/geometry.h"

namespace salta {

template <int kSize>
struct FixedGeometry {
  static_assert(kSize >= Geometry::kMinSize && kSize <= Geometry::kMaxSize && kSize % 2 == 0);
  static constexpr int kHalf = kSize / 2;
  static constexpr int kSquares = kSize * kHalf;

  static constexpr Bitboard all() { return (Bitboard{1} << kSquares) - 1; }

  // Every square of b moved one step in direction d (pieces falling off vanish).
  template <Direction d>
  static constexpr Bitboard shift(Bitboard b) {
    constexpr Shift t = MakeShift(d);
    if constexpr (d <= kUpRight) return ((b & t.mask_a) << t.by_a) | ((b & t.mask_b) << t.by_b);
    return ((b & t.mask_a) >> t.by_a) | ((b & t.mask_b) >> t.by_b);
  }

 private:
  // A step changes the index by one of two amounts, by the parity of the
  // rank: mask_a holds the even ranks' squares that have a neighbour in the
  // direction, mask_b the odd ranks'.
  struct Shift {
    Bitboard mask_a = 0, mask_b = 0;
    int by_a = 0, by_b = 0;
  };
  static constexpr Shift MakeShift(Direction d) {
    const int df = d == kUpLeft || d == kDownLeft ? -1 : 1;
    const int dr = d <= kUpRight ? 1 : -1;
    Shift t;
    for (int s = 0; s < kSquares; ++s) {
      const int rank = s / kHalf, file = 2 * (s % kHalf) + (rank & 1);
      const int f = file + df, r = rank + dr;
      if (f < 0 || f >= kSize || r < 0 || r >= kSize) continue;
      const int by = r * kHalf + f / 2 - s;
      if (rank % 2 == 0) {
        t.mask_a |= SquareBit(s);
        t.by_a = by < 0 ? -by : by;
      } else {
        t.mask_b |= SquareBit(s);
        t.by_b = by < 0 ? -by : by;
      }
    }
    return t;
  }
};

}  // namespace salta
