// Perft: the number of legal move sequences of a given length (a forced pass
// is one move, a finished game has none). Threads and a transposition table
// change the speed, never the count.
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

}  // namespace salta
