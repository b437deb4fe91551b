#include "finish/problem.h"

#include <algorithm>

namespace salta::finish_internal {

Problem MakeProblem(const Position& pos, Side side) {
  Problem p;
  p.variant = &pos.variant();
  p.g = &p.variant->geometry();
  p.side = side;
  p.n = p.g->num_squares();
  for (PieceId id = int(side) * kPiecesPerSide; id < (int(side) + 1) * kPiecesPerSide; ++id) {
    const Square s = pos.square_of(id);
    if (s == kNoSquare) continue;
    p.ids[p.k] = id;
    p.start[p.k] = int8_t(p.Normal(s));
    p.target[p.k] = int8_t(p.Normal(p.variant->target(id)));
    ++p.k;
  }
  const Rules& r = p.variant->rules();
  p.num_step_dirs = p.variant->num_step_dirs();
  const std::array<Direction, 4>& dirs = p.variant->step_dirs(Side::kWhite);
  p.step_dirs = dirs;
  for (Square s = 0; s < p.n; ++s)
    for (int d = 0; d < 4; ++d) {
      p.step_to[s][d] = d < p.num_step_dirs ? int8_t(p.g->neighbor(s, dirs[d])) : int8_t(-1);
      if (p.step_to[s][d] >= 0) p.steps[s] |= SquareBit(p.step_to[s][d]);
    }
  for (Square s = 0; s < p.n; ++s) p.step_from[s].fill(-1);
  for (Square s = 0; s < p.n; ++s)
    for (int d = 0; d < p.num_step_dirs; ++d)
      if (p.step_to[s][d] >= 0) p.step_from[p.step_to[s][d]][d] = int8_t(s);
  for (Square x = 0; x < p.n; ++x) {
    p.dist[x].fill(Problem::kNoWay);
    p.dist[x][x] = 0;
    std::array<int8_t, kMaxSquares> queue;
    int head = 0, tail = 0;
    queue[tail++] = int8_t(x);
    while (head < tail) {
      const Square a = queue[head++];
      for (int d = 0; d < p.num_step_dirs; ++d)
        if (const int t = p.step_to[a][d]; t >= 0 && p.dist[x][t] == Problem::kNoWay) {
          p.dist[x][t] = uint8_t(p.dist[x][a] + 1);
          queue[tail++] = int8_t(t);
        }
    }
  }
  p.jumps = r.jump_over == JumpOver::kAny;
  const std::array<Direction, 4>& jump_dirs = p.variant->jump_dirs(Side::kWhite);
  for (Square s = 0; s < p.n; ++s)
    for (int d = 0; d < p.variant->num_jump_dirs(); ++d)
      if (const Square over = p.g->neighbor(s, jump_dirs[d]); over != kNoSquare)
        p.jump_over[s] |= SquareBit(over);
  p.steps_only = !p.jumps;
  p.forward_only = r.steps == Steps::kForward && (!p.jumps || r.jump_dir == JumpDir::kForward);
  return p;
}

PieceDistances DistancesByPiece(const Problem& p) {
  PieceDistances by_piece{};
  for (int i = 0; i < p.k; ++i)
    for (int s = 0; s < p.n; ++s) by_piece[i][s] = p.dist[s][p.target[i]];
  return by_piece;
}

Problem Reversed(const Problem& p) {
  Problem back = p;
  std::swap(back.start, back.target);
  return back;
}

std::vector<PieceMove> Backwards(const Problem& p, const std::vector<PieceMove>& way) {
  std::vector<PieceMove> back;
  Squares sq = p.target;  // where the way back starts
  int home = 0;           // its pieces on their targets (p's start)
  for (int i = 0; i < p.k; ++i) home += sq[i] == p.start[i];
  for (size_t m = way.size(); m-- > 0 && home < p.k;) {
    const PieceMove& mv = way[m];
    back.push_back(PieceMove{mv.piece, mv.to, mv.from, mv.jump});
    home -= sq[mv.piece] == p.start[mv.piece];
    sq[mv.piece] = mv.from;
    home += sq[mv.piece] == p.start[mv.piece];
  }
  return back;
}

std::vector<Bitboard> RelaxedMoves(const Problem& p) {
  const Geometry& g = *p.g;
  const Rules& r = p.variant->rules();
  std::vector<Bitboard> reach(p.n, 0);
  const int num_jump_dirs = p.variant->num_jump_dirs();
  const std::array<Direction, 4>& jump_dirs = p.variant->jump_dirs(Side::kWhite);
  for (Square s = 0; s < p.n; ++s) {
    reach[s] = p.steps[s];
    if (!p.jumps) continue;
    Bitboard done = SquareBit(s), frontier = SquareBit(s), jumped = 0;
    while (frontier) {
      const Square a = PopLowest(frontier);
      for (int i = 0; i < num_jump_dirs; ++i) {
        const Square over = g.neighbor(a, jump_dirs[i]);
        if (over == kNoSquare) continue;
        const Square land = g.neighbor(over, jump_dirs[i]);
        if (land == kNoSquare) continue;
        jumped |= SquareBit(land);
        if (r.chain && !Contains(done, land)) {
          done |= SquareBit(land);
          frontier |= SquareBit(land);
        }
      }
    }
    reach[s] |= jumped & ~SquareBit(s);
  }
  return reach;
}

std::array<int, kMaxSquares> RelaxedDistances(const Problem& p, const std::vector<Bitboard>& reach,
                                              Square target) {
  std::array<int, kMaxSquares> dist;
  dist.fill(kInf);
  dist[target] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (Square s = 0; s < p.n; ++s) {
      int best = dist[s];
      for (Bitboard r = reach[s]; r;) best = std::min(best, Inc(dist[PopLowest(r)]));
      if (best < dist[s]) {
        dist[s] = best;
        changed = true;
      }
    }
  }
  return dist;
}

}  // namespace salta::finish_internal
