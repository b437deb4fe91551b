// Verifying an endgame table: every checksum (the completion record's over
// every entry, each block's, the whole value array's against the info
// entry), the counts, and every position's value re-derived from its
// successors' with the library's move generator and game-end judgement.
// Local consistency is enough: a value that agrees with its successors'
// everywhere is the true one, since a win or loss in n rests on values of
// fewer plies down to the finished games.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "salta/parallel.h"

namespace salta::egtb {

struct VerifyReport {
  bool ok = false;
  uint64_t positions = 0;
  // The first position (least index) found wrong, and what is wrong.
  std::optional<uint64_t> first_bad;
  std::string first_bad_position;  // its position text, when known
  std::string problem;
};

// An error only for a directory that is not an endgame table at all (or
// cannot be read); a damaged or wrong table is a report with ok = false.
absl::StatusOr<VerifyReport> Verify(const std::string& dir, ThreadPool& pool,
                                    const std::function<void(double)>& progress);

}  // namespace salta::egtb
