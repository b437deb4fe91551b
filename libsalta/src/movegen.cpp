#include "salta/movegen.h"

#include <array>

#include "salta/fixed_geometry.h"

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

// ---------------------------------------------------------------------------
// Bulk counting: the last two or three plies of perft counted from the two
// boards alone, without listing or making moves. It takes the ordinary
// positions: in play, far from the move limit, without chains, where no goal
// is completed, no side passes and the block filter cannot remove a move.
// On anything else it gives up (kGiveUp) and the caller takes the general
// path (GenerateLegal, CountLegalAfter, Position::Make), which is what
// PerftPlain runs everywhere.
//
// The 10x10 geometry and the move options of the standard and pre1900
// presets are fixed at compile time in their own instantiations, where the
// shifts and the rule tests fold into constants; every other variant runs
// the same code with the values read at run time.

constexpr uint64_t kGiveUp = ~uint64_t{0};

// The variant's geometry with FixedGeometry's interface.
class RuntimeGeometry {
 public:
  explicit RuntimeGeometry(const Geometry& g) : g_(g) {}
  Bitboard all() const { return g_.all(); }
  template <Direction d>
  Bitboard shift(Bitboard b) const {
    return g_.shift<d>(b);
  }

 private:
  const Geometry& g_;
};

// The move options of the standard and pre1900 presets.
struct StandardMoves {
  static constexpr bool steps_any = true;
  static constexpr bool jump_over_any = false;
  static constexpr bool jump_dir_any = false;
  static constexpr bool mandatory = true;
  static constexpr Block block = Block::kForbid;
  static bool Match(const Rules& r) {
    return r.steps == Steps::kAny && r.jump_over == JumpOver::kOpponent &&
           r.jump_dir == JumpDir::kForward && !r.chain && r.mandatory_jumps &&
           r.block == Block::kForbid;
  }
};

// The same options read at run time (chain is off wherever bulk counting runs).
struct RuntimeMoves {
  explicit RuntimeMoves(const Rules& r)
      : steps_any(r.steps == Steps::kAny),
        jump_over_any(r.jump_over == JumpOver::kAny),
        jump_dir_any(r.jump_dir == JumpDir::kAny),
        mandatory(r.mandatory_jumps),
        block(r.block) {}
  bool steps_any, jump_over_any, jump_dir_any, mandatory;
  Block block;
};

template <class G, class R>
class BulkCounter {
 public:
  BulkCounter(const G& g, const R& r) : g_(g), r_(r) {}

  // perft 2 with side S to move, or kGiveUp. targets: S's target squares.
  template <Side S>
  uint64_t TwoPly(Bitboard own, Bitboard opp, Bitboard targets) const {
    constexpr Side C = Opponent(S);
    const Bitboard empty = g_.all() & ~(own | opp);
    const Near own_near = NearOf(own), opp_near = NearOf(opp);
    // A child's block filter can bite only if S is left with at most one
    // square to step to. A move fills one square and takes away at most the
    // squares its piece reached, so with enough squares it never does.
    const int step_dirs = r_.steps_any ? 4 : 2;
    const bool check_filter =
        r_.block == Block::kForbid && PopCount(StepUnion<S>(own_near) & empty) < step_dirs + 3;
    uint64_t total = 0;
    const bool ok = ForEachMove<S>(own, opp, empty, own_near, opp_near, [&](Bitboard moved, bool) {
      const Bitboard own_after = own ^ moved;
      if (own_after == targets) return false;  // S completes: the game may end
      const Bitboard e = empty ^ moved;
      if (check_filter) {
        const Bitboard t = StepUnion<S>(NearOf(own_after)) & e;
        if ((t & (t - 1)) == 0) return false;
      }
      // The opponent's moves in the child; its pieces have not moved.
      const int steps = StepCount<C>(opp_near, e);
      const int jumps = JumpCount<C>(opp_near, r_.jump_over_any ? own_after | opp : own_after, e);
      int n = r_.mandatory && jumps > 0 ? jumps : steps + jumps;
      if (n == 0) n = r_.block != Block::kLose;  // a pass, or the game is lost
      total += n;
      return true;
    });
    return ok ? total : kGiveUp;
  }

  // perft 3 with side S to move, or kGiveUp; a child that TwoPly gives up
  // on is made and counted the general way.
  template <Side S>
  uint64_t ThreePly(const Position& pos) const {
    constexpr Side C = Opponent(S);
    const Bitboard own = pos.pieces(S), opp = pos.pieces(C);
    const Bitboard own_targets = pos.targets(S), opp_targets = pos.targets(C);
    const Bitboard empty = g_.all() & ~(own | opp);
    uint64_t total = 0;
    const bool ok =
        ForEachMove<S>(own, opp, empty, NearOf(own), NearOf(opp), [&](Bitboard moved, bool jump) {
          const Bitboard own_after = own ^ moved;
          uint64_t n = own_after == own_targets ? kGiveUp : TwoPly<C>(opp, own_after, opp_targets);
          if (n == kGiveUp) n = TwoPlyAfter(pos, own, moved, jump);
          total += n;
          return true;
        });
    return ok ? total : kGiveUp;
  }

 private:
  // The four one-step shifts of a set.
  struct Near {
    Bitboard ul, ur, dl, dr;
  };
  Near NearOf(Bitboard b) const {
    return {g_.template shift<kUpLeft>(b), g_.template shift<kUpRight>(b),
            g_.template shift<kDownLeft>(b), g_.template shift<kDownRight>(b)};
  }
  static constexpr bool kUp(Side s) { return s == Side::kWhite; }

  // The squares a side's pieces step to, given their shifts; and the counts.
  template <Side S>
  Bitboard StepUnion(const Near& n) const {
    if (r_.steps_any) return n.ul | n.ur | n.dl | n.dr;
    return kUp(S) ? n.ul | n.ur : n.dl | n.dr;
  }
  template <Side S>
  int StepCount(const Near& n, Bitboard e) const {
    if (r_.steps_any)
      return PopCount(n.ul & e) + PopCount(n.ur & e) + PopCount(n.dl & e) + PopCount(n.dr & e);
    return kUp(S) ? PopCount(n.ul & e) + PopCount(n.ur & e)
                  : PopCount(n.dl & e) + PopCount(n.dr & e);
  }
  template <Side S>
  int JumpCount(const Near& n, Bitboard jumpable, Bitboard e) const {
    int jumps = 0;
    if (kUp(S) || r_.jump_dir_any)
      jumps += PopCount(g_.template shift<kUpLeft>(n.ul & jumpable) & e) +
               PopCount(g_.template shift<kUpRight>(n.ur & jumpable) & e);
    if (!kUp(S) || r_.jump_dir_any)
      jumps += PopCount(g_.template shift<kDownLeft>(n.dl & jumpable) & e) +
               PopCount(g_.template shift<kDownRight>(n.dr & jumpable) & e);
    return jumps;
  }

  // Calls fn(from | to) for the moves to the squares of `to` in direction d,
  // `by` steps long, until fn returns false. Shifting the whole set back
  // keeps the order of the squares, so the lowest origin belongs to the
  // lowest destination.
  template <Direction d, int by, class Fn>
  bool Each(Bitboard to, Fn& fn) const {
    constexpr Direction back = Direction(3 - d);
    Bitboard from = g_.template shift<back>(to);
    if constexpr (by == 2) from = g_.template shift<back>(from);
    for (; to; to &= to - 1, from &= from - 1)
      if (!fn((to & -to) | (from & -from), by == 2)) return false;
    return true;
  }

  // Calls fn(moved, jump) for each legal move of S, where moved holds the
  // move's two squares; false when fn does, and when S has no move or the
  // block filter may remove one (the caller gives up on the position).
  template <Side S, class Fn>
  bool ForEachMove(Bitboard own, Bitboard opp, Bitboard empty, const Near& own_near,
                   const Near& opp_near, Fn&& fn) const {
    constexpr Side C = Opponent(S);
    // The filter removes nothing while the opponent can step to two squares.
    if (r_.block == Block::kForbid) {
      const Bitboard t = StepUnion<C>(opp_near) & empty;
      if ((t & (t - 1)) == 0) return false;
    }
    const Bitboard j = r_.jump_over_any ? own | opp : opp;
    const Bitboard jul = g_.template shift<kUpLeft>(own_near.ul & j) & empty;
    const Bitboard jur = g_.template shift<kUpRight>(own_near.ur & j) & empty;
    const Bitboard jdl = g_.template shift<kDownLeft>(own_near.dl & j) & empty;
    const Bitboard jdr = g_.template shift<kDownRight>(own_near.dr & j) & empty;
    const bool up_jumps = kUp(S) || r_.jump_dir_any, down_jumps = !kUp(S) || r_.jump_dir_any;
    const Bitboard jumps = (up_jumps ? jul | jur : 0) | (down_jumps ? jdl | jdr : 0);
    if (jumps) {
      if (up_jumps && !(Each<kUpLeft, 2>(jul, fn) && Each<kUpRight, 2>(jur, fn))) return false;
      if (down_jumps && !(Each<kDownLeft, 2>(jdl, fn) && Each<kDownRight, 2>(jdr, fn)))
        return false;
      if (r_.mandatory) return true;
    }
    const bool up_steps = kUp(S) || r_.steps_any, down_steps = !kUp(S) || r_.steps_any;
    const Bitboard sul = own_near.ul & empty, sur = own_near.ur & empty;
    const Bitboard sdl = own_near.dl & empty, sdr = own_near.dr & empty;
    const Bitboard steps = (up_steps ? sul | sur : 0) | (down_steps ? sdl | sdr : 0);
    if (!(jumps | steps)) return false;  // S passes or has lost
    if (up_steps && !(Each<kUpLeft, 1>(sul, fn) && Each<kUpRight, 1>(sur, fn))) return false;
    if (down_steps && !(Each<kDownLeft, 1>(sdl, fn) && Each<kDownRight, 1>(sdr, fn))) return false;
    return true;
  }

  // The rare child that TwoPly gives up on: made, then counted in full.
  [[gnu::noinline, gnu::cold]] static uint64_t TwoPlyAfter(const Position& pos, Bitboard own,
                                                           Bitboard moved, bool jump) {
    const Move m{int8_t(LowestSquare(moved & own)), int8_t(LowestSquare(moved & ~own)), jump};
    Position child = pos;
    child.Make(m);
    return CountLegalTwoPly(child);
  }

  [[no_unique_address]] G g_;
  [[no_unique_address]] R r_;
};

// Calls fn(counter) with the bulk counter of the variant: a compile-time
// instantiation where there is one, the run-time one otherwise.
template <class Fn>
uint64_t WithBulkCounter(const Variant& v, Fn&& fn) {
  if (StandardMoves::Match(v.rules())) {
    if (v.geometry().size() == 10) return fn(BulkCounter<FixedGeometry<10>, StandardMoves>({}, {}));
    return fn(BulkCounter<RuntimeGeometry, StandardMoves>(RuntimeGeometry(v.geometry()), {}));
  }
  return fn(BulkCounter<RuntimeGeometry, RuntimeMoves>(RuntimeGeometry(v.geometry()),
                                                       RuntimeMoves(v.rules())));
}

// Whether bulk counting may take the position for the given number of
// plies: in play, no chains, and the move limit (if any) out of reach, so
// that neither the game's end by the limit nor the filter's exemption of
// the move that reaches it can occur.
bool Bulk(const Position& pos, int plies) {
  const Variant& v = pos.variant();
  const int limit = v.limit_ply();
  return !v.rules().chain && pos.phase() == Phase::kPlay &&
         (limit == 0 || pos.ply() + plies < limit);
}

}  // namespace

uint64_t CountLegalTwoPly(const Position& pos) {
  if (Bulk(pos, 2)) {
    const uint64_t n = WithBulkCounter(pos.variant(), [&](const auto& k) {
      const Side s = pos.side_to_move();
      const Bitboard own = pos.pieces(s), opp = pos.pieces(Opponent(s)), t = pos.targets(s);
      return s == Side::kWhite ? k.template TwoPly<Side::kWhite>(own, opp, t)
                               : k.template TwoPly<Side::kBlack>(own, opp, t);
    });
    if (n != kGiveUp) return n;
  }
  MoveList moves;
  GenerateLegal(pos, moves);
  uint64_t total = 0;
  for (const Move& m : moves) total += CountLegalAfter(pos, m);
  return total;
}

uint64_t CountLegalThreePly(const Position& pos) {
  if (Bulk(pos, 3)) {
    const uint64_t n = WithBulkCounter(pos.variant(), [&](const auto& k) {
      return pos.side_to_move() == Side::kWhite ? k.template ThreePly<Side::kWhite>(pos)
                                                : k.template ThreePly<Side::kBlack>(pos);
    });
    if (n != kGiveUp) return n;
  }
  MoveList moves;
  GenerateLegal(pos, moves);
  uint64_t total = 0;
  for (const Move& m : moves) {
    Position child = pos;
    child.Make(m);
    total += CountLegalTwoPly(child);
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
