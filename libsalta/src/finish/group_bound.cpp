#include "finish/group_bound.h"

#include <algorithm>
#include <bit>

namespace salta::finish_internal {

Problem SubProblem(const Problem& p, const std::vector<int>& pieces) {
  Problem sub = p;
  sub.k = int(pieces.size());
  for (int j = 0; j < sub.k; ++j) {
    sub.ids[j] = p.ids[pieces[j]];
    sub.start[j] = p.start[pieces[j]];
    sub.target[j] = p.target[pieces[j]];
  }
  return sub;
}

GroupBound::Count GroupBound::GroupCount(uint32_t pieces, uint64_t group_nodes,
                                         const SearchLimits& limits, uint64_t& nodes) {
  if (auto it = counts_.find(pieces); it != counts_.end() && it->second.exact) return it->second;
  std::vector<int> members;
  std::vector<int> sub_of(p_.k, -1);
  for (int i = 0; i < p_.k; ++i)
    if (pieces >> i & 1) {
      sub_of[i] = int(members.size());
      members.push_back(i);
    }
  const Problem sub = SubProblem(p_, members);
  // The databases' partitions cut down to the group: whole groups keep
  // their database; the parts of the others (three pieces at most) get
  // small ones of their own, built in milliseconds.
  std::vector<Partition> parts;
  for (const Partition& partition : partitions_) {
    Partition part;
    for (const Group& group : partition) {
      Group cut;
      std::vector<int8_t> targets;
      for (int i : group.pieces)
        if (sub_of[i] >= 0) {
          cut.pieces.push_back(sub_of[i]);
          targets.push_back(p_.target[i]);
        }
      if (cut.pieces.empty()) continue;
      if (cut.pieces.size() == group.pieces.size()) {
        cut.pdb = group.pdb;
      } else {
        absl::StatusOr<std::shared_ptr<const PatternDb>> pdb =
            FindPatternDb(sub, targets, PatternSource{}, Find::kBuild);
        if (!pdb.ok()) return Count{};  // in memory: cannot fail
        cut.pdb = *pdb;
      }
      part.push_back(std::move(cut));
    }
    parts.push_back(std::move(part));
  }
  Heuristic h;
  h.SetPartitions(std::move(parts), sub.k);
  IdaOptions options;
  options.bound_table_entries = size_t(1) << 16;
  Ida ida(sub, h, options);
  SearchLimits sub_limits = limits;
  sub_limits.max_nodes = group_nodes;
  if (limits.max_nodes > 0)
    sub_limits.max_nodes = std::max<uint64_t>(
        1, std::min(group_nodes, limits.max_nodes > nodes ? limits.max_nodes - nodes : 0));
  Count count;
  if (auto it = counts_.find(pieces); it != counts_.end()) count.lower = it->second.lower;
  std::vector<PieceMove> path;
  const Ida::Outcome outcome = ida.Run(count.lower, 0, sub_limits, path);
  nodes += ida.nodes();
  if (outcome == Ida::Outcome::kUnreachable) count.lower = kInf;
  count.exact = outcome != Ida::Outcome::kStopped;
  counts_[pieces] = count;
  return count;
}

int GroupBound::Improve(int lower, int target, uint64_t group_nodes, const SearchLimits& limits,
                        uint64_t& nodes) {
  for (const Partition& partition : partitions_) {
    std::vector<uint32_t> groups;
    std::vector<int> values;
    Heuristic single;
    for (const Group& group : partition) {
      uint32_t set = 0;
      for (int i : group.pieces) set |= 1u << i;
      groups.push_back(set);
      single.SetPartitions({{group}}, p_.k);
      single.Set(p_.start);
      values.push_back(single.value());
    }
    for (;;) {
      int sum = 0;
      for (int v : values) sum = std::min(kInf, sum + v);
      lower = std::max(lower, sum);
      if (lower >= target || groups.size() < 2) return lower;
      if (Clock::now() >= limits.deadline) return lower;
      if (limits.max_nodes > 0 && nodes >= limits.max_nodes) return lower;
      // The merge that gains most.
      int best_gain = 0;
      size_t best_a = 0, best_b = 0;
      int best_value = 0;
      for (size_t a = 0; a < groups.size(); ++a)
        for (size_t b = a + 1; b < groups.size(); ++b) {
          const Count c = GroupCount(groups[a] | groups[b], group_nodes, limits, nodes);
          const int gain = c.lower - values[a] - values[b];
          if (gain > best_gain) {
            best_gain = gain;
            best_a = a;
            best_b = b;
            best_value = c.lower;
          }
        }
      if (best_gain <= 0) break;
      groups[best_a] |= groups[best_b];
      values[best_a] = best_value;
      groups.erase(groups.begin() + best_b);
      values.erase(values.begin() + best_b);
    }
  }
  return lower;
}

}  // namespace salta::finish_internal
