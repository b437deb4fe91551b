// The searches over the clear-board problem:
//   - Ida: IDA* that proves lower bounds iteration by iteration and finds an
//     optimal solution, with the bound table, stubborn sets and the
//     canonical order of commuting moves;
//   - BeamSearch: a way to finish, not always shortest, found fast: the
//     upper bound that often meets the lower bound at once.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "finish/bound_table.h"
#include "finish/heuristic.h"
#include "finish/limits.h"
#include "finish/pattern_db.h"
#include "finish/problem.h"

namespace salta::finish_internal {

// How a search orders placements of equal bound. Two orders find different
// ways; neither is better on every position.
enum class TieOrder {
  kAny,        // no preference (the beam: a hash of the placement)
  kBackFirst,  // pieces bound for the far ranks first (the goal fills from the back)
};

struct IdaOptions {
  // Search only one order of moves that commute (see Ida). Off by default:
  // with it the bound table must keep a state's bounds apart by the last
  // move, and searches more nodes (measured in docs/scoring.md).
  bool move_pruning = false;
  // Keep the bounds failed searches prove (bound_table.h).
  bool bound_table = true;
  // Search only the moves of a strong stubborn set (see Ida::Movers).
  bool stubborn = true;
  // Where every move can be taken back, cut a node by a child's bound less
  // one (bidirectional pathmax): needs the bound table kept by state.
  bool pathmax = true;
  // Bound the carried groups that have databases (at most kMaxGroupSize
  // pieces) by their exact cost too (see Split), as
  // FinishTechniques::carried_databases.
  bool carried_databases = true;
  size_t bound_table_entries = size_t(1) << 22;
  // Called before each iteration with the proven lower bound and nodes so far.
  std::function<void(int lower, uint64_t nodes)> progress;
};

// A partition of the pieces into groups (a bit a piece), each with a proven
// lower bound on its count alone at the start (group_bound.h).
struct StartSplit {
  std::vector<uint32_t> groups;
  std::vector<int> counts;
  int sum = 0;
  void Add(uint32_t group, int count) {
    groups.push_back(group);
    counts.push_back(count);
    sum = std::min(kInf, sum + count);
  }
};

// IDA*: depth-first searches bounded by g + h <= T for T rising from the
// root's bound; each failed iteration proves the count exceeds T.
//
// With move pruning, moves of different pieces that can be played in either
// order to the same placement (they commute) are searched in one order
// only: after a move of piece i, a move of a piece j < i is not searched
// when it could have been played before i's move (Burch and Holte's move
// pruning). Every sequence can be reordered, by swapping such neighbours,
// into one the search does visit, of the same length and end, so the counts
// are unchanged. Without it the bound table alone meets the other orders:
// a state's bound holds whatever way led to it, so every state is searched
// once an iteration (while its entry stays).
//
// With stubborn sets, a node searches only the moves of the pieces Movers
// chooses: every way within the node's budget can be reordered, at the same
// length, to start with one of them (docs/scoring.md). The choice depends
// on the state alone, so bounds stay those of states; a node that left
// moves out proves only that no way fits its budget.
class Ida {
 public:
  enum class Outcome { kSolved, kUnreachable, kStopped };

  Ida(const Problem& p, Heuristic& h, const IdaOptions& options);

  // Raises `lower` (a proven lower bound on the count) until an optimal
  // solution is found (kSolved: `path`, of length lower), the goal is proven
  // unreachable, the bound reaches `stop_at` (> 0: a known upper bound, so
  // the count is stop_at) or a limit stops it (kStopped). Children of equal
  // bound are searched in `order`: it decides which solution comes first,
  // not what an iteration proves.
  Outcome Run(int& lower, int stop_at, const SearchLimits& limits, TieOrder order,
              std::vector<PieceMove>& path);

  // Carries the counts of groups alone at the start into the search: where
  // pieces only step, the moves a group's pieces make on the way to a node
  // are a way for the group alone (fewer pieces only free squares), so at
  // the node its count is at least its start count less those moves, and
  // at least its pieces' distances; the sum over the groups bounds the
  // node as a database partition does. Unlike a database's, the bound of
  // a group whose conflicts no database sees (the tangle in the goal) then
  // falls only with the group's own moves. Between runs only.
  void SetStartSplit(const StartSplit& split) { SetStartSplits({split}); }
  // Several such partitions: the node's bound is the largest of their sums
  // (they fall with different moves). At most kMaxSplits.
  static constexpr int kMaxSplits = 8;
  void SetStartSplits(const std::vector<StartSplit>& splits);

  uint64_t nodes() const { return nodes_; }
  bool has_bound_table() const { return options_.bound_table; }
  // A search run on with more nodes than its bound table was sized for
  // (IdaOptions::bound_table_entries) may let it grow further.
  void AllowBoundEntries(size_t entries) { bounds_.AllowUpTo(entries); }

 private:
  struct Child {
    PieceMove move;
    int h;
    int tie;  // lower first among equal h
  };

  int Search(int g, int bound, int h, const PieceMove& last);
  // The bound table's key of the state reached by the last move.
  Key NodeOf(const Key& state, int last_piece, int last_from) const {
    return by_state_ ? state : NodeKey(state, last_piece, last_from);
  }
  // Whether the move could have been played before `last` to the same end.
  bool Commutes(Square from, Square to, bool jump, const PieceMove& last) const;
  bool Stop();
  // The pieces whose moves the node must search, a bit each, where a way
  // of at most `budget` moves is sought: the least strong stubborn set
  // over the unfinished pieces.
  uint32_t Movers(int budget) const;
  static constexpr int kSlackLevels = 8;
  // ellipse_[(i * n + s) * kSlackLevels + slack]: the squares piece i,
  // standing on s, can stand on in a way to its target of at most its
  // distance plus `slack` moves. Empty: no stubborn sets.
  std::vector<Bitboard> ellipse_;
  // A start split's state on the way to the node: by group, its start
  // count less its moves made (left), its pieces' distances (dist) and,
  // for a group of at most kMaxGroupSize pieces, its exact cost alone from
  // its database, which is at least the other two; bound is the largest of
  // them, sum the sum of the bounds.
  struct Split {
    Heuristic::ByPiece of{};
    std::array<int, kMaxPiecesInProblem> left{}, dist{}, bound{};
    // By group, its database (no values: none, the group is larger), and
    // where the group stands in it (its sparse index, kept move by move).
    std::array<GroupCost, kMaxPiecesInProblem> dbs{};
    std::array<uint32_t, kMaxPiecesInProblem> at{};
    // By piece, its weight in its group's database.
    std::array<uint32_t, kMaxPiecesInProblem> weight_of{};
    // By group, its bound above its pieces' distances (Heuristic::Excess).
    Lanes8 excess{};
    int sum = 0;
    // The sum after piece i moves `step` squares on (to - from), which
    // changes its distance by `closer` (the same for every split); above
    // `cutoff`, only a lower bound above it.
    int Child(int i, uint32_t step, int closer, int cutoff) const {
      const int j = of[i];
      const int others = sum - bound[j];
      int b = std::max(left[j] - 1, dist[j] + closer);
      if (dbs[j].values && others + b <= cutoff)
        b = std::max(b, dbs[j].ValueAt(at[j] + step * weight_of[i]));
      return std::min(kInf, others + b);
    }
    // Piece i has moved as in Child (`moves` 1; -1, with the step and the
    // distance's change negated, takes the move back).
    void Move(int i, uint32_t step, int closer, int moves) {
      const int j = of[i];
      left[j] -= moves;
      dist[j] += closer;
      at[j] += step * weight_of[i];
      sum -= bound[j];
      bound[j] = Bound(j);
      sum = std::min(kInf, sum + bound[j]);
      excess[j] = Heuristic::Excess(bound[j], dist[j]);
    }
    int Bound(int j) const {
      const int b = std::max(left[j], dist[j]);
      return dbs[j].values ? std::max(b, dbs[j].ValueAt(at[j])) : b;
    }
  };
  int num_splits_ = 0;
  std::array<Split, kMaxSplits> splits_;
  std::vector<std::shared_ptr<const PatternDb>> split_dbs_;  // what splits_ point to
  int SplitBound() const {
    int b = 0;
    for (int s = 0; s < num_splits_; ++s) b = std::max(b, splits_[s].sum);
    return b;
  }

  const Problem& p_;
  Heuristic& h_;
  IdaOptions options_;
  // The bound table holds bounds of states, not of states reached by a
  // given move: nothing may then be skipped for the way a node was reached.
  bool by_state_;
  // Pathmax applies: every move can be taken back (steps every way) and
  // bounds are kept by state, so a child's bound less one is its parent's.
  bool pathmax_;
  BoundTable bounds_;
  SearchLimits limits_;
  TieOrder order_ = TieOrder::kAny;
  Squares sq_{};
  Bitboard occ_ = 0;
  Key key_;
  std::vector<Child> children_;
  std::vector<PieceMove> path_;
  uint64_t nodes_ = 0;
  bool found_ = false;
  bool aborted_ = false;
};

// Beam search: from the start, depth by depth, the `width` children with the
// least bound (distinct placements) are kept, until one is the goal. Returns
// false when none is found within `max_depth` moves or the limits. Adds its
// expansions to `nodes`.
bool BeamSearch(const Problem& p, const Heuristic& bound, int width, TieOrder order, int max_depth,
                const SearchLimits& limits, std::vector<PieceMove>& path, uint64_t& nodes);

}  // namespace salta::finish_internal
