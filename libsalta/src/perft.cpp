#include "salta/perft.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <new>

#include "absl/strings/str_cat.h"
#include "machine.h"
#include "salta/movegen.h"
#include "salta/parallel.h"

namespace salta {
namespace {

// A lockless shared table. Each entry keeps both occupancy boards exactly and
// a 64-bit hash of the piece identities, so a false hit needs a 64-bit hash
// collision between positions with the same occupancy. The hash word is
// stored xor-ed with the others, so an entry torn by two writers fails the
// check instead of answering.
class PerftTable {
 public:
  // The largest power-of-two table within `mb` MB; nullptr when that memory
  // cannot be had.
  static std::unique_ptr<PerftTable> Make(int mb) {
    const size_t bytes = size_t(mb) << 20;
    size_t n = 1;
    while (n * 2 * sizeof(Entry) <= bytes) n *= 2;
    std::unique_ptr<Entry[]> entries(new (std::nothrow) Entry[n]);
    if (!entries) return nullptr;
    return std::unique_ptr<PerftTable>(new PerftTable(std::move(entries), n - 1));
  }

  bool Probe(const Position& pos, int depth, uint64_t& nodes) const {
    const Key k = KeyOf(pos, depth);
    const Entry& e = entries_[k.hash & mask_];
    const uint64_t w0 = e.w[0].load(std::memory_order_relaxed);
    const uint64_t w1 = e.w[1].load(std::memory_order_relaxed);
    const uint64_t w2 = e.w[2].load(std::memory_order_relaxed);
    const uint64_t w3 = e.w[3].load(std::memory_order_relaxed);
    if (w0 != k.w0 || w1 != k.w1 || (w2 ^ w0 ^ w1 ^ w3) != k.hash) return false;
    nodes = w3;
    return true;
  }

  void Store(const Position& pos, int depth, uint64_t nodes) {
    const Key k = KeyOf(pos, depth);
    Entry& e = entries_[k.hash & mask_];
    e.w[0].store(k.w0, std::memory_order_relaxed);
    e.w[1].store(k.w1, std::memory_order_relaxed);
    e.w[2].store(k.hash ^ k.w0 ^ k.w1 ^ nodes, std::memory_order_relaxed);
    e.w[3].store(nodes, std::memory_order_relaxed);
  }

 private:
  struct Entry {
    std::atomic<uint64_t> w[4] = {};
  };
  struct Key {
    uint64_t w0, w1, hash;
  };
  static Key KeyOf(const Position& pos, int depth) {
    // Boards have at most 50 squares: the top bits carry depth, side and phase.
    const uint64_t w0 = pos.pieces(Side::kWhite) | uint64_t(depth) << 50 |
                        uint64_t(pos.side_to_move()) << 57 | uint64_t(pos.phase()) << 58;
    const uint64_t w1 = pos.pieces(Side::kBlack);
    uint64_t hash = pos.hash() ^ (uint64_t(depth) * 0x9E3779B97F4A7C15ull);
    // The ply matters only where a move limit will end the game.
    if (pos.variant().limit_ply() > 0) hash ^= uint64_t(pos.ply() + 1) * 0xD6E8FEB86659FD93ull;
    return {w0, w1, hash};
  }
  PerftTable(std::unique_ptr<Entry[]> entries, size_t mask)
      : entries_(std::move(entries)), mask_(mask) {}

  std::unique_ptr<Entry[]> entries_;
  size_t mask_;
};

uint64_t Search(Position& pos, int depth, PerftTable* table) {
  if (depth <= 2) return depth == 2 ? CountLegalTwoPly(pos) : depth == 1 ? CountLegal(pos) : 1;
  uint64_t nodes = 0;
  if (table && table->Probe(pos, depth, nodes)) return nodes;
  // Bulk counting: the last three plies are counted from the boards.
  if (depth == 3) {
    nodes = CountLegalThreePly(pos);
    if (table) table->Store(pos, depth, nodes);
    return nodes;
  }
  MoveList moves;
  GenerateLegal(pos, moves);
  for (const Move& m : moves) {
    const Position::Undo undo = pos.Make(m);
    nodes += Search(pos, depth - 1, table);
    pos.Unmake(m, undo);
  }
  if (table) table->Store(pos, depth, nodes);
  return nodes;
}

}  // namespace

uint64_t PerftPlain(Position& pos, int depth) {
  if (depth == 0) return 1;
  MoveList moves;
  GenerateLegal(pos, moves);
  uint64_t nodes = 0;
  for (const Move& m : moves) {
    const Position::Undo undo = pos.Make(m);
    nodes += PerftPlain(pos, depth - 1);
    pos.Unmake(m, undo);
  }
  return nodes;
}

namespace {

absl::Status CheckDepth(const Position& root, int depth) {
  if (depth < 0 || depth > kMaxPerftDepth)
    return absl::InvalidArgumentError(
        absl::StrCat("depth ", depth, " is out of range: use 0 to ", kMaxPerftDepth));
  // No move is played past the ply limit (position.h), so no sequence
  // that would pass it is counted.
  if (depth > kMaxPly - root.ply())
    return absl::InvalidArgumentError(absl::StrCat(
        "depth ", depth, " from ply ", root.ply(), " passes the ply limit: a game has at most ",
        kMaxPly, " plies (half-moves), so use at most depth ", kMaxPly - root.ply()));
  return absl::OkStatus();
}

absl::Status CheckOptions(const PerftOptions& options) {
  if (absl::Status s = ThreadPool::CheckThreads(options.threads); !s.ok()) return s;
  if (options.hash_mb < 0 || options.hash_mb > (1 << 20))
    return absl::InvalidArgumentError(
        absl::StrCat("hash size ", options.hash_mb, " MB is out of range: use 0 to 1048576"));
  return absl::OkStatus();
}

void Expand(Position& pos, int root, int plies, int depth, std::vector<PerftTask>& tasks) {
  if (plies == 0 || depth == 0) {
    tasks.push_back({pos, root, depth});
    return;
  }
  MoveList moves;
  GenerateLegal(pos, moves);
  for (const Move& m : moves) {
    const Position::Undo undo = pos.Make(m);
    Expand(pos, root, plies - 1, depth - 1, tasks);
    pos.Unmake(m, undo);
  }
}

}  // namespace

int DefaultPerftSplit(int depth) {
  // About 10^split tasks from the start of the 10x10 game: enough to keep
  // dozens of threads busy, few enough that listing them costs nothing.
  return depth >= 8 ? 3 : depth >= 5 ? 2 : 1;
}

absl::StatusOr<PerftPlan> PlanPerft(const Position& root, int depth, int split) {
  if (absl::Status s = CheckDepth(root, depth); !s.ok()) return s;
  if (split < 0 || split > kMaxPerftDepth)
    return absl::InvalidArgumentError(absl::StrCat("split ", split, " is out of range: use 1 to ",
                                                   kMaxPerftDepth, ", or 0 for the default"));
  PerftPlan plan;
  plan.depth = depth;
  plan.split = std::min(split > 0 ? split : DefaultPerftSplit(depth), std::max(depth, 1));
  Position pos = root;
  // At depth 0 the root alone is counted: no move is made, so none divides.
  if (depth == 0) {
    plan.tasks.push_back({pos, -1, 0});
    return plan;
  }
  MoveList moves;
  GenerateLegal(pos, moves);
  plan.root_moves.assign(moves.begin(), moves.end());
  for (int i = 0; i < moves.size(); ++i) {
    const Position::Undo undo = pos.Make(moves[i]);
    Expand(pos, i, plan.split - 1, depth - 1, plan.tasks);
    pos.Unmake(moves[i], undo);
  }
  return plan;
}

absl::StatusOr<PerftResult> CountPerftShare(const PerftPlan& plan, const PerftShare& share,
                                            const PerftOptions& options) {
  if (absl::Status s = CheckOptions(options); !s.ok()) return s;
  if (share.parts < 1 || share.part < 0 || share.part >= share.parts)
    return absl::InvalidArgumentError(absl::StrCat("share part ", share.part, " of ", share.parts,
                                                   " is out of range: use 0 to parts-1"));
  // The share's tasks, in plan order.
  std::vector<uint32_t> mine;
  const uint64_t end = std::min<uint64_t>(share.end, plan.tasks.size());
  for (uint64_t i = share.begin; i < end; ++i)
    if (i % uint64_t(share.parts) == uint64_t(share.part)) mine.push_back(uint32_t(i));

  std::unique_ptr<PerftTable> table;
  if (options.hash_mb > 0 && !mine.empty()) {
    // More than the machine has is refused before any allocation, so that an
    // overcommitting system does not hand out memory it cannot back.
    const uint64_t machine_mb = MachineMemory() >> 20;
    if (machine_mb > 0 && uint64_t(options.hash_mb) > machine_mb)
      return absl::ResourceExhaustedError(absl::StrCat("cannot allocate ", options.hash_mb,
                                                       " MB for the hash table: the machine has ",
                                                       machine_mb, " MB"));
    if (!(table = PerftTable::Make(options.hash_mb)))
      return absl::ResourceExhaustedError(absl::StrCat("cannot allocate ", options.hash_mb,
                                                       " MB for the hash table (out of memory)"));
  }
  const int threads = std::max<int>(
      1,
      std::min<size_t>(options.threads > 0 ? options.threads : ThreadPool::Cores(), mine.size()));
  absl::StatusOr<std::unique_ptr<ThreadPool>> pool = ThreadPool::Make(threads);
  if (!pool.ok()) return pool.status();

  // Each task adds to its root move's count once, when it is done; a worker
  // counts on its own copy of the task's position (on its own stack), so no
  // two workers ever write to the same cache line while they count.
  std::vector<std::atomic<uint64_t>> per_root(plan.root_moves.size());
  std::atomic<uint64_t> root_nodes{0};
  std::atomic<size_t> done{0};
  (*pool)->Run(0, mine.size(), 1, [&](uint64_t lo, uint64_t hi, int) {
    for (uint64_t i = lo; i < hi; ++i) {
      const PerftTask& task = plan.tasks[mine[i]];
      Position pos = task.pos;
      const uint64_t n = Search(pos, task.depth, table.get());
      (task.root >= 0 ? per_root[task.root] : root_nodes).fetch_add(n, std::memory_order_relaxed);
      const size_t d = done.fetch_add(1, std::memory_order_relaxed) + 1;
      if (options.progress) options.progress(double(d) / double(mine.size()));
    }
  });

  PerftResult result;
  result.nodes = root_nodes.load();
  for (size_t i = 0; i < plan.root_moves.size(); ++i) {
    const uint64_t n = per_root[i].load();
    result.nodes += n;
    result.divide.emplace_back(plan.root_moves[i], n);
  }
  return result;
}

absl::StatusOr<PerftResult> Perft(const Position& root, int depth, const PerftOptions& options) {
  if (absl::Status s = CheckDepth(root, depth); !s.ok()) return s;
  if (absl::Status s = CheckOptions(options); !s.ok()) return s;
  // One thread gains nothing from a deeper split.
  const int split = options.threads == 1 ? 1 : DefaultPerftSplit(depth);
  absl::StatusOr<PerftPlan> plan = PlanPerft(root, depth, split);
  if (!plan.ok()) return plan.status();
  absl::StatusOr<PerftResult> result = CountPerftShare(*plan, PerftShare{}, options);
  if (result.ok() && !options.divide) result->divide.clear();
  return result;
}

absl::StatusOr<PerftResult> Perft(const Position& root, int depth, const PerftOptions& options,
                                  Cluster& cluster) {
  if (cluster.size() == 1) return Perft(root, depth, options);
  // The split depends on the depth alone, so every process makes the same plan.
  absl::StatusOr<PerftPlan> plan = PlanPerft(root, depth, DefaultPerftSplit(depth));
  if (absl::Status s = cluster.Agree(plan.status()); !s.ok()) return s;
  const PerftShare share{.part = cluster.rank(), .parts = cluster.size()};
  absl::StatusOr<PerftResult> result = CountPerftShare(*plan, share, options);
  if (absl::Status s = cluster.Agree(result.status()); !s.ok()) return s;
  // The total, then the count under each root move, summed over the shares.
  std::vector<uint64_t> sums = {result->nodes};
  for (const auto& [move, n] : result->divide) sums.push_back(n);
  if (absl::Status s = cluster.SumAll(sums); !s.ok()) return s;
  result->nodes = sums[0];
  for (size_t i = 0; i < result->divide.size(); ++i) result->divide[i].second = sums[i + 1];
  if (!options.divide) result->divide.clear();
  return result;
}

}  // namespace salta
