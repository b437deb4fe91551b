// libFuzzer target for move text and move lists (--moves, PlayMoves): any
// bytes must play or stop at the first illegal move with a message that is
// valid UTF-8, and the position left must print as text that reads back.
//
// The first byte picks the variant (board, rows, rules) and one of a few
// start positions (the usual start, one near the ply limit, one near the
// goal), the rest is the move list.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "absl/strings/string_view.h"
#include "fuzz_util.h"
#include "salta/game.h"
#include "salta/legality.h"
#include "salta/notation.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const salta::Variant& v = salta::fuzz::VariantOf(data[0]);
  const absl::string_view moves(reinterpret_cast<const char*>(data + 1), size - 1);
  // The usual start, an empty board at the ply limit's door (passes), and
  // White one step from home.
  const char* const starts[] = {"start", "w - 999998", "w S1a1,s1h4 7"};
  absl::StatusOr<salta::Position> pos = salta::ParsePosition(v, starts[(data[0] >> 6) % 3]);
  if (!pos.ok()) return 0;
  // One move as text, alone.
  if (absl::StatusOr<salta::Move> m = salta::ParseMove(*pos, moves); !m.ok())
    salta::fuzz::CheckMessage(m.status());
  // The list.
  const int ply = pos->ply();
  absl::Status s = salta::PlayMoves(*pos, moves);
  if (!s.ok()) salta::fuzz::CheckMessage(s);
  if (pos->ply() < ply || pos->ply() > salta::kMaxPly) abort();
  if (pos->hash() != pos->ComputeHash()) abort();
  absl::StatusOr<salta::Position> back = salta::ParsePosition(v, salta::PositionToString(*pos));
  if (!back.ok() || !(*back == *pos)) abort();
  return 0;
}
