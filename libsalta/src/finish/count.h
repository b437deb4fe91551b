// One count of the minimum moves to finish: the stages of docs/scoring.md
// ("The solver") in order, each ending the count where it can, and the
// pattern databases its bound starts from.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "finish/group_bound.h"
#include "finish/heuristic.h"
#include "finish/pattern_db.h"
#include "finish/policy.h"
#include "finish/problem.h"
#include "finish/search.h"
#include "salta/finish.h"

namespace salta::finish_internal {

// Where a count's pattern tables are kept, and who is told of them.
inline PatternSource PatternSourceOf(const FinishOptions& options) {
  return PatternSource{options.pattern_dir, options.report};
}

// The group size of the pattern databases: the option, or by the board.
int GroupSize(const Problem& p, const FinishOptions& options, const Policy& policy);
// The group size a count starts on: by the board, small tables (built or
// opened in a few milliseconds) stand in for the large ones until a count
// needs them; a size chosen by the option from the start.
inline int StartGroupSize(int size, bool by_board) {
  return by_board ? std::min(size, kSmallGroupSize) : size;
}

// The partitions of groups of `size` the bound is the maximum over, with
// their databases; none where databases do not apply, or where `find`
// stops short of one.
absl::StatusOr<std::vector<Partition>> BoundPartitions(const Problem& p, int size,
                                                       const FinishOptions& options,
                                                       const Policy& policy, Find find);

// One count. Start() builds the bound, then each Next() runs one stage,
// so that two counts (the way to the goal and the way back, CountBothWays
// in finish.cpp) can take turns. The problem, options and policy are held
// by reference: they outlive the count.
class Count {
 public:
  Count(const Problem& p, const FinishOptions& options, const Policy& policy,
        Clock::time_point start);

  // The stages in the order Next() runs them.
  enum class Stage { kQuick, kFirstWay, kLarge, kWidening, kWideningGroups, kDoubling };
  Stage stage() const { return stage_; }

  // The bound; true when that concludes the count.
  absl::StatusOr<bool> Start();

  // The next stage; true when the count is concluded, or its limits spent.
  absl::StatusOr<bool> Next();

  // What the count found, where Start() or Next() said it is concluded.
  absl::StatusOr<FinishResult> Result();

  // What a count tells the count of the same placements the other way
  // (problem Reversed(p_)): its lower bound, its best way taken backwards
  // (a way of the other problem), whether it found the goal unreachable,
  // and its carried partitions (a group's count alone is the same both
  // ways too: they bound the other count's start as they bound this
  // one's). A copy, so that counts on two threads exchange it between
  // their stages.
  struct Findings {
    int lower = 0;
    std::vector<PieceMove> way;
    bool unreachable = false;
    std::vector<StartSplit> splits;
  };
  Findings Share() const;
  void LearnFrom(const Findings& other);
  bool concluded() const { return unreachable_ || Proven(); }
  uint64_t NodesUsed() const { return nodes_ + (ida_ ? ida_->nodes() : 0); }
  // The nodes, and the large databases built counted as nodes: what the
  // two counts of CountBothWays share equally.
  uint64_t WorkDone() const { return NodesUsed() + build_work_; }
  // The most nodes the count may have used when its next stage ends.
  void SetNodeLimit(uint64_t max_nodes) { limits_.max_nodes = max_nodes; }
  // A flag another thread raises to stop the count's searches where they
  // stand (its own stage then ends soon, not concluded).
  void SetStop(const std::atomic<bool>* stop) { limits_.stop = stop; }

 private:
  // The databases of groups of `size` as the bound, where `find` has them
  // (false where not).
  absl::StatusOr<bool> UseLarge(int size, Find find);

  // The large databases built and made the bound, where the small ones
  // are used so far and the policy allows it now; true where built.
  absl::StatusOr<bool> BuildLarge();

  // Needs at least one partition.
  void SetBound(std::vector<Partition> partitions);

  double TimeLeft() const;
  // Under the node limit; kNoNodeLimit without one.
  uint64_t NodesLeft() const;

  // The searches' limits with at most `nodes` more nodes (0: the limits'
  // own), for a search whose own count is at `own`. With none left, a
  // search stops before its first node.
  SearchLimits Limits(uint64_t nodes, uint64_t own) const;

  // Where the cone table applies (cone_table.h) and fits the policy and
  // the node limit: the count from it; true when that concludes the count.
  bool ConeCount();

  // IDA* within `nodes` more nodes (0: the limits only); true when the
  // count is concluded (found, proven or unreachable).
  bool RunIda(uint64_t nodes);

  // The way found, improved by a large neighbourhood search of at most
  // `rounds` rounds; true when it meets the lower bound.
  bool Neighbourhoods(uint64_t rounds);

  // Beam searches of the stage's width in both orders for a way to finish,
  // the bound of larger groups and the large neighbourhood search; true
  // when the bounds meet.
  bool UpperAndGroups(size_t stage);

  // The group bound's merges (GroupBound::Improve), each merged group's
  // search within `group_nodes`, all within `budget` (0: the limits
  // only), then the longer runs where asked; their best partitions are
  // carried into IDA*. True when the bounds meet.
  bool Merges(uint64_t group_nodes, uint64_t budget, bool longer_runs);

  // The groups' counts that bound the start carried into IDA*: the count's
  // own and those the count the other way found, the best sums first.
  void CarrySplit(const GroupBound& groups) { CarrySplits(groups.best_splits()); }
  // The count's own best partitions (none before the group bound runs).
  const std::vector<StartSplit>& OwnSplits() const;
  void CarrySplits(const std::vector<StartSplit>& own);

  // One for the whole count: the counts of sets of pieces alone that one
  // stage finds (or the bounds it proves, where cut short) serve the next,
  // whatever databases bound their searches.
  GroupBound& Groups();

  void Offer(std::vector<PieceMove> way);
  bool Proven() const { return found_ && lower_ >= int(best_.size()); }

  absl::StatusOr<FinishResult> Concluded();
  absl::StatusOr<FinishResult> Unreachable();
  absl::StatusOr<FinishResult> Finish();

  const Problem& p_;
  const FinishOptions& options_;
  const Policy& policy_;
  Clock::time_point start_;
  SearchLimits limits_;
  Stage stage_ = Stage::kQuick;
  int size_ = 0;                 // the pieces of a database group
  int small_ = 0;                // the same, of the databases used so far
  size_t widening_ = 0;          // the beam widths' stages run
  uint64_t doubling_nodes_ = 0;  // IDA*'s next run in the last stage
  std::vector<Partition> partitions_;
  Heuristic h_;
  std::optional<Ida> ida_;
  std::optional<GroupBound> groups_;  // refers to partitions_
  std::vector<PieceMove> completed_tangle_way_;
  std::vector<StartSplit> learned_splits_;  // of the count the other way
  TieOrder ida_order_ = TieOrder::kBackFirst;
  uint64_t nodes_ = 0;       // beam and group searches
  uint64_t build_work_ = 0;  // the large databases built, in nodes
  int lower_ = 0;
  bool found_ = false;
  bool unreachable_ = false;
  bool groups_done_ = false;
  uint64_t neighbourhood_seed_ = 0;
  size_t shortened_size_ = 0;    // of the best way when two pieces were last replanned
  std::vector<PieceMove> best_;  // the shortest way found
  FinishResult result_;
};

}  // namespace salta::finish_internal
