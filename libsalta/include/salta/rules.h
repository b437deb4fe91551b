// Rule options and the three presets, as pinned in docs/rules.md.
#pragma once

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace salta {

enum class Steps : uint8_t { kAny, kForward };
enum class JumpOver : uint8_t { kOpponent, kAny };
enum class JumpDir : uint8_t { kForward, kAny };
enum class Block : uint8_t { kForbid, kLose, kAllow };
enum class Goal : uint8_t { kTranslate, kMirror };
enum class LimitScoring : uint8_t { kMoves, kPieces };

struct Rules {
  Steps steps = Steps::kAny;
  JumpOver jump_over = JumpOver::kOpponent;
  JumpDir jump_dir = JumpDir::kForward;
  bool chain = false;
  bool mandatory_jumps = true;
  Block block = Block::kForbid;
  Goal goal = Goal::kTranslate;
  bool extra_move = true;
  int move_limit = 0;  // moves per player; 0 = no limit
  LimitScoring limit_scoring = LimitScoring::kMoves;

  static Rules Standard() { return Rules{}; }
  static Rules Pre1900();
  static Rules Forward();

  // "standard", "pre1900" or "forward"; anything else is an error listing them.
  static absl::StatusOr<Rules> Preset(absl::string_view name);
  // A preset name followed by KEY=VALUE overrides, e.g. "standard move-limit=120".
  // An empty spec is the standard preset.
  static absl::StatusOr<Rules> Parse(absl::string_view spec);
  // Sets one option by its documented name; errors name the valid keys or values.
  absl::Status Set(absl::string_view key, absl::string_view value);
  // Like Set, from "KEY=VALUE".
  absl::Status SetFromString(absl::string_view assignment);

  // The shortest spec that Parse turns back into these rules: the closest
  // preset and the options that differ from it.
  std::string ToString() const;
  // Every option as KEY=VALUE, in the documented order.
  std::vector<std::pair<std::string, std::string>> Options() const;

  static std::vector<std::string> PresetNames();
  static std::vector<std::string> OptionNames();

  bool operator==(const Rules&) const = default;
};

}  // namespace salta
