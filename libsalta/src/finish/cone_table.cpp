#include "finish/cone_table.h"

#include <algorithm>

namespace salta::finish_internal {

uint64_t MakeCones(const Problem& p, ConeTable& table) {
  table.placements = 0;
  if (!p.forward_only || !p.jumps || p.k == 0) return 0;
  const std::vector<Bitboard> reach = RelaxedMoves(p);
  // Every relaxed move must raise the rank: the order of the pass rests on it.
  for (Square s = 0; s < p.n; ++s)
    for (Bitboard r = reach[s]; r;)
      if (p.g->rank_of(PopLowest(r)) <= p.g->rank_of(s)) return 0;
  uint64_t placements = 1;
  for (int i = 0; i < p.k; ++i) {
    const std::array<int, kMaxSquares> to_target = RelaxedDistances(p, reach, p.target[i]);
    Bitboard seen = SquareBit(p.start[i]), frontier = seen;
    while (frontier) {
      const Bitboard next = reach[PopLowest(frontier)] & ~seen;
      seen |= next;
      frontier |= next;
    }
    std::vector<int8_t>& cone = table.cone[i];
    cone.clear();
    for (Bitboard b = seen; b;)
      if (const Square s = PopLowest(b); to_target[s] < kInf) cone.push_back(int8_t(s));
    if (cone.empty()) return 0;  // (the target out of reach)
    std::stable_sort(cone.begin(), cone.end(),
                     [&](int8_t a, int8_t b) { return p.g->rank_of(a) < p.g->rank_of(b); });
    table.place[i].fill(-1);
    for (size_t at = 0; at < cone.size(); ++at) table.place[i][cone[at]] = int8_t(at);
    table.stride[i] = placements;
    placements = placements > UINT64_MAX / cone.size() ? UINT64_MAX : placements * cone.size();
  }
  table.placements = placements;
  return placements;
}

bool BuildConeTable(const Problem& p, const SearchLimits& limits, ConeTable& table) {
  auto& values = table.values;
  const uint64_t placements = table.placements;
  values.assign(placements, ConeTable::kNone);
  // The placement of the highest index (every piece on the last square of
  // its cone: its target, the one square of the cone's highest rank) down
  // to the lowest, its places and squares kept as the index falls.
  std::array<int, kMaxPiecesInProblem> at{};
  Squares sq{};
  for (int i = 0; i < p.k; ++i) {
    at[i] = int(table.cone[i].size()) - 1;
    sq[i] = table.cone[i][at[i]];
  }
  for (uint64_t index = placements; index-- > 0;) {
    if ((index & 0xFFFF) == 0 && limits.TimeUp()) return false;
    Bitboard occ = 0;
    for (int i = 0; i < p.k; ++i) occ |= SquareBit(sq[i]);
    uint8_t best = ConeTable::kNone;
    if (index == placements - 1) {
      best = 0;
    } else if (PopCount(occ) == p.k) {
      for (int i = 0; i < p.k; ++i) {
        if (sq[i] == p.target[i]) continue;  // (every move of it leaves its cone)
        p.ForEachMoveFrom(sq[i], occ, [&](Square to, bool) {
          if (table.place[i][to] < 0) return;  // (a way through it never reaches the goal)
          const uint8_t v = values[table.Moved(index, i, sq[i], to)];
          if (v < best - 1) best = uint8_t(v + 1);
        });
      }
    }
    values[index] = best;
    for (int i = 0; i < p.k; ++i) {
      const bool borrow = at[i] == 0;
      at[i] = borrow ? int(table.cone[i].size()) - 1 : at[i] - 1;
      sq[i] = table.cone[i][at[i]];
      if (!borrow) break;
    }
  }
  return true;
}

std::vector<PieceMove> ConeWay(const Problem& p, const ConeTable& table) {
  std::vector<PieceMove> way;
  Squares sq = p.start;
  uint64_t index = table.IndexOf(sq, p.k);
  int left = table.values[index];
  if (left == ConeTable::kNone) return way;
  while (left > 0) {
    Bitboard occ = 0;
    for (int i = 0; i < p.k; ++i) occ |= SquareBit(sq[i]);
    PieceMove next;
    for (int i = 0; i < p.k && next.piece < 0; ++i)
      p.ForEachMoveFrom(sq[i], occ, [&](Square to, bool jump) {
        if (next.piece >= 0 || table.place[i][to] < 0) return;
        if (table.values[table.Moved(index, i, sq[i], to)] == left - 1)
          next = PieceMove{int8_t(i), sq[i], int8_t(to), jump};
      });
    if (next.piece < 0) return {};  // (not a table of p)
    index = table.Moved(index, next.piece, next.from, next.to);
    sq[next.piece] = next.to;
    way.push_back(next);
    --left;
  }
  return way;
}

}  // namespace salta::finish_internal
