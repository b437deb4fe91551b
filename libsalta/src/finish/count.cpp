#include "finish/count.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"
#include "finish/cone_table.h"
#include "finish/rank_bound.h"
#include "finish/shorten.h"

namespace salta::finish_internal {

namespace {

static_assert(Policy{}.carried_splits <= Ida::kMaxSplits, "IDA* carries at most kMaxSplits");

// Whether a count may build databases of `size` pieces (else they are built
// ahead only).
bool BuiltInCount(const Problem& p, int size, const Policy& policy) {
  absl::StatusOr<PlacementIndex> index = PlacementIndex::Make(p.n, size);
  return index.ok() && index->size() <= policy.max_default_pdb_entries;
}

// The group size of the pattern databases by the board: the largest a count
// may build.
int BoardGroupSize(const Problem& p, const Policy& policy) {
  int k = 1;
  while (k < kMaxGroupSize && k < p.k && BuiltInCount(p, k + 1, policy)) ++k;
  return k;
}

std::vector<Move> ToMoves(const Problem& p, const std::vector<PieceMove>& path) {
  std::vector<Move> moves;
  for (const PieceMove& mv : path) {
    const Square from = p.Normal(mv.from), to = p.Normal(mv.to);
    moves.push_back(mv.jump ? Move::Jump(from, to) : Move::Step(from, to));
  }
  return moves;
}

}  // namespace

int GroupSize(const Problem& p, const FinishOptions& options, const Policy& policy) {
  if (options.pattern_group_size >= 0) return std::min(options.pattern_group_size, p.k);
  return BoardGroupSize(p, policy);
}

absl::StatusOr<std::vector<Partition>> BoundPartitions(const Problem& p, int size,
                                                       const FinishOptions& options,
                                                       const Policy& policy, Find find) {
  if (p.jumps || size < 2) return std::vector<Partition>();
  std::vector<int> offsets;
  for (int o = 0; o < std::min(size, policy.partitions); ++o) offsets.push_back(o);
  return ResolvePartitions(p, PartitionsByTarget(p, size, offsets), PatternSourceOf(options), find);
}

Count::Count(const Problem& p, const FinishOptions& options, const Policy& policy,
             Clock::time_point start)
    : p_(p), options_(options), policy_(policy), start_(start) {
  if (options.time_limit_seconds > 0)
    limits_.deadline = start + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(options.time_limit_seconds));
  if (options.node_limit > 0) limits_.max_nodes = options.node_limit;
  doubling_nodes_ = policy.ida_nodes.back();
}

absl::StatusOr<bool> Count::Start() {
  if (p_.k == 0) {
    found_ = true;  // the empty way
    return true;
  }
  // A piece that cannot reach its target even alone is seen before any
  // database is built.
  Partition singles = SinglePieces(p_);
  for (const Group& group : singles)
    if (group.pdb->values[p_.start[group.pieces[0]]] == kPdbUnreachable) {
      unreachable_ = true;
      return true;
    }
  // Where pieces jump, every move goes forward and the pieces are few: the
  // count at once.
  if (options_.techniques.cone_table && ConeCount()) return true;
  // Small databases (three pieces, milliseconds to build) unless the
  // large ones are in memory: most counts need no more. (None where
  // pieces can jump.)
  size_ = p_.jumps ? 0 : GroupSize(p_, options_, policy_);
  bool by_board = options_.pattern_group_size < 0;
  std::vector<Partition> partitions;
  // Databases built ahead only: from memory or pattern_dir, else those of
  // the size chosen by the board.
  if (size_ > 1 && !BuiltInCount(p_, size_, policy_)) {
    // They take seconds to load: under a shorter time limit, only those the
    // process holds.
    const bool load = TimeLeft() >= policy_.ahead_pdb_load_seconds;
    absl::StatusOr<std::vector<Partition>> ahead =
        BoundPartitions(p_, size_, options_, policy_, load ? Find::kAhead : Find::kCached);
    if (!ahead.ok()) return ahead.status();
    if (ahead->empty()) {
      const int board = BoardGroupSize(p_, policy_);
      if (options_.report) {
        const std::string why =
            load ? absl::StrCat("no pattern tables of ", size_, " pieces",
                                options_.pattern_dir.empty()
                                    ? ""
                                    : absl::StrCat(" in ", options_.pattern_dir),
                                " (they are built ahead only)")
                 : absl::StrCat("pattern tables of ", size_,
                                " pieces take seconds to load, longer than the time limit leaves");
        options_.report(absl::StrCat(why, "; counting with tables of ", board));
      }
      size_ = board;
      by_board = true;
    } else {
      partitions = std::move(*ahead);
    }
  }
  small_ = StartGroupSize(size_, by_board);
  // (Not when counts must take the same nodes whatever ran before.)
  if (small_ < size_ && options_.reuse_cached_patterns) {
    absl::StatusOr<std::vector<Partition>> cached =
        BoundPartitions(p_, size_, options_, policy_, Find::kCached);
    if (!cached.ok()) return cached.status();
    if (!cached->empty()) {
      partitions = std::move(*cached);
      small_ = size_;
    }
  }
  if (partitions.empty()) {
    // Stored, the small tables stand together in one table: opening it
    // takes a fifth of building them (the thirteen of three on 10x10,
    // about 2 ms against 11.5 ms).
    absl::StatusOr<std::vector<Partition>> made =
        BoundPartitions(p_, small_, options_, policy_, Find::kBuild);
    if (!made.ok()) return made.status();
    partitions = std::move(*made);
  }
  if (!partitions.empty()) result_.pattern_size = small_;
  // Each database is at least the sum of its pieces' distances, so the
  // single pieces only count when there are no databases.
  if (partitions.empty()) partitions.push_back(std::move(singles));
  // Where pieces jump, no group alone is a relaxation: the ranks are.
  if (options_.techniques.rank_bound) h_.SetRanks(MakeRankBound(p_));
  if (options_.techniques.pair_bound && !p_.jumps && p_.k >= 2) {
    absl::StatusOr<std::shared_ptr<const PairTables>> pairs =
        MakePairTables(p_, PatternSourceOf(options_));
    if (!pairs.ok()) return pairs.status();
    h_.SetPairs(*std::move(pairs));
  }
  SetBound(std::move(partitions));
  if (h_.value() >= kInf) {
    unreachable_ = true;
    return true;
  }
  lower_ = h_.value();

  IdaOptions ida_options;
  ida_options.move_pruning = options_.techniques.move_pruning;
  ida_options.bound_table = options_.techniques.bound_table;
  ida_options.stubborn = options_.techniques.stubborn_sets;
  ida_options.pathmax = options_.techniques.pathmax;
  ida_options.carried_databases = options_.techniques.carried_databases;
  ida_options.bound_table_entries = policy_.bound_table_entries;
  ida_options.progress = options_.progress;
  ida_.emplace(p_, h_, ida_options);
  return false;
}

absl::StatusOr<bool> Count::Next() {
  switch (stage_) {
    case Stage::kQuick: {
      stage_ = Stage::kFirstWay;
      // 1. Most counts take a few hundred nodes of IDA*.
      return options_.techniques.quick_search && RunIda(policy_.first_ida_nodes);
    }
    case Stage::kFirstWay: {
      stage_ = Stage::kLarge;
      // The large databases, where pattern_dir holds them: loading them
      // takes a quarter of a second, a hundred times what most counts
      // take (not under a shorter time limit).
      if (small_ < size_ && options_.reuse_cached_patterns &&
          TimeLeft() > policy_.large_pdb_load_seconds) {
        absl::StatusOr<bool> stored = UseLarge(size_, Find::kStored);
        if (!stored.ok()) return stored.status();
        if (*stored) small_ = size_;
      }
      // 2. A way to finish, and larger groups for the bound: where the
      //    two meet, the count is proven.
      return UpperAndGroups(0);
    }
    case Stage::kLarge: {
      stage_ = Stage::kWidening;
      // 3. The large databases, where the small ones were used so far
      //    (they take seconds to build: not under a tight limit).
      absl::StatusOr<bool> built = BuildLarge();
      if (!built.ok()) return built.status();
      return *built && UpperAndGroups(0);
    }
    case Stage::kWidening: {
      // 4. IDA* and the searches for a way (wider beams while none is
      //    found, the neighbourhood search) in turn, each given more
      //    (the large databases built first where they are due now).
      stage_ = Stage::kWideningGroups;
      if (absl::StatusOr<bool> built = BuildLarge(); !built.ok()) return built.status();
      return RunIda(policy_.ida_nodes[widening_]);
    }
    case Stage::kWideningGroups: {
      const size_t w = ++widening_;
      stage_ = w + 1 == policy_.beam_widths.size() ? Stage::kDoubling : Stage::kWidening;
      return UpperAndGroups(w);
    }
    case Stage::kDoubling: {
      // 5. IDA*, given twice as much each time, and the neighbourhood
      //    search in turn, until the bounds meet or a limit stops them
      //    (the large databases built first where they are due now).
      if (absl::StatusOr<bool> built = BuildLarge(); !built.ok()) return built.status();
      const uint64_t nodes = doubling_nodes_;
      doubling_nodes_ = std::min(2 * nodes, uint64_t(1) << 60);
      return RunIda(nodes) || Neighbourhoods(policy_.neighbourhood_rounds.back()) ||
             TimeLeft() <= 0 || NodesLeft() == 0;
    }
  }
  return absl::InternalError("unknown stage");
}

absl::StatusOr<FinishResult> Count::Result() {
  if (unreachable_) return Unreachable();
  return Concluded();
}

Count::Findings Count::Share() const {
  return Findings{lower_, Backwards(p_, best_), unreachable_, OwnSplits()};
}

void Count::LearnFrom(const Findings& other) {
  const std::vector<StartSplit>& splits = other.splits;
  if (splits.size() != learned_splits_.size() ||
      (!splits.empty() && splits.front().sum != learned_splits_.front().sum)) {
    learned_splits_ = splits;
    CarrySplits(OwnSplits());
  }
  lower_ = std::max(lower_, other.lower);
  if (!other.way.empty() && (!found_ || other.way.size() < best_.size())) {
    best_ = other.way;
    found_ = true;
  }
  unreachable_ = unreachable_ || other.unreachable;
}

absl::StatusOr<bool> Count::UseLarge(int size, Find find) {
  absl::StatusOr<std::vector<Partition>> large = BoundPartitions(p_, size, options_, policy_, find);
  if (!large.ok()) return large.status();
  if (large->empty()) return false;
  SetBound(std::move(*large));
  result_.pattern_size = size;
  lower_ = std::max(lower_, h_.value());
  return true;
}

absl::StatusOr<bool> Count::BuildLarge() {
  if (small_ >= size_ || TimeLeft() <= policy_.large_pdb_seconds ||
      NodesLeft() < policy_.large_pdb_nodes || NodesUsed() < policy_.large_pdb_after_nodes)
    return false;
  absl::StatusOr<bool> built = UseLarge(size_, Find::kBuild);
  if (!built.ok()) return built.status();
  if (!*built) return absl::InternalError("no pattern databases of the large size");
  small_ = size_;
  // Charged as the nodes IDA* searches in the same time (WorkDone), even
  // where the process's cache had them: the turns never depend on what
  // ran before.
  std::vector<const PatternDb*> built_dbs = DatabasesOf(partitions_);
  std::sort(built_dbs.begin(), built_dbs.end());
  built_dbs.erase(std::unique(built_dbs.begin(), built_dbs.end()), built_dbs.end());
  for (const PatternDb* db : built_dbs)
    build_work_ += db->index.size() / policy_.placements_per_node;
  return true;
}

void Count::SetBound(std::vector<Partition> partitions) {
  partitions_ = partitions;
  groups_done_ = false;
  h_.SetPartitions(std::move(partitions), p_);
  h_.Set(p_.start);
}

double Count::TimeLeft() const {
  if (limits_.deadline == Clock::time_point::max()) return 1e300;
  return std::chrono::duration<double>(limits_.deadline - Clock::now()).count();
}

uint64_t Count::NodesLeft() const {
  if (limits_.max_nodes == kNoNodeLimit) return kNoNodeLimit;
  return limits_.max_nodes > NodesUsed() ? limits_.max_nodes - NodesUsed() : 0;
}

SearchLimits Count::Limits(uint64_t nodes, uint64_t own) const {
  SearchLimits l = limits_;
  uint64_t allowed = NodesLeft();
  if (nodes > 0) allowed = std::min(allowed, nodes);
  l.max_nodes = allowed >= kNoNodeLimit - own ? kNoNodeLimit : own + allowed;
  return l;
}

bool Count::RunIda(uint64_t nodes) {
  std::vector<PieceMove> path;
  const Ida::Outcome outcome = ida_->Run(lower_, found_ ? int(best_.size()) : 0,
                                         Limits(nodes, ida_->nodes()), ida_order_, path);
  // The runs alternate the order of ties: which finds a shortest way
  // first depends on the position (docs/scoring.md); the bound table
  // holds for both.
  ida_order_ = ida_order_ == TieOrder::kBackFirst ? TieOrder::kAny : TieOrder::kBackFirst;
  if (outcome == Ida::Outcome::kUnreachable) unreachable_ = true;
  if (outcome == Ida::Outcome::kSolved) Offer(std::move(path));
  return outcome != Ida::Outcome::kStopped || Proven();
}

bool Count::ConeCount() {
  ConeTable table;
  const uint64_t placements = MakeCones(p_, table);
  if (placements == 0 || placements > policy_.cone_table_placements || placements > NodesLeft())
    return false;
  if (!BuildConeTable(p_, limits_, table)) return false;
  nodes_ += placements;
  const uint8_t count = table.values[table.IndexOf(p_.start, p_.k)];
  if (count == ConeTable::kNone) {
    unreachable_ = true;
    return true;
  }
  std::vector<PieceMove> way = ConeWay(p_, table);
  if (int(way.size()) != count) return false;  // (a defect: the search decides)
  lower_ = count;
  best_ = std::move(way);
  found_ = true;
  return true;
}

bool Count::Neighbourhoods(uint64_t rounds) {
  if (!options_.techniques.neighbourhoods || !found_ || Proven() || NodesLeft() == 0 ||
      TimeLeft() <= 0)
    return false;
  SearchLimits l = Limits(rounds, 0);
  uint64_t done = 0;
  // A new seed each time: another drift over ways of equal length.
  const NeighbourhoodOptions search{policy_.neighbourhood_pieces, policy_.neighbourhood_worse_odds,
                                    ++neighbourhood_seed_};
  ShortenByNeighbourhoods(p_, lower_, search, l, best_, done);
  nodes_ += done;
  return Proven();
}

bool Count::UpperAndGroups(size_t stage) {
  const int width = policy_.beam_widths[stage];
  // The wider beams only while no way is found, where the neighbourhood
  // search improves one (docs/scoring.md: it does better, and sooner).
  const bool improver = options_.techniques.neighbourhoods && !p_.jumps;
  if (options_.techniques.upper_bound_search && (stage == 0 || !found_ || !improver))
    for (TieOrder order : {TieOrder::kBackFirst, TieOrder::kAny}) {
      if (TimeLeft() <= 0) break;
      std::vector<PieceMove> way;
      uint64_t beam_nodes = 0;
      SearchLimits l = Limits(0, 0);
      // Under a node limit, half of what is left.
      if (l.max_nodes != kNoNodeLimit) l.max_nodes /= 2;
      if (BeamSearch(p_, h_, width, order, 2 * lower_ + 20, l, way, beam_nodes))
        Offer(std::move(way));
      nodes_ += beam_nodes;
      if (Proven()) return true;
    }
  // Once for each set of databases: its groups' counts do not change.
  if (found_ && !p_.jumps && options_.techniques.group_bound && !groups_done_) {
    groups_done_ = true;
    if (Merges(policy_.group_nodes, 0, options_.techniques.longer_runs)) return true;
    // The search's bound takes the position's conflicts in too.
    const GroupBound& groups = Groups();
    if (options_.techniques.conflict_partition && !groups.conflicts().empty()) {
      absl::StatusOr<Partition> conflicts = ConflictPartition(p_, groups.conflicts());
      if (conflicts.ok()) {
        std::vector<Partition> partitions = partitions_;
        partitions.push_back(std::move(*conflicts));
        SetBound(std::move(partitions));
        groups_done_ = true;  // (SetBound starts over; these groups are counted)
      }
    }
  }
  if (Neighbourhoods(policy_.neighbourhood_rounds[stage])) return true;
  // The tangle in the goal, after the second IDA* run (most counts that
  // come this far end in the first 100,000 nodes, and the tangle's largest
  // sets take as many), and again, given more, after the third; also
  // where no way was found: a tangle can keep the beams from the goal,
  // and its own way is a way to finish.
  if (policy_.grow_nodes[stage] > 0 && !p_.jumps && options_.techniques.group_bound &&
      options_.techniques.goal_tangle) {
    GroupBound& groups = Groups();
    if (found_) groups.SetWay(best_);
    uint64_t tangle_nodes = 0;
    lower_ = groups.Tangle(lower_, found_ ? int(best_.size()) : kInf, policy_.grow_nodes[stage],
                           Limits(0, 0), tangle_nodes);
    nodes_ += tangle_nodes;
    CarrySplit(groups);
    if (Proven()) return true;
    // Its way, the others' moves put in around it (once for each way).
    if (std::vector<PieceMove> way = groups.tangle_way();
        !way.empty() && way != completed_tangle_way_) {
      completed_tangle_way_ = way;
      if (CompleteWay(p_, way)) {
        Offer(std::move(way));
        if (Proven()) return true;
      }
    }
  }
  // The merges again, each merged group given more nodes, within a
  // budget: a merge cut short at the root may be a conflict of eight to
  // twelve pieces that only the search's last iteration would prove.
  if (policy_.remerge_nodes[stage] > 0 && found_ && !p_.jumps && options_.techniques.group_bound &&
      Merges(policy_.remerge_nodes[stage], policy_.remerge_budget, false))
    return true;
  // Two pieces replanned at a time, once for each new best way (slower
  // than one at a time: after the cheaper proofs).
  if (options_.techniques.shorten && found_ && best_.size() != shortened_size_) {
    Shorten(p_, true, limits_.deadline, best_);
    shortened_size_ = best_.size();
    if (Proven()) return true;
  }
  return false;
}

bool Count::Merges(uint64_t group_nodes, uint64_t budget, bool longer_runs) {
  GroupBound& groups = Groups();
  groups.SetWay(best_);
  uint64_t group_bound_nodes = 0;
  const SearchLimits limits = Limits(budget, 0);
  lower_ = groups.Improve(group_nodes, lower_, int(best_.size()), limits, group_bound_nodes);
  if (longer_runs) lower_ = groups.LongerRuns(lower_, int(best_.size()), limits, group_bound_nodes);
  nodes_ += group_bound_nodes;
  CarrySplit(groups);
  return Proven();
}

const std::vector<StartSplit>& Count::OwnSplits() const {
  static const std::vector<StartSplit> none;
  return groups_ ? groups_->best_splits() : none;
}

void Count::CarrySplits(const std::vector<StartSplit>& own) {
  if (!options_.techniques.groups_in_search || !ida_) return;
  std::vector<StartSplit> splits = own;
  splits.insert(splits.end(), learned_splits_.begin(), learned_splits_.end());
  if (splits.empty()) return;
  std::stable_sort(splits.begin(), splits.end(),
                   [](const StartSplit& a, const StartSplit& b) { return a.sum > b.sum; });
  if (splits.size() > size_t(policy_.carried_splits)) splits.resize(policy_.carried_splits);
  ida_->SetStartSplits(splits);
}

GroupBound& Count::Groups() {
  if (!groups_) {
    groups_.emplace(p_, partitions_, policy_, options_.techniques.groups_in_search);
    if (options_.techniques.pairs_in_sets) groups_->SetPairs(h_.pair_tables());
  }
  return *groups_;
}

void Count::Offer(std::vector<PieceMove> way) {
  if (options_.techniques.shorten &&
      (!found_ || way.size() < best_.size() + policy_.shorten_margin))
    Shorten(p_, false, limits_.deadline, way);
  if (!found_ || way.size() < best_.size()) best_ = std::move(way);
  found_ = true;
}

absl::StatusOr<FinishResult> Count::Concluded() {
  if (unreachable_) return Unreachable();
  result_.nodes = NodesUsed();
  // A way found is never shorter than a proven lower bound; anything else
  // would be a defect, reported as bounds rather than as an exact count.
  result_.exact = found_ && int(best_.size()) == lower_;
  result_.lower = found_ ? std::min(lower_, int(best_.size())) : lower_;
  result_.upper = found_ ? int(best_.size()) : kUnknownMoves;
  if (options_.want_solution && found_) result_.solution = ToMoves(p_, best_);
  return Finish();
}

absl::StatusOr<FinishResult> Count::Unreachable() {
  const int pattern_size = result_.pattern_size;
  result_ = FinishResult{};
  result_.pattern_size = pattern_size;
  result_.reachable = false;
  result_.exact = true;
  result_.lower = result_.upper = kUnknownMoves;
  result_.nodes = NodesUsed();
  return Finish();
}

absl::StatusOr<FinishResult> Count::Finish() {
  result_.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
  return result_;
}
}  // namespace salta::finish_internal
