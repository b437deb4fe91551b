// Lower bounds from groups larger than the pattern databases': the count of
// a group of pieces alone on the board (found by IDA* on the group), summed
// over a partition of the pieces, is a lower bound for the whole, exactly
// as a pattern database's is (removing pieces only makes moves easier; a
// move moves one piece). Starting from the partitions of the databases,
// the two groups whose merged count gains most over their sum are merged,
// while a merge gains: conflicts that span groups (pieces that must pass
// each other, a ring of pieces each on another's target) are then counted.
//
// A further start is chosen by the position, not by the targets: the
// disjoint pairs and triples of pieces whose counts alone exceed their
// distances' sum by the most (pieces that must pass each other on one
// diagonal, wherever the databases' runs of targets cut them apart).
//
// And one more, the tangle in the goal: the pieces that stand on targets
// (any piece's) must make room for each other there, a conflict of many
// pieces that no small group sees. Their count alone, with the other pieces'
// bound, is tried; then the piece that touches the set most is added, one
// at a time (a set's count is at least a smaller set's plus the added
// piece's distance, so each search starts there).
//
// Used at the root only, when the databases' bound is below the best way to
// finish found: where it meets it, the count is proven without searching.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "finish/heuristic.h"
#include "finish/pair_bound.h"
#include "finish/pattern_db.h"
#include "finish/policy.h"
#include "finish/problem.h"
#include "finish/search.h"

namespace salta::finish_internal {

// The problem of some of the pieces of p alone (indices into p, in order).
Problem SubProblem(const Problem& p, const std::vector<int>& pieces);

class GroupBound {
 public:
  // `partitions`: the databases' partitions of p (groups of p's indices).
  // With `carry_splits`, a set's search starts from the parts it is made
  // of (see Parts).
  GroupBound(const Problem& p, const std::vector<Partition>& partitions, const Policy& policy,
             bool carry_splits = true);

  // A way to finish for all the pieces (the best one found). Where pieces
  // only step, its moves of a set's pieces are a way for the set alone (a
  // step to a free square stays one with fewer pieces on the board), so the
  // search of a set stops where its bound meets that way's length: the
  // count is proven, and that way is an optimal one.
  void SetWay(const std::vector<PieceMove>& way);

  // The bound of pairs in conflict of p (pair_bound.h), or none (null): a
  // set's search of Policy::set_pairs_pieces pieces or more then takes
  // its pieces' pairs into its bound too.
  void SetPairs(std::shared_ptr<const PairTables> tables) { pairs_ = std::move(tables); }

  // A proven lower bound on p's count, at least `lower`; stops once it
  // reaches `target`. Each group's search takes at most `group_nodes` (a
  // count cut short before starts from the bound it proved).
  int Improve(uint64_t group_nodes, int lower, int target, const SearchLimits& limits,
              uint64_t& nodes);

  // The partitions of the pieces by target into runs longer than the
  // databases' (the policy's longer_runs), each run counted alone (each
  // search within group_nodes), summed: a proven lower bound, at least
  // `lower`; stops once it reaches `target`. It sees the conflicts of four
  // to six pieces whose targets lie close together but in no one
  // database's run.
  int LongerRuns(int lower, int target, const SearchLimits& limits, uint64_t& nodes);

  // The pairs and triples of the further start (empty until Improve has
  // run, and where no small group gains): groups for a database partition
  // that carries their conflicts into the search.
  const std::vector<std::vector<int>>& conflicts() const { return conflicts_; }

  // The bound of the tangle in the goal (see above), grown piece by piece:
  // at least `lower`; stops once it reaches `target`. Each set's search
  // takes at most `set_nodes` (more: the search of the set an earlier call
  // cut short goes on), and stops where the set's count with the other
  // pieces' bound reaches `target`.
  int Tangle(int lower, int target, uint64_t set_nodes, const SearchLimits& limits,
             uint64_t& nodes);
  // The moves of the pieces of the tangle that meet the bound Tangle
  // returned, the others standing still: what a way to finish may start
  // from (CompleteWay). Empty where none.
  const std::vector<PieceMove>& tangle_way() const { return tangle_way_; }

  // The partition of the pieces whose groups' counts (proven lower bounds
  // of each group alone at the start) sum to the best bound found so far:
  // what the search carries on (Ida::SetStartSplit). Empty before any.
  const StartSplit& best_split() const {
    static const StartSplit none;
    return best_splits_.empty() ? none : best_splits_.front();
  }
  // The best few such partitions, best first (Policy::carried_splits).
  const std::vector<StartSplit>& best_splits() const { return best_splits_; }

 private:
  struct Count {
    int lower = 0;
    bool exact = false;
    std::vector<PieceMove> way;  // an optimal one of the pieces alone, where exact
  };
  // Merges groups (sets of pieces, with their proven counts) while a merge
  // of two gains, `touching_only`: only groups that touch (see Touch);
  // never two that hold every piece (that count is the search's work).
  int Merge(std::vector<uint32_t> groups, std::vector<int> values, bool touching_only,
            uint64_t group_nodes, int lower, int target, const SearchLimits& limits,
            uint64_t& nodes);
  // The disjoint small groups that gain most, into conflicts_; `groups`
  // and `values` get the partition they make with the other pieces alone
  // and its counts.
  void FindConflicts(const SearchLimits& limits, uint64_t& nodes, std::vector<uint32_t>& groups,
                     std::vector<int>& values);
  // The bound of the pieces of `rest` alone by the databases' partitions
  // cut down to them; `split` gets the best partition's groups and counts.
  int RestBound(uint32_t rest, const SearchLimits& limits, uint64_t& nodes, StartSplit& split);
  // Keeps the split where its sum is the best so far.
  void Offer(const StartSplit& split);
  // A search of a set of pieces alone, with what it searches over.
  struct SetSearch {
    uint32_t pieces = 0;
    Problem sub;
    Heuristic h;
    std::unique_ptr<Ida> ida;  // over sub and h
  };
  // IDA* on the pieces alone (sub), within group_nodes: their count, kept.
  // It stops once its bound reaches `enough` (> 0), which is then all it
  // proves.
  Count Search(uint32_t pieces, const Problem& sub, std::vector<Partition> parts,
               const IdaOptions& options, uint64_t group_nodes, const SearchLimits& limits,
               uint64_t& nodes, int enough = 0, const StartSplit& split = {},
               const std::vector<PieceMove>& way = {});
  // A set's search's bound table: an entry a node, for `nodes` nodes.
  size_t TableEntriesFor(uint64_t nodes) const;
  // The search run on for at most group_nodes more nodes: the count, kept;
  // the search too where it is cut short.
  Count Run(std::unique_ptr<SetSearch> search, uint64_t group_nodes, const SearchLimits& limits,
            uint64_t& nodes, int enough, const std::vector<PieceMove>& way);
  // The moves of the pieces of the set in the way SetWay gave: a way for
  // them alone; false where none is known.
  bool KnownWay(uint32_t pieces, std::vector<PieceMove>& way) const;
  // A way for the set `part` alone with `piece` put in (Inserter), the
  // pieces outside `part` off the board: a way for part and piece alone.
  // Empty where none.
  std::vector<PieceMove> WayWith(uint32_t part, const std::vector<PieceMove>& way, int piece) const;
  // The count of two or three pieces alone, by IDA* over the pairs' databases.
  Count SmallGroupCount(uint32_t pieces, const SearchLimits& limits, uint64_t& nodes);
  bool Touch(uint32_t a, uint32_t b) const;
  static bool OutOfBudget(const SearchLimits& limits, uint64_t nodes);
  // What a set's search may start from, where it is made of parts already
  // counted (a set and the piece added to it, two groups merged): the
  // parts with their counts (carried into the search, Ida::SetStartSplit),
  // and a way for the set alone made from theirs (the search stops where
  // its bound meets that way's length).
  struct Parts {
    StartSplit split;
    std::vector<PieceMove> way;
  };
  // The proven lower bound of the pieces of the set alone (see Search).
  Count GroupCount(uint32_t pieces, uint64_t group_nodes, const SearchLimits& limits,
                   uint64_t& nodes, int enough = 0, const Parts& parts = {});

  const Problem& p_;
  const std::vector<Partition>& partitions_;
  const Policy& policy_;
  const bool carry_splits_;
  std::map<uint32_t, Count> counts_;
  std::vector<std::vector<int>> conflicts_;
  std::vector<PieceMove> tangle_way_;
  std::vector<StartSplit> best_splits_;
  // The last searches cut short (Policy::kept_set_searches, the latest
  // first), kept so that a later count of one's set with more nodes goes on
  // where it stopped (its bound table holds what it proved) instead of
  // starting over: the remerges between the tangle's runs cut short
  // searches of their own.
  std::vector<std::unique_ptr<SetSearch>> cut_short_;
  // The search of `pieces` over `parts`' databases cut short, taken out of
  // cut_short_; null where none is kept.
  std::unique_ptr<SetSearch> TakeCutShort(uint32_t pieces, const std::vector<Partition>& parts);
  // Keeps `search`, the latest, dropping the oldest beyond the policy's.
  void KeepCutShort(std::unique_ptr<SetSearch> search);
  std::vector<PieceMove> way_;  // SetWay's, where pieces only step; else none
  std::shared_ptr<const PairTables> pairs_;
  // touches_[i]: the pieces whose start or target lies on a shortest way
  // of piece i, or on whose shortest ways i's start or target lies.
  std::vector<uint32_t> touches_;
};

}  // namespace salta::finish_internal
