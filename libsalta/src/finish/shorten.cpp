#include "finish/shorten.h"

#include <algorithm>
#include <array>
#include <bit>
#include <deque>
#include <random>

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

// The pieces whose moves in `way` exceed their distance alone, a bit each.
uint32_t Detoured(const Problem& p, const std::vector<PieceMove>& way) {
  std::array<int, kMaxPiecesInProblem> moves{};
  for (const PieceMove& m : way) ++moves[m.piece];
  uint32_t detoured = 0;
  for (int i = 0; i < p.k; ++i)
    if (moves[i] > p.distance(i)) detoured |= 1u << i;
  return detoured;
}

// A new timing can complete the goal before the end: the way ends there.
// True when it was cut.
bool EndAtCompletion(const Problem& p, std::vector<PieceMove>& way) {
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
  return false;
}

}  // namespace

// Level c holds, after each number t of the way's moves, the squares the
// piece can stand on having made at most c moves; the way back from the
// target takes a wait or a step at random where both are optimal.
bool Inserter::Insert(int piece, uint32_t absent, std::vector<PieceMove>& way,
                      std::mt19937_64& random) {
  const int t_end = int(way.size());
  const int stride = t_end + 1;
  free_.resize(stride);
  Bitboard taken = 0;
  for (int j = 0; j < p_.k; ++j)
    if (j != piece && !(absent >> j & 1)) taken |= SquareBit(p_.start[j]);
  free_[0] = p_.g->all() & ~taken;
  // (The way is legal without the piece and the absent ones: each move
  // leaves a taken square for a free one.)
  for (int t = 0; t < t_end; ++t)
    free_[t + 1] = free_[t] ^ SquareBit(way[t].from) ^ SquareBit(way[t].to);
  const Bitboard goal = SquareBit(p_.target[piece]);
  // What the piece may keep standing on while the way's move t is made.
  keep_.resize(t_end);
  for (int t = 0; t < t_end; ++t) keep_[t] = ~SquareBit(way[t].to);
  // A level's squares waited on into each later time, where not taken.
  auto carry_waits = [&](Bitboard* level) {
    for (int t = 1; t <= t_end; ++t) level[t] |= level[t - 1] & keep_[t - 1];
  };
  // Level 0: waiting only.
  reach_.assign(stride, 0);
  reach_[0] = SquareBit(p_.start[piece]);
  carry_waits(&reach_[0]);
  int c = 0;
  while (!(reach_[size_t(c) * stride + t_end] & goal)) {
    const size_t below = size_t(c) * stride;
    reach_.resize(below + 2 * size_t(stride));
    const Bitboard* was = &reach_[below];
    Bitboard* now = &reach_[below + stride];
    // A step at each time first (the times apart: the loop vectorises),
    // then the waits, carried from each time to the next.
    if (p_.num_step_dirs == 4)
      for (int t = 0; t <= t_end; ++t) now[t] = was[t] | (p_.StepsEveryWay(was[t]) & free_[t]);
    else
      for (int t = 0; t <= t_end; ++t) now[t] = was[t] | (p_.StepsFrom(was[t]) & free_[t]);
    carry_waits(now);
    Bitboard grew = 0;
    for (int t = 0; t <= t_end; ++t) grew |= now[t] ^ was[t];
    ++c;
    if (!grew) return false;
  }
  // Back from the target: waits and steps, a random choice where both
  // lead to an optimal insertion.
  steps_.clear();
  int t = t_end;
  Square s = p_.target[piece];
  while (c > 0 || t > 0) {
    const size_t level = size_t(c) * stride;
    if (c > 0 && Contains(reach_[level - stride + t], s)) {
      --c;  // reached with fewer moves
      continue;
    }
    const bool can_wait = t > 0 && way[t - 1].to != s && Contains(reach_[level + t - 1], s);
    Square from = kNoSquare;
    if (c > 0) {
      const Bitboard before = reach_[level - stride + t];
      int options = 0;
      for (int d = 0; d < p_.num_step_dirs; ++d) {
        const int y = p_.step_from[s][d];
        if (y >= 0 && Contains(before, y) && random() % ++options == 0) from = y;
      }
    }
    if (can_wait && (from == kNoSquare || random() & 1)) {
      --t;
      continue;
    }
    steps_.push_back({t, PieceMove{int8_t(piece), int8_t(from), int8_t(s), false}});
    s = from;
    --c;
  }
  // The way with the piece's steps, each before the way's move of its time.
  merged_.clear();
  size_t next = steps_.size();
  for (int u = 0; u <= t_end; ++u) {
    while (next > 0 && steps_[next - 1].first == u) merged_.push_back(steps_[--next].second);
    if (u < t_end) merged_.push_back(way[u]);
  }
  way.swap(merged_);
  return true;
}

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
      for (uint32_t d = Detoured(p, way); d && !pairs; d &= d - 1) {
        const int i = std::countr_zero(d);
        for (int j = 0; j < p.k && !pairs && Clock::now() < deadline; ++j)
          if (j != i) pairs = Replan(p, std::min(i, j), std::max(i, j), way);
      }
      gained |= pairs;
    }
    shorter |= gained;
  }
  return EndAtCompletion(p, way) || shorter;
}

bool ShortenByNeighbourhoods(const Problem& p, int lower, const NeighbourhoodOptions& options,
                             const SearchLimits& limits, std::vector<PieceMove>& way,
                             uint64_t& rounds) {
  if (p.jumps || p.k < 2) return false;
  std::mt19937_64 random(options.seed);
  auto below = [&](uint64_t n) { return size_t(random() % n); };
  const size_t start_size = way.size();
  std::vector<PieceMove> best = way, trial;
  std::vector<int> chosen, related;
  Inserter inserter(p);
  for (const uint64_t first = rounds; int(best.size()) > lower; ++rounds) {
    if (rounds - first >= limits.max_nodes) break;
    if ((rounds & 15) == 0 && limits.TimeUp()) break;
    // The squares each piece stands on along the way.
    std::array<Bitboard, kMaxPiecesInProblem> squares{};
    for (int i = 0; i < p.k; ++i) squares[i] = SquareBit(p.start[i]);
    for (const PieceMove& m : way) squares[m.piece] |= SquareBit(m.to);
    // The neighbourhood: a piece that detours (else any), and up to
    // most_pieces - 1 of the pieces whose squares meet its squares or
    // their neighbours.
    uint32_t detoured = Detoured(p, way);
    int anchor = int(below(detoured ? std::popcount(detoured) : p.k));
    if (detoured) {
      for (; anchor > 0; --anchor) detoured &= detoured - 1;
      anchor = std::countr_zero(detoured);
    }
    const Bitboard near = squares[anchor] | p.StepsFrom(squares[anchor]);
    related.clear();
    for (int i = 0; i < p.k; ++i)
      if (i != anchor && (squares[i] & near)) related.push_back(i);
    std::shuffle(related.begin(), related.end(), random);
    const size_t others = below(std::min<size_t>(related.size(), options.most_pieces - 1) + 1);
    chosen.assign(1, anchor);
    chosen.insert(chosen.end(), related.begin(), related.begin() + others);
    std::shuffle(chosen.begin(), chosen.end(), random);
    // Their moves out, then back one piece at a time, each with the fewest
    // moves between the moves the way has by then; the pieces still out
    // are off the board (they fit in around those put back before them).
    uint32_t out = 0;
    for (int i : chosen) out |= 1u << i;
    trial.clear();
    for (const PieceMove& m : way)
      if (!(out >> m.piece & 1)) trial.push_back(m);
    bool complete = true;
    for (int i : chosen) {
      out &= ~(1u << i);
      if (!(complete = inserter.Insert(i, out, trial, random))) break;
    }
    if (!complete) continue;
    EndAtCompletion(p, trial);
    // A way no longer is kept (ways of equal length lead elsewhere), and
    // now and then one two moves longer than the best, to leave a plateau.
    if (trial.size() <= way.size() ||
        (trial.size() == best.size() + 2 && below(options.worse_odds) == 0)) {
      way.swap(trial);
      if (way.size() < best.size()) best = way;
    }
  }
  way.swap(best);
  return way.size() < start_size;
}

}  // namespace salta::finish_internal
