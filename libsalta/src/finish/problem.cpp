#include "finish/problem.h"

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
  p.step_dirs = p.variant->step_dirs(Side::kWhite);
  p.jumps = r.jump_over == JumpOver::kAny;
  p.num_jump_dirs = p.variant->num_jump_dirs();
  p.jump_dirs = p.variant->jump_dirs(Side::kWhite);
  p.chain = r.chain;
  p.steps_only = !p.jumps;
  return p;
}

std::vector<Bitboard> RelaxedMoves(const Problem& p) {
  const Geometry& g = *p.g;
  std::vector<Bitboard> reach(p.n, 0);
  for (Square s = 0; s < p.n; ++s) {
    for (int i = 0; i < p.num_step_dirs; ++i)
      if (Square t = g.neighbor(s, p.step_dirs[i]); t != kNoSquare) reach[s] |= SquareBit(t);
    if (!p.jumps) continue;
    Bitboard done = SquareBit(s), frontier = SquareBit(s), jumped = 0;
    while (frontier) {
      const Square a = PopLowest(frontier);
      for (int i = 0; i < p.num_jump_dirs; ++i) {
        const Square over = g.neighbor(a, p.jump_dirs[i]);
        if (over == kNoSquare) continue;
        const Square land = g.neighbor(over, p.jump_dirs[i]);
        if (land == kNoSquare) continue;
        jumped |= SquareBit(land);
        if (p.chain && !Contains(done, land)) {
          done |= SquareBit(land);
          frontier |= SquareBit(land);
        }
      }
    }
    reach[s] |= jumped & ~SquareBit(s);
  }
  return reach;
}

}  // namespace salta::finish_internal
