// A position as text for a terminal: the board with file letters above and
// below and rank numbers on both sides. docs/salta-show.md shows examples.
//
//       a   b   c   d
//    4      s2      s1  4
//    3  ..      ..      3
//    2      ..     [S2] 2        (after the move c1-d2)
//    1  S1     [..]     1
//       a   b   c   d
//
// Each square is four characters wide: a piece as its letter and number
// (White upper case: S1 M3 U5; Black lower case), an empty dark square
// "..", a light square blank. The squares of the last move are in [ ],
// marked squares in ( ) (the last move wins where both apply).
#pragma once

#include <string>

#include "salta/board_view.h"
#include "salta/position.h"

namespace salta {

struct TextOptions {
  BoardView view;
  // UTF-8 symbols for the kinds instead of letters: White's outlined
  // (☆ star, ☽ moon, ☼ sun), Black's filled (★, ☾, ☀); "··" for an empty
  // dark square.
  bool utf8 = false;
  // ANSI colours (256-colour palette): brown and tan squares, white and
  // black pieces. Only for a terminal that asked for them.
  bool color = false;
};

// The board, one line per rank plus the two coordinate lines, each ending in
// a newline. No line has trailing spaces.
std::string RenderText(const Position& pos, const TextOptions& options);

}  // namespace salta
