// Perft: the number of legal move sequences of a given length (a forced pass
// is one move, a finished game has none). Threads, a transposition table and
// the way the work is split change the speed, never the count.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "salta/move.h"
#include "salta/position.h"

namespace salta {

struct PerftOptions {
  int threads = 0;      // 0: every core
  int hash_mb = 0;      // transposition table size; 0: none
  bool divide = false;  // count under each legal move of the position
  // Called now and then from a worker thread with the work done so far, in
  // [0, 1]; must be thread-safe and quick.
  std::function<void(double)> progress;
};

struct PerftResult {
  uint64_t nodes = 0;
  std::vector<std::pair<Move, uint64_t>> divide;  // in move generation order
};

inline constexpr int kMaxPerftDepth = 60;

absl::StatusOr<PerftResult> Perft(const Position& pos, int depth, const PerftOptions& options);

// The plain recursion: one thread, no table, no bulk counting at the last ply.
// The reference the fast paths are tested against.
uint64_t PerftPlain(Position& pos, int depth);

// ---------------------------------------------------------------------------
// Splitting the work, for threads and for several processes (MPI).
//
// A plan lists the root's tasks: the positions `split` plies below the root,
// depth-first with moves in generation order, each with the root move it
// descends from. The same position, depth and split give the same plan in
// every process, so K processes can each count a share of the tasks (say
// rank r counts PerftShare{.part = r, .parts = K}) and the per-root-move
// counts, summed over the shares, are exactly Perft's divide; their sum is
// Perft's count.

struct PerftTask {
  Position pos;  // where to count from
  int root;      // index into PerftPlan::root_moves; -1 for the root itself (depth 0)
  int depth;     // plies to count below pos
};

struct PerftPlan {
  int depth = 0;
  int split = 0;
  std::vector<Move> root_moves;  // the root's legal moves, in generation order
  std::vector<PerftTask> tasks;  // in a fixed order
};

// The split Perft uses for a depth: it depends on the depth alone, so that
// plans agree whatever the thread counts of the processes.
int DefaultPerftSplit(int depth);

// depth 0..kMaxPerftDepth; split 1..kMaxPerftDepth, or 0 for
// DefaultPerftSplit(depth). A task never lies deeper than the depth (a
// split past it is cut to it), nor past the end of the game: a branch whose
// game ends earlier simply has no tasks.
absl::StatusOr<PerftPlan> PlanPerft(const Position& pos, int depth, int split = 0);

// Which tasks of a plan to count: index i with begin <= i < end and
// i % parts == part. The default is every task.
struct PerftShare {
  uint64_t begin = 0;
  uint64_t end = UINT64_MAX;  // clipped to the number of tasks
  int part = 0;               // 0 .. parts-1
  int parts = 1;
};

// Counts a share of the plan's tasks on options.threads threads, with
// options.hash_mb of table. The result's divide always lists every root
// move (options.divide is not consulted), with the share's count under each,
// 0 where none of its tasks falls; nodes is their sum (plus 1 for the root
// of a depth-0 plan, whose one task is the root itself).
absl::StatusOr<PerftResult> CountPerftShare(const PerftPlan& plan, const PerftShare& share,
                                            const PerftOptions& options);

}  // namespace salta
