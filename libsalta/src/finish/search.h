// The searches: IDA* with the pattern databases and the bound table, and a
// weighted A* for a way to finish.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <queue>
#include <unordered_map>
#include <vector>

#include "finish/bound_table.h"
#include "finish/pattern_db.h"
#include "finish/problem.h"
#include "salta/finish.h"
#include "salta/movegen.h"

namespace salta::finish_internal {

class Solver {
 public:
  Solver(const Problem& p, const FinishOptions& options, Clock::time_point start)
      : p_(p), options_(options), bounds_(size_t(1) << 22), start_time_(start) {
    for (int i = 0; i < p_.k; ++i) {
      sq_[i] = p_.start[i];
      occ_ |= SquareBit(sq_[i]);
      key_ = WithPiece(key_, i, sq_[i]);
    }
    children_.reserve(4096);
  }

  void SetPartitions(std::vector<Partition> partitions) {
    partitions_ = std::move(partitions);
    nq_ = int(partitions_.size());
    for (int q = 0; q < nq_; ++q) {
      Partition& part = partitions_[q];
      sums_[q] = 0;
      for (size_t gi = 0; gi < part.groups.size(); ++gi) {
        const Group& group = part.groups[gi];
        tables_[q][gi] = group.pdb->table.data();
        uint32_t idx = 0;
        for (size_t j = 0; j < group.pieces.size(); ++j) {
          idx += uint32_t(sq_[group.pieces[j]]) * group.weight[j];
          weight_[q][group.pieces[j]] = int32_t(group.weight[j]);
        }
        index_[q][gi] = idx;
        const uint8_t v = tables_[q][gi][idx];
        values_[q][gi] = v == kPdbUnreachable ? kInf : v;
        sums_[q] = std::min(kInf, sums_[q] + values_[q][gi]);
      }
      for (int i = 0; i < p_.k; ++i) group_of_[q][i] = part.group_of[i];
    }
  }

  // The static lower bound of the current state.
  int Heuristic() const {
    int h = 0;
    for (int q = 0; q < nq_; ++q) h = std::max(h, sums_[q]);
    return h;
  }

  bool AtGoal() const {
    for (int i = 0; i < p_.k; ++i)
      if (sq_[i] != p_.target[i]) return false;
    return true;
  }

  // Iterative deepening; returns false when a limit stopped it.
  bool Run(int& lower, std::vector<PieceMove>& path, bool& unreachable) {
    const int h0 = std::max(Heuristic(), bounds_.Probe(key_));
    unreachable = false;
    if (h0 >= kInf) {
      unreachable = true;
      return true;
    }
    lower = std::max(lower, h0);
    if (AtGoal()) {
      lower = 0;
      return true;
    }
    for (;;) {
      if (options_.progress) options_.progress(lower, nodes_);
      found_ = false;
      path_.assign(lower, PieceMove{});
      const int r = Search(0, lower, std::max(h0, bounds_.Probe(key_)), -1, -1, 0);
      if (found_) {
        path = path_;
        return true;
      }
      if (aborted_) return false;
      if (r >= kInf) {
        unreachable = true;
        return true;
      }
      lower = std::max(lower + 1, r);
      if (stop_below_ > 0 && lower >= stop_below_) return false;
    }
  }

  // Stop iterating once the lower bound reaches this (an upper bound found
  // elsewhere), so the caller can conclude.
  void set_stop_at(int bound) { stop_below_ = bound; }
  // A node budget for this run, on top of the options' limits.
  void set_budget(uint64_t nodes) { budget_ = nodes; }
  void clear_abort() { aborted_ = false; }
  uint64_t nodes() const { return nodes_; }
  bool limit_hit() const { return limit_hit_; }
  double seconds() const {
    return std::chrono::duration<double>(Clock::now() - start_time_).count();
  }

  // Puts the pieces on `squares` and recomputes the bounds.
  void SetSquares(const std::array<int8_t, kMaxPiecesInProblem>& squares) {
    occ_ = 0;
    key_ = Key{};
    for (int i = 0; i < p_.k; ++i) {
      sq_[i] = squares[i];
      occ_ |= SquareBit(sq_[i]);
      key_ = WithPiece(key_, i, sq_[i]);
    }
    std::vector<Partition> parts = std::move(partitions_);
    SetPartitions(std::move(parts));
  }

  // A way to finish, not necessarily shortest: weighted A* (g + 8h) over at
  // most max_nodes expansions or until the deadline. For the upper bound.
  bool WeightedSearch(uint64_t max_nodes, Clock::time_point deadline,
                      std::vector<PieceMove>& path) {
    struct Node {
      std::array<int8_t, kMaxPiecesInProblem> squares;
      int g;
      int parent;
      PieceMove move;
    };
    struct KeyHash {
      size_t operator()(const Key& k) const { return HashKey(k); }
    };
    const std::array<int8_t, kMaxPiecesInProblem> start = sq_;
    std::vector<Node> nodes = {{sq_, 0, -1, PieceMove{}}};
    std::unordered_map<Key, int, KeyHash> index = {{key_, 0}};
    using Entry = std::pair<int64_t, int>;  // (priority, node); smaller first
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
    auto priority = [](int g, int h) { return int64_t(g + 8 * h) * 1024 - g; };
    open.push({priority(0, Heuristic()), 0});
    bool found = false;
    for (uint64_t expanded = 0; !open.empty() && expanded < max_nodes; ++expanded) {
      if ((expanded & 255) == 0 && Clock::now() >= deadline) break;
      const int at = open.top().second;
      open.pop();
      SetSquares(nodes[at].squares);
      if (Heuristic() == 0) {
        for (int n = at; nodes[n].parent >= 0; n = nodes[n].parent) path.push_back(nodes[n].move);
        std::reverse(path.begin(), path.end());
        found = true;
        break;
      }
      const int g = nodes[at].g;
      for (int i = 0; i < p_.k; ++i)
        ForEachMove(i, [&](Square to, bool jump) {
          const int hc = ChildHeuristic(i, to);
          if (hc >= kInf) return;
          const Key child = WithPiece(WithPiece(key_, i, sq_[i]), i, to);
          auto [it, inserted] = index.emplace(child, int(nodes.size()));
          if (!inserted) {
            if (nodes[it->second].g <= g + 1) return;
            nodes[it->second].g = g + 1;
            nodes[it->second].parent = at;
            nodes[it->second].move = PieceMove{int8_t(i), sq_[i], int8_t(to), jump};
            open.push({priority(g + 1, hc), it->second});
            return;
          }
          Node n{sq_, g + 1, at, PieceMove{int8_t(i), sq_[i], int8_t(to), jump}};
          n.squares[i] = int8_t(to);
          nodes.push_back(n);
          open.push({priority(g + 1, hc), int(nodes.size()) - 1});
        });
    }
    SetSquares(start);
    return found;
  }

  // Moves of piece i from the current state.
  template <typename F>
  void ForEachMove(int i, F&& f) const {
    const Geometry& g = *p_.g;
    const Square s = sq_[i];
    for (int d = 0; d < p_.num_step_dirs; ++d) {
      const Square t = g.neighbor(s, p_.step_dirs[d]);
      if (t != kNoSquare && !Contains(occ_, t)) f(t, false);
    }
    if (!p_.jumps) return;
    const Bitboard others = occ_ & ~SquareBit(s);
    for (Bitboard t = JumpTargets(*p_.variant, Side::kWhite, s, others, others); t;)
      f(PopLowest(t), true);
  }

  // The static lower bound after piece i moves to `to` (the current state
  // has a finite bound).
  int ChildHeuristic(int i, Square to) const {
    const int delta = int(to) - sq_[i];
    int h = 0;
    for (int q = 0; q < nq_; ++q) {
      const int gi = group_of_[q][i];
      const uint8_t v = tables_[q][gi][index_[q][gi] + delta * weight_[q][i]];
      if (v == kPdbUnreachable) return kInf;
      h = std::max(h, sums_[q] - values_[q][gi] + v);
    }
    return h;
  }

  struct Saved {
    std::array<int, 8> sums, values;
  };

  void Apply(int i, Square to, Saved& saved) {
    const Square from = sq_[i];
    const int delta = int(to) - from;
    occ_ ^= SquareBit(from) | SquareBit(to);
    key_ = WithPiece(WithPiece(key_, i, from), i, to);  // xor out, xor in
    sq_[i] = int8_t(to);
    for (int q = 0; q < nq_; ++q) {
      const int gi = group_of_[q][i];
      saved.sums[q] = sums_[q];
      saved.values[q] = values_[q][gi];
      index_[q][gi] += delta * weight_[q][i];
      const uint8_t v = tables_[q][gi][index_[q][gi]];
      const int value = v == kPdbUnreachable ? kInf : v;
      values_[q][gi] = value;
      sums_[q] = sums_[q] < kInf && saved.values[q] < kInf && value < kInf
                     ? sums_[q] - saved.values[q] + value
                     : PartitionSum(q);
    }
  }

  void Undo(int i, Square from, const Saved& saved) {
    const Square to = sq_[i];
    const int delta = int(from) - to;
    occ_ ^= SquareBit(from) | SquareBit(to);
    key_ = WithPiece(WithPiece(key_, i, to), i, from);
    sq_[i] = int8_t(from);
    for (int q = 0; q < nq_; ++q) {
      const int gi = group_of_[q][i];
      index_[q][gi] += delta * weight_[q][i];
      values_[q][gi] = saved.values[q];
      sums_[q] = saved.sums[q];
    }
  }

  std::array<int8_t, kMaxPiecesInProblem> squares() const { return sq_; }

 private:
  static Key WithPiece(Key k, int i, int s) {
    if (i < 10)
      k.a ^= uint64_t(s) << (6 * i);
    else
      k.b ^= uint64_t(s) << (6 * (i - 10));
    return k;
  }

  int PartitionSum(int q) const {
    int sum = 0;
    for (size_t gi = 0; gi < partitions_[q].groups.size(); ++gi)
      sum = std::min(kInf, sum + values_[q][gi]);
    return sum;
  }

  bool CheckLimits() {
    if (budget_ > 0 && nodes_ >= budget_) return true;
    if (options_.node_limit > 0 && nodes_ >= options_.node_limit) {
      limit_hit_ = true;
      return true;
    }
    if (options_.time_limit_seconds > 0 && (nodes_ & 1023) == 0 &&
        seconds() >= options_.time_limit_seconds) {
      limit_hit_ = true;
      return true;
    }
    return false;
  }

  struct Child {
    PieceMove move;
    int h;
  };

  // Returns a lower bound on the cost to go from the current state (more
  // than bound - g when the search below fails); sets found_ on success.
  int Search(int g, int bound, int h, int last_piece, int last_from, int parent_h) {
    ++nodes_;
    if (CheckLimits()) {
      aborted_ = true;
      return h;
    }
    int best = kInf;
    const size_t base = children_.size();
    bool goal = false;
    for (int i = 0; i < p_.k && !goal; ++i) {
      ForEachMove(i, [&](Square to, bool jump) {
        if (i == last_piece && to == last_from) {
          // Undoing the previous move leads back to the parent.
          best = std::min(best, Inc(parent_h));
          return;
        }
        const int hc = ChildHeuristic(i, to);
        const PieceMove mv{int8_t(i), sq_[i], int8_t(to), jump};
        if (hc == 0) {
          goal = true;
          path_.resize(g + 1);
          path_[g] = mv;
        }
        if (g + 1 + hc > bound) {
          best = std::min(best, Inc(hc));
          return;
        }
        children_.push_back(Child{mv, hc});
      });
    }
    if (goal) {
      children_.resize(base);
      found_ = true;
      return 0;
    }
    // Most promising first: the last iteration stops at the first solution.
    std::sort(children_.begin() + base, children_.end(),
              [](const Child& a, const Child& b) { return a.h < b.h; });
    for (size_t c = base; c < children_.size(); ++c) {
      const PieceMove mv = children_[c].move;
      Saved saved;
      Apply(mv.piece, mv.to, saved);
      const int hc = std::max(children_[c].h, bounds_.Probe(key_));
      int child = hc;
      if (g + 1 + hc <= bound) {
        child = Search(g + 1, bound, hc, mv.piece, mv.from, h);
        if (found_) {
          path_[g] = mv;
          Undo(mv.piece, mv.from, saved);
          children_.resize(base);
          return 0;
        }
      }
      Undo(mv.piece, mv.from, saved);
      if (aborted_) {
        children_.resize(base);
        return h;
      }
      best = std::min(best, Inc(child));
    }
    children_.resize(base);
    best = std::max(best, h);
    bounds_.Store(key_, best);
    return best;
  }

  const Problem& p_;
  const FinishOptions& options_;
  BoundTable bounds_;
  std::vector<Partition> partitions_;
  int nq_ = 0;
  std::array<int, 8> sums_{};
  std::array<std::array<int, 16>, 8> values_{};
  std::array<std::array<uint32_t, 16>, 8> index_{};
  std::array<std::array<const uint8_t*, 16>, 8> tables_{};
  std::array<std::array<int32_t, kMaxPiecesInProblem>, 8> weight_{};
  std::array<std::array<int8_t, kMaxPiecesInProblem>, 8> group_of_{};
  std::vector<Child> children_;
  std::array<int8_t, kMaxPiecesInProblem> sq_{};
  Bitboard occ_ = 0;
  Key key_;
  std::vector<PieceMove> path_;
  uint64_t nodes_ = 0;
  uint64_t budget_ = 0;
  int stop_below_ = 0;
  bool found_ = false;
  bool aborted_ = false;
  bool limit_hit_ = false;
  Clock::time_point start_time_;
};

}  // namespace salta::finish_internal
