// The minimum number of moves a side needs to complete its goal, counted on a
// board clear of the opponent's pieces (docs/scoring.md): only that side's
// pieces stand on the board and they move by the variant's move options --
// steps (all four diagonals, or forward only), jumps over their own pieces
// only where jump-over=any, in the directions jump-dir allows, chained where
// chain=on. The mandatory-jump and block rules concern play against an
// opponent and do not restrict the count. It is a minimum over all move
// sequences, and infinite (unreachable) when no sequence completes the goal.
//
// The solver is exact (docs/scoring.md): a beam search finds a way to finish
// (an upper bound) and a large neighbourhood search shortens it, and IDA*
// with admissible lower bounds (the maximum over several partitions of the
// pieces, grouped by where they go, of the sum of each group's exact cost
// alone: additive pattern databases; where pieces jump, a bound on their
// ranks), a table of the bounds failed searches prove and strong stubborn
// sets raises the lower bound until the two meet. Without any of these it
// stays exact, only slower.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "salta/move.h"
#include "salta/piece.h"
#include "salta/position.h"

namespace salta {

// A count that is not known: no solution found yet, or the goal unreachable.
inline constexpr int kUnknownMoves = -1;

// The techniques the solver uses, all but move pruning on by default.
// Switching one on or off never changes a count, only the time it takes: for
// tests and measurements.
struct FinishTechniques {
  // A short IDA* first, which settles most counts.
  bool quick_search = true;
  // A beam search for a way to finish before the exact search.
  bool upper_bound_search = true;
  // One order of moves that commute (moves of different pieces playable in
  // either order to the same placement). Off by default: the bound table
  // then keeps the bounds of states whatever way led to them, which meets
  // the other orders too, and searches fewer nodes (docs/scoring.md).
  bool move_pruning = false;
  // The table of the bounds that failed searches prove.
  bool bound_table = true;
  // At each node only the moves of a strong stubborn set: the pieces whose
  // moves could interfere with those of one unfinished piece, within what
  // the bound leaves each piece (steps only; not with move_pruning).
  bool stubborn_sets = true;
  // Exact counts of groups larger than the pattern databases', merged
  // where they gain, for a better bound at the start (steps only).
  bool group_bound = true;
  // The pairs and triples the group bound finds in conflict get databases
  // of their own, one more partition of the search's bound.
  bool conflict_partition = true;
  // Ways found by the beam search are shortened: each piece's moves, then
  // each detouring piece's with another's, replanned between the others'.
  bool shorten = true;
  // With the group bound: the count alone of the pieces that stand on
  // targets (the tangle in the goal), grown by the pieces that touch it,
  // and a way to finish made from its way, the others' moves put in.
  bool goal_tangle = true;
  // With the group bound: the pieces cut by target into runs longer than
  // the databases' (five and six pieces), each run counted alone, summed.
  bool longer_runs = true;
  // Where pieces jump and every move goes forward: a bound on the
  // placement abstracted to the pieces' ranks (a jump needs a piece one
  // rank ahead), for six pieces at most.
  bool rank_bound = true;
  // The best way found is improved by a large neighbourhood search: a few
  // pieces' moves taken out and put back, one piece at a time.
  bool neighbourhoods = true;
  // With the group bound: the counts of the groups that bound the start
  // carried into the search, each falling only with its own pieces' moves;
  // and a group's own search starting from the counts and ways of the
  // parts it is made of (a smaller set and a piece, two groups merged).
  bool groups_in_search = true;
  // Where every move can be taken back (steps every way): a child's proven
  // bound less one bounds its parent (bidirectional pathmax), so a child
  // the bound table shows far from the goal cuts the whole node.
  bool pathmax = true;
  // With groups_in_search: each carried group of at most four pieces also
  // bounded at each node by its exact cost alone, from its database (its
  // start count less its moves forgets the moves it wasted).
  bool carried_databases = true;
  // Where every move can be taken back (steps every way, no jumps), the
  // count from the goal back to the start, in turns with the count to the
  // goal, each taking the other's bound and way: the count is the same
  // both ways, and either may prove it sooner.
  bool both_ways = true;
  // Where pieces only step: the bound of pairs in conflict too (each
  // piece's distance, plus the excesses of a matching of the pieces into
  // pairs, each pair's from a database of the two), chosen at each
  // placement among all the pieces: conflicts that the databases' fixed
  // groups cut apart add up.
  bool pair_bound = true;
  // With the group bound and pair_bound: the searches of sets of eight
  // pieces or more (the tangle in the goal, large merges) take the bound
  // of pairs in conflict of their pieces into their bound too.
  bool pairs_in_sets = true;
  // Where pieces jump, every move goes forward and the pieces are few (the
  // forward preset's boards of one row: five pieces on 10x10): every
  // placement within the squares each piece can still pass on its way
  // counted in one pass, in falling order (at most 16 M placements), the
  // start's the count, with a shortest way.
  bool cone_table = true;
};

// The bound table's memory limit by default, and its largest (1 TiB).
inline constexpr int kDefaultBoundTableMegabytes = 512;
inline constexpr int kMaxBoundTableMegabytes = 1 << 20;

struct FinishOptions {
  // Stop after this many seconds (0: no limit) or this many searched nodes
  // (0: no limit; never more nodes than that) and return proven bounds
  // instead of the exact count.
  double time_limit_seconds = 0;
  uint64_t node_limit = 0;
  // Return a move sequence: optimal when the result is exact, else the
  // shortest found (the upper bound), if any.
  bool want_solution = false;
  // The most pieces one pattern database covers: -1 chooses by the board (4
  // on 10x10), 0 uses none (the per-piece distances only: exact, slower),
  // at most kMaxPatternGroupSize. Pattern databases apply when pieces cannot
  // jump on the clear board. Databases too large to build in a count (5 on
  // 10x10: 254 MB each, minutes to build, seconds to load) are used only
  // where PreparePatternDatabases stored them in pattern_dir; else the
  // count uses the size chosen by the board, and `report` says so.
  int pattern_group_size = -1;
  // A directory where pattern databases are kept as RocksDB tables (one
  // table per group, see salta/store.h): loaded when present, built and
  // saved when not; a damaged table is reported and rebuilt. Empty: built
  // in memory. Either way they are cached for the life of the process.
  std::string pattern_dir;
  // Whether a count may start from the large pattern databases when earlier
  // counts of the process left them in memory, and load them from
  // pattern_dir where the first short search does not end it (fewer nodes).
  // False: a count always takes the same nodes, whatever ran before it, so
  // that under a node_limit whether it is exact depends on the position
  // alone.
  bool reuse_cached_patterns = true;
  // The most memory, in MiB, the table of proven bounds may grow to (it
  // grows with the nodes searched; most counts use a few MiB; with the
  // count back from the goal, its table and the count's share it). Counts far
  // from home search tens of millions of nodes, and a table that keeps their
  // bounds searches far fewer (docs/scoring.md, "Speed"). From 1 to
  // kMaxBoundTableMegabytes.
  int bound_table_megabytes = kDefaultBoundTableMegabytes;
  // The threads one count may run on: 1, or 2 and more (0: every core) to
  // run the count back from the goal (FinishTechniques::both_ways) on a
  // thread of its own, side by side with the count to the goal instead of
  // in turns with it, where it applies: a count that both directions
  // search ends in about half the time. A count never uses more than two.
  // The count is the same; the nodes, and which of several shortest ways
  // is found, may differ from run to run. Under a node_limit, one thread,
  // so that whether a count is exact depends on the position alone.
  // From 0 to ThreadPool::kMaxThreads.
  int threads = 1;
  // Called between iterations with the proven lower bound and nodes so far
  // (with two threads, from either, never from both at once).
  std::function<void(int lower, uint64_t nodes)> progress;
  // Called with a line for the user when a stored pattern table was found
  // damaged and is rebuilt, or the databases asked for are not stored.
  std::function<void(const std::string& message)> report;
  FinishTechniques techniques;
};

// The largest FinishOptions::pattern_group_size.
inline constexpr int kMaxPatternGroupSize = 5;

// The directory salta-score keeps pattern tables in by default:
// $XDG_CACHE_HOME/salta, else $HOME/.cache/salta; empty if neither is set.
std::string DefaultPatternDir();

// Whether the options are valid: an InvalidArgument error naming the
// option and its range otherwise.
absl::Status ValidateFinishOptions(const FinishOptions& options);

struct FinishResult {
  // False only when the goal is proven unreachable (then exact is true and
  // lower and upper are kUnknownMoves). A result cut short by a limit says
  // true unless unreachability was proven.
  bool reachable = true;
  // lower == upper == the count.
  bool exact = false;
  // Proven bounds: the count is at least lower and at most upper; upper is
  // kUnknownMoves when no way to finish was found within the limits.
  int lower = 0;
  int upper = kUnknownMoves;
  // When asked for: a sequence of moves of the side, in the position's
  // squares, that completes the goal -- optimal when exact, else as long as
  // upper (not proven optimal); empty when no way was found.
  std::vector<Move> solution;
  uint64_t nodes = 0;
  double seconds = 0;
  // The most pieces one pattern database of the final bound covers (0: the
  // per-piece distances only): the large size unless the count ended before
  // they were built, or a node or time limit kept them out.
  int pattern_size = 0;

  // The count, or kUnknownMoves unless exact and reachable.
  int moves() const { return exact && reachable ? lower : kUnknownMoves; }
};

// The minimum number of moves for `side` to complete its goal from `pos`
// (the side to move, ply and phase of pos do not matter). A side with no
// piece on the board needs 0 moves. Errors: invalid options; an I/O or
// database error with the pattern tables of options.pattern_dir.
absl::StatusOr<FinishResult> MinMovesToFinish(const Position& pos, Side side,
                                              const FinishOptions& options);

// Builds (or loads from options.pattern_dir) the pattern databases the
// solver would use for `side` in `pos`, so that later counts start at once;
// with a pattern_dir, every table is there afterwards, even for databases
// this process already held in memory.
absl::Status PreparePatternDatabases(const Position& pos, Side side, const FinishOptions& options);

// The position with only the pieces of `side`, `side` to move, ply 0.
absl::StatusOr<Position> ClearBoard(const Position& pos, Side side);

// The moves of a solution of `side` in notation (docs/notation.md), each
// written as it stands on the clear board before it: a chain by its
// landing squares, as every tool writes moves.
std::vector<std::string> SolutionWords(const Position& pos, Side side,
                                       const std::vector<Move>& moves);

// Checks that `moves`, played one after another by `side` alone on the
// clear board, are each a step or jump the options allow and end with the
// goal completed, the last move completing it.
absl::Status CheckSolution(const Position& pos, Side side, const std::vector<Move>& moves);

}  // namespace salta
