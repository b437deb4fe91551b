// What the fuzz targets share: a variant picked by one input byte, and the
// check that a message quoting the input is valid UTF-8 on one line.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

#include "absl/status/status.h"
#include "salta/game.h"
#include "salta/text.h"
#include "salta/variant.h"

namespace salta::fuzz {

// The low six bits pick the board and rows (4x4 to 10x10) and the preset;
// move-limit=1 on some, so that the limit is reached.
inline const Variant& VariantOf(uint8_t byte) {
  static const char* const kPresets[] = {"standard", "pre1900", "forward"};
  static const int kBoards[][2] = {{10, 3}, {8, 2}, {6, 2}, {4, 1}};
  const int board = byte & 3, preset = (byte >> 2) % 3;
  const bool limit = (byte >> 4) & 1;
  absl::StatusOr<const Variant*> v =
      MakeVariant(kPresets[preset],
                  limit ? std::vector<std::string>{"move-limit=1"} : std::vector<std::string>{},
                  kBoards[board][0], kBoards[board][1]);
  if (!v.ok()) abort();
  return **v;
}

inline void CheckMessage(const absl::Status& s) {
  const std::string m(s.message());
  if (m.empty()) abort();
  for (size_t i = 0; i < m.size();) {
    const size_t n = Utf8Length(m, i);
    if (n == 0 || m[i] == '\n') abort();
    i += n;
  }
}

}  // namespace salta::fuzz
