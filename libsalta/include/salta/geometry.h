// Board geometry: N x N board (N even, 4..10), R piece rows per side (1..3,
// 2R < N). Only dark squares are used; (file + rank) even is dark, a1 dark.
#pragma once

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>

#include "absl/status/statusor.h"
#include "salta/bitboard.h"

namespace salta {

// Diagonal directions as seen from White's side: "up" is toward rank N.
enum Direction : int { kUpLeft = 0, kUpRight = 1, kDownLeft = 2, kDownRight = 3 };
inline constexpr int kNumDirections = 4;

class Geometry {
 public:
  static constexpr int kMinSize = 4;
  static constexpr int kMaxSize = 10;
  static constexpr int kMaxRows = 3;

  // The real game: 10x10, three rows.
  Geometry() : Geometry(10, 3) {}
  // Checks 4 <= n <= 10, n even, 1 <= rows <= 3, 2*rows < n.
  static absl::StatusOr<Geometry> Make(int size, int rows);

  int size() const { return size_; }
  int rows() const { return rows_; }
  int half() const { return size_ / 2; }  // dark squares per rank
  int num_squares() const { return size_ * size_ / 2; }
  Bitboard all() const { return all_; }
  Bitboard rank_mask(int rank) const { return rank_mask_[rank]; }

  int file_of(Square s) const { return 2 * (s % half()) + ((s / half()) & 1); }
  int rank_of(Square s) const { return s / half(); }
  // The dark square at (file, rank), both from 0; kNoSquare if light or off the board.
  Square at(int file, int rank) const;
  // Diagonal steps from a to b on an empty board, steps in all four directions.
  int distance(Square a, Square b) const {
    return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
  }
  // The square as seen from the other side of the board.
  Square rotate(Square s) const { return num_squares() - 1 - s; }
  // Diagonal neighbour, or kNoSquare past the edge.
  Square neighbor(Square s, Direction d) const { return neighbor_[d][s]; }

  // Every square of b moved one step in direction d (pieces falling off vanish).
  Bitboard shift(Bitboard b, Direction d) const {
    switch (d) {
      case kUpLeft:
        return shift<kUpLeft>(b);
      case kUpRight:
        return shift<kUpRight>(b);
      case kDownLeft:
        return shift<kDownLeft>(b);
      case kDownRight:
        return shift<kDownRight>(b);
    }
    return 0;
  }
  // The same with the direction fixed at compile time, for the hot paths.
  template <Direction d>
  Bitboard shift(Bitboard b) const {
    const Shift& t = shift_[d];
    if constexpr (d <= kUpRight) return ((b & t.mask_a) << t.by_a) | ((b & t.mask_b) << t.by_b);
    return ((b & t.mask_a) >> t.by_a) | ((b & t.mask_b) >> t.by_b);
  }

  bool operator==(const Geometry& o) const { return size_ == o.size_ && rows_ == o.rows_; }
  std::string ToString() const;  // "10x10, 3 rows"

 private:
  Geometry(int size, int rows);

  struct Shift {
    Bitboard mask_a, mask_b;
    int by_a, by_b;
  };
  int size_;
  int rows_;
  Bitboard all_;
  std::array<Bitboard, kMaxSize> rank_mask_{};
  std::array<Shift, kNumDirections> shift_{};
  std::array<std::array<Square, kMaxSquares>, kNumDirections> neighbor_{};
};

}  // namespace salta
