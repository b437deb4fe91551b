#include "salta/legality.h"

#include <cstdlib>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "salta/game.h"
#include "salta/movegen.h"

namespace salta {
namespace {

absl::Status Illegal(absl::string_view why) {
  return absl::InvalidArgumentError(why);
}

bool IsForward(const Geometry& g, Side side, Square from, Square to) {
  return side == Side::kWhite ? g.rank_of(to) > g.rank_of(from) : g.rank_of(to) < g.rank_of(from);
}

// Why a single jump from `from` to `to` is not allowed, or OK.
absl::Status CheckOneJump(const Position& pos, Square from, Square to, Bitboard occupied,
                          absl::string_view rule_context) {
  const Variant& v = pos.variant();
  const Geometry& g = v.geometry();
  const Side side = pos.side_to_move();
  const int df = g.file_of(to) - g.file_of(from), dr = g.rank_of(to) - g.rank_of(from);
  if (std::abs(df) != 2 || std::abs(dr) != 2)
    return Illegal(absl::StrCat(SquareName(g, from), "-", SquareName(g, to),
                                " is not a legal step or jump", rule_context));
  const Square over = g.at(g.file_of(from) + df / 2, g.rank_of(from) + dr / 2);
  if (Contains(occupied, to))
    return Illegal(absl::StrCat("destination ", SquareName(g, to), " is occupied"));
  if (!Contains(occupied, over))
    return Illegal(absl::StrCat("no piece on ", SquareName(g, over), " to jump over"));
  if (v.rules().jump_dir == JumpDir::kForward && !IsForward(g, side, from, to))
    return Illegal(absl::StrCat("backward jump ", SquareName(g, from), "-", SquareName(g, to),
                                ": jumps go forward only (jump-dir=forward)"));
  if (v.rules().jump_over == JumpOver::kOpponent && Contains(pos.pieces(side), over))
    return Illegal(absl::StrCat("jump over the wrong piece: ", SquareName(g, over),
                                " holds the mover's own ", PieceDescription(pos.piece_on(over)),
                                "; jumps go over an opponent's piece only (jump-over=opponent)"));
  return absl::OkStatus();
}

std::string ListMoves(const Position& pos, const std::vector<Move>& moves) {
  std::vector<std::string> names;
  for (Move m : moves) names.push_back(MoveToString(pos, m));
  return absl::StrJoin(names, ", ");
}

}  // namespace

bool IsMissedJump(const Position& pos, Move m) {
  if (m.is_pass() || m.jump || pos.over() || !pos.variant().rules().mandatory_jumps) return false;
  MoveList legal;
  GenerateLegal(pos, legal);
  if (legal.contains(m) || legal.empty() || !legal[0].jump) return false;
  // Legal without the mandatory-jump rule: in M, and not removed by the block filter.
  Rules optional = pos.variant().rules();
  optional.mandatory_jumps = false;
  absl::StatusOr<const Variant*> v = Variant::Get(pos.variant().geometry(), optional);
  if (!v.ok()) return false;
  std::vector<std::pair<PieceId, Square>> pieces;
  for (PieceId p = 0; p < kMaxPieces; ++p)
    if (pos.square_of(p) != kNoSquare) pieces.emplace_back(p, pos.square_of(p));
  absl::StatusOr<Position> relaxed = Position::Make(**v, pieces, pos.side_to_move(), pos.ply());
  if (!relaxed.ok()) return false;
  MoveList all;
  GenerateLegal(*relaxed, all);
  return all.contains(m);
}

absl::StatusOr<Move> ResolveMove(const Position& pos, const MoveText& text) {
  const Variant& v = pos.variant();
  const Geometry& g = v.geometry();
  const Side side = pos.side_to_move();
  if (pos.over())
    return Illegal(
        absl::StrCat("the game is already over (", EndReasonName(StatusOf(pos).reason), ")"));
  MoveList legal;
  GenerateLegal(pos, legal);

  if (text.is_pass()) {
    if (legal.size() == 1 && legal[0].is_pass()) return Move::Pass();
    if (legal.empty()) return Illegal(absl::StrCat(SideName(side), " has no move and has lost"));
    return Illegal(absl::StrCat("cannot pass: ", SideName(side), " has a legal move, e.g. ",
                                MoveToString(pos, legal[0])));
  }

  const Square from = text.path.front(), to = text.path.back();
  const PieceId piece = pos.piece_on(from);
  if (piece == kNoPiece) return Illegal(absl::StrCat("no piece on ", SquareName(g, from)));
  if (SideOf(piece) != side)
    return Illegal(absl::StrCat(SquareName(g, from), " holds ", PieceDescription(piece),
                                ", an opponent's piece: ", SideName(side), " is to move"));
  if (from == to) return Illegal("the move starts and ends on the same square");
  if (pos.piece_on(to) != kNoPiece)
    return Illegal(absl::StrCat("destination ", SquareName(g, to), " is occupied"));

  const int df = g.file_of(to) - g.file_of(from), dr = g.rank_of(to) - g.rank_of(from);
  const bool step = std::abs(df) == 1 && std::abs(dr) == 1;
  Move move;
  if (step) {
    if (text.path.size() > 2) return Illegal("a step has no intermediate squares");
    if (v.rules().steps == Steps::kForward && !IsForward(g, side, from, to))
      return Illegal(absl::StrCat("backward step ", SquareName(g, from), "-", SquareName(g, to),
                                  ": steps go forward only (steps=forward)"));
    move = Move::Step(from, to);
  } else {
    // Each written jump must be allowed, then the ends must be a jump move.
    const Bitboard occupied = pos.occupied() & ~SquareBit(from);
    if (text.path.size() > 2 && !v.rules().chain)
      return Illegal("only one jump per move: chains are off (chain=off)");
    Bitboard visited = SquareBit(from);
    for (size_t i = 0; i + 1 < text.path.size(); ++i) {
      const Square a = text.path[i], b = text.path[i + 1];
      if (absl::Status s = CheckOneJump(pos, a, b, occupied, ""); !s.ok()) {
        if (text.path.size() == 2 && v.rules().chain &&
            Contains(JumpTargets(v, side, from, occupied,
                                 Jumpable(v.rules(), occupied & pos.pieces(side),
                                          pos.pieces(Opponent(side)))),
                     to))
          break;  // a chain written by its ends only
        return s;
      }
      if (Contains(visited, b))
        return Illegal(absl::StrCat("the chain visits ", SquareName(g, b), " twice"));
      visited |= SquareBit(b);
    }
    move = Move::Jump(from, to);
  }
  if (legal.contains(move)) return move;

  // In M, but not legal: the filter or the mandatory jump removed it.
  MoveList raw;
  GenerateRaw(pos, side, raw);
  if (!raw.contains(move))
    return Illegal(
        absl::StrCat(SquareName(g, from), "-", SquareName(g, to), " is not a legal step or jump"));
  std::vector<Move> jumps;
  for (Move m : legal)
    if (m.jump) jumps.push_back(m);
  if (!move.jump && !jumps.empty() && v.rules().mandatory_jumps) {
    if (IsMissedJump(pos, move))
      return Illegal(
          absl::StrCat("jump required (Salta!): the legal jumps are ", ListMoves(pos, jumps)));
  }
  return Illegal(absl::StrCat("move would leave ", SideName(Opponent(side)),
                              " without a move (block=forbid)"));
}

absl::StatusOr<Move> ParseMove(const Position& pos, absl::string_view text) {
  absl::StatusOr<MoveText> parsed = ParseMoveText(pos.variant().geometry(), text);
  if (!parsed.ok()) return parsed.status();
  return ResolveMove(pos, *parsed);
}

}  // namespace salta
