// A perfect index of placements of distinct pieces: k labelled pieces on
// distinct squares of an S-square board are numbered densely, 0 to
// S!/(S-k)! - 1, and back. Tables over placements (endgame tables, the
// scoring count's pattern databases) are then arrays, not hash maps.
//
// The number is mixed radix: piece i contributes the rank of its square among
// the squares pieces 0..i-1 left free, so piece 0 is the most significant
// digit and the last piece the least (its moves change the number least).
#pragma once

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "salta/bitboard.h"

namespace salta {

class PlacementIndex {
 public:
  static constexpr int kMaxPieces = 30;

  // k pieces on S squares; an error when k > S, k > kMaxPieces, S > 64, or
  // the count does not fit in 64 bits.
  static absl::StatusOr<PlacementIndex> Make(int num_squares, int num_pieces);

  int num_squares() const { return num_squares_; }
  int num_pieces() const { return num_pieces_; }
  // The number of placements: S * (S-1) * ... * (S-k+1).
  uint64_t size() const { return size_; }

  // squares[i] is the square of piece i; all distinct and below S.
  uint64_t Rank(const int8_t* squares) const {
    uint64_t index = 0;
    Bitboard used = 0;
    for (int i = 0; i < num_pieces_; ++i) {
      const Square s = squares[i];
      index += uint64_t(s - PopCount(used & (SquareBit(s) - 1))) * weight_[i];
      used |= SquareBit(s);
    }
    return index;
  }

  // The inverse of Rank; index < size().
  void Unrank(uint64_t index, int8_t* squares) const {
    Bitboard used = 0;
    for (int i = 0; i < num_pieces_; ++i) {
      const int digit = int(index / weight_[i]);
      index -= uint64_t(digit) * weight_[i];
      const Square s = NthFree(used, digit);
      squares[i] = int8_t(s);
      used |= SquareBit(s);
    }
  }

  // The square that is the n-th (from 0) not in `used`, counting upward.
  static Square NthFree(Bitboard used, int n) {
    // The least fixpoint of s = n + |used ∩ [0, s]|, reached from below.
    Square s = n;
    for (;;) {
      const Square t = n + PopCount(used & ((Bitboard(2) << s) - 1));
      if (t == s) return s;
      s = t;
    }
  }

 private:
  PlacementIndex() = default;

  int num_squares_ = 0;
  int num_pieces_ = 0;
  uint64_t size_ = 1;
  // weight_[i]: the product of the radices of the digits after piece i.
  std::array<uint64_t, kMaxPieces> weight_{};
};

}  // namespace salta
