#include "salta/perft.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <new>
#include <system_error>
#include <thread>

#include "absl/strings/str_cat.h"
#include "salta/movegen.h"

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
  if (depth == 1) return CountLegal(pos);
  if (depth == 0) return 1;
  // Bulk counting: the last ply is counted, not played.
  if (depth == 2) return CountLegalTwoPly(pos);
  uint64_t nodes = 0;
  if (table && table->Probe(pos, depth, nodes)) return nodes;
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

// A unit of parallel work: a position a few plies below the root.
struct Task {
  Position pos;
  int root;   // index of the root move it descends from
  int depth;  // plies left to count
};

void Expand(Position& pos, int root, int plies, int depth, std::vector<Task>& tasks) {
  if (plies == 0 || depth <= 1) {
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

absl::StatusOr<PerftResult> Perft(const Position& root, int depth, const PerftOptions& options) {
  if (depth < 0 || depth > kMaxPerftDepth)
    return absl::InvalidArgumentError(
        absl::StrCat("depth ", depth, " is out of range: use 0 to ", kMaxPerftDepth));
  if (options.threads < 0)
    return absl::InvalidArgumentError(
        absl::StrCat("thread count ", options.threads, " is negative"));
  if (options.hash_mb < 0 || options.hash_mb > (1 << 20))
    return absl::InvalidArgumentError(
        absl::StrCat("hash size ", options.hash_mb, " MB is out of range: use 0 to 1048576"));
  PerftResult result;
  Position pos = root;
  MoveList moves;
  GenerateLegal(pos, moves);
  if (depth == 0) {
    result.nodes = 1;
    return result;
  }
  std::unique_ptr<PerftTable> table;
  if (options.hash_mb > 0) {
    // More than the machine has is refused before any allocation, so that an
    // overcommitting system does not hand out memory it cannot back.
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    const uint64_t machine_mb =
        pages > 0 && page > 0 ? (uint64_t(pages) * uint64_t(page)) >> 20 : 0;
    if (machine_mb > 0 && uint64_t(options.hash_mb) > machine_mb)
      return absl::ResourceExhaustedError(absl::StrCat("cannot allocate ", options.hash_mb,
                                                       " MB for the hash table: the machine has ",
                                                       machine_mb, " MB"));
    if (!(table = PerftTable::Make(options.hash_mb)))
      return absl::ResourceExhaustedError(absl::StrCat("cannot allocate ", options.hash_mb,
                                                       " MB for the hash table (out of memory)"));
  }

  // Split a few plies deep so that threads share the work evenly.
  const int threads =
      options.threads > 0 ? options.threads : std::max(1, int(std::thread::hardware_concurrency()));
  const int split = threads == 1 ? 1 : depth >= 6 ? 3 : 2;
  std::vector<Task> tasks;
  for (int i = 0; i < moves.size(); ++i) {
    const Position::Undo undo = pos.Make(moves[i]);
    Expand(pos, i, split - 1, depth - 1, tasks);
    pos.Unmake(moves[i], undo);
  }
  std::vector<std::atomic<uint64_t>> per_root(moves.size());
  std::atomic<size_t> next{0}, done{0};
  auto worker = [&] {
    for (size_t t; (t = next.fetch_add(1)) < tasks.size();) {
      Task& task = tasks[t];
      per_root[task.root] += Search(task.pos, task.depth, table.get());
      const size_t d = done.fetch_add(1) + 1;
      if (options.progress) options.progress(double(d) / double(tasks.size()));
    }
  };
  std::vector<std::thread> pool;
  // Threads that cannot be started leave the work to the others.
  try {
    for (int i = 1; i < threads; ++i) pool.emplace_back(worker);
  } catch (const std::system_error&) {
  }
  worker();
  for (std::thread& t : pool) t.join();

  for (int i = 0; i < moves.size(); ++i) {
    const uint64_t n = per_root[i].load();
    result.nodes += n;
    if (options.divide) result.divide.emplace_back(moves[i], n);
  }
  return result;
}

}  // namespace salta
