#include "finish/shorten.h"

#include <algorithm>
#include <deque>

namespace salta::finish_internal {
namespace {

// Replans pieces a and b (a == b: one piece) within `way`; true when their
// new moves are fewer.
bool Replan(const Problem& p, int a, int b, std::vector<PieceMove>& way) {
  std::vector<PieceMove> others;
  int own = 0;
  Square end_a = p.start[a], end_b = p.start[b];
  for (const PieceMove& m : way) {
    if (m.piece == a || m.piece == b)
      ++own;
    else
      others.push_back(m);
    if (m.piece == a) end_a = m.to;
    if (m.piece == b) end_b = m.to;
  }
  constexpr int kUnseen = 1 << 30;
  // A way that leaves a piece short of its target is none for it: any gains.
  if (end_a != p.target[a] || end_b != p.target[b]) own = kUnseen;
  const int t_end = int(others.size());
  // The others' occupancy after t of their moves, from their squares: in a
  // way CompleteWay is making, a move may still land on a piece yet to be
  // put in (that piece must leave first), and the square stays taken.
  std::vector<Bitboard> occ(t_end + 1, 0);
  Squares at = p.start;
  auto taken = [&] {
    Bitboard o = 0;
    for (int j = 0; j < p.k; ++j)
      if (j != a && j != b) o |= SquareBit(at[j]);
    return o;
  };
  occ[0] = taken();
  for (int t = 0; t < t_end; ++t) {
    at[others[t].piece] = others[t].to;
    occ[t + 1] = taken();
  }
  // 0-1 breadth-first search over (t, square of a, square of b): waiting
  // through the others' move t is free unless it lands on one of the two;
  // a step costs one.
  const int n = p.n, nb = a == b ? 1 : n;
  struct State {
    int t, sa, sb;
  };
  auto id = [&](const State& s) { return uint32_t((s.t * n + s.sa) * nb + (a == b ? 0 : s.sb)); };
  auto state_of = [&](uint32_t i) {
    const int sb = a == b ? -1 : int(i % uint32_t(nb));
    const int sa = int(i / uint32_t(nb) % uint32_t(n));
    return State{int(i / uint32_t(nb) / uint32_t(n)), sa, a == b ? sa : sb};
  };
  constexpr uint32_t kNone = UINT32_MAX;
  std::vector<int> cost(size_t(t_end + 1) * n * nb, kUnseen);
  std::vector<uint32_t> parent(cost.size(), kNone);
  std::deque<uint32_t> queue;
  auto reach = [&](const State& to, uint32_t from, int c, bool free) {
    const uint32_t i = id(to);
    if (cost[i] <= c) return;
    cost[i] = c;
    parent[i] = from;
    free ? queue.push_front(i) : queue.push_back(i);
  };
  reach({0, p.start[a], p.start[b]}, kNone, 0, true);
  const uint32_t goal = id({t_end, p.target[a], p.target[b]});
  while (!queue.empty()) {
    const uint32_t at = queue.front();
    queue.pop_front();
    if (at == goal) break;
    const State s = state_of(at);
    const int c = cost[at];
    if (c >= own) continue;  // no gain along this way
    if (s.t < t_end && others[s.t].to != s.sa && others[s.t].to != s.sb)
      reach({s.t + 1, s.sa, s.sb}, at, c, true);
    if (c + 1 >= own) continue;
    const Bitboard full = occ[s.t] | SquareBit(s.sa) | SquareBit(s.sb);
    for (int d = 0; d < p.num_step_dirs; ++d) {
      if (const int to = p.step_to[s.sa][d]; to >= 0 && !Contains(full, to))
        reach({s.t, to, a == b ? to : s.sb}, at, c + 1, false);
      if (a == b) continue;
      if (const int to = p.step_to[s.sb][d]; to >= 0 && !Contains(full, to))
        reach({s.t, s.sa, to}, at, c + 1, false);
    }
  }
  if (cost[goal] >= own) return false;
  // The new way: the others' moves with the two pieces' steps between them.
  std::vector<uint32_t> path;
  for (uint32_t at = goal; at != kNone; at = parent[at]) path.push_back(at);
  std::reverse(path.begin(), path.end());
  std::vector<PieceMove> shorter;
  for (size_t k = 1; k < path.size(); ++k) {
    const State s0 = state_of(path[k - 1]), s1 = state_of(path[k]);
    if (s1.t > s0.t)
      shorter.push_back(others[s0.t]);
    else if (s1.sa != s0.sa)
      shorter.push_back(PieceMove{int8_t(a), int8_t(s0.sa), int8_t(s1.sa), false});
    else
      shorter.push_back(PieceMove{int8_t(b), int8_t(s0.sb), int8_t(s1.sb), false});
  }
  way = std::move(shorter);
  return true;
}

// The pieces whose moves in `way` exceed their distance alone.
std::vector<int> Detoured(const Problem& p, const std::vector<PieceMove>& way) {
  std::vector<int> moves(p.k, 0), detoured;
  for (const PieceMove& m : way) ++moves[m.piece];
  for (int i = 0; i < p.k; ++i)
    if (moves[i] > p.distance(i)) detoured.push_back(i);
  return detoured;
}

}  // namespace

bool CompleteWay(const Problem& p, std::vector<PieceMove>& way) {
  if (p.jumps) return false;
  // The pieces the way leaves short of their targets, the longest ways
  // first: they have the most to fit in around.
  auto short_of = [&] {
    Squares end = p.start;
    for (const PieceMove& m : way) end[m.piece] = m.to;
    std::vector<int> pieces;
    for (int i = 0; i < p.k; ++i)
      if (end[i] != p.target[i]) pieces.push_back(i);
    std::stable_sort(pieces.begin(), pieces.end(),
                     [&](int i, int j) { return p.distance(i) > p.distance(j); });
    return pieces;
  };
  // A piece may find no moves while another still stands in its way: it
  // tries again after the others, and then replanned together with each
  // other piece in turn (one that fills its way too early), while some
  // piece gets in.
  for (std::vector<int> left = short_of(); !left.empty(); left = short_of()) {
    bool progress = false;
    for (int i : left) progress |= Replan(p, i, i, way);
    if (progress) continue;
    const int i = left.front();
    for (int j = 0; j < p.k && !progress; ++j)
      if (j != i) progress = Replan(p, std::min(i, j), std::max(i, j), way);
    if (!progress) return false;
  }
  return true;
}

bool Shorten(const Problem& p, bool pairs_too, Clock::time_point deadline,
             std::vector<PieceMove>& way) {
  if (p.jumps) return false;
  bool shorter = false;
  // Each piece alone, then each piece that detours with each other piece.
  for (bool gained = true; gained && Clock::now() < deadline;) {
    gained = false;
    for (int i = 0; i < p.k; ++i) gained |= Replan(p, i, i, way);
    for (bool pairs = pairs_too; pairs && !gained;) {
      pairs = false;
      for (int i : Detoured(p, way)) {
        for (int j = 0; j < p.k && !pairs && Clock::now() < deadline; ++j)
          if (j != i) pairs = Replan(p, std::min(i, j), std::max(i, j), way);
        if (pairs) break;
      }
      gained |= pairs;
    }
    shorter |= gained;
  }
  // A new timing can complete the goal before the end: the way ends there.
  int off = 0;  // pieces not on their targets
  for (int i = 0; i < p.k; ++i) off += p.start[i] != p.target[i];
  for (size_t m = 0; m < way.size(); ++m) {
    const PieceMove& mv = way[m];
    off += (mv.to != p.target[mv.piece]) - (mv.from != p.target[mv.piece]);
    if (off == 0 && m + 1 < way.size()) {
      way.resize(m + 1);
      return true;
    }
  }
  return shorter;
}

}  // namespace salta::finish_internal
