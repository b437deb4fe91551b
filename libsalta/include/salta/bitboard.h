// Square sets: one bit per dark square, at most 50 squares (10x10).
#pragma once

#include <bit>
#include <cstdint>

namespace salta {

using Bitboard = uint64_t;
using Square = int;  // index of a dark square, rank by rank from White's side

inline constexpr Square kNoSquare = -1;
inline constexpr int kMaxSquares = 50;

constexpr Bitboard SquareBit(Square s) {
  return Bitboard{1} << s;
}
constexpr int PopCount(Bitboard b) {
  return std::popcount(b);
}
constexpr Square LowestSquare(Bitboard b) {
  return std::countr_zero(b);
}
// Removes and returns the lowest square; b must not be empty.
constexpr Square PopLowest(Bitboard& b) {
  Square s = std::countr_zero(b);
  b &= b - 1;
  return s;
}
constexpr bool Contains(Bitboard b, Square s) {
  return (b >> s) & 1;
}

}  // namespace salta
