// When a search of the count must stop: a node budget, a deadline, or the
// other count's word (the count back from the goal, run side by side with
// the count to it, proved the count first).
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>

#include "finish/problem.h"

namespace salta::finish_internal {

// No limit on nodes.
inline constexpr uint64_t kNoNodeLimit = std::numeric_limits<uint64_t>::max();

// A total node count (a search searches no more nodes than that, none
// where it is 0), a time, and a flag another thread may raise.
struct SearchLimits {
  uint64_t max_nodes = kNoNodeLimit;
  Clock::time_point deadline = Clock::time_point::max();
  const std::atomic<bool>* stop = nullptr;

  // The deadline passed or the stop raised (a clock read: callers ask
  // every so many nodes).
  bool TimeUp() const {
    if (stop && stop->load(std::memory_order_relaxed)) return true;
    return deadline != Clock::time_point::max() && Clock::now() >= deadline;
  }
};

}  // namespace salta::finish_internal
