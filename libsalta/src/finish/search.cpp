#include "finish/search.h"

#include <algorithm>
#include <bit>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace salta::finish_internal {

Ida::Ida(const Problem& p, Heuristic& h, const IdaOptions& options)
    : p_(p),
      h_(h),
      options_(options),
      by_state_(options.bound_table && !options.move_pruning),
      pathmax_(options.pathmax && by_state_ && p.steps_only && p.num_step_dirs == 4),
      bounds_(options.bound_table ? options.bound_table_entries : 0) {
  sq_ = p_.start;
  for (int i = 0; i < p_.k; ++i) occ_ |= SquareBit(sq_[i]);
  key_ = KeyOf(sq_, p_.k);
  children_.reserve(4096);
  if (options_.stubborn && !options_.move_pruning && p_.steps_only) {
    const int n = p_.n;
    ellipse_.assign(size_t(p_.k) * n * kSlackLevels, 0);
    for (int i = 0; i < p_.k; ++i) {
      const int t = p_.target[i];
      for (int a = 0; a < n; ++a) {
        const int d = p_.dist[a][t];
        if (d == Problem::kNoWay) continue;
        Bitboard* of = &ellipse_[(size_t(i) * n + a) * kSlackLevels];
        for (int x = 0; x < n; ++x) {
          const int dx = p_.dist[a][x], xt = p_.dist[x][t];
          if (dx == Problem::kNoWay || xt == Problem::kNoWay) continue;
          for (int sl = std::max(0, dx + xt - d); sl < kSlackLevels; ++sl) of[sl] |= SquareBit(x);
        }
      }
    }
  }
}

namespace {

// The pieces (a bit each) whose sets in `of` meet `squares`.
uint16_t Meeting(const Bitboard (&of)[16], Bitboard squares) {
#if defined(__AVX512F__)
  const __m512i s = _mm512_set1_epi64(int64_t(squares));
  return uint16_t(_mm512_test_epi64_mask(_mm512_loadu_si512(of), s) |
                  _mm512_test_epi64_mask(_mm512_loadu_si512(of + 8), s) << 8);
#else
  uint16_t pieces = 0;
  for (int m = 0; m < 16; ++m) pieces |= uint16_t((of[m] & squares) != 0) << m;
  return pieces;
#endif
}

}  // namespace

uint32_t Ida::Movers(int budget) const {
  const int k = p_.k;
  const uint32_t all = (uint32_t(1) << k) - 1;
  // (Above kSlackLevels, a piece's slack is all the same.)
  Lanes16 slack;
  h_.Slack(budget, kSlackLevels, slack);
  // The start split's groups bound their pieces' moves the same way: a
  // group's moves are at least its bound, the others' at least theirs.
  for (int s = 0; s < num_splits_; ++s) {
    const Split& split = splits_[s];
    const Lanes16 c = __builtin_convertvector(
                          Heuristic::Gather(split.excess, Heuristic::AsLanes(split.of)), Lanes16) +
                      Heuristic::Spare(budget, split.sum);
    slack = slack < c ? slack : c;
  }
  static_assert(kMaxPiecesInProblem <= 16, "a piece a lane of 16 bits");
  // reach[i]: the squares piece i may stand on in a way within the budget.
  Bitboard reach[16] = {};
  for (int i = 0; i < k; ++i) {
    if (slack[i] < 0) return all;  // no way within the budget: nothing to prune by
    reach[i] = slack[i] >= kSlackLevels
                   ? ~Bitboard(0)
                   : ellipse_[(size_t(i) * p_.n + sq_[i]) * kSlackLevels + slack[i]];
  }
  Bitboard on[16] = {};  // each piece's square
  for (int i = 0; i < k; ++i) on[i] = SquareBit(sq_[i]);
  // closure[j]: the pieces a stubborn set holding j's moves must hold, first
  // those it needs directly. Where a move of j goes to a free square, the
  // moves of those who may stand there interfere with it; where the square
  // is taken, the move needs its piece to leave first. One lane a piece.
  typedef uint16_t Rows __attribute__((vector_size(32)));
  Rows closure = {};
  for (int j = 0; j < k; ++j) {
    const Bitboard steps = p_.steps[sq_[j]] & reach[j];
    uint16_t needs = uint16_t(1) << j;
    if (const Bitboard taken = steps & occ_) needs |= Meeting(on, taken);
    if (const Bitboard free = steps & ~occ_) needs |= Meeting(reach, free);
    // An unfinished piece that needs no other is a stubborn set alone, the
    // least there is: the first one is what the closure below would choose.
    if (needs == uint16_t(1) << j && sq_[j] != p_.target[j]) return needs;
    closure[j] = needs;
  }
  // Warshall's transitive closure: who needs m needs what m needs.
  for (int m = 0; m < k; ++m) {
    const Rows has_m = (closure >> m) & 1;
    closure |= (0 - has_m) & closure[m];
  }
  uint32_t best = all;
  for (int i = 0; i < k; ++i)
    if (sq_[i] != p_.target[i] && std::popcount(uint16_t(closure[i])) < std::popcount(best))
      best = closure[i];
  return best;
}

void Ida::SetStartSplits(const std::vector<StartSplit>& splits) {
  num_splits_ = 0;
  split_dbs_.clear();
  if (!p_.steps_only) return;
  for (const StartSplit& start : splits) {
    // (Where a group cannot finish, the count has ended before any search.)
    if (num_splits_ == kMaxSplits || start.groups.empty() || start.sum >= kInf) continue;
    Split& split = splits_[num_splits_++];
    split = Split{};
    for (size_t j = 0; j < start.groups.size(); ++j) {
      const uint32_t group = start.groups[j];
      int dist = 0;
      std::vector<int> pieces;
      for (uint32_t g = group; g; g &= g - 1) {
        const int i = std::countr_zero(g);
        split.of[i] = int8_t(j);
        dist += p_.dist[sq_[i]][p_.target[i]];
        pieces.push_back(i);
      }
      // A count has the parity of its pieces' distances.
      split.left[j] = start.counts[j] - ((start.counts[j] - dist) & 1);
      split.dist[j] = dist;
      // The group's database: built where small (milliseconds), else only
      // where the bound's databases have it.
      split.dbs[j] = GroupCost();
      const int size = int(pieces.size());
      if (options_.carried_databases && size >= 2 && size <= kMaxGroupSize) {
        pieces = ByTarget(p_, std::move(pieces));  // (as the bound's groups, which share it)
        std::vector<int8_t> targets;
        for (int i : pieces) targets.push_back(p_.target[i]);
        absl::StatusOr<std::shared_ptr<const PatternDb>> found = FindPatternDb(
            p_, targets, PatternSource{}, size <= kSmallGroupSize ? Find::kBuild : Find::kCached);
        if (found.ok()) {
          split_dbs_.push_back(*found);
          split.dbs[j] = GroupCost(**found, pieces);
          split.at[j] = split.dbs[j].IndexOf(sq_);
          split.dbs[j].WeightsByPiece(split.weight_of);
        }
      }
      split.bound[j] = split.Bound(j);
      split.sum = std::min(kInf, split.sum + split.bound[j]);
      split.excess[j] = Heuristic::Excess(split.bound[j], split.dist[j]);
    }
  }
}

bool Ida::Stop() {
  if (nodes_ >= limits_.max_nodes) return true;
  return (nodes_ & 1023) == 0 && limits_.TimeUp();
}

Ida::Outcome Ida::Run(int& lower, int stop_at, const SearchLimits& limits, TieOrder order,
                      std::vector<PieceMove>& path) {
  limits_ = limits;
  bounds_.set_limits(limits);
  order_ = order;
  aborted_ = false;
  h_.Set(sq_);
  const PieceMove root;
  const int h0 = std::max(
      {h_.value(), SplitBound(), options_.bound_table ? bounds_.Probe(NodeOf(key_, -1, -1)) : 0});
  if (h0 >= kInf) return Outcome::kUnreachable;
  lower = std::max(lower, h0);
  if (h_.value() == 0) {
    path.clear();
    lower = 0;
    return Outcome::kSolved;
  }
  for (;;) {
    if (stop_at > 0 && lower >= stop_at) return Outcome::kStopped;
    if (options_.progress) options_.progress(lower, nodes_);
    found_ = false;
    path_.assign(lower, PieceMove{});
    const int r = Search(0, lower, h0, root);
    if (found_) {
      path = path_;
      return Outcome::kSolved;
    }
    if (aborted_) return Outcome::kStopped;
    if (r >= kInf) return Outcome::kUnreachable;
    lower = std::max(lower + 1, r);
  }
}

bool Ida::Commutes(Square from, Square to, bool jump, const PieceMove& last) const {
  // Steps: the move could come first unless it goes where the last move
  // came from (the other squares involved are distinct anyway).
  if (p_.steps_only) return to != last.from;
  // With jumps, play the two in the other order on the board before `last`.
  const Bitboard before = occ_ ^ SquareBit(last.to) ^ SquareBit(last.from);
  return p_.CanMove(from, to, jump, before) &&
         p_.CanMove(last.from, last.to, last.jump, before ^ SquareBit(from) ^ SquareBit(to));
}

int Ida::Search(int g, int bound, int h, const PieceMove& last) {
  // (Before counting the node: a limit of n nodes searches n, not n + 1.)
  if (Stop()) {
    aborted_ = true;
    return h;
  }
  ++nodes_;
  int best = kInf;
  const size_t base = children_.size();
  bool goal = false;
  const uint32_t all = (uint32_t(1) << p_.k) - 1;
  const uint32_t movers = ellipse_.empty() ? all : Movers(bound - g);
  for (int i = 0; i < p_.k && !goal; ++i) {
    if (!(movers >> i & 1)) continue;
    const Square from = sq_[i];
    const int tie = order_ == TieOrder::kBackFirst ? -p_.g->rank_of(p_.target[i]) : 0;
    p_.ForEachMoveFrom(from, occ_, [&](Square to, bool jump) {
      if (goal) return;
      // Undoing the last move never shortens a way to the goal; but a bound
      // kept by state must hold however the state is reached, so it counts
      // every move, that one too.
      if (!by_state_ && i == last.piece && to == last.from) return;
      if (options_.move_pruning && i < last.piece && Commutes(from, to, jump, last)) return;
      // (A child's bound stops at the first part above what the node
      // leaves it: it is not searched, and that is all its parent needs.)
      const int cutoff = std::max(0, bound - g - 1);
      int hc = h_.Child(sq_, i, to, cutoff);
      if (hc >= kInf) return;
      if (num_splits_ > 0 && hc <= cutoff) {
        const uint32_t step = uint32_t(to - from);
        const int closer = p_.dist[to][p_.target[i]] - p_.dist[from][p_.target[i]];
        for (int s = 0; s < num_splits_ && hc <= cutoff; ++s)
          hc = std::max(hc, splits_[s].Child(i, step, closer, cutoff));
      }
      const PieceMove mv{int8_t(i), int8_t(from), int8_t(to), jump};
      if (hc == 0) {
        goal = true;
        path_.resize(g + 1);
        path_[g] = mv;
        return;
      }
      if (g + 1 + hc > bound) {
        best = std::min(best, 1 + hc);
        return;
      }
      children_.push_back(Child{mv, hc, tie});
      if (options_.bound_table) bounds_.Prefetch(NodeOf(MovedKey(key_, i, from, to), i, from));
    });
  }
  if (goal) {
    children_.resize(base);
    found_ = true;
    return 0;
  }
  // Most promising first: the last iteration stops at the first solution.
  for (size_t c = base + 1; c < children_.size(); ++c)
    for (size_t d = c; d > base && (children_[d].h < children_[d - 1].h ||
                                    (children_[d].h == children_[d - 1].h &&
                                     children_[d].tie < children_[d - 1].tie));
         --d)
      std::swap(children_[d], children_[d - 1]);
  bool expanded = false;
  for (size_t c = base; c < children_.size(); ++c) {
    const PieceMove mv = children_[c].move;
    const Key child_key = MovedKey(key_, mv.piece, mv.from, mv.to);
    int hc = children_[c].h;
    if (options_.bound_table)
      hc = std::max(hc, bounds_.Probe(NodeOf(child_key, mv.piece, mv.from)));
    int r = hc;
    if (g + 1 + hc <= bound) {
      Heuristic::Saved saved;
      sq_[mv.piece] = mv.to;
      occ_ ^= SquareBit(mv.from) | SquareBit(mv.to);
      const Key key = key_;
      key_ = child_key;
      // (The step and change of distance, once for the bound and the
      // carried partitions.)
      const uint32_t step = uint32_t(mv.to - mv.from);
      const int closer =
          p_.dist[mv.to][p_.target[mv.piece]] - p_.dist[mv.from][p_.target[mv.piece]];
      h_.Moved(sq_, mv.piece, step, closer, saved);
      for (int s = 0; s < num_splits_; ++s) splits_[s].Move(mv.piece, step, closer, 1);
      r = Search(g + 1, bound, hc, mv);
      expanded = true;
      h_.Restore(mv.piece, saved);
      key_ = key;
      occ_ ^= SquareBit(mv.from) | SquareBit(mv.to);
      sq_[mv.piece] = mv.from;
      for (int s = 0; s < num_splits_; ++s) splits_[s].Move(mv.piece, 0 - step, -closer, -1);
      if (found_) {
        path_[g] = mv;
        children_.resize(base);
        return 0;
      }
      if (aborted_) {
        children_.resize(base);
        return h;
      }
    }
    if (pathmax_ && g + r - 1 > bound) {
      // Every move can be taken back, so the node's count is at least this
      // child's less one (bidirectional pathmax): a child the table shows
      // far from the goal, by another way to it, cuts the other children.
      // (One that cannot finish: nor can the node, which reaches it.)
      const int parent = r >= kInf ? kInf : r - 1;
      children_.resize(base);
      bounds_.Store(NodeOf(key_, last.piece, last.from), parent, expanded);
      return parent;
    }
    best = std::min(best, Inc(r));
  }
  children_.resize(base);
  best = std::max(best, h);
  // Pruned moves are only known to start no way within the budget: the
  // bound proven is the least above it of the count's parity.
  if (movers != all) best = std::min(best, bound - g + 1 + ((bound - g + 1 - h) & 1));
  if (options_.bound_table) bounds_.Store(NodeOf(key_, last.piece, last.from), best, expanded);
  return best;
}

bool BeamSearch(const Problem& p, const Heuristic& bound, int width, TieOrder order, int max_depth,
                const SearchLimits& limits, std::vector<PieceMove>& path, uint64_t& nodes) {
  // Each node's bound is found afresh (Set), where the bound of pairs
  // would look up every pair; and the ways found with it were no better
  // (docs/scoring.md): the beam ranks by the rest of the bound.
  Heuristic h = bound;
  h.SetPairs(nullptr);
  struct Node {
    Squares sq;
    int32_t parent;
    PieceMove move;
  };
  struct Candidate {
    int h;
    int tie;  // lower first among equal bounds
    uint64_t hash;
    int32_t parent;
    PieceMove move;
    bool operator<(const Candidate& o) const {
      if (h != o.h) return h < o.h;
      if (tie != o.tie) return tie < o.tie;
      return hash < o.hash;
    }
  };
  // The tie: the distances weighted by the targets' ranks, or nothing.
  auto weight = [&](int i) { return order == TieOrder::kAny ? 0 : 1 + p.g->rank_of(p.target[i]); };
  auto tie_of = [&](const Squares& sq) {
    int t = 0;
    for (int i = 0; i < p.k; ++i) t += weight(i) * p.dist[sq[i]][p.target[i]];
    return t;
  };
  std::vector<Node> nodes_kept = {{p.start, -1, PieceMove{}}};
  std::vector<int32_t> layer = {0}, next;
  std::vector<Candidate> candidates;
  const uint64_t first_nodes = nodes;
  auto finish = [&](int32_t at, const PieceMove& last) {
    path.clear();
    path.push_back(last);
    for (int32_t n = at; nodes_kept[n].parent >= 0; n = nodes_kept[n].parent)
      path.push_back(nodes_kept[n].move);
    std::reverse(path.begin(), path.end());
    return true;
  };
  h.Set(p.start);
  if (h.value() == 0) {
    path.clear();
    return true;
  }
  for (int depth = 1; depth <= max_depth; ++depth) {
    candidates.clear();
    for (int32_t at : layer) {
      if (nodes - first_nodes >= limits.max_nodes) return false;
      if ((nodes & 63) == 0 && limits.TimeUp()) return false;
      ++nodes;
      const Node node = nodes_kept[at];
      h.Set(node.sq);
      const int tie = tie_of(node.sq);
      Bitboard occ = 0;
      for (int i = 0; i < p.k; ++i) occ |= SquareBit(node.sq[i]);
      const Key key = KeyOf(node.sq, p.k);
      bool done = false;
      PieceMove goal_move;
      for (int i = 0; i < p.k && !done; ++i)
        p.ForEachMoveFrom(node.sq[i], occ, [&](Square to, bool jump) {
          if (done || (i == node.move.piece && to == node.move.from)) return;
          const int hc = h.Child(node.sq, i, to);
          if (hc >= kInf) return;
          const PieceMove mv{int8_t(i), node.sq[i], int8_t(to), jump};
          if (hc == 0) {
            done = true;
            goal_move = mv;
            return;
          }
          const int child_tie =
              tie + weight(i) * (p.dist[to][p.target[i]] - p.dist[node.sq[i]][p.target[i]]);
          candidates.push_back(
              Candidate{hc, child_tie, HashKey(MovedKey(key, i, node.sq[i], to)), at, mv});
        });
      if (done) return finish(at, goal_move);
    }
    if (candidates.empty()) return false;
    // The best `width` distinct placements: equal placements have equal
    // bounds and hashes, so they sort next to each other.
    const size_t keep = std::min(candidates.size(), size_t(width) * 2);
    std::nth_element(candidates.begin(), candidates.begin() + (keep - 1), candidates.end());
    std::sort(candidates.begin(), candidates.begin() + keep);
    next.clear();
    for (size_t c = 0; c < keep && int(next.size()) < width; ++c) {
      if (c > 0 && candidates[c].hash == candidates[c - 1].hash) continue;
      Node child = nodes_kept[candidates[c].parent];
      child.parent = candidates[c].parent;
      child.move = candidates[c].move;
      child.sq[child.move.piece] = child.move.to;
      next.push_back(int32_t(nodes_kept.size()));
      nodes_kept.push_back(child);
    }
    layer.swap(next);
  }
  return false;
}

}  // namespace salta::finish_internal
