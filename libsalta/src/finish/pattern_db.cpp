#include "finish/pattern_db.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "salta/notation.h"
#include "salta/store.h"

namespace salta::finish_internal {

namespace {

std::string PdbKey(const Problem& p, const std::vector<int8_t>& targets) {
  std::string key = absl::StrCat(p.g->size(), "x", p.g->size(),
                                 " steps=", p.num_step_dirs == 4 ? "any" : "forward", " targets=");
  for (size_t j = 0; j < targets.size(); ++j)
    absl::StrAppend(&key, j ? "," : "", SquareName(*p.g, targets[j]));
  return key;
}

TableMeta PdbMeta(const Problem& p, const std::vector<int8_t>& targets) {
  TableMeta meta;
  meta.kind = "finish-pdb";
  meta.version = 1;
  meta.geometry = absl::StrCat(p.g->size(), "x", p.g->size());
  meta.rules = absl::StrCat("steps=", p.num_step_dirs == 4 ? "any" : "forward");
  meta.parameters = PdbKey(p, targets);
  return meta;
}

constexpr size_t kPdbChunk = 1 << 20;

absl::StatusOr<std::shared_ptr<Pdb>> LoadPdb(const Problem& p, const std::vector<int8_t>& targets,
                                             const std::string& dir) {
  absl::StatusOr<std::unique_ptr<Table>> table = Table::Open(dir, PdbMeta(p, targets));
  if (!table.ok()) return table.status();
  auto pdb = std::make_shared<Pdb>();
  pdb->k = int(targets.size());
  pdb->n = p.n;
  const uint64_t size = PdbSize(p.n, pdb->k);
  pdb->table.resize(size);
  for (uint64_t chunk = 0; chunk * kPdbChunk < size; ++chunk) {
    absl::StatusOr<std::optional<std::string>> v = (*table)->Get(EncodeKey(chunk));
    if (!v.ok()) return v.status();
    const uint64_t len = std::min<uint64_t>(kPdbChunk, size - chunk * kPdbChunk);
    if (!v->has_value() || (*v)->size() != len)
      return absl::DataLossError(absl::StrCat("pattern database ", dir, " lacks chunk ", chunk));
    std::memcpy(pdb->table.data() + chunk * kPdbChunk, (*v)->data(), len);
  }
  return pdb;
}

absl::Status SavePdb(const Problem& p, const std::vector<int8_t>& targets, const Pdb& pdb,
                     const std::string& dir) {
  Table::CreateOptions create;
  create.replace = true;
  absl::StatusOr<std::unique_ptr<Table>> table = Table::Create(dir, PdbMeta(p, targets), create);
  if (!table.ok()) return table.status();
  const uint64_t size = pdb.table.size();
  for (uint64_t chunk = 0; chunk * kPdbChunk < size; ++chunk) {
    const uint64_t len = std::min<uint64_t>(kPdbChunk, size - chunk * kPdbChunk);
    absl::string_view bytes(reinterpret_cast<const char*>(pdb.table.data()) + chunk * kPdbChunk,
                            len);
    if (absl::Status s = (*table)->Put(EncodeKey(chunk), bytes); !s.ok()) return s;
  }
  return (*table)->Finish();
}

// Pattern databases built in this process, by key; the oldest are dropped
// past a total size.
class PdbCache {
 public:
  static PdbCache& Get() {
    static PdbCache* cache = new PdbCache();
    return *cache;
  }

  // The database if it is in memory already, else null.
  std::shared_ptr<const Pdb> Cached(const Problem& p, const std::vector<int8_t>& targets) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(PdbKey(p, targets));
    return it == map_.end() ? nullptr : it->second;
  }

  absl::StatusOr<std::shared_ptr<const Pdb>> Find(const Problem& p,
                                                  const std::vector<int8_t>& targets,
                                                  const std::string& dir) {
    const std::string key = PdbKey(p, targets);
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = map_.find(key);
      if (it != map_.end()) return it->second;
    }
    std::shared_ptr<Pdb> pdb;
    std::string table_dir;
    if (!dir.empty()) {
      table_dir = absl::StrCat(dir, "/", key);
      for (char& c : table_dir)
        if (c == ' ' || c == '=' || c == ',') c = '_';
      absl::StatusOr<std::shared_ptr<Pdb>> loaded = LoadPdb(p, targets, table_dir);
      if (loaded.ok()) pdb = *loaded;
    }
    if (!pdb) {
      pdb = BuildPdb(p, targets);
      if (!table_dir.empty())
        if (absl::Status s = SavePdb(p, targets, *pdb, table_dir); !s.ok()) return s;
    }
    std::lock_guard<std::mutex> lock(mu_);
    auto [it, inserted] = map_.emplace(key, pdb);
    if (inserted) {
      order_.push_back(key);
      bytes_ += pdb->table.size();
      while (bytes_ > kMaxBytes && order_.size() > 1) {
        auto old = map_.find(order_.front());
        bytes_ -= old->second->table.size();
        map_.erase(old);
        order_.pop_front();
      }
    }
    return it->second;
  }

 private:
  static constexpr size_t kMaxBytes = size_t(512) << 20;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<const Pdb>> map_;
  std::deque<std::string> order_;
  size_t bytes_ = 0;
};

}  // namespace

uint64_t PdbSize(int n, int k) {
  uint64_t size = 1;
  for (int j = 0; j < k; ++j) size *= uint64_t(n);
  return size;
}

// Breadth-first search backwards from the goal over the group's moves.
std::shared_ptr<Pdb> BuildPdb(const Problem& p, const std::vector<int8_t>& targets) {
  const Geometry& g = *p.g;
  auto pdb = std::make_shared<Pdb>();
  const int k = int(targets.size()), n = p.n;
  pdb->k = k;
  pdb->n = n;
  const uint64_t size = PdbSize(n, k);
  pdb->table.assign(size, kPdbUnreachable);
  std::array<uint32_t, 8> weight{};
  for (int j = 0, w = 1; j < k; ++j, w *= n) weight[j] = uint32_t(w);
  uint32_t goal = 0;
  for (int j = 0; j < k; ++j) goal += uint32_t(targets[j]) * weight[j];
  // Predecessor squares: a piece now on s came from `from[s][i]` by a step
  // in the i-th allowed direction.
  std::vector<std::array<int8_t, 4>> from(n);
  for (Square s = 0; s < n; ++s)
    for (int i = 0; i < 4; ++i)
      from[s][i] =
          i < p.num_step_dirs ? int8_t(g.neighbor(s, Reverse(p.step_dirs[i]))) : int8_t(kNoSquare);
  std::vector<uint32_t> queue;
  queue.reserve(size / 8 + 16);
  queue.push_back(goal);
  pdb->table[goal] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t idx = queue[head];
    const uint8_t d = pdb->table[idx];
    if (d + 1 >= kPdbUnreachable) continue;
    int sq[8];
    Bitboard occ = 0;
    uint32_t rest = idx;
    for (int j = 0; j < k; ++j) {
      sq[j] = int(rest % uint32_t(n));
      rest /= uint32_t(n);
      occ |= SquareBit(sq[j]);
    }
    for (int j = 0; j < k; ++j) {
      for (int i = 0; i < p.num_step_dirs; ++i) {
        const int f = from[sq[j]][i];
        if (f < 0 || Contains(occ, f)) continue;
        const uint32_t pred = uint32_t(int64_t(idx) + (int64_t(f) - sq[j]) * weight[j]);
        if (pdb->table[pred] != kPdbUnreachable) continue;
        pdb->table[pred] = uint8_t(d + 1);
        queue.push_back(pred);
      }
    }
  }
  return pdb;
}

// Relaxed single-piece distances as a one-piece database.
std::shared_ptr<Pdb> BuildDistance(const Problem& p, const std::vector<Bitboard>& reach,
                                   Square target) {
  auto pdb = std::make_shared<Pdb>();
  pdb->k = 1;
  pdb->n = p.n;
  pdb->table.assign(p.n, kPdbUnreachable);
  pdb->table[target] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (Square s = 0; s < p.n; ++s) {
      int best = pdb->table[s];
      for (Bitboard r = reach[s]; r;) {
        const int t = pdb->table[PopLowest(r)];
        if (t + 1 < best) best = t + 1;
      }
      if (best < pdb->table[s]) {
        pdb->table[s] = uint8_t(best);
        changed = true;
      }
    }
  }
  return pdb;
}

// The largest group a pattern database covers on this board by default:
// at most about 8 million entries.
int DefaultGroupSize(int n) {
  int k = 1;
  while (k < 6 && PdbSize(n, k + 1) <= (uint64_t(8) << 20)) ++k;
  return k;
}

// Groups of at most `size` pieces, by where they go: the pieces sorted by
// target (file, then rank) and cut into runs, the first run `offset` long.
absl::StatusOr<std::vector<Partition>> MakePartitions(const Problem& p, int size,
                                                      const std::vector<int>& offsets,
                                                      const std::string& dir, bool cached_only) {
  std::vector<int> order(p.k);
  for (int i = 0; i < p.k; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const int fa = p.g->file_of(p.target[a]), fb = p.g->file_of(p.target[b]);
    if (fa != fb) return fa < fb;
    return p.g->rank_of(p.target[a]) < p.g->rank_of(p.target[b]);
  });
  std::vector<Partition> partitions;
  for (int offset : offsets) {
    if (offset >= p.k && offset != 0) continue;
    Partition part;
    for (int start = 0; start < p.k;) {
      const int len = std::min(start == 0 && offset > 0 ? offset : size, p.k - start);
      Group group;
      std::vector<int8_t> targets;
      for (int j = 0; j < len; ++j) {
        group.pieces.push_back(order[start + j]);
        targets.push_back(p.target[order[start + j]]);
        part.group_of[order[start + j]] = int8_t(part.groups.size());
      }
      if (cached_only) {
        group.pdb = PdbCache::Get().Cached(p, targets);
        if (!group.pdb) return std::vector<Partition>();
      } else {
        absl::StatusOr<std::shared_ptr<const Pdb>> pdb = PdbCache::Get().Find(p, targets, dir);
        if (!pdb.ok()) return pdb.status();
        group.pdb = *pdb;
      }
      for (int j = 0, w = 1; j < len; ++j, w *= p.n) group.weight[j] = uint32_t(w);
      part.groups.push_back(std::move(group));
      start += len;
    }
    partitions.push_back(std::move(part));
  }
  return partitions;
}

// The partitions whose maximum is the bound: runs of `size` pieces starting
// at different offsets, so that every pair of neighbouring targets shares a
// group in some partition. Four partitions of groups of four measured best
// on the benchmark positions (two: median 7 ms, one position over 7 s;
// four: median 3 ms, slowest 3 s).
std::vector<int> DefaultOffsets(int size) {
  std::vector<int> offsets;
  for (int o = 0; o < std::min(size, 4); ++o) offsets.push_back(o);
  return offsets;
}

}  // namespace salta::finish_internal
