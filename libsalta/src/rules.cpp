#include "salta/rules.h"

#include <array>
#include <charconv>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "salta/text.h"

namespace salta {
namespace {

// An error that quotes the input: escaped where it is not valid UTF-8.
absl::Status InvalidQuoting(absl::string_view message) {
  return absl::InvalidArgumentError(EscapeForMessage(message));
}

// Each option: its name, its values in enum order, and accessors.
struct Option {
  absl::string_view name;
  std::vector<absl::string_view> values;  // empty: a non-negative integer
  int (*get)(const Rules&);
  void (*set)(Rules&, int);
};

const std::array<Option, 10>& AllOptions() {
  static const std::array<Option, 10> kOptions = {{
      {"steps",
       {"any", "forward"},
       [](const Rules& r) { return int(r.steps); },
       [](Rules& r, int v) { r.steps = Steps(v); }},
      {"jump-over",
       {"opponent", "any"},
       [](const Rules& r) { return int(r.jump_over); },
       [](Rules& r, int v) { r.jump_over = JumpOver(v); }},
      {"jump-dir",
       {"forward", "any"},
       [](const Rules& r) { return int(r.jump_dir); },
       [](Rules& r, int v) { r.jump_dir = JumpDir(v); }},
      {"chain",
       {"off", "on"},
       [](const Rules& r) { return int(r.chain); },
       [](Rules& r, int v) { r.chain = v != 0; }},
      {"jumps",
       {"mandatory", "optional"},
       [](const Rules& r) { return int(!r.mandatory_jumps); },
       [](Rules& r, int v) { r.mandatory_jumps = v == 0; }},
      {"block",
       {"forbid", "lose", "allow"},
       [](const Rules& r) { return int(r.block); },
       [](Rules& r, int v) { r.block = Block(v); }},
      {"goal",
       {"translate", "mirror"},
       [](const Rules& r) { return int(r.goal); },
       [](Rules& r, int v) { r.goal = Goal(v); }},
      {"extra-move",
       {"on", "off"},
       [](const Rules& r) { return int(!r.extra_move); },
       [](Rules& r, int v) { r.extra_move = v == 0; }},
      {"move-limit",
       {},
       [](const Rules& r) { return r.move_limit; },
       [](Rules& r, int v) { r.move_limit = v; }},
      {"limit-scoring",
       {"moves", "pieces"},
       [](const Rules& r) { return int(r.limit_scoring); },
       [](Rules& r, int v) { r.limit_scoring = LimitScoring(v); }},
  }};
  return kOptions;
}

constexpr int kMaxMoveLimit = 10000;

std::string ValueText(const Option& o, int v) {
  return o.values.empty() ? absl::StrCat(v) : std::string(o.values[v]);
}

}  // namespace

Rules Rules::Pre1900() {
  Rules r;
  r.goal = Goal::kMirror;
  return r;
}

Rules Rules::Forward() {
  Rules r;
  r.steps = Steps::kForward;
  r.jump_over = JumpOver::kAny;
  r.jump_dir = JumpDir::kForward;
  r.chain = true;
  r.mandatory_jumps = false;
  r.block = Block::kLose;
  r.goal = Goal::kMirror;
  r.extra_move = false;
  r.limit_scoring = LimitScoring::kPieces;
  return r;
}

std::vector<std::string> Rules::PresetNames() {
  return {"standard", "pre1900", "forward"};
}

std::vector<std::string> Rules::OptionNames() {
  std::vector<std::string> names;
  for (const Option& o : AllOptions()) names.emplace_back(o.name);
  return names;
}

absl::StatusOr<Rules> Rules::Preset(absl::string_view name) {
  if (name == "standard") return Standard();
  if (name == "pre1900") return Pre1900();
  if (name == "forward") return Forward();
  return InvalidQuoting(absl::StrCat("unknown rules preset \"", name, "\": the presets are ",
                                     absl::StrJoin(PresetNames(), ", ")));
}

absl::Status Rules::Set(absl::string_view key, absl::string_view value) {
  for (const Option& o : AllOptions()) {
    if (o.name != key) continue;
    if (o.values.empty()) {
      int v = -1;
      auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || end != value.data() + value.size() || v < 0 || v > kMaxMoveLimit)
        return InvalidQuoting(absl::StrCat(
            "invalid value \"", value, "\" for rule option ", key,
            ": expected a whole number of moves from 0 (no limit) to ", kMaxMoveLimit));
      o.set(*this, v);
      return absl::OkStatus();
    }
    for (size_t i = 0; i < o.values.size(); ++i) {
      if (o.values[i] == value) {
        o.set(*this, int(i));
        return absl::OkStatus();
      }
    }
    return InvalidQuoting(absl::StrCat("invalid value \"", value, "\" for rule option ", key,
                                       ": the values are ", absl::StrJoin(o.values, ", ")));
  }
  return InvalidQuoting(absl::StrCat("unknown rule option \"", key, "\": the options are ",
                                     absl::StrJoin(OptionNames(), ", ")));
}

absl::Status Rules::SetFromString(absl::string_view assignment) {
  size_t eq = assignment.find('=');
  if (eq == absl::string_view::npos)
    return InvalidQuoting(absl::StrCat("rule option \"", assignment,
                                       "\" must be written KEY=VALUE, e.g. move-limit=120"));
  return Set(assignment.substr(0, eq), assignment.substr(eq + 1));
}

absl::StatusOr<Rules> Rules::Parse(absl::string_view spec) {
  std::vector<absl::string_view> words = absl::StrSplit(spec, ' ', absl::SkipWhitespace());
  Rules rules;
  size_t i = 0;
  if (!words.empty() && words[0].find('=') == absl::string_view::npos) {
    absl::StatusOr<Rules> preset = Preset(words[0]);
    if (!preset.ok()) return preset.status();
    rules = *preset;
    i = 1;
  }
  for (; i < words.size(); ++i)
    if (absl::Status s = rules.SetFromString(words[i]); !s.ok()) return s;
  return rules;
}

std::vector<std::pair<std::string, std::string>> Rules::Options() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Option& o : AllOptions())
    out.emplace_back(std::string(o.name), ValueText(o, o.get(*this)));
  return out;
}

std::string Rules::ToString() const {
  std::string best;
  for (const std::string& name : PresetNames()) {
    Rules preset = *Preset(name);
    std::string spec = name;
    for (const Option& o : AllOptions())
      if (o.get(*this) != o.get(preset))
        absl::StrAppend(&spec, " ", o.name, "=", ValueText(o, o.get(*this)));
    if (best.empty() || spec.size() < best.size()) best = spec;
  }
  return best;
}

}  // namespace salta
