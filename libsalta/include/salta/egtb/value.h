// The value of a position in an endgame table, for the side to move: win,
// loss or draw, and the plies to the end of the game under optimal play (the
// winner ends it as fast as it can, the loser holds out as long as it can;
// Black's extra move is a ply like any other).
//
// In memory and on disk a value is a code: 0 a draw (while building: not
// resolved yet), 2n+1 a win in n plies, 2n+2 a loss in n plies. A finished
// game is a win or loss in 0 plies for the side to move, or a draw.
#pragma once

#include <cstdint>
#include <string>

namespace salta::egtb {

using Code = uint16_t;
inline constexpr Code kDraw = 0;
// The longest distance a code holds.
inline constexpr int kMaxPlies = (UINT16_MAX - 2) / 2;

enum class Wdl : uint8_t { kDraw, kWin, kLoss };

constexpr Code WinIn(int plies) {
  return Code(2 * plies + 1);
}
constexpr Code LossIn(int plies) {
  return Code(2 * plies + 2);
}
constexpr bool IsWin(Code c) {
  return c & 1;
}
constexpr bool IsLoss(Code c) {
  return c != kDraw && !(c & 1);
}
constexpr Wdl WdlOf(Code c) {
  return c == kDraw ? Wdl::kDraw : IsWin(c) ? Wdl::kWin : Wdl::kLoss;
}
// The plies of a win or loss; -1 for a draw.
constexpr int PliesOf(Code c) {
  return c == kDraw ? -1 : (c - 1) / 2;
}

// "win", "loss", "draw".
inline std::string WdlName(Wdl w) {
  return w == Wdl::kWin ? "win" : w == Wdl::kLoss ? "loss" : "draw";
}

}  // namespace salta::egtb
