// The admissible bound of a placement: the maximum, over partitions of the
// pieces, of the sum of the partition's group costs (pattern_db.h), kept up
// to date move by move. The hot path of every search.
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "finish/pattern_db.h"
#include "finish/problem.h"

namespace salta::finish_internal {

class Heuristic {
 public:
  static constexpr int kMaxPartitions = 16;

  // Partitions beyond kMaxPartitions are dropped; at least one is needed.
  void SetPartitions(std::vector<Partition> partitions, int num_pieces) {
    counted_q_ = -1;
    partitions_ = std::move(partitions);
    if (partitions_.size() > kMaxPartitions) partitions_.resize(kMaxPartitions);
    nq_ = int(partitions_.size());
    k_ = num_pieces;
    for (int q = 0; q < nq_; ++q) {
      ng_[q] = int(partitions_[q].size());
      for (int gi = 0; gi < ng_[q]; ++gi) {
        const Group& group = partitions_[q][gi];
        GroupRef& ref = groups_[q][gi];
        ref.values = group.pdb->values.data();
        ref.index = &group.pdb->index;
        ref.size = int(group.pieces.size());
        for (int j = 0; j < ref.size; ++j) {
          ref.pieces[j] = int8_t(group.pieces[j]);
          group_of_[q][group.pieces[j]] = int8_t(gi);
        }
      }
    }
  }
  int num_partitions() const { return nq_; }

  // Proven counts of larger groups at `root` (GroupBound::Merged): each of
  // `groups` a union of partition q's groups. Along a search's way from the
  // root, a group L alone still needs at least its count less the moves its
  // pieces have made (what it needed at the root is at most those moves
  // plus what it needs now), and at least its databases' sum: over the
  // groups, the larger of the two adds up to one more bound. Only a search
  // that starts at the root and reports every move (Set(root), then Moved
  // and Restore) sees it; Set elsewhere leaves it out.
  void SetGroupCounts(const Squares& root, int q, const std::vector<uint32_t>& groups,
                      const std::vector<int>& counts) {
    counted_q_ = -1;
    if (q < 0 || q >= nq_ || groups.empty()) return;
    counted_root_ = root;
    counted_q_ = q;
    nl_ = int(groups.size());
    for (int l = 0; l < nl_; ++l) {
      count_[l] = counts[l];
      for (int i = 0; i < k_; ++i)
        if (groups[l] >> i & 1) layer_of_[group_of_[q][i]] = int8_t(l);
    }
  }

  // Evaluates every group for the placement sq.
  void Set(const Squares& sq) {
    for (int q = 0; q < nq_; ++q) {
      int sum = 0;
      for (int gi = 0; gi < ng_[q]; ++gi) {
        const int v = Lookup(groups_[q][gi], sq, -1, 0);
        values_[q][gi] = v;
        sum = std::min(kInf, sum + v);
      }
      sums_[q] = sum;
    }
    counted_on_ = counted_q_ >= 0 && std::equal(sq.begin(), sq.begin() + k_, counted_root_.begin());
    if (!counted_on_) return;
    for (int l = 0; l < nl_; ++l) part_[l] = 0;
    for (int gi = 0; gi < ng_[counted_q_]; ++gi)
      part_[layer_of_[gi]] = std::min(kInf, part_[layer_of_[gi]] + values_[counted_q_][gi]);
    counted_sum_ = 0;
    for (int l = 0; l < nl_; ++l) {
      left_[l] = count_[l];
      counted_sum_ = std::min(kInf, counted_sum_ + std::max(left_[l], part_[l]));
    }
  }

  // The bound of the placement last Set or updated.
  int value() const {
    int h = counted_on_ ? counted_sum_ : 0;
    for (int q = 0; q < nq_; ++q) h = std::max(h, sums_[q]);
    return h;
  }

  // The bound after piece i of the placement sq moves to `to` (sq is the
  // placement the values are for). With a `cutoff`, the partitions stop
  // once one exceeds it: the value is then only a lower bound above it,
  // all a search needs of a child it will not visit.
  int Child(const Squares& sq, int i, Square to, int cutoff = kInf) const {
    int h = 0;
    for (int q = 0; q < nq_; ++q) {
      const int gi = group_of_[q][i];
      const int v = Lookup(groups_[q][gi], sq, i, to);
      if (v >= kInf) return kInf;
      h = std::max(h, sums_[q] - values_[q][gi] + v);
      if (h > cutoff) return h;
      if (q == counted_q_ && counted_on_) h = std::max(h, CountedChild(gi, v));
    }
    return h;
  }

  struct Saved {
    std::array<int, kMaxPartitions> sums, values;
    int counted_sum, part;
  };
  // Piece i has moved: sq is the new placement.
  void Moved(const Squares& sq, int i, Saved& saved) {
    for (int q = 0; q < nq_; ++q) {
      const int gi = group_of_[q][i];
      saved.sums[q] = sums_[q];
      saved.values[q] = values_[q][gi];
      const int v = Lookup(groups_[q][gi], sq, -1, 0);
      values_[q][gi] = v;
      sums_[q] = sums_[q] < kInf && saved.values[q] < kInf && v < kInf
                     ? sums_[q] - saved.values[q] + v
                     : Sum(q);
    }
    if (!counted_on_) return;
    const int gi = group_of_[counted_q_][i], l = layer_of_[gi];
    saved.counted_sum = counted_sum_;
    saved.part = part_[l];
    counted_sum_ = CountedChild(gi, values_[counted_q_][gi], saved.values[counted_q_]);
    part_[l] = Add(part_[l] - saved.values[counted_q_], values_[counted_q_][gi]);
    --left_[l];
  }
  void Restore(int i, const Saved& saved) {
    if (counted_on_) {
      const int l = layer_of_[group_of_[counted_q_][i]];
      counted_sum_ = saved.counted_sum;
      part_[l] = saved.part;
      ++left_[l];
    }
    for (int q = 0; q < nq_; ++q) {
      values_[q][group_of_[q][i]] = saved.values[q];
      sums_[q] = saved.sums[q];
    }
  }

 private:
  static constexpr int kMaxGroups = kMaxPiecesInProblem;
  struct GroupRef {
    const uint8_t* values = nullptr;
    const PlacementIndex* index = nullptr;
    int size = 0;
    std::array<int8_t, kMaxGroupSize> pieces{};
  };

  // The group's cost with piece `moved` (if it is one of the group's) on `to`.
  static int Lookup(const GroupRef& ref, const Squares& sq, int moved, Square to) {
    int8_t squares[kMaxGroupSize];
    for (int j = 0; j < ref.size; ++j) {
      const int piece = ref.pieces[j];
      squares[j] = piece == moved ? int8_t(to) : sq[piece];
    }
    const uint8_t v = ref.values[ref.index->Rank(squares)];
    return v == kPdbUnreachable ? kInf : v;
  }

  static int Add(int a, int b) { return a >= kInf || b >= kInf ? kInf : std::min(kInf, a + b); }

  // The counted groups' bound after a move of a piece of partition q's
  // group gi, whose value becomes v (from `old`, its value now).
  int CountedChild(int gi, int v) const { return CountedChild(gi, v, values_[counted_q_][gi]); }
  int CountedChild(int gi, int v, int old) const {
    const int l = layer_of_[gi];
    if (counted_sum_ >= kInf || part_[l] >= kInf || v >= kInf) return kInf;
    const int part = part_[l] - old + v;
    return counted_sum_ - std::max(left_[l], part_[l]) + std::max(left_[l] - 1, part);
  }

  int Sum(int q) const {
    int sum = 0;
    for (int gi = 0; gi < ng_[q]; ++gi) sum = std::min(kInf, sum + values_[q][gi]);
    return sum;
  }

  std::vector<Partition> partitions_;  // owns the databases
  int nq_ = 0;
  int k_ = 0;
  std::array<int, kMaxPartitions> ng_{};
  std::array<int, kMaxPartitions> sums_{};
  std::array<std::array<int, kMaxGroups>, kMaxPartitions> values_{};
  std::array<std::array<GroupRef, kMaxGroups>, kMaxPartitions> groups_{};
  std::array<std::array<int8_t, kMaxPiecesInProblem>, kMaxPartitions> group_of_{};
  // The counted groups (SetGroupCounts), over partition counted_q_ (-1:
  // none), on while the placement is reached from counted_root_ along the
  // moves reported: per group, its count, the count less the moves made
  // since (left_), and its databases' sum (part_).
  int counted_q_ = -1;
  bool counted_on_ = false;
  Squares counted_root_{};
  int nl_ = 0;
  int counted_sum_ = 0;
  std::array<int8_t, kMaxGroups> layer_of_{};  // by group of counted_q_
  std::array<int, kMaxGroups> count_{}, left_{}, part_{};
};

}  // namespace salta::finish_internal
