#include "salta/egtb/verify.h"

#include <atomic>
#include <mutex>
#include <vector>

#include "absl/strings/str_cat.h"
#include "salta/egtb/storage.h"
#include "salta/game.h"
#include "salta/movegen.h"
#include "salta/notation.h"

namespace salta::egtb {
namespace {

// The code a position must have, given its successors' codes.
Code Derive(const TableClass& cls, const Position& p, std::span<const Code> values) {
  const GameStatus st = StatusOf(p);
  if (st.over()) {
    if (st.outcome == Outcome::kDraw) return kDraw;
    const bool mover_won =
        (st.outcome == Outcome::kWhiteWins) == (p.side_to_move() == Side::kWhite);
    return mover_won ? WinIn(0) : LossIn(0);
  }
  MoveList moves;
  GenerateLegal(p, moves);
  int fastest_win = -1, longest_loss = -1;
  bool all_win = true;
  for (const Move& m : moves) {
    Position child = p;
    child.Make(m);
    const Code c = values[cls.Index(child)];
    if (IsLoss(c)) {
      if (fastest_win < 0 || PliesOf(c) < fastest_win) fastest_win = PliesOf(c);
    } else if (IsWin(c)) {
      longest_loss = std::max(longest_loss, PliesOf(c));
    } else {
      all_win = false;
    }
  }
  if (fastest_win >= 0) return WinIn(fastest_win + 1);
  if (all_win && !moves.empty()) return LossIn(longest_loss + 1);
  return kDraw;
}

std::string CodeText(Code c) {
  return c == kDraw ? "draw" : absl::StrCat(WdlName(WdlOf(c)), " in ", PliesOf(c));
}

}  // namespace

absl::StatusOr<VerifyReport> Verify(const std::string& dir, ThreadPool& pool,
                                    const std::function<void(double)>& progress) {
  VerifyReport report;
  // Not a table, a foreign one or an unfinished build are errors; damage
  // anywhere else is the report's.
  absl::StatusOr<TableMeta> meta = Table::ReadMeta(dir);
  if (!meta.ok()) {
    if (meta.status().code() == absl::StatusCode::kNotFound ||
        meta.status().code() == absl::StatusCode::kFailedPrecondition)
      return meta.status();
    report.problem = std::string(meta.status().message());
    return report;
  }
  if (absl::StatusOr<TableClass> cls = EndgameTable::ClassOf(*meta); !cls.ok())
    return absl::Status(cls.status().code(), absl::StrCat(dir, ": ", cls.status().message()));
  absl::StatusOr<std::unique_ptr<EndgameTable>> opened = EndgameTable::Open(dir, false);
  if (!opened.ok()) {
    if (opened.status().code() == absl::StatusCode::kFailedPrecondition) return opened.status();
    report.problem = std::string(opened.status().message());
    return report;
  }
  const EndgameTable& table = **opened;
  const TableClass& cls = table.cls();
  report.positions = cls.size();

  std::vector<Code> values;
  try {
    values.resize(cls.size());
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "cannot allocate ", (cls.size() * sizeof(Code) >> 20) + 1, " MB to verify the table"));
  }
  auto fail = [&](std::optional<uint64_t> at, std::string problem) {
    report.first_bad = at;
    if (at) report.first_bad_position = PositionToString(cls.At(*at));
    report.problem = std::move(problem);
    return report;
  };
  if (absl::Status s = table.ReadAll(values, pool); !s.ok())
    return fail(DamagedIndex(s), std::string(s.message()));
  if (absl::Status s = table.CheckEntries(); !s.ok())
    return fail(std::nullopt, std::string(s.message()));
  const Tally tally = TallyOf(0, values, pool);
  if (!(tally == table.tally()))
    return fail(std::nullopt,
                absl::StrCat("the values do not match the table's info entry (checksum ",
                             absl::Hex(tally.checksum, absl::kZeroPad16), " against ",
                             absl::Hex(table.tally().checksum, absl::kZeroPad16), ")"));

  std::atomic<uint64_t> first_bad{UINT64_MAX}, done{0};
  pool.Run(0, cls.size(), 1 << 14, [&](uint64_t lo, uint64_t hi, int) {
    for (uint64_t i = lo; i < hi && i < first_bad.load(std::memory_order_relaxed); ++i) {
      if (Derive(cls, cls.At(i), values) == values[i]) continue;
      uint64_t seen = first_bad.load();
      while (i < seen && !first_bad.compare_exchange_weak(seen, i)) {
      }
      break;
    }
    const uint64_t d = done.fetch_add(hi - lo) + hi - lo;
    if (progress) progress(double(d) / double(cls.size()));
  });
  if (first_bad != UINT64_MAX) {
    const uint64_t i = first_bad;
    return fail(i, absl::StrCat("the table says ", CodeText(values[i]), "; its successors say ",
                                CodeText(Derive(cls, cls.At(i), values))));
  }
  report.ok = true;
  return report;
}

}  // namespace salta::egtb
