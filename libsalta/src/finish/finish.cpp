#include "salta/finish.h"

// The driver: checks the options, builds the bounds, then a beam search for
// a way to finish and IDA* until the lower bound meets it; where moves can
// be taken back, a second count from the goal in turns with it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>

#include "absl/strings/str_cat.h"
#include "finish/group_bound.h"
#include "finish/heuristic.h"
#include "finish/pattern_db.h"
#include "finish/policy.h"
#include "finish/problem.h"
#include "finish/rank_bound.h"
#include "finish/search.h"
#include "finish/shorten.h"
#include "salta/movegen.h"
#include "salta/notation.h"

namespace salta {

using namespace finish_internal;

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

// The group size of the pattern databases: the option, or by the board.
int GroupSize(const Problem& p, const FinishOptions& options, const Policy& policy) {
  if (options.pattern_group_size >= 0) return std::min(options.pattern_group_size, p.k);
  return BoardGroupSize(p, policy);
}

// The partitions of groups of `size` the bound is the maximum over, with
// their databases; none where databases do not apply, or where `find`
// stops short of one.
absl::StatusOr<std::vector<Partition>> BoundPartitions(const Problem& p, int size,
                                                       const FinishOptions& options,
                                                       const Policy& policy, Find find) {
  if (p.jumps || size < 2) return std::vector<Partition>();
  std::vector<int> offsets;
  for (int o = 0; o < std::min(size, policy.partitions); ++o) offsets.push_back(o);
  PatternSource source{options.pattern_dir, options.report};
  return ResolvePartitions(p, PartitionsByTarget(p, size, offsets), source, find);
}

// The solver's constants with the bound table's size from the options.
Policy PolicyFor(const FinishOptions& options) {
  Policy policy;
  policy.bound_table_entries = BoundTable::EntriesIn(options.bound_table_megabytes);
  return policy;
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

std::string DefaultPatternDir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && xdg[0] == '/')
    return absl::StrCat(xdg, "/salta");
  if (const char* home = std::getenv("HOME"); home && home[0] != '\0')
    return absl::StrCat(home, "/.cache/salta");
  return "";
}

absl::Status ValidateFinishOptions(const FinishOptions& options) {
  if (!std::isfinite(options.time_limit_seconds) || options.time_limit_seconds < 0)
    return absl::InvalidArgumentError(
        absl::StrCat("the time limit must be a finite number of seconds, 0 or more, not ",
                     options.time_limit_seconds));
  if (options.pattern_group_size < -1 || options.pattern_group_size > kMaxPatternGroupSize)
    return absl::InvalidArgumentError(absl::StrCat(
        "the pattern group size must be -1 (by the board), 0 (no pattern databases) or 1 to ",
        kMaxPatternGroupSize, ", not ", options.pattern_group_size));
  if (options.bound_table_megabytes < 1 || options.bound_table_megabytes > kMaxBoundTableMegabytes)
    return absl::InvalidArgumentError(absl::StrCat("the bound table's memory must be 1 to ",
                                                   kMaxBoundTableMegabytes, " MiB, not ",
                                                   options.bound_table_megabytes));
  return absl::OkStatus();
}

absl::StatusOr<Position> ClearBoard(const Position& pos, Side side) {
  std::vector<std::pair<PieceId, Square>> pieces;
  for (PieceId id = int(side) * kPiecesPerSide; id < (int(side) + 1) * kPiecesPerSide; ++id)
    if (pos.square_of(id) != kNoSquare) pieces.emplace_back(id, pos.square_of(id));
  return Position::Make(pos.variant(), pieces, side, 0);
}

absl::Status CheckSolution(const Position& pos, Side side, const std::vector<Move>& moves) {
  absl::StatusOr<Position> board = ClearBoard(pos, side);
  if (!board.ok()) return board.status();
  Position& b = *board;
  const Geometry& g = pos.variant().geometry();
  for (size_t i = 0; i < moves.size(); ++i) {
    if (b.Completed(side))
      return absl::InvalidArgumentError(
          absl::StrCat("the goal is complete before move ", i + 1, " of ", moves.size()));
    MoveList raw;
    GenerateRaw(b, side, raw);
    const Move m = moves[i];
    if (m.is_pass() || !raw.contains(m))
      return absl::InvalidArgumentError(
          absl::StrCat("move ", i + 1, " (",
                       m.is_pass() ? std::string("--")
                                   : absl::StrCat(SquareName(g, m.from), "-", SquareName(g, m.to)),
                       ") is not a step or jump of ", SideName(side), " on the clear board"));
    b.Make(m);
    b.Make(Move::Pass());
  }
  if (!b.Completed(side) && b.pieces(side) != 0)
    return absl::InvalidArgumentError(
        absl::StrCat("the goal is not complete after ", moves.size(), " moves"));
  return absl::OkStatus();
}

absl::Status PreparePatternDatabases(const Position& pos, Side side, const FinishOptions& options) {
  if (absl::Status s = ValidateFinishOptions(options); !s.ok()) return s;
  const Problem p = MakeProblem(pos, side);
  if (p.k == 0) return absl::OkStatus();
  const Policy policy;
  return BoundPartitions(p, GroupSize(p, options, policy), options, policy, Find::kSave).status();
}

namespace {

// One count: the stages of docs/scoring.md ("The solver") in order, each
// ending the count where it can. Start() builds the bound, then each
// Next() runs one stage, so that two counts (the way to the goal and the
// way back, CountBothWays) can take turns.
class Count {
 public:
  Count(const Problem& p, const FinishOptions& options, const Policy& policy,
        Clock::time_point start)
      : p_(p), options_(options), policy_(policy), start_(start) {
    if (options.time_limit_seconds > 0)
      limits_.deadline = start + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(options.time_limit_seconds));
    if (options.node_limit > 0) limits_.max_nodes = options.node_limit;
    doubling_nodes_ = policy.ida_nodes.back();
  }

  // The stages in the order Next() runs them.
  enum class Stage { kQuick, kFirstWay, kLarge, kWidening, kWideningGroups, kDoubling };
  Stage stage() const { return stage_; }

  // The bound; true when that concludes the count.
  absl::StatusOr<bool> Start() {
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
    // Small databases (three pieces, milliseconds to build) unless the
    // large ones are in memory: most counts need no more. (None where
    // pieces can jump.)
    size_ = p_.jumps ? 0 : GroupSize(p_, options_, policy_);
    bool by_board = options_.pattern_group_size < 0;
    std::vector<Partition> partitions;
    // Databases built ahead only: from memory or pattern_dir, else those of
    // the size chosen by the board.
    if (size_ > 1 && !BuiltInCount(p_, size_, policy_)) {
      absl::StatusOr<std::vector<Partition>> ahead =
          BoundPartitions(p_, size_, options_, policy_, Find::kAhead);
      if (!ahead.ok()) return ahead.status();
      if (ahead->empty()) {
        const int board = BoardGroupSize(p_, policy_);
        if (options_.report)
          options_.report(absl::StrCat(
              "no pattern tables of ", size_, " pieces",
              options_.pattern_dir.empty() ? "" : absl::StrCat(" in ", options_.pattern_dir),
              " (they are built ahead only); counting with tables of ", board));
        size_ = board;
        by_board = true;
      } else {
        partitions = std::move(*ahead);
      }
    }
    small_ = by_board ? std::min(size_, kSmallGroupSize) : size_;
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

  // The next stage; true when the count is concluded, or its limits spent.
  absl::StatusOr<bool> Next() {
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

  // What the count found, where Start() or Next() said it is concluded.
  absl::StatusOr<FinishResult> Result() {
    if (unreachable_) return Unreachable();
    return Concluded();
  }

  // What the count of the same placements the other way (problem
  // Reversed(p_)) proved: its lower bound, its best way (taken backwards),
  // whether it found the goal unreachable, and its carried partitions (a
  // group's count alone is the same both ways too: they bound this
  // count's start as they bound the other's).
  void LearnFrom(const Count& other) {
    const std::vector<StartSplit>& splits = other.OwnSplits();
    if (splits.size() != learned_splits_.size() ||
        (!splits.empty() && splits.front().sum != learned_splits_.front().sum)) {
      learned_splits_ = splits;
      CarrySplits(OwnSplits());
    }
    lower_ = std::max(lower_, other.lower_);
    std::vector<PieceMove> way = Backwards(other.p_, other.best_);
    if (!way.empty() && (!found_ || way.size() < best_.size())) {
      best_ = std::move(way);
      found_ = true;
    }
    unreachable_ = unreachable_ || other.unreachable_;
  }
  bool concluded() const { return unreachable_ || Proven(); }
  uint64_t NodesUsed() const { return nodes_ + (ida_ ? ida_->nodes() : 0); }
  // The nodes, and the large databases built counted as nodes: what the
  // two counts of CountBothWays share equally.
  uint64_t WorkDone() const { return NodesUsed() + build_work_; }
  // The most nodes the count may have used when its next stage ends.
  void SetNodeLimit(uint64_t max_nodes) { limits_.max_nodes = max_nodes; }

 private:
  // The databases of groups of `size` as the bound, where `find` has them
  // (false where not).
  absl::StatusOr<bool> UseLarge(int size, Find find) {
    absl::StatusOr<std::vector<Partition>> large =
        BoundPartitions(p_, size, options_, policy_, find);
    if (!large.ok()) return large.status();
    if (large->empty()) return false;
    SetBound(std::move(*large));
    result_.pattern_size = size;
    lower_ = std::max(lower_, h_.value());
    return true;
  }

  // The large databases built and made the bound, where the small ones
  // are used so far and the policy allows it now; true where built.
  absl::StatusOr<bool> BuildLarge() {
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
      build_work_ += db->values.size() / policy_.placements_per_node;
    return true;
  }

  // Needs at least one partition.
  void SetBound(std::vector<Partition> partitions) {
    partitions_ = partitions;
    groups_done_ = false;
    h_.SetPartitions(std::move(partitions), p_.k);
    h_.Set(p_.start);
  }

  double TimeLeft() const {
    if (limits_.deadline == Clock::time_point::max()) return 1e300;
    return std::chrono::duration<double>(limits_.deadline - Clock::now()).count();
  }
  // Under the node limit; kNoNodeLimit without one.
  uint64_t NodesLeft() const {
    if (limits_.max_nodes == kNoNodeLimit) return kNoNodeLimit;
    return limits_.max_nodes > NodesUsed() ? limits_.max_nodes - NodesUsed() : 0;
  }

  // The searches' limits with at most `nodes` more nodes (0: the limits'
  // own), for a search whose own count is at `own`. With none left, a
  // search stops before its first node.
  SearchLimits Limits(uint64_t nodes, uint64_t own) const {
    SearchLimits l = limits_;
    uint64_t allowed = NodesLeft();
    if (nodes > 0) allowed = std::min(allowed, nodes);
    l.max_nodes = allowed >= kNoNodeLimit - own ? kNoNodeLimit : own + allowed;
    return l;
  }

  // IDA* within `nodes` more nodes (0: the limits only); true when the
  // count is concluded (found, proven or unreachable).
  bool RunIda(uint64_t nodes) {
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

  // The way found, improved by a large neighbourhood search of at most
  // `rounds` rounds; true when it meets the lower bound.
  bool Neighbourhoods(uint64_t rounds) {
    if (!options_.techniques.neighbourhoods || !found_ || Proven() || NodesLeft() == 0 ||
        TimeLeft() <= 0)
      return false;
    SearchLimits l = Limits(rounds, 0);
    uint64_t done = 0;
    // A new seed each time: another drift over ways of equal length.
    const NeighbourhoodOptions search{policy_.neighbourhood_pieces,
                                      policy_.neighbourhood_worse_odds, ++neighbourhood_seed_};
    ShortenByNeighbourhoods(p_, lower_, search, l, best_, done);
    nodes_ += done;
    return Proven();
  }

  // Beam searches of the stage's width in both orders for a way to finish,
  // the bound of larger groups and the large neighbourhood search; true
  // when the bounds meet.
  bool UpperAndGroups(size_t stage) {
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
    if (policy_.remerge_nodes[stage] > 0 && found_ && !p_.jumps &&
        options_.techniques.group_bound &&
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

  // The group bound's merges (GroupBound::Improve), each merged group's
  // search within `group_nodes`, all within `budget` (0: the limits
  // only), then the longer runs where asked; their best partitions are
  // carried into IDA*. True when the bounds meet.
  bool Merges(uint64_t group_nodes, uint64_t budget, bool longer_runs) {
    GroupBound& groups = Groups();
    groups.SetWay(best_);
    uint64_t group_bound_nodes = 0;
    const SearchLimits limits = Limits(budget, 0);
    lower_ = groups.Improve(group_nodes, lower_, int(best_.size()), limits, group_bound_nodes);
    if (longer_runs)
      lower_ = groups.LongerRuns(lower_, int(best_.size()), limits, group_bound_nodes);
    nodes_ += group_bound_nodes;
    CarrySplit(groups);
    return Proven();
  }

  // The groups' counts that bound the start carried into IDA*: the count's
  // own and those the count the other way found, the best sums first.
  void CarrySplit(const GroupBound& groups) { CarrySplits(groups.best_splits()); }
  // The count's own best partitions (none before the group bound runs).
  const std::vector<StartSplit>& OwnSplits() const {
    static const std::vector<StartSplit> none;
    return groups_ ? groups_->best_splits() : none;
  }
  void CarrySplits(const std::vector<StartSplit>& own) {
    if (!options_.techniques.groups_in_search || !ida_) return;
    std::vector<StartSplit> splits = own;
    splits.insert(splits.end(), learned_splits_.begin(), learned_splits_.end());
    if (splits.empty()) return;
    std::stable_sort(splits.begin(), splits.end(),
                     [](const StartSplit& a, const StartSplit& b) { return a.sum > b.sum; });
    if (splits.size() > size_t(policy_.carried_splits)) splits.resize(policy_.carried_splits);
    ida_->SetStartSplits(splits);
  }

  // One for the whole count: the counts of sets of pieces alone that one
  // stage finds (or the bounds it proves, where cut short) serve the next,
  // whatever databases bound their searches.
  GroupBound& Groups() {
    if (!groups_) groups_.emplace(p_, partitions_, policy_, options_.techniques.groups_in_search);
    return *groups_;
  }

  void Offer(std::vector<PieceMove> way) {
    if (options_.techniques.shorten &&
        (!found_ || way.size() < best_.size() + policy_.shorten_margin))
      Shorten(p_, false, limits_.deadline, way);
    if (!found_ || way.size() < best_.size()) best_ = std::move(way);
    found_ = true;
  }
  bool Proven() const { return found_ && lower_ >= int(best_.size()); }

  absl::StatusOr<FinishResult> Concluded() {
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
  absl::StatusOr<FinishResult> Unreachable() {
    const int pattern_size = result_.pattern_size;
    result_ = FinishResult{};
    result_.pattern_size = pattern_size;
    result_.reachable = false;
    result_.exact = true;
    result_.lower = result_.upper = kUnknownMoves;
    result_.nodes = NodesUsed();
    return Finish();
  }
  absl::StatusOr<FinishResult> Finish() {
    result_.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    return result_;
  }

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

// The count from the start to the goal, and where every move can be taken
// back (steps every way, no jumps: then the count is the same both ways)
// the count from the goal back to the start, a stage at a time, each
// taking the other's bound and way: either may prove the count first
// (docs/scoring.md, "The count back from the goal"). The count back starts
// once the count to the goal has taken Policy::back_after_nodes.
absl::StatusOr<FinishResult> CountBothWays(const Problem& p, const FinishOptions& options,
                                           Clock::time_point start) {
  const bool both = options.techniques.both_ways && Reversible(p);
  Policy policy = PolicyFor(options);
  // The two counts share the bound table's memory.
  if (both) policy.bound_table_entries = std::max<size_t>(policy.bound_table_entries / 2, 1);
  // Progress is told of the two counts together.
  const Count* back_count = nullptr;
  FinishOptions ahead_options = options;
  if (options.progress)
    ahead_options.progress = [&](int lower, uint64_t nodes) {
      options.progress(lower, nodes + (back_count ? back_count->NodesUsed() : 0));
    };
  Count ahead(p, ahead_options, policy, start);
  absl::StatusOr<bool> done = ahead.Start();
  while (done.ok() && !*done &&
         (!both || ahead.stage() < Count::Stage::kLarge ||
          ahead.NodesUsed() < policy.back_after_nodes))
    done = ahead.Next();
  if (!done.ok()) return done.status();
  if (!*done && both) {
    const Problem back_problem = Reversed(p);
    // The way back's targets are the position's own squares: its databases
    // are never stored, and it reports nothing of its own.
    FinishOptions back_options = options;
    back_options.pattern_dir.clear();
    back_options.report = nullptr;
    if (options.progress)
      back_options.progress = [&](int lower, uint64_t nodes) {
        options.progress(lower, nodes + ahead.NodesUsed());
      };
    Policy back_policy = policy;
    back_policy.large_pdb_seconds = policy.back_large_pdb_seconds;
    back_policy.large_pdb_after_nodes = policy.back_large_pdb_after_nodes;
    Count back(back_problem, back_options, back_policy, start);
    back_count = &back;
    // Each count's stages within what the two together have left.
    auto within_limit = [&](Count& count) {
      if (options.node_limit == 0) return true;
      const uint64_t used = ahead.NodesUsed() + back.NodesUsed();
      if (used >= options.node_limit) return false;
      count.SetNodeLimit(count.NodesUsed() + (options.node_limit - used));
      return true;
    };
    done = back.Start();
    while (done.ok() && !*done) {
      // The count that has done less work goes on: the two take the same
      // share whatever their stages' sizes.
      const bool back_turn = back.WorkDone() <= ahead.WorkDone();
      Count& count = back_turn ? back : ahead;
      const Count& other = back_turn ? ahead : back;
      count.LearnFrom(other);
      if (count.concluded() || !within_limit(count)) break;
      done = count.Next();
    }
    if (!done.ok()) return done.status();
    ahead.LearnFrom(back);
    absl::StatusOr<FinishResult> result = ahead.Result();
    if (result.ok()) result->nodes += back.NodesUsed();
    return result;
  }
  while (!*done) {
    done = ahead.Next();
    if (!done.ok()) return done.status();
  }
  return ahead.Result();
}

}  // namespace

absl::StatusOr<FinishResult> MinMovesToFinish(const Position& pos, Side side,
                                              const FinishOptions& options) {
  const Clock::time_point start = Clock::now();
  if (absl::Status s = ValidateFinishOptions(options); !s.ok()) return s;
  const Problem p = MakeProblem(pos, side);
  return CountBothWays(p, options, start);
}

}  // namespace salta
