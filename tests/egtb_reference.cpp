#include "egtb_reference.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"

namespace salta::egtb_reference {
namespace {

namespace ref = reference;

// Runs fn(i) for every i in [0, n) on a few plain threads.
template <typename Fn>
void ForEachIndex(uint64_t n, const Fn& fn) {
  const int threads = int(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
  std::atomic<uint64_t> next{0};
  auto work = [&] {
    for (;;) {
      const uint64_t lo = next.fetch_add(256);
      if (lo >= n) return;
      for (uint64_t i = lo; i < std::min(n, lo + 256); ++i) fn(i);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

}  // namespace

std::string CodeName(Code c) {
  if (c == egtb::kDraw) return "draw";
  return absl::StrCat(c & 1 ? "win" : "loss", " in ", (c - 1) / 2);
}

ref::RefPosition PlainTable::Position(uint64_t i) const {
  ref::RefPosition pos;
  pos.size = cls_.size;
  pos.rows = cls_.rows;
  pos.rules = cls_.rules;
  pos.side_to_move = Side(side_[i]);
  pos.ply = 0;
  const size_t k = cls_.pieces.size();
  for (size_t j = 0; j < k; ++j) {
    const ref::Coord c = ref::CoordOf(cls_.size, placement_[i * k + j]);
    pos.board[c.file][c.rank] = cls_.pieces[j];
  }
  return pos;
}

int64_t PlainTable::Find(const ref::RefPosition& pos) const {
  if (pos.size != cls_.size) return -1;
  // Where each of the class's pieces stands, and nothing else on the board.
  std::vector<int> square(cls_.pieces.size(), -1);
  for (int f = 0; f < pos.size; ++f)
    for (int r = 0; r < pos.size; ++r) {
      const PieceId p = pos.board[f][r];
      if (p == kNoPiece) continue;
      const auto it = std::find(cls_.pieces.begin(), cls_.pieces.end(), p);
      if (it == cls_.pieces.end() || !pos.Dark(f, r)) return -1;
      const size_t j = size_t(it - cls_.pieces.begin());
      if (square[j] != -1) return -1;
      square[j] = ref::SquareIndex(pos.size, ref::Coord{f, r});
    }
  uint64_t key = 0;
  for (int s : square) {
    if (s < 0) return -1;
    key = key * uint64_t(squares_) + uint64_t(s);
  }
  return by_key_[key * 2 + uint64_t(pos.side_to_move)];
}

absl::StatusOr<PlainTable> PlainTable::Solve(const PlainClass& cls) {
  PlainTable t;
  t.cls_ = cls;
  t.squares_ = cls.size * cls.size / 2;
  const size_t k = cls.pieces.size();
  for (PieceId p : cls.pieces)
    if (!ref::PieceExists(cls.size, cls.rows, p))
      return absl::InvalidArgumentError(absl::StrCat("piece ", p, " is not on this board"));

  // Every placement: an odometer over the squares, the last piece's digit
  // turning fastest; placements with two pieces on one square are skipped.
  uint64_t keys = 1;
  for (size_t j = 0; j < k; ++j) keys *= uint64_t(t.squares_);
  t.by_key_.assign(keys * 2, -1);
  std::vector<int> digit(k, 0);
  for (uint64_t key = 0; key < keys; ++key) {
    bool distinct = true;
    for (size_t a = 0; a < k && distinct; ++a)
      for (size_t b = a + 1; b < k; ++b)
        if (digit[a] == digit[b]) distinct = false;
    if (distinct) {
      for (int side = 0; side < 2; ++side) {
        t.by_key_[key * 2 + side] = int64_t(t.side_.size());
        for (size_t j = 0; j < k; ++j) t.placement_.push_back(int8_t(digit[j]));
        t.side_.push_back(uint8_t(side));
      }
    }
    for (size_t j = k; j-- > 0;) {
      if (++digit[j] < t.squares_) break;
      digit[j] = 0;
    }
  }
  const uint64_t n = t.side_.size();

  // The game graph: terminal values from the outcome, edges from the legal moves.
  t.values_.assign(n, egtb::kDraw);
  t.terminal_.assign(n, 0);
  t.both_completed_.assign(n, 0);
  std::vector<std::vector<uint32_t>> edges(n);
  std::mutex mutex;
  absl::Status error;
  ForEachIndex(n, [&](uint64_t i) {
    const ref::RefPosition pos = t.Position(i);
    const ref::RefStatus st = ref::StatusOf(pos);
    if (st.over()) {
      t.terminal_[i] = 1;
      const bool white = pos.side_to_move == Side::kWhite;
      if (ref::Completed(pos, Side::kWhite) && ref::Completed(pos, Side::kBlack)) {
        // Both goals completed: a draw (docs/salta-egtb.md, "a game drawn by
        // both goals is a draw"). The reference's StatusOf reads a history
        // into the placements no game reaches (Black to move, or no extra
        // move): checked below to have no predecessor, so their convention
        // decides nothing else.
        t.values_[i] = egtb::kDraw;
        t.both_completed_[i] = st.outcome != ref::RefOutcome::kDraw;
        return;
      }
      switch (st.outcome) {
        case ref::RefOutcome::kDraw:
          t.values_[i] = egtb::kDraw;
          break;
        case ref::RefOutcome::kWhiteWins:
          t.values_[i] = white ? egtb::WinIn(0) : egtb::LossIn(0);
          break;
        case ref::RefOutcome::kBlackWins:
          t.values_[i] = white ? egtb::LossIn(0) : egtb::WinIn(0);
          break;
        default: {
          std::lock_guard<std::mutex> lock(mutex);
          error = absl::InternalError(absl::StrCat("no outcome for ", ref::ToString(pos)));
        }
      }
      return;
    }
    const std::vector<ref::RefMove> moves = ref::LegalMoves(pos);
    if (moves.empty()) {
      std::lock_guard<std::mutex> lock(mutex);
      error = absl::InternalError(absl::StrCat("in play with no move: ", ref::ToString(pos)));
      return;
    }
    for (const ref::RefMove& m : moves) {
      ref::RefPosition child = pos;
      ref::Play(child, m);
      child.ply = 0;
      const int64_t c = t.Find(child);
      if (c < 0) {
        std::lock_guard<std::mutex> lock(mutex);
        error = absl::InternalError(
            absl::StrCat("a move out of the class: ", ref::ToString(pos), " ", ref::MoveName(m)));
        return;
      }
      edges[i].push_back(uint32_t(c));
    }
  });
  if (!error.ok()) return error;
  for (uint64_t i = 0; i < n; ++i)
    for (uint32_t c : edges[i])
      if (t.both_completed_[c])
        return absl::InternalError(absl::StrCat(
            "a move reaches a position where both goals are completed that the reference does "
            "not score as a draw: ",
            ref::ToString(t.Position(i)), " to ", ref::ToString(t.Position(c))));
  t.first_child_.assign(n + 1, 0);
  for (uint64_t i = 0; i < n; ++i) t.first_child_[i + 1] = t.first_child_[i] + edges[i].size();
  t.children_.reserve(t.first_child_[n]);
  for (uint64_t i = 0; i < n; ++i) {
    t.children_.insert(t.children_.end(), edges[i].begin(), edges[i].end());
    std::vector<uint32_t>().swap(edges[i]);
  }

  // Value iteration: each sweep derives every position from the previous
  // sweep's values, until a sweep changes nothing.
  for (;;) {
    std::vector<Code> next(n);
    std::atomic<bool> changed{false};
    ForEachIndex(n, [&](uint64_t i) {
      next[i] = t.Derive(i, t.values_);
      if (next[i] != t.values_[i]) changed = true;
    });
    ++t.sweeps_;
    t.values_ = std::move(next);
    if (!changed) break;
    if (t.sweeps_ > 100000) return absl::InternalError("value iteration does not converge");
  }
  return t;
}

Code PlainTable::Derive(uint64_t i, std::span<const Code> values) const {
  if (terminal_[i]) return values_[i];  // set once from the outcome, never changed
  int fastest_win = -1, longest_loss = -1;
  bool all_wins = true;
  for (uint32_t c : children(i)) {
    const Code v = values[c];
    if (v == egtb::kDraw) {
      all_wins = false;
    } else if (v & 1) {
      longest_loss = std::max(longest_loss, (v - 1) / 2);
    } else {
      const int plies = (v - 1) / 2;
      if (fastest_win < 0 || plies < fastest_win) fastest_win = plies;
    }
  }
  if (fastest_win >= 0) return egtb::WinIn(fastest_win + 1);
  if (all_wins && !children(i).empty()) return egtb::LossIn(longest_loss + 1);
  return egtb::kDraw;
}

PlainTally PlainTable::Tally() const {
  PlainTally t;
  for (Code c : values_) {
    ++t.positions;
    if (c == egtb::kDraw) {
      ++t.draws;
    } else if (c & 1) {
      ++t.wins;
      t.longest_win = std::max(t.longest_win, (c - 1) / 2);
    } else {
      ++t.losses;
    }
  }
  return t;
}

}  // namespace salta::egtb_reference
