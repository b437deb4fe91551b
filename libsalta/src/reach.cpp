#include "salta/reach.h"

#include <cstdlib>
#include <vector>

#include "absl/strings/str_cat.h"
#include "salta/notation.h"

namespace salta {
namespace {

// The squares one piece alone can reach on the clear board, if every jump
// the rules allow had a piece to jump over (so reachability can only be
// overstated, never understated).
Bitboard AloneReach(const Variant& v, Side side, Square from) {
  const Geometry& g = v.geometry();
  const bool jumps = v.rules().jump_over == JumpOver::kAny;  // only own pieces there
  Bitboard seen = SquareBit(from);
  std::vector<Square> todo{from};
  while (!todo.empty()) {
    const Square s = todo.back();
    todo.pop_back();
    auto visit = [&](Square t) {
      if (t == kNoSquare || Contains(seen, t)) return;
      seen |= SquareBit(t);
      todo.push_back(t);
    };
    for (int i = 0; i < v.num_step_dirs(); ++i) visit(g.neighbor(s, v.step_dirs(side)[i]));
    if (!jumps) continue;
    for (int i = 0; i < v.num_jump_dirs(); ++i) {
      const Direction d = v.jump_dirs(side)[i];
      const Square over = g.neighbor(s, d);
      if (over != kNoSquare) visit(g.neighbor(over, d));
    }
  }
  return seen;
}

}  // namespace

std::optional<std::string> UnreachablePiece(const Position& pos, Side side) {
  const Variant& v = pos.variant();
  const Geometry& g = v.geometry();
  const Rules& r = v.rules();
  const bool forward_only = r.steps == Steps::kForward &&
                            (r.jump_over != JumpOver::kAny || r.jump_dir == JumpDir::kForward);
  for (PieceId p = int(side) * kPiecesPerSide; p < (int(side) + 1) * kPiecesPerSide; ++p) {
    const Square from = pos.square_of(p), target = v.target(p);
    if (from == kNoSquare || Contains(AloneReach(v, side, from), target)) continue;
    const std::string head = absl::StrCat(PieceDescription(p), " on ", SquareName(g, from),
                                          " cannot reach its target ", SquareName(g, target));
    if (!forward_only) return absl::StrCat(head, ": no sequence of its moves gets there");
    const int ahead = side == Side::kWhite ? g.rank_of(target) - g.rank_of(from)
                                           : g.rank_of(from) - g.rank_of(target);
    const int across = std::abs(g.file_of(target) - g.file_of(from));
    if (ahead < 0)
      return absl::StrCat(head, ": it is ", -ahead, -ahead == 1 ? " rank" : " ranks",
                          " behind, and every move goes forward");
    return absl::StrCat(head, ": ", across, across == 1 ? " file" : " files", " across with only ",
                        ahead, ahead == 1 ? " rank" : " ranks",
                        " to go, and every move goes forward, one file per rank at most");
  }
  return std::nullopt;
}

}  // namespace salta
