#include "salta/board_view.h"

#include "salta/notation.h"

namespace salta {

std::vector<Square> MoveSquares(const Position& before, Move m) {
  if (m.is_pass()) return {};
  std::vector<Square> squares{m.from};
  if (m.jump) {
    std::vector<Square> path = JumpPath(before, m);
    squares.insert(squares.end(), path.begin(), path.end());
  }
  if (squares.back() != m.to) squares.push_back(m.to);
  return squares;
}

BoardCell CellOf(const Geometry& g, int file, int rank, bool flip) {
  const int n = g.size();
  return flip ? BoardCell{n - 1 - file, rank} : BoardCell{file, n - 1 - rank};
}

}  // namespace salta
