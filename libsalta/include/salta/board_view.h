// What a picture of a position shows besides the pieces: which side is at
// the bottom, the last move and marked squares. The text and SVG renderers
// (render_text.h, render_svg.h) take it as part of their options.
#pragma once

#include <vector>

#include "salta/bitboard.h"
#include "salta/move.h"
#include "salta/position.h"

namespace salta {

struct BoardView {
  // Black's side at the bottom (rank N at the bottom, file a on the right).
  bool flip = false;
  // The last move's squares in order: its from-square, then each landing
  // square (MoveSquares). Empty: no last move shown.
  std::vector<Square> last_move;
  // Squares to mark, e.g. a side's target squares.
  Bitboard marked = 0;
};

// The squares of a legal move m as played from `before`: the from-square,
// then the landing squares of a shortest jump path (a step or a single jump:
// just the to-square). Empty for a pass.
std::vector<Square> MoveSquares(const Position& before, Move m);

// Where a square is drawn: its column from the left and row from the top of
// the board, 0 to N-1, seen from White's side or, flipped, from Black's.
struct BoardCell {
  int column = 0;
  int row = 0;
};
BoardCell CellOf(const Geometry& g, int file, int rank, bool flip);

}  // namespace salta
