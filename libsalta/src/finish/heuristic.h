// The admissible bound of a placement: the maximum, over partitions of the
// pieces, of the sum of the partition's group costs (pattern_db.h), kept up
// to date move by move. The hot path of every search.
#pragma once

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#if defined(__SSSE3__)
#include <immintrin.h>
#endif

#include "finish/pair_bound.h"
#include "finish/pattern_db.h"
#include "finish/problem.h"
#include "finish/rank_bound.h"

namespace salta::finish_internal {

class Heuristic {
 public:
  static constexpr int kMaxPartitions = 16;

  // Partitions of the pieces of p beyond kMaxPartitions are dropped; at
  // least one is needed.
  void SetPartitions(std::vector<Partition> partitions, const Problem& p) {
    partitions_ = std::move(partitions);
    if (partitions_.size() > kMaxPartitions) partitions_.resize(kMaxPartitions);
    nq_ = int(partitions_.size());
    k_ = p.k;
    dist_ = DistancesByPiece(p);
    for (int q = 0; q < nq_; ++q) {
      ng_[q] = int(partitions_[q].size());
      for (int gi = 0; gi < ng_[q]; ++gi) {
        const Group& group = partitions_[q][gi];
        groups_[q][gi] = GroupCost(*group.pdb, group.pieces);
        for (int piece : group.pieces) group_of_[q][piece] = int8_t(gi);
        groups_[q][gi].WeightsByPiece(weight_of_[q]);
      }
    }
  }
  int num_partitions() const { return nq_; }
  const std::vector<Partition>& partitions() const { return partitions_; }
  // A bound on the pieces' ranks too (rank_bound.h), or none (null).
  void SetRanks(std::shared_ptr<const RankBound> ranks) { ranks_ = std::move(ranks); }
  // The bound of pairs in conflict too (pair_bound.h), or none (null).
  void SetPairs(std::shared_ptr<const PairTables> tables) { pairs_ = PairBound(std::move(tables)); }
  const std::shared_ptr<const PairTables>& pair_tables() const { return pairs_.tables(); }

  // Evaluates every group for the placement sq.
  void Set(const Squares& sq) {
    if (ranks_) rank_index_ = ranks_->Index(sq, k_);
    if (pairs_.on()) pairs_.Set(sq);
    for (int q = 0; q < nq_; ++q) {
      int sum = 0;
      excess_[q] = Lanes8{};
      for (int gi = 0; gi < ng_[q]; ++gi) {
        const GroupCost& ref = groups_[q][gi];
        at_[q][gi] = ref.IndexOf(sq);
        const int v = ref.ValueAt(at_[q][gi]);
        values_[q][gi] = v;
        sum = std::min(kInf, sum + v);
        int dist = 0;
        for (int j = 0; j < ref.size; ++j) dist += dist_[ref.pieces[j]][sq[ref.pieces[j]]];
        group_dist_[q][gi] = dist;
        excess_[q][gi] = Excess(v, dist);
      }
      sums_[q] = sum;
    }
  }

  // The bound of the placement last Set or updated.
  int value() const {
    int h = ranks_ ? RankValue(rank_index_) : 0;
    if (pairs_.on()) h = std::max(h, pairs_.value());
    for (int q = 0; q < nq_; ++q) h = std::max(h, sums_[q]);
    return h;
  }

  // The bound after piece i of the placement sq moves to `to` (sq is the
  // placement the values are for). With a `cutoff`, the partitions stop
  // once one exceeds it: the value is then only a lower bound above it,
  // all a search needs of a child it will not visit.
  int Child(const Squares& sq, int i, Square to, int cutoff = kInf) const {
    int h = 0;
    if (ranks_) {
      h = RankValue(ranks_->Moved(rank_index_, i, sq[i], to));
      if (h > cutoff) return h;
    }
    // (A move changes a group's sparse index by one product.)
    const uint32_t step = uint32_t(to - sq[i]);
    for (int q = 0; q < nq_; ++q) {
      const int gi = group_of_[q][i];
      const int v = groups_[q][gi].ValueAt(at_[q][gi] + step * weight_of_[q][i]);
      if (v >= kInf) return kInf;
      h = std::max(h, sums_[q] - values_[q][gi] + v);
      if (h > cutoff) return h;
    }
    // The pairs only where they may cut: a move changes each pair's count
    // by at most one, so a matching two or more below what the child may
    // have hardly ever cuts it (the same nodes within 0.02 % on the slow
    // counts, in fewer look-ups).
    if (pairs_.on() && pairs_.value() >= cutoff) h = std::max(h, pairs_.Child(sq, i, to));
    return h;
  }

  // A group's cost above its pieces' distances, and what the budget leaves
  // above a sum, clamped to a lane. Neither clamp makes a slack small that
  // was not: at a node a search visits the budget covers every sum (a
  // spare of 0 or more), a slack counts only up to a few moves, and a
  // negative one stops the pruning (as does a group that cannot finish,
  // its cost kInf, whatever its pieces' distances).
  static int8_t Excess(int value, int dist) { return int8_t(std::min(value - dist, 127)); }
  static int16_t Spare(int budget, int sum) { return int16_t(std::max(budget - sum, -1000)); }
  // table[index[i]] in lane i (indices 0 to 15): one instruction where
  // the processor has it.
  static Lanes8 Gather(Lanes8 table, Lanes8 index) {
#if defined(__SSSE3__)
    return Lanes8(_mm_shuffle_epi8(__m128i(table), __m128i(index)));
#else
    Lanes8 lanes;
    for (int i = 0; i < 16; ++i) lanes[i] = table[index[i] & 15];
    return lanes;
#endif
  }
  // A byte a piece, loaded as lanes at once.
  using ByPiece = std::array<int8_t, 16>;
  static Lanes8 AsLanes(const ByPiece& by_piece) {
    Lanes8 lanes;
    std::memcpy(&lanes, by_piece.data(), sizeof(lanes));
    return lanes;
  }

  // For every piece, how many moves beyond its distance alone it may make
  // in a way of at most `budget` moves, in its lane of `slack` (at most
  // `cap`): the least over the partitions of what the budget leaves above
  // the partition's sum plus what the piece's group needs above its
  // pieces' distances.
  void Slack(int budget, int16_t cap, Lanes16& slack) const {
    slack = Lanes16{} + cap;
    for (int q = 0; q < nq_; ++q) {
      const Lanes16 s =
          __builtin_convertvector(Gather(excess_[q], AsLanes(group_of_[q])), Lanes16) +
          Spare(budget, sums_[q]);
      slack = slack < s ? slack : s;
    }
    if (pairs_.on()) pairs_.Slack(budget, slack);
  }

  struct Saved {
    std::array<int, kMaxPartitions> sums, values, group_dist;
    std::array<uint32_t, kMaxPartitions> at;
    uint32_t rank_index;
    PairBound::Saved pairs;
  };
  // Piece i has moved `step` squares on (to - from, as in Child), its
  // distance changed by `closer`: sq is the new placement.
  void Moved(const Squares& sq, int i, uint32_t step, int closer, Saved& saved) {
    saved.rank_index = rank_index_;
    if (ranks_) rank_index_ = ranks_->Index(sq, k_);
    if (pairs_.on()) pairs_.Moved(sq, i, saved.pairs);
    for (int q = 0; q < nq_; ++q) {
      const int gi = group_of_[q][i];
      saved.sums[q] = sums_[q];
      saved.values[q] = values_[q][gi];
      saved.at[q] = at_[q][gi];
      saved.group_dist[q] = group_dist_[q][gi];
      at_[q][gi] += step * weight_of_[q][i];
      const int v = groups_[q][gi].ValueAt(at_[q][gi]);
      values_[q][gi] = v;
      group_dist_[q][gi] += closer;
      excess_[q][gi] = Excess(v, group_dist_[q][gi]);
      sums_[q] = sums_[q] < kInf && saved.values[q] < kInf && v < kInf
                     ? sums_[q] - saved.values[q] + v
                     : Sum(q);
    }
  }
  void Restore(int i, const Saved& saved) {
    rank_index_ = saved.rank_index;
    if (pairs_.on()) pairs_.Restore(i, saved.pairs);
    for (int q = 0; q < nq_; ++q) {
      const int gi = group_of_[q][i];
      values_[q][gi] = saved.values[q];
      at_[q][gi] = saved.at[q];
      group_dist_[q][gi] = saved.group_dist[q];
      excess_[q][gi] = Excess(saved.values[q], saved.group_dist[q]);
      sums_[q] = saved.sums[q];
    }
  }

 private:
  static constexpr int kMaxGroups = kMaxPiecesInProblem;
  int RankValue(uint32_t index) const {
    const uint8_t v = ranks_->values[index];
    return v == RankBound::kUnreachable ? kInf : v;
  }

  int Sum(int q) const {
    int sum = 0;
    for (int gi = 0; gi < ng_[q]; ++gi) sum = std::min(kInf, sum + values_[q][gi]);
    return sum;
  }

  std::vector<Partition> partitions_;  // owns the databases
  std::shared_ptr<const RankBound> ranks_;
  uint32_t rank_index_ = 0;
  PairBound pairs_;
  int nq_ = 0;
  int k_ = 0;
  std::array<int, kMaxPartitions> ng_{};
  std::array<int, kMaxPartitions> sums_{};
  std::array<std::array<int, kMaxGroups>, kMaxPartitions> values_{};
  std::array<std::array<uint32_t, kMaxGroups>, kMaxPartitions> at_{};  // sparse indices
  // By partition and piece, the piece's weight in its group's index.
  std::array<std::array<uint32_t, kMaxPiecesInProblem>, kMaxPartitions> weight_of_{};
  std::array<std::array<GroupCost, kMaxGroups>, kMaxPartitions> groups_{};
  std::array<ByPiece, kMaxPartitions> group_of_{};
  // By partition and group, its pieces' distances, and its cost above them
  // (Excess) in lanes; each piece's distances to its target.
  std::array<std::array<int, kMaxGroups>, kMaxPartitions> group_dist_{};
  std::array<Lanes8, kMaxPartitions> excess_{};
  PieceDistances dist_{};
};

}  // namespace salta::finish_internal
