// The bound of pairs in conflict: every piece's distance alone, plus, over
// a matching of the pieces into disjoint pairs, what each matched pair
// needs alone beyond its two distances (its excess, from a database of the
// two pieces). Pairs and single pieces partition the pieces, so the sum is
// a lower bound as a database partition's is; but the pairs are chosen at
// each placement, among all the pieces, so conflicts that every fixed
// partition cuts apart (two pieces in different groups of each) add up,
// and conflicts in different places of the board add up too, where the
// maximum over fixed partitions takes only one partition's.
//
// Any matching gives a lower bound. The start's is greedy (the largest
// excesses first); then it is kept move by move: the moved piece's pair is
// taken out, and it and its former partner take their best free partners,
// so that a child's bound costs a look-up for each free piece.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "finish/pattern_db.h"
#include "finish/problem.h"

namespace salta::finish_internal {

// What the bound looks up: each piece's distance by square, and each
// pair's two-piece database.
struct PairTables {
  int k = 0;
  PieceDistances dist{};
  // pair[i][j] (i != j): the database of pieces i and j, and the weights
  // of i and of j in its sparse index (pair[j][i] has them swapped).
  struct Pair {
    const uint8_t* values = nullptr;
    uint32_t weight_i = 0, weight_j = 0;
    int ValueWith(Square i_on, Square j_on) const {
      const uint8_t v = values[uint32_t(i_on) * weight_i + uint32_t(j_on) * weight_j];
      return v == kPdbUnreachable ? kInf : v;
    }
  };
  std::array<std::array<Pair, kMaxPiecesInProblem>, kMaxPiecesInProblem> pair{};
  // conflicts[i]: the pieces j (a bit each) that piece i may need more than
  // the two distances with (PatternDb::beyond_distances); with the others,
  // i's excess is 0 wherever the two stand and can finish from.
  std::array<uint32_t, kMaxPiecesInProblem> conflicts{};
  std::vector<std::shared_ptr<const PatternDb>> dbs;  // what pair points to
};

// The tables of p's pairs: their databases from the process's cache, else
// stored together in source.dir (FindPatternSet, "pairs": 105 of 2,500
// placements on 10x10, built in 2.7 ms), else built; `find` as there.
// Needs a problem without jumps.
absl::StatusOr<std::shared_ptr<const PairTables>> MakePairTables(const Problem& p,
                                                                 const PatternSource& source = {},
                                                                 Find find = Find::kBuild);

// The tables of p's pieces `members` alone (the problem SubProblem(p,
// members)), taken from p's: the same databases, nothing built.
std::shared_ptr<const PairTables> SubPairTables(const std::shared_ptr<const PairTables>& tables,
                                                const std::vector<int>& members);

class PairBound {
 public:
  // Without tables (null) the bound is off: only on() may be called.
  PairBound() = default;
  explicit PairBound(std::shared_ptr<const PairTables> tables) : t_(std::move(tables)) {}
  bool on() const { return t_ != nullptr; }
  const std::shared_ptr<const PairTables>& tables() const { return t_; }

  // Evaluates every pair for the placement sq: a greedy matching afresh.
  void Set(const Squares& sq);

  // The bound of the placement last Set or updated.
  int value() const { return std::min(kInf, dsum_ + matched_); }
  // Piece i's partner in the matching (-1: none).
  int mate(int i) const { return mate_[i]; }

  // The bound after piece i of sq moves to `to` (sq is the placement the
  // bound is for): the matching with i's pair taken out and i's best free
  // partner put in, as Moved keeps it.
  int Child(const Squares& sq, int i, Square to) const {
    const int di = t_->dist[i][to];
    if (di == Problem::kNoWay) return kInf;
    const int mate = mate_[i];
    int best = 0;
    const uint32_t free = (unmatched_ | (mate >= 0 ? 1u << mate : 0)) & t_->conflicts[i];
    for (uint32_t f = free; f; f &= f - 1) {
      const int j = std::countr_zero(f);
      const int excess = Excess(i, to, di, j, sq[j]);
      if (excess >= kInf) return kInf;
      best = std::max(best, excess);
    }
    return std::min(kInf, dsum_ - d_[i] + di + matched_ - excess_[i] + best);
  }

  // For every piece, what the pairs allow it beyond its distance in a way
  // of at most `budget` moves: the budget's spare above the bound plus
  // its pair's excess (as Heuristic::Slack for a partition).
  void Slack(int budget, Lanes16& slack) const {
    const int spare = budget - value();
    for (int i = 0; i < t_->k; ++i)
      slack[i] = std::min<int>(slack[i], std::clamp(spare + excess_[i], -1000, 1000));
  }

  struct Saved {
    std::array<int8_t, kMaxPiecesInProblem> mate;
    std::array<int, kMaxPiecesInProblem> excess;
    uint32_t unmatched;
    int d, dsum, matched;
  };
  // Piece i has moved: sq is the new placement. Its pair is taken out; it,
  // then its former partner, take the free partner with the largest excess
  // (a pair that comes into conflict does so as one of its pieces moves).
  void Moved(const Squares& sq, int i, Saved& saved);
  void Restore(int i, const Saved& saved) {
    mate_ = saved.mate;
    excess_ = saved.excess;
    unmatched_ = saved.unmatched;
    d_[i] = uint8_t(saved.d);
    dsum_ = saved.dsum;
    matched_ = saved.matched;
  }

 private:
  // What pieces i (on i_on, at distance di) and j (on j_on, at its kept
  // distance) need alone beyond their distances; kInf where they cannot
  // finish.
  int Excess(int i, Square i_on, int di, int j, Square j_on) const {
    const int v = t_->pair[i][j].ValueWith(i_on, j_on);
    return v >= kInf ? kInf : v - di - d_[j];
  }
  // Piece i (unmatched) matched with the free piece of largest excess, if
  // any is above zero.
  void MatchFree(const Squares& sq, int i);

  std::shared_ptr<const PairTables> t_;
  // Each piece's distance (Problem::kNoWay where it cannot reach its
  // target: the partitions' bound is then kInf, and so is a child's here).
  std::array<uint8_t, kMaxPiecesInProblem> d_{};
  int dsum_ = 0;
  // mate_[i]: piece i's partner (-1: none); excess_[i]: what the two need
  // alone beyond their distances (0 where none; kInf: they cannot finish).
  std::array<int8_t, kMaxPiecesInProblem> mate_{};
  std::array<int, kMaxPiecesInProblem> excess_{};
  uint32_t unmatched_ = 0;  // a bit a piece without a partner
  int matched_ = 0;         // the matched pairs' excesses
};

}  // namespace salta::finish_internal
