// libFuzzer target for the position text (docs/notation.md): any bytes must
// parse or be refused with a message that is valid UTF-8; a position that
// parses must print as text that reads back as the same position, and each
// of its legal moves must print as text that reads back as that move.
//
// The first byte picks the variant (board, rows, rules), the rest is the text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "absl/strings/string_view.h"
#include "fuzz_util.h"
#include "salta/legality.h"
#include "salta/movegen.h"
#include "salta/notation.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const salta::Variant& v = salta::fuzz::VariantOf(data[0]);
  const absl::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  absl::StatusOr<salta::Position> pos = salta::ParsePosition(v, text);
  if (!pos.ok()) {
    salta::fuzz::CheckMessage(pos.status());
    return 0;
  }
  const std::string printed = salta::PositionToString(*pos);
  absl::StatusOr<salta::Position> back = salta::ParsePosition(v, printed);
  if (!back.ok() || !(*back == *pos) || salta::PositionToString(*back) != printed) abort();
  if (pos->hash() != pos->ComputeHash()) abort();
  // At the ply limit no move is read or played (notation.md): nothing to play.
  if (pos->ply() >= salta::kMaxPly) {
    if (salta::ParseMove(*pos, "--").ok()) abort();
    return 0;
  }
  salta::MoveList legal;
  salta::GenerateLegal(*pos, legal);
  for (const salta::Move& m : legal) {
    absl::StatusOr<salta::Move> read = salta::ParseMove(*pos, salta::MoveToString(*pos, m));
    if (!read.ok() || read->from != m.from || read->to != m.to) abort();
    salta::Position after = *pos;
    const salta::Position::Undo undo = after.Make(m);
    if (after.hash() != after.ComputeHash()) abort();
    if (!salta::ParsePosition(v, salta::PositionToString(after)).ok()) abort();
    after.Unmake(m, undo);
    if (!(after == *pos)) abort();
  }
  return 0;
}
