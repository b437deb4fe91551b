#include "salta/finish.h"

// The driver: checks the options, then counts (finish/count.h) to the goal
// and, where moves can be taken back, from the goal back, in turns or side
// by side.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "finish/count.h"
#include "finish/pair_bound.h"
#include "finish/pattern_db.h"
#include "finish/policy.h"
#include "finish/problem.h"
#include "salta/movegen.h"
#include "salta/notation.h"
#include "salta/parallel.h"
#include "salta/store.h"

namespace salta {

using namespace finish_internal;

namespace {

// The solver's constants with the bound table's size from the options.
Policy PolicyFor(const FinishOptions& options) {
  Policy policy;
  policy.bound_table_entries = BoundTable::EntriesIn(options.bound_table_megabytes);
  return policy;
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
  if (absl::Status s = ThreadPool::CheckThreads(options.threads); !s.ok())
    return absl::InvalidArgumentError(absl::StrCat("the threads of a count: ", s.message()));
  return absl::OkStatus();
}

absl::StatusOr<Position> ClearBoard(const Position& pos, Side side) {
  std::vector<std::pair<PieceId, Square>> pieces;
  for (PieceId id = int(side) * kPiecesPerSide; id < (int(side) + 1) * kPiecesPerSide; ++id)
    if (pos.square_of(id) != kNoSquare) pieces.emplace_back(id, pos.square_of(id));
  return Position::Make(pos.variant(), pieces, side, 0);
}

std::vector<std::string> SolutionWords(const Position& pos, Side side,
                                       const std::vector<Move>& moves) {
  std::vector<std::string> words;
  absl::StatusOr<Position> board = ClearBoard(pos, side);
  if (!board.ok()) return words;  // (never: a position that was made has a clear board)
  for (const Move& m : moves) {
    words.push_back(MoveToString(*board, m));
    board->Make(m);
    board->Make(Move::Pass());  // the side moves again
  }
  return words;
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
  // The tables a count starts on (its pairs' and the small ones), then the
  // large ones.
  if (!p.jumps && p.k >= 2)
    if (absl::Status s = MakePairTables(p, PatternSourceOf(options), Find::kSave).status(); !s.ok())
      return s;
  const int size = GroupSize(p, options, policy);
  const int start = StartGroupSize(size, options.pattern_group_size < 0);
  if (start < size)
    if (absl::Status s = BoundPartitions(p, start, options, policy, Find::kSave).status(); !s.ok())
      return s;
  return BoundPartitions(p, size, options, policy, Find::kSave).status();
}

namespace {

// The progress of the two counts told as one, from either thread, one call
// at a time: the larger of their lower bounds and the nodes of both (each
// as it last told them).
class JointProgress {
 public:
  explicit JointProgress(const std::function<void(int, uint64_t)>& tell) : tell_(tell) {}
  // What the count of `direction` (0 to the goal, 1 back) is given.
  std::function<void(int, uint64_t)> Of(int direction) {
    if (!tell_) return nullptr;
    return [this, direction](int lower, uint64_t nodes) {
      nodes_[direction].store(nodes, std::memory_order_relaxed);
      std::lock_guard<std::mutex> lock(mutex_);
      lower_ = std::max(lower_, lower);
      tell_(lower_,
            nodes_[0].load(std::memory_order_relaxed) + nodes_[1].load(std::memory_order_relaxed));
    };
  }

 private:
  const std::function<void(int, uint64_t)>& tell_;
  std::atomic<uint64_t> nodes_[2] = {0, 0};
  std::mutex mutex_;
  int lower_ = 0;
};

// The two counts in turns, a stage at a time, the one that has done less
// work next: the two take the same share whatever their stages' sizes. A
// node limit holds for the two together.
absl::Status TakeTurns(Count& ahead, Count& back, const FinishOptions& options) {
  // Each count's stages within what the two together have left.
  auto within_limit = [&](Count& count) {
    if (options.node_limit == 0) return true;
    const uint64_t used = ahead.NodesUsed() + back.NodesUsed();
    if (used >= options.node_limit) return false;
    count.SetNodeLimit(count.NodesUsed() + (options.node_limit - used));
    return true;
  };
  absl::StatusOr<bool> done = back.Start();
  while (done.ok() && !*done) {
    const bool back_turn = back.WorkDone() <= ahead.WorkDone();
    Count& count = back_turn ? back : ahead;
    const Count& other = back_turn ? ahead : back;
    count.LearnFrom(other.Share());
    if (count.concluded() || !within_limit(count)) break;
    done = count.Next();
  }
  return done.status();
}

// The two counts side by side, a thread each, each taking the other's
// findings before each of its stages, until either concludes (its word
// stops the other's searches where they stand) or its limits are spent.
absl::Status RunSideBySide(Count& ahead, Count& back, ThreadPool& pool) {
  std::atomic<bool> stop{false};
  ahead.SetStop(&stop);
  back.SetStop(&stop);
  Count* const counts[2] = {&ahead, &back};
  std::mutex mutex;  // guards shared
  Count::Findings shared[2] = {ahead.Share(), {}};
  absl::Status status[2];
  pool.Run(0, 2, 1, [&](uint64_t direction, uint64_t, int) {
    // However this thread's count ends (an exception too), the other's
    // searches stop.
    struct StopOnExit {
      std::atomic<bool>& stop;
      ~StopOnExit() { stop.store(true, std::memory_order_relaxed); }
    } stop_on_exit{stop};
    Count& count = *counts[direction];
    absl::StatusOr<bool> done = direction == 1 ? count.Start() : false;
    while (done.ok() && !*done && !stop.load(std::memory_order_relaxed)) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        count.LearnFrom(shared[1 - direction]);
      }
      if (count.concluded()) break;
      done = count.Next();
      std::lock_guard<std::mutex> lock(mutex);
      shared[direction] = count.Share();
    }
    status[direction] = done.status();
  });
  ahead.SetStop(nullptr);
  back.SetStop(nullptr);
  return status[0].ok() ? status[1] : status[0];
}

// Whether the options let the two counts run side by side: two threads or
// more, and no node limit (under one, whether a count is exact must not
// depend on how two threads interleave).
bool SideBySide(const FinishOptions& options) {
  const int threads = options.threads == 0 ? ThreadPool::Cores() : options.threads;
  return threads >= 2 && options.node_limit == 0;
}

// The count from the start to the goal, and where every move can be taken
// back (steps every way, no jumps: then the count is the same both ways)
// the count from the goal back to the start, each taking the other's bound
// and way: either may prove the count first (docs/scoring.md, "The count
// back from the goal"). The count back starts once the count to the goal
// has taken Policy::back_after_nodes; then the two take turns, or run side
// by side on two threads (FinishOptions::threads), the count back started
// sooner.
absl::StatusOr<FinishResult> CountBothWays(const Problem& p, const FinishOptions& options,
                                           Clock::time_point start) {
  const bool both = options.techniques.both_ways && Reversible(p);
  Policy policy = PolicyFor(options);
  // The two counts share the bound table's memory.
  if (both) policy.bound_table_entries = std::max<size_t>(policy.bound_table_entries / 2, 1);
  JointProgress progress(options.progress);
  FinishOptions ahead_options = options;
  ahead_options.progress = progress.Of(0);
  Count ahead(p, ahead_options, policy, start);
  absl::StatusOr<bool> done = ahead.Start();
  const bool side_by_side = both && SideBySide(options);
  const uint64_t back_after =
      side_by_side ? policy.side_by_side_back_after_nodes : policy.back_after_nodes;
  while (done.ok() && !*done &&
         (!both || ahead.stage() < Count::Stage::kLarge || ahead.NodesUsed() < back_after))
    done = ahead.Next();
  if (!done.ok()) return done.status();
  if (!*done && both) {
    const Problem back_problem = Reversed(p);
    // The way back's targets are the position's own squares: its databases
    // are never stored, and it reports nothing of its own.
    FinishOptions back_options = options;
    back_options.pattern_dir.clear();
    back_options.report = nullptr;
    back_options.progress = progress.Of(1);
    Policy back_policy = policy;
    back_policy.large_pdb_seconds = policy.back_large_pdb_seconds;
    back_policy.large_pdb_after_nodes = policy.back_large_pdb_after_nodes;
    Count back(back_problem, back_options, back_policy, start);
    // (Where no thread can be had, in turns: the count is the same.)
    std::unique_ptr<ThreadPool> pool;
    if (absl::StatusOr<std::unique_ptr<ThreadPool>> made =
            side_by_side ? ThreadPool::Make(2) : nullptr;
        made.ok())
      pool = std::move(*made);
    if (absl::Status s = pool ? RunSideBySide(ahead, back, *pool) : TakeTurns(ahead, back, options);
        !s.ok())
      return s;
    ahead.LearnFrom(back.Share());
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
  // The directory is made (or refused) now, not first where a count
  // needs its large tables, which most counts never do.
  if (absl::Status s = MakeTableDirectory(options.pattern_dir); !s.ok()) return s;
  const Problem p = MakeProblem(pos, side);
  return CountBothWays(p, options, start);
}

}  // namespace salta
