#include "finish/group_bound.h"

#include <algorithm>
#include <bit>
#include <random>

#include "finish/shorten.h"

namespace salta::finish_internal {
namespace {

std::vector<int> Members(uint32_t set) {
  std::vector<int> members;
  for (uint32_t s = set; s; s &= s - 1) members.push_back(std::countr_zero(s));
  return members;
}

}  // namespace

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

GroupBound::GroupBound(const Problem& p, const std::vector<Partition>& partitions,
                       const Policy& policy, bool carry_splits)
    : p_(p), partitions_(partitions), policy_(policy), carry_splits_(carry_splits) {
  const int k = p_.k;
  std::vector<Bitboard> way(k, 0);  // the squares of the shortest ways
  for (int i = 0; i < k; ++i)
    for (Square s = 0; s < p_.n; ++s)
      if (p_.dist[p_.start[i]][s] != Problem::kNoWay &&
          p_.dist[s][p_.target[i]] != Problem::kNoWay &&
          p_.dist[p_.start[i]][s] + p_.dist[s][p_.target[i]] == p_.distance(i))
        way[i] |= SquareBit(s);
  touches_.assign(k, 0);
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k; ++j)
      if (i != j && (Contains(way[i], p_.start[j]) || Contains(way[i], p_.target[j]))) {
        touches_[i] |= 1u << j;
        touches_[j] |= 1u << i;
      }
}

GroupBound::Count GroupBound::GroupCount(uint32_t pieces, uint64_t group_nodes,
                                         const SearchLimits& limits, uint64_t& nodes, int enough,
                                         const Parts& parts_given) {
  if (auto it = counts_.find(pieces); it != counts_.end() && it->second.exact) return it->second;
  const Parts none;
  const Parts& from = carry_splits_ ? parts_given : none;
  std::vector<int> members;
  std::vector<int> sub_of(p_.k, -1);
  for (int i = 0; i < p_.k; ++i)
    if (pieces >> i & 1) {
      sub_of[i] = int(members.size());
      members.push_back(i);
    }
  const Problem sub = SubProblem(p_, members);
  // The databases' partitions cut down to the group: whole groups keep
  // their database; the parts of the others get small ones of their own.
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
        part.push_back(std::move(cut));
        continue;
      }
      // A part of a group has its own database where it is small (built in
      // milliseconds) or in memory; else it is cut into runs of small ones.
      const size_t n = cut.pieces.size();
      if (n > size_t(kSmallGroupSize)) {
        absl::StatusOr<std::shared_ptr<const PatternDb>> pdb =
            FindPatternDb(sub, targets, PatternSource{}, Find::kCached);
        if (pdb.ok()) {
          cut.pdb = *pdb;
          part.push_back(std::move(cut));
          continue;
        }
      }
      for (size_t at = 0; at < n; at += kSmallGroupSize) {
        const size_t end = std::min(n, at + kSmallGroupSize);
        absl::StatusOr<std::shared_ptr<const PatternDb>> pdb =
            FindPatternDb(sub, std::vector<int8_t>(targets.begin() + at, targets.begin() + end),
                          PatternSource{}, Find::kBuild);
        if (!pdb.ok()) return Count{};  // in memory: cannot fail
        part.push_back(Group{{cut.pieces.begin() + at, cut.pieces.begin() + end}, *pdb});
      }
    }
    parts.push_back(std::move(part));
  }
  // Where this set's count was cut short, by the same databases, its
  // search goes on where it stopped.
  if (std::unique_ptr<SetSearch> kept = TakeCutShort(pieces, parts))
    return Run(std::move(kept), group_nodes, limits, nodes, enough, from.way);
  IdaOptions options;
  // A state an entry, for as many nodes as the search may take.
  options.bound_table_entries = TableEntriesFor(group_nodes);
  // The split in the set's own indices.
  StartSplit split;
  for (size_t j = 0; j < from.split.groups.size(); ++j) {
    uint32_t group = 0;
    for (uint32_t g = from.split.groups[j]; g; g &= g - 1)
      group |= 1u << sub_of[std::countr_zero(g)];
    split.Add(group, from.split.counts[j]);
  }
  return Search(pieces, sub, std::move(parts), options, group_nodes, limits, nodes, enough, split,
                from.way);
}

GroupBound::Count GroupBound::Search(uint32_t pieces, const Problem& sub,
                                     std::vector<Partition> parts, const IdaOptions& options,
                                     uint64_t group_nodes, const SearchLimits& limits,
                                     uint64_t& nodes, int enough, const StartSplit& split,
                                     const std::vector<PieceMove>& way) {
  auto search = std::make_unique<SetSearch>();
  search->pieces = pieces;
  search->sub = sub;
  search->h.SetPartitions(std::move(parts), search->sub);
  if (pairs_ && sub.k >= policy_.set_pairs_pieces)
    search->h.SetPairs(SubPairTables(pairs_, Members(pieces)));
  search->ida = std::make_unique<Ida>(search->sub, search->h, options);
  if (!split.groups.empty()) search->ida->SetStartSplit(split);
  return Run(std::move(search), group_nodes, limits, nodes, enough, way);
}

size_t GroupBound::TableEntriesFor(uint64_t nodes) const {
  return std::clamp(std::bit_ceil(size_t(nodes)), size_t(1) << 16, policy_.bound_table_entries);
}

GroupBound::Count GroupBound::Run(std::unique_ptr<SetSearch> search, uint64_t group_nodes,
                                  const SearchLimits& limits, uint64_t& nodes, int enough,
                                  const std::vector<PieceMove>& way) {
  Ida& ida = *search->ida;
  const uint64_t before = ida.nodes();
  const uint64_t allowed =
      std::min(group_nodes, limits.max_nodes > nodes ? limits.max_nodes - nodes : 0);
  SearchLimits sub_limits = limits;
  sub_limits.max_nodes = before + allowed;  // the search's own count
  // A search run on (the tangle's second run) may keep as many bounds as
  // all its nodes, not only its first run's.
  ida.AllowBoundEntries(TableEntriesFor(before + allowed));
  const uint32_t pieces = search->pieces;
  // The search stops where its bound meets the way known for the set (its
  // count then), or reaches what is enough.
  std::vector<PieceMove> known;
  bool has_known = KnownWay(pieces, known);
  if (!way.empty() && (!has_known || way.size() < known.size())) {
    known = way;
    has_known = true;
  }
  int stop_at = has_known ? int(known.size()) : 0;
  if (enough > 0) stop_at = stop_at > 0 ? std::min(stop_at, enough) : enough;
  Count count;
  if (auto it = counts_.find(pieces); it != counts_.end()) count.lower = it->second.lower;
  std::vector<PieceMove> path;
  const Ida::Outcome outcome = ida.Run(count.lower, stop_at, sub_limits, TieOrder::kAny, path);
  nodes += ida.nodes() - before;
  if (outcome == Ida::Outcome::kUnreachable) count.lower = kInf;
  count.exact = outcome != Ida::Outcome::kStopped;
  if (outcome == Ida::Outcome::kSolved) {
    // In p's indices.
    const std::vector<int> members = Members(pieces);
    for (PieceMove& m : path) m.piece = int8_t(members[m.piece]);
    count.way = std::move(path);
  } else if (outcome == Ida::Outcome::kStopped && has_known && count.lower >= int(known.size())) {
    count.exact = true;
    count.lower = int(known.size());
    count.way = std::move(known);
  }
  counts_[pieces] = count;
  // (Searches without a table would only start over.)
  if (!count.exact && ida.has_bound_table()) KeepCutShort(std::move(search));
  return count;
}

std::unique_ptr<GroupBound::SetSearch> GroupBound::TakeCutShort(
    uint32_t pieces, const std::vector<Partition>& parts) {
  const std::vector<const PatternDb*> databases = DatabasesOf(parts);
  const auto it = std::find_if(cut_short_.begin(), cut_short_.end(), [&](const auto& search) {
    return search->pieces == pieces && DatabasesOf(search->h.partitions()) == databases;
  });
  if (it == cut_short_.end()) return nullptr;
  std::unique_ptr<SetSearch> search = std::move(*it);
  cut_short_.erase(it);
  return search;
}

void GroupBound::KeepCutShort(std::unique_ptr<SetSearch> search) {
  cut_short_.insert(cut_short_.begin(), std::move(search));
  if (cut_short_.size() > policy_.kept_set_searches) cut_short_.resize(policy_.kept_set_searches);
}

void GroupBound::SetWay(const std::vector<PieceMove>& way) {
  if (p_.steps_only) way_ = way;
}

bool GroupBound::KnownWay(uint32_t pieces, std::vector<PieceMove>& way) const {
  way.clear();
  if (way_.empty()) return false;
  for (const PieceMove& m : way_)
    if (pieces >> m.piece & 1) way.push_back(m);
  return true;
}

std::vector<PieceMove> GroupBound::WayWith(uint32_t part, const std::vector<PieceMove>& way,
                                           int piece) const {
  if (!p_.steps_only) return {};
  const uint32_t off = ((uint32_t(1) << p_.k) - 1) & ~part & ~(1u << piece);
  std::vector<PieceMove> with = way;
  std::mt19937_64 random(1);  // (any of the shortest insertions will do)
  if (!Inserter(p_).Insert(piece, off, with, random)) return {};
  return with;
}

bool GroupBound::OutOfBudget(const SearchLimits& limits, uint64_t nodes) {
  return nodes >= limits.max_nodes || limits.TimeUp();
}

bool GroupBound::Touch(uint32_t a, uint32_t b) const {
  for (uint32_t s = a; s; s &= s - 1)
    if (touches_[std::countr_zero(s)] & b) return true;
  return false;
}

GroupBound::Count GroupBound::SmallGroupCount(uint32_t pieces, const SearchLimits& limits,
                                              uint64_t& nodes) {
  if (auto it = counts_.find(pieces); it != counts_.end() && it->second.exact) return it->second;
  const std::vector<int> members = Members(pieces);
  const Problem sub = SubProblem(p_, members);
  auto pdb_of = [&](std::vector<int> group) -> Group {
    std::vector<int8_t> targets;
    for (int j : group) targets.push_back(sub.target[j]);
    absl::StatusOr<std::shared_ptr<const PatternDb>> pdb =
        FindPatternDb(sub, targets, PatternSource{}, Find::kBuild);
    return Group{std::move(group), pdb.ok() ? *pdb : nullptr};  // in memory: cannot fail
  };
  // A pair's database is its exact count; three pieces are searched over
  // the three ways to cut them into a pair and a single piece.
  std::vector<Partition> parts;
  if (sub.k == 2) {
    parts.push_back({pdb_of({0, 1})});
  } else {
    for (int alone = 0; alone < 3; ++alone) {
      std::vector<int> pair;
      for (int j = 0; j < 3; ++j)
        if (j != alone) pair.push_back(j);
      parts.push_back({pdb_of(pair), pdb_of({alone})});
    }
  }
  for (const Partition& part : parts)
    for (const Group& group : part)
      if (!group.pdb) return Count{};
  IdaOptions options;
  options.bound_table = false;  // searches of a few nodes
  options.move_pruning = true;
  return Search(pieces, sub, std::move(parts), options, policy_.small_group_nodes, limits, nodes);
}

void GroupBound::FindConflicts(const SearchLimits& limits, uint64_t& nodes,
                               std::vector<uint32_t>& groups, std::vector<int>& values) {
  const int k = p_.k;
  // The gain of a set: its count alone over its distances' sum.
  struct Gain {
    uint32_t set;
    int gain;
  };
  std::vector<Gain> gains;
  std::map<uint32_t, int> pair_gain;
  auto gain_of = [&](uint32_t set) {
    const Count c = SmallGroupCount(set, limits, nodes);
    int sum = 0;
    for (int i : Members(set)) sum += p_.distance(i);
    return c.lower >= kInf ? kInf : c.lower - sum;
  };
  for (int i = 0; i < k; ++i)
    for (int j = i + 1; j < k; ++j)
      if (touches_[i] >> j & 1) {
        const uint32_t set = 1u << i | 1u << j;
        const int g = gain_of(set);
        pair_gain[set] = g;
        if (g > 0) gains.push_back({set, g});
      }
  // Triples whose pieces touch in a chain; kept where they gain more than
  // any of their pairs.
  for (int i = 0; i < k; ++i)
    for (int j = i + 1; j < k; ++j)
      for (int l = j + 1; l < k; ++l) {
        const bool ij = touches_[i] >> j & 1, il = touches_[i] >> l & 1, jl = touches_[j] >> l & 1;
        if (int(ij) + int(il) + int(jl) < 2 || OutOfBudget(limits, nodes)) continue;
        const uint32_t set = 1u << i | 1u << j | 1u << l;
        int best_pair = 0;
        for (uint32_t pair : {1u << i | 1u << j, 1u << i | 1u << l, 1u << j | 1u << l})
          if (auto it = pair_gain.find(pair); it != pair_gain.end())
            best_pair = std::max(best_pair, it->second);
        const int g = gain_of(set);
        if (g > best_pair) gains.push_back({set, g});
      }
  // The disjoint sets of the largest total gain: a search over the few
  // sets that gain, largest gains first.
  std::sort(gains.begin(), gains.end(),
            [](const Gain& a, const Gain& b) { return a.gain > b.gain; });
  std::vector<uint32_t> chosen, best;
  int best_total = 0;
  uint64_t steps = 0;
  auto pack = [&](auto&& self, size_t from, uint32_t used, int total) -> void {
    if (total > best_total) {
      best_total = total;
      best = chosen;
    }
    if (++steps > policy_.packing_steps) return;
    for (size_t s = from; s < gains.size(); ++s) {
      if (gains[s].set & used) continue;
      chosen.push_back(gains[s].set);
      self(self, s + 1, used | gains[s].set, std::min(kInf, total + gains[s].gain));
      chosen.pop_back();
    }
  };
  pack(pack, 0, 0, 0);
  conflicts_.clear();
  groups.clear();
  values.clear();
  uint32_t covered = 0;
  for (uint32_t set : best) {
    conflicts_.push_back(Members(set));
    covered |= set;
    groups.push_back(set);
    values.push_back(counts_[set].lower);
  }
  for (int i = 0; i < k; ++i)
    if (!(covered >> i & 1)) {
      groups.push_back(1u << i);
      values.push_back(p_.distance(i));
    }
}

int GroupBound::Merge(std::vector<uint32_t> groups, std::vector<int> values, bool touching_only,
                      uint64_t group_nodes, int lower, int target, const SearchLimits& limits,
                      uint64_t& nodes) {
  const uint32_t all = (uint32_t(1) << p_.k) - 1;
  for (;;) {
    StartSplit split;
    for (size_t g = 0; g < groups.size(); ++g) split.Add(groups[g], values[g]);
    Offer(split);
    lower = std::max(lower, split.sum);
    if (lower >= target || groups.size() < 2) return lower;
    if (OutOfBudget(limits, nodes)) return lower;
    // The merge that gains most.
    int best_gain = 0;
    size_t best_a = 0, best_b = 0;
    int best_value = 0;
    for (size_t a = 0; a < groups.size(); ++a)
      for (size_t b = a + 1; b < groups.size(); ++b) {
        if (touching_only && !Touch(groups[a], groups[b])) continue;
        // (Two groups that hold every piece: their count is the count
        // itself, the main search's work, not a bound within these nodes.)
        if ((groups[a] | groups[b]) == all) continue;
        Parts merged;
        merged.split.Add(groups[a], values[a]);
        merged.split.Add(groups[b], values[b]);
        const Count c = GroupCount(groups[a] | groups[b], group_nodes, limits, nodes, 0, merged);
        const int gain = c.lower - values[a] - values[b];
        if (gain > best_gain) {
          best_gain = gain;
          best_a = a;
          best_b = b;
          best_value = c.lower;
        }
      }
    if (best_gain <= 0) return lower;
    groups[best_a] |= groups[best_b];
    values[best_a] = best_value;
    groups.erase(groups.begin() + best_b);
    values.erase(values.begin() + best_b);
  }
}

int GroupBound::RestBound(uint32_t rest, const SearchLimits& limits, uint64_t& nodes,
                          StartSplit& split) {
  split = StartSplit{};
  for (const Partition& partition : partitions_) {
    StartSplit cut_down;
    for (const Group& group : partition) {
      uint32_t cut = 0;
      for (int i : group.pieces) cut |= (rest & 1u << i);
      if (cut == 0) continue;
      // A database's group, or a part of one: a search of a few nodes.
      cut_down.Add(cut, std::popcount(cut) == 1
                            ? p_.distance(std::countr_zero(cut))
                            : GroupCount(cut, policy_.group_nodes, limits, nodes).lower);
    }
    if (split.groups.empty() || cut_down.sum > split.sum) split = std::move(cut_down);
  }
  return split.sum;
}

void GroupBound::Offer(const StartSplit& split) {
  if (split.sum >= kInf || split.sum <= 0) return;
  for (const StartSplit& s : best_splits_)
    if (s.groups == split.groups && s.counts == split.counts) return;
  // Best first; of equal sums, the one offered first.
  auto at = std::find_if(best_splits_.begin(), best_splits_.end(),
                         [&](const StartSplit& s) { return split.sum > s.sum; });
  best_splits_.insert(at, split);
  if (best_splits_.size() > size_t(policy_.carried_splits))
    best_splits_.resize(policy_.carried_splits);
}

int GroupBound::Tangle(int lower, int target, uint64_t set_nodes, const SearchLimits& limits,
                       uint64_t& nodes) {
  tangle_way_.clear();
  const uint32_t all = (uint32_t(1) << p_.k) - 1;
  Bitboard targets = 0;
  for (int i = 0; i < p_.k; ++i) targets |= SquareBit(p_.target[i]);
  uint32_t set = 0;
  for (int i = 0; i < p_.k; ++i)
    if (Contains(targets, p_.start[i])) set |= 1u << i;
  if (std::popcount(set) < 2) return lower;
  int count = 0;
  Parts grown;  // the set before the last piece was added, and that piece
  while (set != all && lower < target && !OutOfBudget(limits, nodes)) {
    StartSplit split;
    const int rest = RestBound(all & ~set, limits, nodes, split);
    // (A count that, with the rest, meets the target is enough.)
    const Count c = GroupCount(set, set_nodes, limits, nodes,
                               target < kInf && rest < target ? target - rest : 0, grown);
    if (c.lower >= kInf) return kInf;
    count = c.lower;
    const int bound = std::min(kInf, count + rest);
    split.Add(set, count);
    Offer(split);
    // The largest set of the best bound: the fewest pieces left to put in.
    if (bound >= lower && c.exact) tangle_way_ = c.way;
    lower = std::max(lower, bound);
    // A count cut short says little of larger sets, whose searches are longer.
    if (!c.exact) break;
    int best = -1, most = 0;
    for (int i = 0; i < p_.k; ++i) {
      const int touching = std::popcount(touches_[i] & set);
      if (!(set >> i & 1) && touching > most) {
        best = i;
        most = touching;
      }
    }
    if (best < 0) break;
    grown = Parts{};
    grown.split.Add(set, count);
    grown.split.Add(1u << best, p_.distance(best));
    grown.way = WayWith(set, c.way, best);
    set |= 1u << best;
    // The larger set needs at least the smaller's count and the piece's way.
    Count& start = counts_[set];
    start.lower = std::max(start.lower, count + p_.distance(best));
  }
  return lower;
}

int GroupBound::LongerRuns(int lower, int target, const SearchLimits& limits, uint64_t& nodes) {
  for (int size = policy_.longer_runs.front(); size <= policy_.longer_runs.back(); ++size) {
    if (size >= p_.k) break;
    std::vector<int> offsets(size);
    for (int o = 0; o < size; ++o) offsets[o] = o;
    for (const std::vector<std::vector<int>>& layout : PartitionsByTarget(p_, size, offsets)) {
      StartSplit split;
      for (const std::vector<int>& run : layout) {
        if (lower >= target || OutOfBudget(limits, nodes)) return lower;
        uint32_t set = 0;
        for (int i : run) set |= 1u << i;
        split.Add(set, run.size() == 1 ? p_.distance(run[0])
                                       : GroupCount(set, policy_.group_nodes, limits, nodes).lower);
      }
      Offer(split);
      lower = std::max(lower, split.sum);
    }
  }
  return lower;
}

int GroupBound::Improve(uint64_t group_nodes, int lower, int target, const SearchLimits& limits,
                        uint64_t& nodes) {
  // The position's own conflicts first: cheap, and often all there is.
  std::vector<uint32_t> groups;
  std::vector<int> values;
  FindConflicts(limits, nodes, groups, values);
  lower = Merge(groups, values, true, group_nodes, lower, target, limits, nodes);
  for (const Partition& partition : partitions_) {
    if (lower >= target) return lower;
    groups.clear();
    values.clear();
    Heuristic single;
    for (const Group& group : partition) {
      uint32_t set = 0;
      for (int i : group.pieces) set |= 1u << i;
      groups.push_back(set);
      single.SetPartitions({{group}}, p_);
      single.Set(p_.start);
      values.push_back(single.value());
    }
    lower = Merge(groups, values, false, group_nodes, lower, target, limits, nodes);
  }
  return lower;
}

}  // namespace salta::finish_internal
