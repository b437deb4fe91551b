#include "salta/egtb/retrograde.h"

#include <algorithm>
#include <atomic>

#include "absl/strings/str_cat.h"
#include "salta/game.h"
#include "salta/movegen.h"
#include "salta/notation.h"

namespace salta::egtb {
namespace {

// Positions a worker takes at a time: large enough to amortise the hand-out,
// small enough to balance levels with few positions.
constexpr uint64_t kGrain = 1 << 14;
// Positions scanned between two exchanges in a run of several processes.
constexpr uint64_t kRoundPositions = 1 << 21;

// Per-worker state kept on its own cache lines.
struct alignas(64) WorkerState {
  uint64_t resolved = 0;
  std::vector<std::vector<uint64_t>> remote;  // updates by owning process
  absl::Status status;
};

}  // namespace

Retrograde::Retrograde(const TableClass& cls, const Partition& partition, Cluster& cluster,
                       ThreadPool& pool)
    : cls_(cls),
      partition_(partition),
      cluster_(cluster),
      pool_(pool),
      rank_(cluster.rank()),
      values_(partition.size(rank_), kDraw),
      counts_(partition.size(rank_), 0) {}

absl::StatusOr<std::unique_ptr<Retrograde>> Retrograde::Make(const TableClass& cls,
                                                             const Partition& partition,
                                                             Cluster& cluster, ThreadPool& pool) {
  try {
    return std::unique_ptr<Retrograde>(new Retrograde(cls, partition, cluster, pool));
  } catch (const std::bad_alloc&) {
    const uint64_t bytes = partition.size(cluster.rank()) * BytesPerPosition();
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot allocate ", (bytes >> 20) + 1, " MB for the table's arrays"));
  }
}

void Retrograde::Scanned(uint64_t n, uint64_t total) {
  const uint64_t done = scanned_.fetch_add(n, std::memory_order_relaxed) + n;
  if (progress_) progress_(done, total);
}

absl::Status Retrograde::Initialize() {
  std::vector<WorkerState> workers(pool_.threads());
  scanned_ = 0;
  pool_.Run(0, values_.size(), kGrain, [&](uint64_t lo, uint64_t hi, int w) {
    Scanned(hi - lo, values_.size());
    WorkerState& ws = workers[w];
    for (uint64_t l = lo; l < hi; ++l) {
      const Position p = cls_.At(partition_.global(rank_, l));
      const GameStatus st = StatusOf(p);
      Code& value = values_[l];
      uint8_t& count = counts_[l];
      value = kDraw;
      count = 0;
      if (st.over()) {
        if (st.outcome == Outcome::kDraw) continue;
        const bool mover_won =
            (st.outcome == Outcome::kWhiteWins) == (p.side_to_move() == Side::kWhite);
        value = mover_won ? WinIn(0) : LossIn(0);
        ++ws.resolved;
        continue;
      }
      const int moves = CountLegal(p);
      if (moves > UINT8_MAX) {
        if (ws.status.ok())
          ws.status = absl::ResourceExhaustedError(
              absl::StrCat("position ", PositionToString(p), " has ", moves,
                           " legal moves; tables count at most 255 per position"));
        continue;
      }
      count = uint8_t(moves);
    }
  });
  absl::Status status;
  uint64_t resolved = 0;
  for (const WorkerState& ws : workers) {
    if (status.ok()) status = ws.status;
    resolved += ws.resolved;
  }
  resolved_ = resolved;
  level_ = 0;
  return cluster_.Agree(status);
}

bool Retrograde::Apply(uint64_t update, int level) {
  const uint64_t local = partition_.local(update >> 1);
  std::atomic_ref<Code> value(values_[local]);
  Code expected = kDraw;
  if (update & 1)  // a move to a loss: a win one ply later
    return value.compare_exchange_strong(expected, WinIn(level + 1), std::memory_order_relaxed);
  if (value.load(std::memory_order_relaxed) != kDraw) return false;
  std::atomic_ref<uint8_t> count(counts_[local]);
  if (count.fetch_sub(1, std::memory_order_relaxed) != 1) return false;
  // Every move leads to a win, the last found at this level.
  return value.compare_exchange_strong(expected, LossIn(level + 1), std::memory_order_relaxed);
}

absl::StatusOr<bool> Retrograde::Step() {
  const int level = level_;
  if (level + 1 > kMaxPlies)
    return cluster_.Agree(absl::ResourceExhaustedError(
        absl::StrCat("a distance above ", kMaxPlies, " plies does not fit the table's codes")));
  const Code win = WinIn(level), loss = LossIn(level);
  const int me = cluster_.rank(), processes = cluster_.size();
  std::vector<WorkerState> workers(pool_.threads());
  for (WorkerState& ws : workers) ws.remote.resize(processes);

  auto scan = [&](uint64_t lo, uint64_t hi, int w) {
    Scanned(hi - lo, values_.size());
    WorkerState& ws = workers[w];
    MoveList unmoves;
    for (uint64_t l = lo; l < hi; ++l) {
      // Other workers may resolve this slot for the next level meanwhile.
      const Code c = std::atomic_ref<Code>(values_[l]).load(std::memory_order_relaxed);
      if (c != win && c != loss) continue;
      const uint64_t kind = c == loss;  // parents of a loss win
      const Position p = cls_.At(partition_.global(rank_, l));
      // The squares by slot: predecessors are numbered before they are made,
      // and one already resolved needs neither making nor the legality test.
      int8_t squares[PlacementIndex::kMaxPieces];
      for (int s = 0; s < cls_.num_pieces(); ++s) squares[s] = int8_t(p.square_of(cls_.piece(s)));
      const Side before = Opponent(p.side_to_move());
      GenerateUnmoves(p, unmoves);
      for (const Move& m : unmoves) {
        uint64_t j;
        if (m.is_pass()) {
          j = cls_.Index(squares, before);
        } else {
          const int s = cls_.slot(p.piece_on(m.to));
          squares[s] = int8_t(m.from);
          j = cls_.Index(squares, before);
          squares[s] = int8_t(m.to);
        }
        const int owner = partition_.owner(j);
        if (owner == me &&
            std::atomic_ref<Code>(values_[partition_.local(j)]).load(std::memory_order_relaxed) !=
                kDraw)
          continue;
        Position q = p;
        q.Unplay(m);
        if (q.over() || !IsLegal(q, m)) continue;
        const uint64_t update = j << 1 | kind;
        if (owner == me)
          ws.resolved += Apply(update, level);
        else
          ws.remote[owner].push_back(update);
      }
    }
  };

  // With several processes the positions are scanned in rounds, the same
  // number on every process, each followed by an exchange of the updates for
  // positions others own: the buffers stay bounded whatever the level.
  uint64_t largest = 0;
  for (int r = 0; r < processes; ++r) largest = std::max(largest, partition_.size(r));
  const uint64_t round = processes == 1 ? std::max<uint64_t>(largest, 1) : kRoundPositions;
  const uint64_t rounds = std::max<uint64_t>(1, (largest + round - 1) / round);
  scanned_ = 0;
  for (uint64_t k = 0; k < rounds; ++k) {
    const uint64_t lo = std::min<uint64_t>(values_.size(), k * round);
    const uint64_t hi = std::min<uint64_t>(values_.size(), lo + round);
    pool_.Run(lo, hi, kGrain, scan);
    if (processes == 1) continue;
    std::vector<std::vector<uint64_t>> out(processes);
    for (WorkerState& ws : workers)
      for (int r = 0; r < processes; ++r) {
        out[r].insert(out[r].end(), ws.remote[r].begin(), ws.remote[r].end());
        ws.remote[r].clear();
      }
    std::vector<uint64_t> in;
    if (absl::Status s = cluster_.AllToAll(out, in); !s.ok()) return s;
    pool_.Run(0, in.size(), kGrain, [&](uint64_t a, uint64_t b, int w) {
      for (uint64_t u = a; u < b; ++u) workers[w].resolved += Apply(in[u], level);
    });
  }

  uint64_t found = 0;
  for (const WorkerState& ws : workers) found += ws.resolved;
  resolved_ += found;
  uint64_t total = found;
  if (absl::Status s = cluster_.SumAll(std::span(&total, 1)); !s.ok()) return s;
  last_new_ = total;
  ++level_;
  return total > 0;
}

}  // namespace salta::egtb
