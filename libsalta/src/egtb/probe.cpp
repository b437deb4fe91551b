#include "salta/egtb/probe.h"

#include "absl/strings/str_cat.h"
#include "salta/movegen.h"

namespace salta::egtb {
namespace {

// The code a move's position must have for the move to keep code c.
bool Keeps(Code c, Code child) {
  if (c == kDraw) return child == kDraw;
  const int n = PliesOf(c);
  return IsWin(c) ? child == LossIn(n - 1) : child == WinIn(n - 1);
}

absl::Status BestMoves(const EndgameTable& table, const Position& pos, Code c,
                       std::vector<Move>& best) {
  best.clear();
  MoveList moves;
  GenerateLegal(pos, moves);
  for (const Move& m : moves) {
    Position child = pos;
    child.Make(m);
    absl::StatusOr<Code> cc = ProbeCode(table, child);
    if (!cc.ok()) return cc.status();
    if (Keeps(c, *cc)) best.push_back(m);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Code> ProbeCode(const EndgameTable& table, const Position& pos) {
  return table.Get(table.cls().Index(pos));
}

absl::StatusOr<ProbeResult> Probe(const EndgameTable& table, const Position& pos, bool line) {
  const TableClass& cls = table.cls();
  if (&pos.variant() != &cls.variant())
    return absl::InvalidArgumentError(absl::StrCat(
        "the position is of another variant (", pos.variant().geometry().ToString(), ", ",
        pos.variant().rules().ToString(), "); the table's class is ", cls.ToString()));
  absl::StatusOr<uint64_t> index = cls.IndexOf(pos);
  if (!index.ok()) return index.status();
  ProbeResult r;
  absl::StatusOr<Code> c = table.Get(*index);
  if (!c.ok()) return c.status();
  r.code = *c;
  if (absl::Status s = BestMoves(table, pos, r.code, r.best_moves); !s.ok()) return s;
  if (line && r.code != kDraw) {
    Position at = pos;
    Code code = r.code;
    std::vector<Move> best = r.best_moves;
    while (PliesOf(code) > 0) {
      if (best.empty())
        return absl::DataLossError(
            absl::StrCat("the table is inconsistent: no move keeps the value at ply ",
                         r.line.size() + 1, " of the line"));
      const Move m = best[0];
      r.line.push_back(m);
      at.Make(m);
      code = IsWin(code) ? LossIn(PliesOf(code) - 1) : WinIn(PliesOf(code) - 1);
      if (absl::Status s = BestMoves(table, at, code, best); !s.ok()) return s;
    }
  }
  return r;
}

}  // namespace salta::egtb
