#include "salta/finish.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <queue>
#include <unordered_map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "salta/movegen.h"
#include "salta/notation.h"
#include "salta/store.h"

namespace salta {
namespace {

using Clock = std::chrono::steady_clock;

// Bounds at or above kInf mean "cannot finish".
constexpr int kInf = 1 << 20;
constexpr int Inc(int x) {
  return x >= kInf ? kInf : x + 1;
}
constexpr uint8_t kPdbUnreachable = 255;
constexpr int kMaxPiecesInProblem = kPiecesPerSide;

constexpr Direction Reverse(Direction d) {
  return Direction(3 - d);
}

// ---------------------------------------------------------------------------
// The problem, turned so that the side moves as White does: a Black piece on
// square s stands on rotate(s) and uses White's directions.

struct Problem {
  const Variant* variant = nullptr;
  const Geometry* g = nullptr;
  Side side = Side::kWhite;
  int n = 0;  // squares
  int k = 0;  // pieces
  std::array<PieceId, kMaxPiecesInProblem> ids{};
  std::array<int8_t, kMaxPiecesInProblem> start{};
  std::array<int8_t, kMaxPiecesInProblem> target{};
  int num_step_dirs = 0;
  std::array<Direction, 4> step_dirs{};
  bool jumps = false;  // jumps over own pieces exist on the clear board
  int num_jump_dirs = 0;
  std::array<Direction, 4> jump_dirs{};
  bool chain = false;
  // Every move changes the sum of ranks by one: the count's parity is known.
  bool steps_only = true;

  Square Normal(Square s) const { return side == Side::kWhite ? s : g->rotate(s); }
};

Problem MakeProblem(const Position& pos, Side side) {
  Problem p;
  p.variant = &pos.variant();
  p.g = &p.variant->geometry();
  p.side = side;
  p.n = p.g->num_squares();
  for (PieceId id = int(side) * kPiecesPerSide; id < (int(side) + 1) * kPiecesPerSide; ++id) {
    const Square s = pos.square_of(id);
    if (s == kNoSquare) continue;
    p.ids[p.k] = id;
    p.start[p.k] = int8_t(p.Normal(s));
    p.target[p.k] = int8_t(p.Normal(p.variant->target(id)));
    ++p.k;
  }
  const Rules& r = p.variant->rules();
  p.num_step_dirs = p.variant->num_step_dirs();
  p.step_dirs = p.variant->step_dirs(Side::kWhite);
  p.jumps = r.jump_over == JumpOver::kAny;
  p.num_jump_dirs = p.variant->num_jump_dirs();
  p.jump_dirs = p.variant->jump_dirs(Side::kWhite);
  p.chain = r.chain;
  p.steps_only = !p.jumps;
  return p;
}

// Squares one piece could reach in one move if every other square it needs
// to jump over held a piece and every landing square were empty: a
// relaxation of the real moves, so distances over it are lower bounds.
std::vector<Bitboard> RelaxedMoves(const Problem& p) {
  const Geometry& g = *p.g;
  std::vector<Bitboard> reach(p.n, 0);
  for (Square s = 0; s < p.n; ++s) {
    for (int i = 0; i < p.num_step_dirs; ++i)
      if (Square t = g.neighbor(s, p.step_dirs[i]); t != kNoSquare) reach[s] |= SquareBit(t);
    if (!p.jumps) continue;
    Bitboard done = SquareBit(s), frontier = SquareBit(s), jumped = 0;
    while (frontier) {
      const Square a = PopLowest(frontier);
      for (int i = 0; i < p.num_jump_dirs; ++i) {
        const Square over = g.neighbor(a, p.jump_dirs[i]);
        if (over == kNoSquare) continue;
        const Square land = g.neighbor(over, p.jump_dirs[i]);
        if (land == kNoSquare) continue;
        jumped |= SquareBit(land);
        if (p.chain && !Contains(done, land)) {
          done |= SquareBit(land);
          frontier |= SquareBit(land);
        }
      }
    }
    reach[s] |= jumped & ~SquareBit(s);
  }
  return reach;
}

// ---------------------------------------------------------------------------
// Pattern databases: the exact cost of a group of pieces alone on the board
// (the other pieces removed), for every placement of the group. A move
// moves one piece, so over disjoint groups the costs add up to a lower
// bound -- valid when removing pieces can only make moves easier, that is
// when no piece can jump (a jump needs the piece it jumps over).

struct Pdb {
  int k = 0;
  int n = 0;
  std::vector<uint8_t> table;  // index sum(s_j * n^j); kPdbUnreachable: cannot finish
};

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

// A partition of the pieces into groups, each with its database.
struct Group {
  std::vector<int> pieces;
  std::shared_ptr<const Pdb> pdb;
  std::array<uint32_t, 8> weight{};
};
struct Partition {
  std::vector<Group> groups;
  std::array<int8_t, kMaxPiecesInProblem> group_of{};
};

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
                                                      const std::string& dir,
                                                      bool cached_only = false) {
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

// ---------------------------------------------------------------------------
// A state: the square of each piece, packed six bits a piece in two words.

struct Key {
  uint64_t a = 0, b = 0;
  bool operator==(const Key&) const = default;
};

// MurmurHash3's finaliser: every bit of the input reaches the low bits.
inline uint64_t Mix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 33);
}
inline uint64_t HashKey(const Key& k) {
  return Mix64(k.a ^ Mix64(k.b + 0x9E3779B97F4A7C15ull));
}

// Lower bounds proven by failed searches, by exact state. Grows up to a
// maximum, then replaces the weakest bound in the probed window.
class BoundTable {
 public:
  explicit BoundTable(size_t max_entries) : max_(max_entries) { Resize(1 << 10); }

  int Probe(const Key& k) const {
    const size_t h = HashKey(k);
    for (size_t i = 0; i < kWindow; ++i) {
      const Entry& e = entries_[(h + i) & mask_];
      if (e.bound == 0) return 0;
      if (e.key == k) return e.bound;
    }
    return 0;
  }

  void Store(const Key& k, int bound) {
    if (bound <= 0) return;
    for (;;) {
      const size_t h = HashKey(k);
      Entry* weakest = nullptr;
      for (size_t i = 0; i < kWindow; ++i) {
        Entry& e = entries_[(h + i) & mask_];
        if (e.bound == 0) {
          e.key = k;
          e.bound = bound;
          ++used_;
          if (used_ * 2 > entries_.size() && entries_.size() < max_) Resize(entries_.size() * 2);
          return;
        }
        if (e.key == k) {
          e.bound = std::max(e.bound, bound);
          return;
        }
        if (!weakest || e.bound < weakest->bound) weakest = &e;
      }
      if (entries_.size() < max_) {
        Resize(entries_.size() * 2);
        continue;
      }
      weakest->key = k;
      weakest->bound = bound;
      return;
    }
  }

 private:
  static constexpr size_t kWindow = 8;
  struct Entry {
    Key key;
    int bound = 0;  // 0: empty
  };

  void Resize(size_t size) {
    std::vector<Entry> old = std::move(entries_);
    entries_.assign(size, Entry{});
    mask_ = size - 1;
    used_ = 0;
    for (const Entry& e : old)
      if (e.bound > 0) Insert(e);
  }
  void Insert(const Entry& entry) {
    const size_t h = HashKey(entry.key);
    for (size_t i = 0; i < kWindow; ++i) {
      Entry& e = entries_[(h + i) & mask_];
      if (e.bound == 0) {
        e = entry;
        ++used_;
        return;
      }
    }  // dropped: a bound is only an optimisation
  }

  size_t max_;
  std::vector<Entry> entries_;
  size_t mask_ = 0;
  size_t used_ = 0;
};

// ---------------------------------------------------------------------------
// The search.

struct PieceMove {
  int8_t piece, from, to;
  bool jump;
};

class Solver {
 public:
  Solver(const Problem& p, const FinishOptions& options, Clock::time_point start)
      : p_(p), options_(options), bounds_(size_t(1) << 22), start_time_(start) {
    for (int i = 0; i < p_.k; ++i) {
      sq_[i] = p_.start[i];
      occ_ |= SquareBit(sq_[i]);
      key_ = WithPiece(key_, i, sq_[i]);
    }
    children_.reserve(4096);
  }

  void SetPartitions(std::vector<Partition> partitions) {
    partitions_ = std::move(partitions);
    nq_ = int(partitions_.size());
    for (int q = 0; q < nq_; ++q) {
      Partition& part = partitions_[q];
      sums_[q] = 0;
      for (size_t gi = 0; gi < part.groups.size(); ++gi) {
        const Group& group = part.groups[gi];
        tables_[q][gi] = group.pdb->table.data();
        uint32_t idx = 0;
        for (size_t j = 0; j < group.pieces.size(); ++j) {
          idx += uint32_t(sq_[group.pieces[j]]) * group.weight[j];
          weight_[q][group.pieces[j]] = int32_t(group.weight[j]);
        }
        index_[q][gi] = idx;
        const uint8_t v = tables_[q][gi][idx];
        values_[q][gi] = v == kPdbUnreachable ? kInf : v;
        sums_[q] = std::min(kInf, sums_[q] + values_[q][gi]);
      }
      for (int i = 0; i < p_.k; ++i) group_of_[q][i] = part.group_of[i];
    }
  }

  // The static lower bound of the current state.
  int Heuristic() const {
    int h = 0;
    for (int q = 0; q < nq_; ++q) h = std::max(h, sums_[q]);
    return h;
  }

  bool AtGoal() const {
    for (int i = 0; i < p_.k; ++i)
      if (sq_[i] != p_.target[i]) return false;
    return true;
  }

  // Iterative deepening; returns false when a limit stopped it.
  bool Run(int& lower, std::vector<PieceMove>& path, bool& unreachable) {
    const int h0 = std::max(Heuristic(), bounds_.Probe(key_));
    unreachable = false;
    if (h0 >= kInf) {
      unreachable = true;
      return true;
    }
    lower = std::max(lower, h0);
    if (AtGoal()) {
      lower = 0;
      return true;
    }
    for (;;) {
      if (options_.progress) options_.progress(lower, nodes_);
      found_ = false;
      path_.assign(lower, PieceMove{});
      const int r = Search(0, lower, std::max(h0, bounds_.Probe(key_)), -1, -1, 0);
      if (found_) {
        path = path_;
        return true;
      }
      if (aborted_) return false;
      if (r >= kInf) {
        unreachable = true;
        return true;
      }
      lower = std::max(lower + 1, r);
      if (stop_below_ > 0 && lower >= stop_below_) return false;
    }
  }

  // Stop iterating once the lower bound reaches this (an upper bound found
  // elsewhere), so the caller can conclude.
  void set_stop_at(int bound) { stop_below_ = bound; }
  // A node budget for this run, on top of the options' limits.
  void set_budget(uint64_t nodes) { budget_ = nodes; }
  void clear_abort() { aborted_ = false; }
  uint64_t nodes() const { return nodes_; }
  bool limit_hit() const { return limit_hit_; }
  double seconds() const {
    return std::chrono::duration<double>(Clock::now() - start_time_).count();
  }

  // Puts the pieces on `squares` and recomputes the bounds.
  void SetSquares(const std::array<int8_t, kMaxPiecesInProblem>& squares) {
    occ_ = 0;
    key_ = Key{};
    for (int i = 0; i < p_.k; ++i) {
      sq_[i] = squares[i];
      occ_ |= SquareBit(sq_[i]);
      key_ = WithPiece(key_, i, sq_[i]);
    }
    std::vector<Partition> parts = std::move(partitions_);
    SetPartitions(std::move(parts));
  }

  // A way to finish, not necessarily shortest: weighted A* (g + 8h) over at
  // most max_nodes expansions or until the deadline. For the upper bound.
  bool WeightedSearch(uint64_t max_nodes, Clock::time_point deadline,
                      std::vector<PieceMove>& path) {
    struct Node {
      std::array<int8_t, kMaxPiecesInProblem> squares;
      int g;
      int parent;
      PieceMove move;
    };
    struct KeyHash {
      size_t operator()(const Key& k) const { return HashKey(k); }
    };
    const std::array<int8_t, kMaxPiecesInProblem> start = sq_;
    std::vector<Node> nodes = {{sq_, 0, -1, PieceMove{}}};
    std::unordered_map<Key, int, KeyHash> index = {{key_, 0}};
    using Entry = std::pair<int64_t, int>;  // (priority, node); smaller first
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> open;
    auto priority = [](int g, int h) { return int64_t(g + 8 * h) * 1024 - g; };
    open.push({priority(0, Heuristic()), 0});
    bool found = false;
    for (uint64_t expanded = 0; !open.empty() && expanded < max_nodes; ++expanded) {
      if ((expanded & 255) == 0 && Clock::now() >= deadline) break;
      const int at = open.top().second;
      open.pop();
      SetSquares(nodes[at].squares);
      if (Heuristic() == 0) {
        for (int n = at; nodes[n].parent >= 0; n = nodes[n].parent) path.push_back(nodes[n].move);
        std::reverse(path.begin(), path.end());
        found = true;
        break;
      }
      const int g = nodes[at].g;
      for (int i = 0; i < p_.k; ++i)
        ForEachMove(i, [&](Square to, bool jump) {
          const int hc = ChildHeuristic(i, to);
          if (hc >= kInf) return;
          const Key child = WithPiece(WithPiece(key_, i, sq_[i]), i, to);
          auto [it, inserted] = index.emplace(child, int(nodes.size()));
          if (!inserted) {
            if (nodes[it->second].g <= g + 1) return;
            nodes[it->second].g = g + 1;
            nodes[it->second].parent = at;
            nodes[it->second].move = PieceMove{int8_t(i), sq_[i], int8_t(to), jump};
            open.push({priority(g + 1, hc), it->second});
            return;
          }
          Node n{sq_, g + 1, at, PieceMove{int8_t(i), sq_[i], int8_t(to), jump}};
          n.squares[i] = int8_t(to);
          nodes.push_back(n);
          open.push({priority(g + 1, hc), int(nodes.size()) - 1});
        });
    }
    SetSquares(start);
    return found;
  }

  // Moves of piece i from the current state.
  template <typename F>
  void ForEachMove(int i, F&& f) const {
    const Geometry& g = *p_.g;
    const Square s = sq_[i];
    for (int d = 0; d < p_.num_step_dirs; ++d) {
      const Square t = g.neighbor(s, p_.step_dirs[d]);
      if (t != kNoSquare && !Contains(occ_, t)) f(t, false);
    }
    if (!p_.jumps) return;
    const Bitboard others = occ_ & ~SquareBit(s);
    for (Bitboard t = JumpTargets(*p_.variant, Side::kWhite, s, others, others); t;)
      f(PopLowest(t), true);
  }

  // The static lower bound after piece i moves to `to` (the current state
  // has a finite bound).
  int ChildHeuristic(int i, Square to) const {
    const int delta = int(to) - sq_[i];
    int h = 0;
    for (int q = 0; q < nq_; ++q) {
      const int gi = group_of_[q][i];
      const uint8_t v = tables_[q][gi][index_[q][gi] + delta * weight_[q][i]];
      if (v == kPdbUnreachable) return kInf;
      h = std::max(h, sums_[q] - values_[q][gi] + v);
    }
    return h;
  }

  struct Saved {
    std::array<int, 8> sums, values;
  };

  void Apply(int i, Square to, Saved& saved) {
    const Square from = sq_[i];
    const int delta = int(to) - from;
    occ_ ^= SquareBit(from) | SquareBit(to);
    key_ = WithPiece(WithPiece(key_, i, from), i, to);  // xor out, xor in
    sq_[i] = int8_t(to);
    for (int q = 0; q < nq_; ++q) {
      const int gi = group_of_[q][i];
      saved.sums[q] = sums_[q];
      saved.values[q] = values_[q][gi];
      index_[q][gi] += delta * weight_[q][i];
      const uint8_t v = tables_[q][gi][index_[q][gi]];
      const int value = v == kPdbUnreachable ? kInf : v;
      values_[q][gi] = value;
      sums_[q] = sums_[q] < kInf && saved.values[q] < kInf && value < kInf
                     ? sums_[q] - saved.values[q] + value
                     : PartitionSum(q);
    }
  }

  void Undo(int i, Square from, const Saved& saved) {
    const Square to = sq_[i];
    const int delta = int(from) - to;
    occ_ ^= SquareBit(from) | SquareBit(to);
    key_ = WithPiece(WithPiece(key_, i, to), i, from);
    sq_[i] = int8_t(from);
    for (int q = 0; q < nq_; ++q) {
      const int gi = group_of_[q][i];
      index_[q][gi] += delta * weight_[q][i];
      values_[q][gi] = saved.values[q];
      sums_[q] = saved.sums[q];
    }
  }

  std::array<int8_t, kMaxPiecesInProblem> squares() const { return sq_; }

 private:
  static Key WithPiece(Key k, int i, int s) {
    if (i < 10)
      k.a ^= uint64_t(s) << (6 * i);
    else
      k.b ^= uint64_t(s) << (6 * (i - 10));
    return k;
  }

  int PartitionSum(int q) const {
    int sum = 0;
    for (size_t gi = 0; gi < partitions_[q].groups.size(); ++gi)
      sum = std::min(kInf, sum + values_[q][gi]);
    return sum;
  }

  bool CheckLimits() {
    if (budget_ > 0 && nodes_ >= budget_) return true;
    if (options_.node_limit > 0 && nodes_ >= options_.node_limit) {
      limit_hit_ = true;
      return true;
    }
    if (options_.time_limit_seconds > 0 && (nodes_ & 1023) == 0 &&
        seconds() >= options_.time_limit_seconds) {
      limit_hit_ = true;
      return true;
    }
    return false;
  }

  struct Child {
    PieceMove move;
    int h;
  };

  // Returns a lower bound on the cost to go from the current state (more
  // than bound - g when the search below fails); sets found_ on success.
  int Search(int g, int bound, int h, int last_piece, int last_from, int parent_h) {
    ++nodes_;
    if (CheckLimits()) {
      aborted_ = true;
      return h;
    }
    int best = kInf;
    const size_t base = children_.size();
    bool goal = false;
    for (int i = 0; i < p_.k && !goal; ++i) {
      ForEachMove(i, [&](Square to, bool jump) {
        if (i == last_piece && to == last_from) {
          // Undoing the previous move leads back to the parent.
          best = std::min(best, Inc(parent_h));
          return;
        }
        const int hc = ChildHeuristic(i, to);
        const PieceMove mv{int8_t(i), sq_[i], int8_t(to), jump};
        if (hc == 0) {
          goal = true;
          path_.resize(g + 1);
          path_[g] = mv;
        }
        if (g + 1 + hc > bound) {
          best = std::min(best, Inc(hc));
          return;
        }
        children_.push_back(Child{mv, hc});
      });
    }
    if (goal) {
      children_.resize(base);
      found_ = true;
      return 0;
    }
    // Most promising first: the last iteration stops at the first solution.
    std::sort(children_.begin() + base, children_.end(),
              [](const Child& a, const Child& b) { return a.h < b.h; });
    for (size_t c = base; c < children_.size(); ++c) {
      const PieceMove mv = children_[c].move;
      Saved saved;
      Apply(mv.piece, mv.to, saved);
      const int hc = std::max(children_[c].h, bounds_.Probe(key_));
      int child = hc;
      if (g + 1 + hc <= bound) {
        child = Search(g + 1, bound, hc, mv.piece, mv.from, h);
        if (found_) {
          path_[g] = mv;
          Undo(mv.piece, mv.from, saved);
          children_.resize(base);
          return 0;
        }
      }
      Undo(mv.piece, mv.from, saved);
      if (aborted_) {
        children_.resize(base);
        return h;
      }
      best = std::min(best, Inc(child));
    }
    children_.resize(base);
    best = std::max(best, h);
    bounds_.Store(key_, best);
    return best;
  }

  const Problem& p_;
  const FinishOptions& options_;
  BoundTable bounds_;
  std::vector<Partition> partitions_;
  int nq_ = 0;
  std::array<int, 8> sums_{};
  std::array<std::array<int, 16>, 8> values_{};
  std::array<std::array<uint32_t, 16>, 8> index_{};
  std::array<std::array<const uint8_t*, 16>, 8> tables_{};
  std::array<std::array<int32_t, kMaxPiecesInProblem>, 8> weight_{};
  std::array<std::array<int8_t, kMaxPiecesInProblem>, 8> group_of_{};
  std::vector<Child> children_;
  std::array<int8_t, kMaxPiecesInProblem> sq_{};
  Bitboard occ_ = 0;
  Key key_;
  std::vector<PieceMove> path_;
  uint64_t nodes_ = 0;
  uint64_t budget_ = 0;
  int stop_below_ = 0;
  bool found_ = false;
  bool aborted_ = false;
  bool limit_hit_ = false;
  Clock::time_point start_time_;
};

}  // namespace

absl::StatusOr<Position> ClearBoard(const Position& pos, Side side) {
  std::vector<std::pair<PieceId, Square>> pieces;
  for (PieceId id = int(side) * kPiecesPerSide; id < (int(side) + 1) * kPiecesPerSide; ++id)
    if (pos.square_of(id) != kNoSquare) pieces.emplace_back(id, pos.square_of(id));
  return Position::Make(pos.variant(), pieces, side, 0);
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
  const Problem p = MakeProblem(pos, side);
  if (p.k == 0 || p.jumps) return absl::OkStatus();
  const int size =
      options.pattern_group_size < 0 ? DefaultGroupSize(p.n) : options.pattern_group_size;
  if (size <= 0) return absl::OkStatus();
  absl::StatusOr<std::vector<Partition>> parts =
      MakePartitions(p, size, DefaultOffsets(size), options.pattern_dir);
  return parts.status();
}

absl::StatusOr<FinishResult> MinMovesToFinish(const Position& pos, Side side,
                                              const FinishOptions& options) {
  const auto start = Clock::now();
  const Problem p = MakeProblem(pos, side);
  FinishResult result;
  auto finish = [&](FinishResult& r) {
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return r;
  };
  if (p.k == 0) {
    result.exact = true;
    result.lower = result.upper = 0;
    return finish(result);
  }
  // Per-piece (relaxed) distances: one partition of single pieces.
  const std::vector<Bitboard> reach = RelaxedMoves(p);
  Partition singles;
  for (int i = 0; i < p.k; ++i) {
    Group group;
    group.pieces = {i};
    group.pdb = BuildDistance(p, reach, p.target[i]);
    group.weight[0] = 1;
    singles.group_of[i] = int8_t(i);
    singles.groups.push_back(std::move(group));
  }
  // A piece that cannot reach its target even alone: seen before any
  // database is built.
  for (const Group& group : singles.groups)
    if (group.pdb->table[p.start[group.pieces[0]]] == kPdbUnreachable) {
      result.reachable = false;
      result.exact = true;
      result.lower = result.upper = kUnknownMoves;
      return finish(result);
    }
  std::vector<Partition> partitions;
  // Large databases (four pieces: 6 MB, 0.3 s each to build) are built only
  // when a first search with small ones (three pieces, milliseconds) has not
  // finished within a node budget: most counts need no more.
  int size = 0, small = 0;
  if (!p.jumps) {
    size = std::min(
        p.k, options.pattern_group_size < 0 ? DefaultGroupSize(p.n) : options.pattern_group_size);
    small = options.pattern_group_size < 0 && size > 3 ? 3 : size;
    if (small < size && options.reuse_cached_patterns) {
      // Already in memory: no reason to start small.
      absl::StatusOr<std::vector<Partition>> cached =
          MakePartitions(p, size, DefaultOffsets(size), options.pattern_dir, true);
      if (cached.ok() && !cached->empty()) {
        small = size;
        for (Partition& part : *cached) partitions.push_back(std::move(part));
      }
    }
    if (small > 1 && partitions.empty()) {
      absl::StatusOr<std::vector<Partition>> parts =
          MakePartitions(p, small, DefaultOffsets(small), options.pattern_dir);
      if (!parts.ok()) return parts.status();
      for (Partition& part : *parts) partitions.push_back(std::move(part));
    }
  }
  // Each database is at least the sum of its pieces' distances, so the
  // single pieces only count when there are no databases.
  if (partitions.empty()) partitions.push_back(std::move(singles));
  if (partitions.size() > 8) partitions.resize(8);

  // Under a limit, the exact search gets three quarters of it and a quick
  // search for a way to finish (the upper bound) the rest.
  FinishOptions exact_options = options;
  if (options.time_limit_seconds > 0) exact_options.time_limit_seconds *= 0.75;
  if (options.node_limit > 0) exact_options.node_limit = options.node_limit * 3 / 4 + 1;
  Solver solver(p, exact_options, start);
  solver.SetPartitions(std::move(partitions));
  std::vector<PieceMove> path;
  bool unreachable = false;
  int lower = 0;
  bool done;
  if (small < size) {
    solver.set_budget(100000);
    done = solver.Run(lower, path, unreachable);
    // Building the large databases takes seconds: not under a tighter limit.
    const double left = exact_options.time_limit_seconds - solver.seconds();
    if (!done && !solver.limit_hit()) {
      if (exact_options.time_limit_seconds <= 0 || left > 4.0) {
        absl::StatusOr<std::vector<Partition>> parts =
            MakePartitions(p, size, DefaultOffsets(size), options.pattern_dir);
        if (!parts.ok()) return parts.status();
        if (parts->size() > 8) parts->resize(8);
        solver.SetPartitions(std::move(*parts));
      }
      solver.set_budget(0);
      solver.clear_abort();
      done = solver.Run(lower, path, unreachable);
    }
  } else {
    done = solver.Run(lower, path, unreachable);
  }
  result.nodes = solver.nodes();
  if (unreachable) {
    result.reachable = false;
    result.exact = true;
    result.lower = result.upper = kUnknownMoves;
    return finish(result);
  }
  if (done) {
    // Every bound below the iteration's was refuted, so the path found is
    // as long as the bound; anything else would be a defect, reported as
    // bounds rather than as an exact count.
    result.exact = int(path.size()) == lower;
    result.lower = std::min(lower, int(path.size()));
    result.upper = int(path.size());
    if (options.want_solution) {
      for (const PieceMove& mv : path) {
        const Square from = p.Normal(mv.from), to = p.Normal(mv.to);
        result.solution.push_back(mv.jump ? Move::Jump(from, to) : Move::Step(from, to));
      }
    }
    return finish(result);
  }
  result.exact = false;
  result.lower = lower;
  result.upper = kUnknownMoves;
  {
    const Clock::time_point deadline =
        options.time_limit_seconds > 0
            ? start + std::chrono::duration_cast<Clock::duration>(
                          std::chrono::duration<double>(options.time_limit_seconds))
            : Clock::time_point::max();
    const uint64_t budget =
        options.node_limit > 0 ? std::max<uint64_t>(options.node_limit / 4, 1) : uint64_t(1) << 20;
    std::vector<PieceMove> way;
    if (solver.WeightedSearch(budget, deadline, way)) {
      result.upper = int(way.size());
      if (result.upper == result.lower) {
        result.exact = true;
        if (options.want_solution)
          for (const PieceMove& mv : way) {
            const Square from = p.Normal(mv.from), to = p.Normal(mv.to);
            result.solution.push_back(mv.jump ? Move::Jump(from, to) : Move::Step(from, to));
          }
      }
    }
  }
  return finish(result);
}

}  // namespace salta
