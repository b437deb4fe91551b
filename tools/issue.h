// How the tools word a game's error or warning (salta/replay.h's
// ReplayIssue) after its location: "ply 5 (move 3, White) "a3-b4": why".
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "salta/notation.h"
#include "salta/replay.h"
#include "tool.h"

namespace salta::tools {

inline std::string IssueText(const ReplayIssue& i) {
  std::string t;
  if (i.ply > 0) {
    t = absl::StrCat("ply ", i.ply);
    if (i.side) absl::StrAppend(&t, " (move ", i.move_number, ", ", SideName(*i.side), ")");
    if (!i.move.empty()) absl::StrAppend(&t, " \"", i.move, "\"");
    t += ": ";
  }
  return t + i.reason;
}

// Where the issue is in `file`.
inline Where WhereOf(const std::string& file, const ReplayIssue& i) {
  return Where{file, i.at};
}

// A record file whose games ran out before the one asked for (--game K):
// "has no games" when it has none, whatever K, else "has 2 games, not 3
// (--game)".
inline absl::Status MissingGame(int games, int wanted) {
  if (games == 0) return absl::NotFoundError("has no games");
  return absl::NotFoundError(
      absl::StrCat("has ", games, games == 1 ? " game" : " games", ", not ", wanted, " (--game)"));
}

}  // namespace salta::tools
