// The count of a group of pieces alone on the clear board, for every
// placement of the group, by a plain breadth-first search backwards from
// the targets along the forward moves of each piece: what the solver's
// databases (libsalta/src/finish/pattern_db.h, pair_bound.h) must hold.
#pragma once

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <vector>

#include "finish/problem.h"

namespace salta::finish_internal {

// By placement (piece j of the group on placement[j], bound for
// targets[j]): its count; every placement is a key, those with no way to
// the targets map to -1.
inline std::map<std::vector<int8_t>, int> PlainGroupCounts(const Problem& p,
                                                           const std::vector<int8_t>& targets) {
  const int k = int(targets.size());
  std::map<std::vector<int8_t>, std::vector<std::vector<int8_t>>> came_from;
  std::vector<int8_t> sq(k);
  std::function<void(int)> each = [&](int j) {
    if (j == k) {
      came_from[sq];  // every placement, with or without a way in
      for (int i = 0; i < k; ++i)
        for (int d = 0; d < p.num_step_dirs; ++d) {
          const int to = p.step_to[sq[i]][d];
          if (to < 0 || std::find(sq.begin(), sq.end(), to) != sq.end()) continue;
          std::vector<int8_t> next = sq;
          next[i] = int8_t(to);
          came_from[next].push_back(sq);
        }
      return;
    }
    for (int s = 0; s < p.n; ++s) {
      if (std::find(sq.begin(), sq.begin() + j, s) != sq.begin() + j) continue;
      sq[j] = int8_t(s);
      each(j + 1);
    }
  };
  each(0);
  std::map<std::vector<int8_t>, int> count;
  for (const auto& [placement, unused] : came_from) count[placement] = -1;
  count[targets] = 0;
  std::deque<std::vector<int8_t>> queue{targets};
  for (; !queue.empty(); queue.pop_front())
    for (const std::vector<int8_t>& before : came_from[queue.front()])
      if (int& c = count[before]; c < 0) {
        c = count[queue.front()] + 1;
        queue.push_back(before);
      }
  return count;
}

}  // namespace salta::finish_internal
