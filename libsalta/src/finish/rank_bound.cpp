#include "finish/rank_bound.h"

#include <algorithm>

namespace salta::finish_internal {

std::shared_ptr<const RankBound> MakeRankBound(const Problem& p) {
  if (!p.jumps || !p.forward_only || p.k == 0) return nullptr;
  const int ranks = p.g->size();
  uint64_t vectors = 1;
  for (int i = 0; i < p.k; ++i) {
    vectors *= uint64_t(ranks);
    if (vectors > kMaxRankVectors) return nullptr;
  }
  const Rules& rules = p.variant->rules();
  auto bound = std::make_shared<RankBound>();
  for (Square s = 0; s < p.n; ++s) bound->rank[s] = int8_t(p.g->rank_of(s));
  uint32_t w = 1;
  for (int i = 0; i < p.k; ++i) {
    bound->weight[i] = w;
    w *= uint32_t(ranks);
  }
  std::array<int, kMaxPiecesInProblem> goal{};
  for (int i = 0; i < p.k; ++i) goal[i] = p.g->rank_of(p.target[i]);
  std::vector<uint8_t>& values = bound->values;
  values.assign(vectors, RankBound::kUnreachable);
  // Every move raises a rank: the vectors in falling order of their sums
  // come after all their successors. (A vector's sum is at most k * ranks.)
  std::array<int, kMaxPiecesInProblem> r{};
  auto decode = [&](uint32_t index) {  // into r; returns the sum
    int sum = 0;
    for (int i = 0; i < p.k; ++i) sum += r[i] = int(index / bound->weight[i] % uint32_t(ranks));
    return sum;
  };
  std::vector<std::vector<uint32_t>> by_sum(size_t(p.k) * ranks);
  for (uint32_t index = 0; index < vectors; ++index) by_sum[decode(index)].push_back(index);
  for (int sum = int(by_sum.size()) - 1; sum >= 0; --sum)
    for (uint32_t index : by_sum[sum]) {
      decode(index);
      bool at_goal = true;
      for (int i = 0; i < p.k; ++i) at_goal &= r[i] == goal[i];
      if (at_goal) {
        values[index] = 0;
        continue;
      }
      int best = RankBound::kUnreachable;
      auto offer = [&](int i, int to) {
        const uint8_t v = values[index + bound->weight[i] * uint32_t(to - r[i])];
        if (v != RankBound::kUnreachable) best = std::min(best, v + 1);
      };
      for (int i = 0; i < p.k; ++i) {
        if (r[i] + 1 < ranks) offer(i, r[i] + 1);
        // Jumps: over a piece one rank ahead, two ranks on; a chain on.
        for (int at = r[i]; at + 2 < ranks;) {
          bool hurdle = false;
          for (int j = 0; j < p.k; ++j) hurdle |= j != i && r[j] == at + 1;
          if (!hurdle) break;
          at += 2;
          offer(i, at);
          if (!rules.chain) break;
        }
      }
      values[index] = uint8_t(std::min(best, int(RankBound::kUnreachable)));
    }
  return bound;
}

}  // namespace salta::finish_internal
