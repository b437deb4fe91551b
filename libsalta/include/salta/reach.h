// Why a side can never complete its goal on the clear board (the scoring
// count's board, docs/scoring.md): the first of its pieces that cannot reach
// its target even alone, and why, in words. Under forward-only moves a piece
// changes file by at most one for each rank it advances, so a target more
// files across than ranks ahead, or behind the piece, is out of reach.
#pragma once

#include <optional>
#include <string>

#include "salta/piece.h"
#include "salta/position.h"

namespace salta {

// "White sun 1 on a3 cannot reach its target j8: 9 files across with only 5
// ranks to go, and every move goes forward, one file per rank at most".
// nullopt when every piece of `side` on the board can reach its target
// alone (the side may still be unable to finish: pieces can block each
// other for good; see PiecesBlockEachOther).
std::optional<std::string> UnreachablePiece(const Position& pos, Side side);

// The words for a goal that no sequence reaches although each piece alone
// could reach its target.
inline constexpr const char* kPiecesBlockEachOther =
    "its pieces block each other for good: no order of moves brings them all home";

}  // namespace salta
