#include "salta/movegen.h"

namespace salta {
namespace {

constexpr Direction Reverse(Direction d) { return Direction(3 - d); }

// The board as the side to move sees it.
struct Sides {
  Bitboard own, opp, empty, jumpable;
};

Sides SidesOf(const Variant& v, Bitboard own, Bitboard opp) {
  const Bitboard empty = v.geometry().all() & ~(own | opp);
  const Bitboard jumpable = v.rules().jump_over == JumpOver::kAny ? own | opp : opp;
  return {own, opp, empty, jumpable};
}

Bitboard StepTargets(const Variant& v, Side s, Bitboard own, Bitboard empty) {
  const Geometry& g = v.geometry();
  Bitboard t = 0;
  for (int i = 0; i < v.num_step_dirs(); ++i) t |= g.shift(own, v.step_dirs(s)[i]) & empty;
  return t;
}

bool Mobile(const Variant& v, Side s, const Sides& b) {
  const Geometry& g = v.geometry();
  for (int i = 0; i < v.num_step_dirs(); ++i)
    if (g.shift(b.own, v.step_dirs(s)[i]) & b.empty) return true;
  for (int i = 0; i < v.num_jump_dirs(); ++i) {
    const Direction d = v.jump_dirs(s)[i];
    if (g.shift(g.shift(b.own, d) & b.jumpable, d) & b.empty) return true;
  }
  return false;
}

// Counts M without listing it: (steps, jumps).
std::pair<int, int> CountRaw(const Variant& v, Side s, const Sides& b) {
  const Geometry& g = v.geometry();
  int steps = 0, jumps = 0;
  for (int i = 0; i < v.num_step_dirs(); ++i)
    steps += PopCount(g.shift(b.own, v.step_dirs(s)[i]) & b.empty);
  if (v.rules().chain) {
    const Bitboard occupied = b.own | b.opp;
    for (Bitboard pieces = b.own; pieces;) {
      const Square from = PopLowest(pieces);
      const Bitboard others = occupied & ~SquareBit(from);
      jumps += PopCount(JumpTargets(v, s, from, others, b.jumpable & others));
    }
    return {steps, jumps};
  }
  for (int i = 0; i < v.num_jump_dirs(); ++i) {
    const Direction d = v.jump_dirs(s)[i];
    jumps += PopCount(g.shift(g.shift(b.own, d) & b.jumpable, d) & b.empty);
  }
  return {steps, jumps};
}

void ListRaw(const Variant& v, Side s, const Sides& b, MoveList& moves) {
  const Geometry& g = v.geometry();
  for (int i = 0; i < v.num_step_dirs(); ++i) {
    const Direction d = v.step_dirs(s)[i];
    for (Bitboard t = g.shift(b.own, d) & b.empty; t;) {
      const Square to = PopLowest(t);
      moves.push(Move::Step(g.neighbor(to, Reverse(d)), to));
    }
  }
  if (v.rules().chain) {
    const Bitboard occupied = b.own | b.opp;
    for (Bitboard pieces = b.own; pieces;) {
      const Square from = PopLowest(pieces);
      const Bitboard others = occupied & ~SquareBit(from);
      for (Bitboard t = JumpTargets(v, s, from, others, b.jumpable & others); t;)
        moves.push(Move::Jump(from, PopLowest(t)));
    }
    return;
  }
  for (int i = 0; i < v.num_jump_dirs(); ++i) {
    const Direction d = v.jump_dirs(s)[i];
    for (Bitboard t = g.shift(g.shift(b.own, d) & b.jumpable, d) & b.empty; t;) {
      const Square to = PopLowest(t);
      moves.push(Move::Jump(g.neighbor(g.neighbor(to, Reverse(d)), Reverse(d)), to));
    }
  }
}

// Whether the block filter may remove anything here. It never can when the
// opponent can step to two different empty squares: a move fills only one.
bool FilterApplies(const Position& pos, const Sides& b) {
  const Variant& v = pos.variant();
  if (v.rules().block != Block::kForbid || pos.phase() == Phase::kExtraMove) return false;
  // The move that reaches the move limit ends the game whatever follows.
  if (v.limit_ply() > 0 && pos.ply() + 1 >= v.limit_ply()) return false;
  const Bitboard t = StepTargets(v, Opponent(pos.side_to_move()), b.opp, b.empty);
  return (t & (t - 1)) == 0;
}

// Whether the move ends the game by itself, so that blocking is no matter.
bool EndsGame(const Position& pos, Move m) {
  return (pos.side_to_move() == Side::kBlack || !pos.variant().rules().extra_move) &&
         pos.Completes(m);
}

// Keeps the moves after which the opponent can still move, unless that is none.
void FilterBlocking(const Position& pos, const Sides& b, MoveList& moves) {
  const Variant& v = pos.variant();
  const Side opp = Opponent(pos.side_to_move());
  int kept = 0;
  for (int i = 0; i < moves.size(); ++i) {
    const Move m = moves[i];
    const Bitboard own_after = b.own ^ SquareBit(m.from) ^ SquareBit(m.to);
    if (Mobile(v, opp, SidesOf(v, b.opp, own_after)) || EndsGame(pos, m)) moves[kept++] = m;
  }
  if (kept > 0) moves.resize(kept);
}

void KeepJumpsIfMandatory(const Variant& v, MoveList& moves) {
  if (!v.rules().mandatory_jumps) return;
  int jumps = 0;
  for (const Move& m : moves) jumps += m.jump;
  if (jumps == 0 || jumps == moves.size()) return;
  int kept = 0;
  for (int i = 0; i < moves.size(); ++i)
    if (moves[i].jump) moves[kept++] = moves[i];
  moves.resize(kept);
}

bool CanPass(const Position& pos) {
  return pos.phase() == Phase::kPlay && pos.variant().rules().block != Block::kLose;
}

}  // namespace

Bitboard JumpTargets(const Variant& v, Side side, Square from, Bitboard occupied,
                     Bitboard jumpable) {
  const Geometry& g = v.geometry();
  const Bitboard empty = g.all() & ~occupied;
  Bitboard reached = 0;
  if (!v.rules().chain) {
    for (int i = 0; i < v.num_jump_dirs(); ++i) {
      const Direction d = v.jump_dirs(side)[i];
      const Square over = g.neighbor(from, d);
      if (over == kNoSquare || !Contains(jumpable, over)) continue;
      const Square land = g.neighbor(over, d);
      if (land != kNoSquare && Contains(empty, land)) reached |= SquareBit(land);
    }
    return reached;
  }
  // Depth-first over chains; a chain never visits a square twice, so the
  // squares it has visited travel with it.
  struct Frame {
    Square at;
    Bitboard visited;
  };
  Frame stack[kMaxSquares + 1];
  int top = 0;
  stack[top++] = {from, SquareBit(from)};
  while (top > 0) {
    const Frame f = stack[--top];
    for (int i = 0; i < v.num_jump_dirs(); ++i) {
      const Direction d = v.jump_dirs(side)[i];
      const Square over = g.neighbor(f.at, d);
      if (over == kNoSquare || !Contains(jumpable, over)) continue;
      const Square land = g.neighbor(over, d);
      if (land == kNoSquare || !Contains(empty, land) || Contains(f.visited, land)) continue;
      reached |= SquareBit(land);
      stack[top++] = {land, f.visited | SquareBit(land)};
    }
  }
  return reached & ~SquareBit(from);
}

void GenerateRaw(const Position& pos, Side s, MoveList& moves) {
  moves.clear();
  const Variant& v = pos.variant();
  ListRaw(v, s, SidesOf(v, pos.pieces(s), pos.pieces(Opponent(s))), moves);
}

bool IsMobile(const Position& pos, Side s) {
  const Variant& v = pos.variant();
  return Mobile(v, s, SidesOf(v, pos.pieces(s), pos.pieces(Opponent(s))));
}

void GenerateLegal(const Position& pos, MoveList& moves) {
  moves.clear();
  if (pos.over()) return;
  const Variant& v = pos.variant();
  const Side s = pos.side_to_move();
  const Sides b = SidesOf(v, pos.pieces(s), pos.pieces(Opponent(s)));
  ListRaw(v, s, b, moves);
  if (moves.empty()) {
    if (CanPass(pos)) moves.push(Move::Pass());
    return;
  }
  if (FilterApplies(pos, b)) FilterBlocking(pos, b, moves);
  KeepJumpsIfMandatory(v, moves);
}

int CountLegal(const Position& pos) {
  if (pos.over()) return 0;
  const Variant& v = pos.variant();
  const Side s = pos.side_to_move();
  const Sides b = SidesOf(v, pos.pieces(s), pos.pieces(Opponent(s)));
  if (FilterApplies(pos, b)) {
    MoveList moves;
    GenerateLegal(pos, moves);
    return moves.size();
  }
  const auto [steps, jumps] = CountRaw(v, s, b);
  if (steps + jumps == 0) return CanPass(pos) ? 1 : 0;
  return v.rules().mandatory_jumps && jumps > 0 ? jumps : steps + jumps;
}

}  // namespace salta
