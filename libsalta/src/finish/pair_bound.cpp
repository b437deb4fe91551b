#include "finish/pair_bound.h"

namespace salta::finish_internal {

absl::StatusOr<std::shared_ptr<const PairTables>> MakePairTables(const Problem& p,
                                                                 const PatternSource& source,
                                                                 Find find) {
  auto t = std::make_shared<PairTables>();
  t->k = p.k;
  t->dist = DistancesByPiece(p);
  // The pairs by target, each in the order of its targets (as every
  // database's group): one set for the targets, whatever the pieces' order.
  const std::vector<int> order = PiecesByTarget(p);
  std::vector<std::vector<int>> pairs;
  std::vector<std::vector<int8_t>> groups;
  for (int a = 0; a < p.k; ++a)
    for (int b = a + 1; b < p.k; ++b) {
      pairs.push_back({order[a], order[b]});
      groups.push_back({p.target[order[a]], p.target[order[b]]});
    }
  absl::StatusOr<std::vector<std::shared_ptr<const PatternDb>>> dbs =
      FindPatternSet(p, "pairs", groups, source, find);
  if (!dbs.ok()) return dbs.status();
  for (size_t g = 0; g < pairs.size(); ++g) {
    const int i = pairs[g][0], j = pairs[g][1];
    const PatternDb& db = *(*dbs)[g];
    t->pair[i][j] = {db.values.data(), db.weight[0], db.weight[1]};
    t->pair[j][i] = {db.values.data(), db.weight[1], db.weight[0]};
    if (db.beyond_distances) {
      t->conflicts[i] |= 1u << j;
      t->conflicts[j] |= 1u << i;
    }
  }
  t->dbs = *std::move(dbs);
  return t;
}

std::shared_ptr<const PairTables> SubPairTables(const std::shared_ptr<const PairTables>& tables,
                                                const std::vector<int>& members) {
  auto t = std::make_shared<PairTables>();
  t->k = int(members.size());
  for (int a = 0; a < t->k; ++a) {
    const int i = members[a];
    t->dist[a] = tables->dist[i];
    for (int b = 0; b < t->k; ++b) {
      const int j = members[b];
      if (a == b) continue;
      t->pair[a][b] = tables->pair[i][j];
      if (tables->conflicts[i] >> j & 1) t->conflicts[a] |= 1u << b;
    }
  }
  t->dbs = tables->dbs;
  return t;
}

void PairBound::Set(const Squares& sq) {
  const int k = t_->k;
  dsum_ = 0;
  for (int i = 0; i < k; ++i) {
    d_[i] = t_->dist[i][sq[i]];
    dsum_ += d_[i];
  }
  struct Edge {
    int excess;
    int8_t i, j;
  };
  std::vector<Edge> edges;
  for (int i = 0; i < k; ++i)
    for (int j = i + 1; j < k; ++j) {
      const int excess = Excess(i, sq[i], d_[i], j, sq[j]);
      if (excess > 0) edges.push_back({excess, int8_t(i), int8_t(j)});
    }
  std::stable_sort(edges.begin(), edges.end(),
                   [](const Edge& a, const Edge& b) { return a.excess > b.excess; });
  mate_.fill(-1);
  excess_.fill(0);
  unmatched_ = (uint32_t(1) << k) - 1;
  matched_ = 0;
  for (const Edge& e : edges)
    if (mate_[e.i] < 0 && mate_[e.j] < 0) {
      mate_[e.i] = e.j;
      mate_[e.j] = e.i;
      unmatched_ &= ~(1u << e.i | 1u << e.j);
      excess_[e.i] = excess_[e.j] = e.excess;
      matched_ = std::min(kInf, matched_ + e.excess);
    }
}

void PairBound::Moved(const Squares& sq, int i, Saved& saved) {
  saved.mate = mate_;
  saved.excess = excess_;
  saved.unmatched = unmatched_;
  saved.d = d_[i];
  saved.dsum = dsum_;
  saved.matched = matched_;
  dsum_ += t_->dist[i][sq[i]] - d_[i];
  d_[i] = t_->dist[i][sq[i]];
  const int mate = mate_[i];
  if (mate >= 0) {
    matched_ -= excess_[i];
    mate_[i] = mate_[mate] = -1;
    excess_[i] = excess_[mate] = 0;
    unmatched_ |= 1u << i | 1u << mate;
  }
  MatchFree(sq, i);
  if (mate >= 0 && mate_[mate] < 0) MatchFree(sq, mate);
}

void PairBound::MatchFree(const Squares& sq, int i) {
  int partner = -1, best = 0;
  // (Where distances are finite, as at every node a search visits, the
  // pairs in no conflict have no excess.)
  for (uint32_t f = unmatched_ & t_->conflicts[i]; f; f &= f - 1) {
    const int j = std::countr_zero(f);
    const int excess = Excess(i, sq[i], d_[i], j, sq[j]);
    if (excess > best) {
      best = excess;
      partner = j;
    }
  }
  if (partner < 0) return;
  mate_[i] = int8_t(partner);
  mate_[partner] = int8_t(i);
  unmatched_ &= ~(1u << i | 1u << partner);
  excess_[i] = excess_[partner] = best;
  matched_ = std::min(kInf, matched_ + best);
}

}  // namespace salta::finish_internal
