// Lower bounds from groups larger than the pattern databases': the count of
// a group of pieces alone on the board (found by IDA* on the group), summed
// over a partition of the pieces, is a lower bound for the whole, exactly
// as a pattern database's is (removing pieces only makes moves easier; a
// move moves one piece). Starting from the partitions of the databases,
// the two groups whose merged count gains most over their sum are merged,
// while a merge gains: conflicts that span groups (pieces that must pass
// each other, a ring of pieces each on another's target) are then counted.
//
// Used at the root only, when the databases' bound is below the best way to
// finish found: where it meets it, the count is proven without searching.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "finish/heuristic.h"
#include "finish/pattern_db.h"
#include "finish/problem.h"
#include "finish/search.h"

namespace salta::finish_internal {

// The problem of some of the pieces of p alone (indices into p, in order).
Problem SubProblem(const Problem& p, const std::vector<int>& pieces);

class GroupBound {
 public:
  // `partitions`: the databases' partitions of p (groups of p's indices).
  GroupBound(const Problem& p, const std::vector<Partition>& partitions)
      : p_(p), partitions_(partitions) {}

  // A proven lower bound on p's count, at least `lower`; stops once it
  // reaches `target`. Each group's search takes at most `group_nodes`.
  int Improve(int lower, int target, uint64_t group_nodes, const SearchLimits& limits,
              uint64_t& nodes);

 private:
  struct Count {
    int lower = 0;
    bool exact = false;
  };
  // The proven lower bound of the pieces of the set alone.
  Count GroupCount(uint32_t pieces, uint64_t group_nodes, const SearchLimits& limits,
                   uint64_t& nodes);

  const Problem& p_;
  const std::vector<Partition>& partitions_;
  std::map<uint32_t, Count> counts_;
};

}  // namespace salta::finish_internal
