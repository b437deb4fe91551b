// A move is identified by its from- and to-square; a pass has neither.
#pragma once

#include <cstdint>

#include "salta/bitboard.h"

namespace salta {

struct Move {
  int8_t from = kNoSquare;
  int8_t to = kNoSquare;
  bool jump = false;  // a jump or a chain of jumps (never a step)

  static constexpr Move Pass() { return Move{}; }
  static constexpr Move Step(Square from, Square to) {
    return Move{int8_t(from), int8_t(to), false};
  }
  static constexpr Move Jump(Square from, Square to) {
    return Move{int8_t(from), int8_t(to), true};
  }
  constexpr bool is_pass() const { return from == kNoSquare; }
  constexpr bool operator==(const Move& o) const { return from == o.from && to == o.to; }
};

// Enough for every legal move of any position: each of 15 pieces reaches at
// most 49 squares.
inline constexpr int kMaxMoves = 768;

// A fixed buffer: move generation never allocates.
class MoveList {
 public:
  void clear() { size_ = 0; }
  void push(Move m) { moves_[size_++] = m; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Move& operator[](int i) const { return moves_[i]; }
  Move& operator[](int i) { return moves_[i]; }
  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + size_; }
  Move* begin() { return moves_; }
  Move* end() { return moves_ + size_; }
  void resize(int n) { size_ = n; }
  bool contains(Move m) const {
    for (int i = 0; i < size_; ++i)
      if (moves_[i] == m) return true;
    return false;
  }

 private:
  Move moves_[kMaxMoves];
  int size_ = 0;
};

}  // namespace salta
