// Retrograde analysis of a class, level by level, over the positions this
// process owns (all of them in a one-process run; see Partition).
//
// Level 0 is the finished games. Level n+1 comes from level n: a position
// with a move to a loss in n is a win in n+1; a position all of whose moves
// lead to wins, the last of them a win in n, is a loss in n+1. Each position
// keeps the count of its moves not yet known to lead to a win; positions
// never resolved are draws (cycles of backward steps, or an escape to a
// drawn end). The result does not depend on threads, processes or order.
//
// Predecessors come from the library's retrograde move generation and its
// legality test (GenerateUnmoves, IsLegal), successors' counts from
// CountLegal, terminal values from StatusOf: the rules live in one place.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "salta/cluster.h"
#include "salta/egtb/partition.h"
#include "salta/egtb/table_class.h"
#include "salta/egtb/value.h"
#include "salta/parallel.h"

namespace salta::egtb {

class Retrograde {
 public:
  // The memory the arrays need, in bytes per position.
  static uint64_t BytesPerPosition() { return sizeof(Code) + sizeof(uint8_t); }

  // The arrays for this process's positions; an error if the memory cannot
  // be had.
  static absl::StatusOr<std::unique_ptr<Retrograde>> Make(const TableClass& cls,
                                                          const Partition& partition,
                                                          Cluster& cluster, ThreadPool& pool);

  // Called from the workers as positions are scanned: (done, total) of the
  // current stage on this process. Must be thread-safe and quick.
  void set_progress(std::function<void(uint64_t done, uint64_t total)> progress) {
    progress_ = std::move(progress);
  }

  // Level 0: finished games and every other position's move count.
  absl::Status Initialize();
  // Resolves the next level; false (on every process) once no position was
  // resolved anywhere, and the table is final.
  absl::StatusOr<bool> Step();

  // The level whose positions the next Step propagates from.
  int level() const { return level_; }
  // Positions of this process resolved so far.
  uint64_t resolved() const { return resolved_; }
  // Positions resolved by the last Step on every process.
  uint64_t last_new() const { return last_new_; }
  const Partition& partition() const { return partition_; }
  int rank() const { return rank_; }
  // The codes of this process's positions, in local order.
  std::span<const Code> values() const { return values_; }

  // For checkpoints: the whole state, and its restoration.
  std::span<Code> mutable_values() { return values_; }
  std::span<uint8_t> mutable_counts() { return counts_; }
  void Restore(int level, uint64_t resolved) {
    level_ = level;
    resolved_ = resolved;
  }

 private:
  // An update for a position: its index times two, plus 1 for "a move of it
  // leads to a loss" or 0 for "a move of it leads to a win".
  bool Apply(uint64_t update, int level);
  Retrograde(const TableClass& cls, const Partition& partition, Cluster& cluster, ThreadPool& pool);
  void Scanned(uint64_t n, uint64_t total);

  const TableClass& cls_;
  Partition partition_;
  Cluster& cluster_;
  ThreadPool& pool_;
  int rank_;
  std::vector<Code> values_;
  std::vector<uint8_t> counts_;
  int level_ = 0;
  uint64_t resolved_ = 0;
  uint64_t last_new_ = 0;
  std::function<void(uint64_t, uint64_t)> progress_;
  std::atomic<uint64_t> scanned_{0};
};

}  // namespace salta::egtb
