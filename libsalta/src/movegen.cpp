#include "salta/movegen.h"

#include <array>

namespace salta {
namespace {

constexpr Direction Reverse(Direction d) {
  return Direction(3 - d);
}

// The board as the side to move sees it.
struct Sides {
  Bitboard own, opp, empty, jumpable;
};

Sides SidesOf(const Variant& v, Bitboard own, Bitboard opp) {
  const Bitboard empty = v.geometry().all() & ~(own | opp);
  return {own, opp, empty, Jumpable(v.rules(), own, opp)};
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

// The four one-step shifts of a set, computed once.
struct Neighbors {
  Bitboard ul, ur, dl, dr;
};

Neighbors NeighborsOf(const Geometry& g, Bitboard b) {
  return {g.shift<kUpLeft>(b), g.shift<kUpRight>(b), g.shift<kDownLeft>(b), g.shift<kDownRight>(b)};
}

// Squares side s could step to: the union over its step directions.
Bitboard StepTargetsFast(const Variant& v, Side s, const Neighbors& n) {
  if (v.rules().steps == Steps::kAny) return n.ul | n.ur | n.dl | n.dr;
  return s == Side::kWhite ? n.ul | n.ur : n.dl | n.dr;
}

// Counts M without listing it: (steps, jumps).
std::pair<int, int> CountRaw(const Variant& v, Side s, const Sides& b) {
  const Geometry& g = v.geometry();
  const Neighbors n = NeighborsOf(g, b.own);
  const Bitboard e = b.empty;
  const bool white = s == Side::kWhite;
  int steps;
  if (v.rules().steps == Steps::kAny)
    steps = PopCount(n.ul & e) + PopCount(n.ur & e) + PopCount(n.dl & e) + PopCount(n.dr & e);
  else
    steps =
        white ? PopCount(n.ul & e) + PopCount(n.ur & e) : PopCount(n.dl & e) + PopCount(n.dr & e);
  int jumps = 0;
  if (v.rules().chain) {
    const Bitboard occupied = b.own | b.opp;
    for (Bitboard pieces = b.own; pieces;) {
      const Square from = PopLowest(pieces);
      const Bitboard others = occupied & ~SquareBit(from);
      jumps += PopCount(JumpTargets(v, s, from, others, b.jumpable & others));
    }
    return {steps, jumps};
  }
  const Bitboard j = b.jumpable;
  const bool any_dir = v.rules().jump_dir == JumpDir::kAny;
  if (white || any_dir)
    jumps += PopCount(g.shift<kUpLeft>(n.ul & j) & e) + PopCount(g.shift<kUpRight>(n.ur & j) & e);
  if (!white || any_dir)
    jumps +=
        PopCount(g.shift<kDownLeft>(n.dl & j) & e) + PopCount(g.shift<kDownRight>(n.dr & j) & e);
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
  const Bitboard t =
      StepTargetsFast(v, Opponent(pos.side_to_move()), NeighborsOf(v.geometry(), b.opp)) & b.empty;
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

Bitboard Jumpable(const Rules& rules, Bitboard own, Bitboard opp) {
  return rules.jump_over == JumpOver::kAny ? own | opp : opp;
}

Bitboard JumpStep(const Geometry& g, const Direction* dirs, int num_dirs, Bitboard from,
                  Bitboard empty, Bitboard jumpable) {
  Bitboard land = 0;
  for (int i = 0; i < num_dirs; ++i) land |= g.shift(g.shift(from, dirs[i]) & jumpable, dirs[i]);
  return land & empty;
}

Bitboard JumpReach(const Geometry& g, const Direction* dirs, int num_dirs, bool chain, Square from,
                   Bitboard occupied, Bitboard jumpable) {
  // The origin is left empty by the move but a chain may not land on it again.
  const Bitboard empty = g.all() & ~occupied & ~SquareBit(from);
  Bitboard reached = JumpStep(g, dirs, num_dirs, SquareBit(from), empty, jumpable);
  if (!chain) return reached;
  for (Bitboard frontier = reached; frontier;) {
    frontier = JumpStep(g, dirs, num_dirs, frontier, empty, jumpable) & ~reached;
    reached |= frontier;
  }
  return reached;
}

Bitboard JumpTargets(const Variant& v, Side side, Square from, Bitboard occupied,
                     Bitboard jumpable) {
  return JumpReach(v.geometry(), v.jump_dirs(side).data(), v.num_jump_dirs(), v.rules().chain, from,
                   occupied, jumpable);
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

namespace {

// Whether m is a step or jump of M for side s.
bool InRaw(const Variant& v, Side s, const Sides& b, Move m) {
  if (m.is_pass() || !Contains(b.own, m.from)) return false;
  const Geometry& g = v.geometry();
  if (!m.jump) {
    if (!Contains(b.empty, m.to)) return false;
    for (int i = 0; i < v.num_step_dirs(); ++i)
      if (g.neighbor(m.from, v.step_dirs(s)[i]) == m.to) return true;
    return false;
  }
  const Bitboard others = (b.own | b.opp) & ~SquareBit(m.from);
  return Contains(JumpTargets(v, s, m.from, others, b.jumpable & others), m.to);
}

}  // namespace

bool IsLegal(const Position& pos, Move m) {
  if (pos.over()) return false;
  const Variant& v = pos.variant();
  const Side s = pos.side_to_move();
  const Sides b = SidesOf(v, pos.pieces(s), pos.pieces(Opponent(s)));
  if (FilterApplies(pos, b)) {
    MoveList moves;
    GenerateLegal(pos, moves);
    for (const Move& l : moves)
      if (l == m) return l.jump == m.jump;
    return false;
  }
  // Without the filter the legal moves are M, only its jumps if they are
  // mandatory and there is one, or a pass when M is empty.
  const auto [steps, jumps] = CountRaw(v, s, b);
  if (m.is_pass()) return steps + jumps == 0 && CanPass(pos);
  if (!InRaw(v, s, b, m)) return false;
  return m.jump || !v.rules().mandatory_jumps || jumps == 0;
}

void GenerateUnmoves(const Position& pos, MoveList& moves) {
  moves.clear();
  const Variant& v = pos.variant();
  const Geometry& g = v.geometry();
  const Side mover = Opponent(pos.side_to_move());
  const Bitboard own = pos.pieces(mover), opp = pos.pieces(pos.side_to_move());
  const Bitboard empty = g.all() & ~(own | opp);
  // A piece on `to` stepped in direction d from the empty square behind it.
  for (int i = 0; i < v.num_step_dirs(); ++i) {
    const Direction d = v.step_dirs(mover)[i];
    for (Bitboard t = g.shift(empty, d) & own; t;) {
      const Square to = PopLowest(t);
      moves.push(Move::Step(g.neighbor(to, Reverse(d)), to));
    }
  }
  // A jump walked backwards: the same pieces to jump over and squares to land
  // on, the directions reversed.
  std::array<Direction, 4> back{};
  for (int i = 0; i < v.num_jump_dirs(); ++i) back[i] = Reverse(v.jump_dirs(mover)[i]);
  for (Bitboard pieces = own; pieces;) {
    const Square to = PopLowest(pieces);
    const Bitboard others = (own | opp) & ~SquareBit(to);
    for (Bitboard f = JumpReach(g, back.data(), v.num_jump_dirs(), v.rules().chain, to, others,
                                Jumpable(v.rules(), own & ~SquareBit(to), opp));
         f;)
      moves.push(Move::Jump(PopLowest(f), to));
  }
  if (v.rules().block != Block::kLose) moves.push(Move::Pass());
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

int CountLegalAfter(const Position& pos, Move m) {
  const Variant& v = pos.variant();
  const Side s = pos.side_to_move();
  const Bitboard moved = m.is_pass() ? 0 : SquareBit(m.from) | SquareBit(m.to);
  const Bitboard own_after = pos.pieces(s) ^ moved;
  const int limit = v.limit_ply();
  // The child is an ordinary position in play unless the move may end the
  // game (a completed goal, the move limit) or starts or ends the extra move.
  const bool ordinary = pos.phase() == Phase::kPlay && own_after != pos.targets(s) &&
                        (limit == 0 || pos.ply() + 1 < limit);
  if (ordinary) {
    const Side next = Opponent(s);
    const Sides b = SidesOf(v, pos.pieces(next), own_after);
    const bool may_filter =
        v.rules().block == Block::kForbid && (limit == 0 || pos.ply() + 2 < limit);
    bool filter = false;
    if (may_filter) {
      const Bitboard t = StepTargetsFast(v, s, NeighborsOf(v.geometry(), own_after)) & b.empty;
      filter = (t & (t - 1)) == 0;
    }
    if (!filter) {
      const auto [steps, jumps] = CountRaw(v, next, b);
      if (steps + jumps == 0) return v.rules().block != Block::kLose;
      return v.rules().mandatory_jumps && jumps > 0 ? jumps : steps + jumps;
    }
  }
  Position child = pos;
  child.Make(m);
  return CountLegal(child);
}

namespace {

// CountLegal of the child after the move changing `moved`, where the child is
// an ordinary position in play that the block filter cannot touch; -1 when
// the filter might apply there and the caller must take the slow path.
struct TwoPlyNode {
  const Variant& v;
  const Geometry& g;
  Side mover;
  Bitboard own, opp, empty;
  Neighbors opp_n;  // the opponent's neighbours, the same in every child
  bool check_filter;
  bool mover_steps_any;

  [[gnu::always_inline]] int Child(Bitboard moved) const {
    const Bitboard e = empty ^ moved;
    const Bitboard own_after = own ^ moved;
    if (check_filter) {
      const Neighbors n = NeighborsOf(g, own_after);
      Bitboard t = mover_steps_any         ? n.ul | n.ur | n.dl | n.dr
                   : mover == Side::kWhite ? n.ul | n.ur
                                           : n.dl | n.dr;
      t &= e;
      if ((t & (t - 1)) == 0) return -1;
    }
    const Rules& r = v.rules();
    const bool white = mover == Side::kBlack;  // the child's side to move
    int steps;
    if (r.steps == Steps::kAny)
      steps = PopCount(opp_n.ul & e) + PopCount(opp_n.ur & e) + PopCount(opp_n.dl & e) +
              PopCount(opp_n.dr & e);
    else
      steps = white ? PopCount(opp_n.ul & e) + PopCount(opp_n.ur & e)
                    : PopCount(opp_n.dl & e) + PopCount(opp_n.dr & e);
    const Bitboard j = Jumpable(r, opp, own_after);
    const bool any_dir = r.jump_dir == JumpDir::kAny;
    int jumps = 0;
    if (white || any_dir)
      jumps += PopCount(g.shift<kUpLeft>(opp_n.ul & j) & e) +
               PopCount(g.shift<kUpRight>(opp_n.ur & j) & e);
    if (!white || any_dir)
      jumps += PopCount(g.shift<kDownLeft>(opp_n.dl & j) & e) +
               PopCount(g.shift<kDownRight>(opp_n.dr & j) & e);
    if (steps + jumps == 0) return r.block != Block::kLose;
    return r.mandatory_jumps && jumps > 0 ? jumps : steps + jumps;
  }
};

}  // namespace

// The rare case of a side with no move, kept out of line so that it does not
// change how the hot function below is compiled (measured: 12% slower inline).
[[gnu::noinline, gnu::cold]] static uint64_t CountAfterPass(const Position& pos) {
  return CanPass(pos) ? CountLegalAfter(pos, Move::Pass()) : 0;
}

uint64_t CountLegalTwoPly(const Position& pos) {
  const Variant& v = pos.variant();
  const Geometry& g = v.geometry();
  const Rules& r = v.rules();
  const int limit = v.limit_ply();
  const Side s = pos.side_to_move();
  const Sides b = SidesOf(v, pos.pieces(s), pos.pieces(Opponent(s)));
  // Chains, filtered moves, passes and positions near the end of the game
  // take the general path; ordinary positions are counted from the boards.
  if (r.chain || pos.phase() != Phase::kPlay || (limit > 0 && pos.ply() + 2 >= limit) ||
      FilterApplies(pos, b)) {
    MoveList moves;
    GenerateLegal(pos, moves);
    uint64_t total = 0;
    for (const Move& m : moves) total += CountLegalAfter(pos, m);
    return total;
  }
  const auto [steps, jumps] = CountRaw(v, s, b);
  if (steps + jumps == 0) return CountAfterPass(pos);
  const TwoPlyNode node{v,
                        g,
                        s,
                        b.own,
                        b.opp,
                        b.empty,
                        NeighborsOf(g, b.opp),
                        r.block == Block::kForbid,
                        r.steps == Steps::kAny};
  const Bitboard targets = pos.targets(s);
  const bool white = s == Side::kWhite;
  uint64_t total = 0;
  // Each legal move is known by the squares it changes: from and to.
  auto count = [&](Bitboard from, Bitboard to, bool jump) {
    const Bitboard moved = from | to;
    const int n = (b.own ^ moved) == targets ? -1 : node.Child(moved);
    if (n >= 0) {
      total += n;
      return;
    }
    const Move m{int8_t(LowestSquare(from)), int8_t(LowestSquare(to)), jump};
    total += CountLegalAfter(pos, m);
  };
  auto steps_in = [&]<Direction d>() {
    constexpr Direction back = Reverse(d);
    for (Bitboard t = g.shift<d>(b.own) & b.empty; t; t &= t - 1) {
      const Bitboard to = t & -t;
      count(g.shift<back>(to), to, false);
    }
  };
  auto jumps_in = [&]<Direction d>() {
    constexpr Direction back = Reverse(d);
    for (Bitboard t = g.shift<d>(g.shift<d>(b.own) & b.jumpable) & b.empty; t; t &= t - 1) {
      const Bitboard to = t & -t;
      count(g.shift<back>(g.shift<back>(to)), to, true);
    }
  };
  const bool any_jump_dir = r.jump_dir == JumpDir::kAny;
  if (white || any_jump_dir) {
    jumps_in.template operator()<kUpLeft>();
    jumps_in.template operator()<kUpRight>();
  }
  if (!white || any_jump_dir) {
    jumps_in.template operator()<kDownLeft>();
    jumps_in.template operator()<kDownRight>();
  }
  if (r.mandatory_jumps && jumps > 0) return total;
  const bool any_step_dir = r.steps == Steps::kAny;
  if (white || any_step_dir) {
    steps_in.template operator()<kUpLeft>();
    steps_in.template operator()<kUpRight>();
  }
  if (!white || any_step_dir) {
    steps_in.template operator()<kDownLeft>();
    steps_in.template operator()<kDownRight>();
  }
  return total;
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
