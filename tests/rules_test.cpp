// Rule options and presets (shared/salta-rules.md, "Moves": the option table
// and the presets): names, values, the spec text and its errors.
#include "salta/rules.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "salta/game.h"

namespace salta {
namespace {

using OptionMap = std::map<std::string, std::string>;

OptionMap OptionsOf(const Rules& r) {
  OptionMap out;
  for (const auto& [key, value] : r.Options()) out[key] = value;
  return out;
}

// The option table of the rules, written out by hand: every option with its
// values, the standard value first.
const std::vector<std::pair<std::string, std::vector<std::string>>>& OptionTable() {
  static const auto* table = new std::vector<std::pair<std::string, std::vector<std::string>>>{
      {"steps", {"any", "forward"}},
      {"jump-over", {"opponent", "any"}},
      {"jump-dir", {"forward", "any"}},
      {"chain", {"off", "on"}},
      {"jumps", {"mandatory", "optional"}},
      {"block", {"forbid", "lose", "allow"}},
      {"goal", {"translate", "mirror"}},
      {"extra-move", {"on", "off"}},
      {"move-limit", {"0", "120", "1", "10000"}},
      {"limit-scoring", {"moves", "pieces"}},
  };
  return *table;
}

const OptionMap kStandard = {{"steps", "any"},        {"jump-over", "opponent"},
                             {"jump-dir", "forward"}, {"chain", "off"},
                             {"jumps", "mandatory"},  {"block", "forbid"},
                             {"goal", "translate"},   {"extra-move", "on"},
                             {"move-limit", "0"},     {"limit-scoring", "moves"}};

TEST(Rules, OptionNamesInDocumentedOrder) {
  std::vector<std::string> expected;
  for (const auto& [key, values] : OptionTable()) expected.push_back(key);
  EXPECT_EQ(Rules::OptionNames(), expected);
  std::vector<std::string> listed;
  for (const auto& [key, value] : Rules::Standard().Options()) listed.push_back(key);
  EXPECT_EQ(listed, expected);
}

TEST(Rules, PresetNames) {
  EXPECT_EQ(Rules::PresetNames(), (std::vector<std::string>{"standard", "pre1900", "forward"}));
}

TEST(Rules, StandardPreset) {
  absl::StatusOr<Rules> r = Rules::Preset("standard");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(OptionsOf(*r), kStandard);
  EXPECT_EQ(*r, Rules::Standard());
  EXPECT_EQ(*r, Rules{});
  // The fields behind the names.
  EXPECT_EQ(r->steps, Steps::kAny);
  EXPECT_EQ(r->jump_over, JumpOver::kOpponent);
  EXPECT_EQ(r->jump_dir, JumpDir::kForward);
  EXPECT_FALSE(r->chain);
  EXPECT_TRUE(r->mandatory_jumps);
  EXPECT_EQ(r->block, Block::kForbid);
  EXPECT_EQ(r->goal, Goal::kTranslate);
  EXPECT_TRUE(r->extra_move);
  EXPECT_EQ(r->move_limit, 0);
  EXPECT_EQ(r->limit_scoring, LimitScoring::kMoves);
}

TEST(Rules, Pre1900PresetIsStandardWithMirrorGoal) {
  absl::StatusOr<Rules> r = Rules::Preset("pre1900");
  ASSERT_TRUE(r.ok()) << r.status();
  OptionMap expected = kStandard;
  expected["goal"] = "mirror";
  EXPECT_EQ(OptionsOf(*r), expected);
  EXPECT_EQ(*r, Rules::Pre1900());
  EXPECT_EQ(r->goal, Goal::kMirror);
}

TEST(Rules, ForwardPreset) {
  absl::StatusOr<Rules> r = Rules::Preset("forward");
  ASSERT_TRUE(r.ok()) << r.status();
  // steps=forward, jump-over=any, jump-dir=forward, chain=on, jumps=optional,
  // block=lose, goal=mirror, extra-move=off, limit-scoring=pieces.
  const OptionMap expected = {{"steps", "forward"},    {"jump-over", "any"},
                              {"jump-dir", "forward"}, {"chain", "on"},
                              {"jumps", "optional"},   {"block", "lose"},
                              {"goal", "mirror"},      {"extra-move", "off"},
                              {"move-limit", "0"},     {"limit-scoring", "pieces"}};
  EXPECT_EQ(OptionsOf(*r), expected);
  EXPECT_EQ(*r, Rules::Forward());
  EXPECT_EQ(r->steps, Steps::kForward);
  EXPECT_EQ(r->jump_over, JumpOver::kAny);
  EXPECT_TRUE(r->chain);
  EXPECT_FALSE(r->mandatory_jumps);
  EXPECT_EQ(r->block, Block::kLose);
  EXPECT_FALSE(r->extra_move);
  EXPECT_EQ(r->limit_scoring, LimitScoring::kPieces);
}

TEST(Rules, UnknownPresetListsThePresets) {
  for (const char* name : {"standart", "", "Standard", "forward chain=on"}) {
    absl::StatusOr<Rules> r = Rules::Preset(name);
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
    const std::string message(r.status().message());
    EXPECT_NE(message.find(std::string("\"") + name + "\""), std::string::npos) << message;
    for (const char* preset : {"standard", "pre1900", "forward"})
      EXPECT_NE(message.find(preset), std::string::npos) << message;
  }
}

// Every value of every option can be set by name, and only that option changes.
TEST(Rules, EveryOptionValueIsSettable) {
  for (const auto& [key, values] : OptionTable()) {
    for (const std::string& value : values) {
      Rules r = Rules::Standard();
      ASSERT_TRUE(r.Set(key, value).ok()) << key << "=" << value;
      OptionMap expected = kStandard;
      expected[key] = value;
      EXPECT_EQ(OptionsOf(r), expected) << key << "=" << value;

      Rules s = Rules::Forward();
      ASSERT_TRUE(s.SetFromString(key + "=" + value).ok()) << key << "=" << value;
      EXPECT_EQ(OptionsOf(s)[key], value);
    }
  }
}

TEST(Rules, SetChangesTheFields) {
  Rules r;
  ASSERT_TRUE(r.Set("steps", "forward").ok());
  EXPECT_EQ(r.steps, Steps::kForward);
  ASSERT_TRUE(r.Set("jump-over", "any").ok());
  EXPECT_EQ(r.jump_over, JumpOver::kAny);
  ASSERT_TRUE(r.Set("jump-dir", "any").ok());
  EXPECT_EQ(r.jump_dir, JumpDir::kAny);
  ASSERT_TRUE(r.Set("chain", "on").ok());
  EXPECT_TRUE(r.chain);
  ASSERT_TRUE(r.Set("jumps", "optional").ok());
  EXPECT_FALSE(r.mandatory_jumps);
  ASSERT_TRUE(r.Set("block", "allow").ok());
  EXPECT_EQ(r.block, Block::kAllow);
  ASSERT_TRUE(r.Set("block", "lose").ok());
  EXPECT_EQ(r.block, Block::kLose);
  ASSERT_TRUE(r.Set("goal", "mirror").ok());
  EXPECT_EQ(r.goal, Goal::kMirror);
  ASSERT_TRUE(r.Set("extra-move", "off").ok());
  EXPECT_FALSE(r.extra_move);
  ASSERT_TRUE(r.Set("move-limit", "120").ok());
  EXPECT_EQ(r.move_limit, 120);
  ASSERT_TRUE(r.Set("limit-scoring", "pieces").ok());
  EXPECT_EQ(r.limit_scoring, LimitScoring::kPieces);
  // And back.
  ASSERT_TRUE(r.Set("chain", "off").ok());
  EXPECT_FALSE(r.chain);
  ASSERT_TRUE(r.Set("jumps", "mandatory").ok());
  EXPECT_TRUE(r.mandatory_jumps);
  ASSERT_TRUE(r.Set("extra-move", "on").ok());
  EXPECT_TRUE(r.extra_move);
}

TEST(Rules, UnknownOptionListsTheOptions) {
  for (const char* key : {"step", "chains", "", "Goal", "move_limit"}) {
    Rules r;
    absl::Status s = r.Set(key, "on");
    ASSERT_FALSE(s.ok()) << key;
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    const std::string message(s.message());
    EXPECT_NE(message.find(std::string("\"") + key + "\""), std::string::npos) << message;
    for (const auto& [name, values] : OptionTable())
      EXPECT_NE(message.find(name), std::string::npos) << name << " missing in: " << message;
    EXPECT_EQ(r, Rules::Standard()) << "a failed Set changed the rules";
  }
}

TEST(Rules, UnknownValueListsTheValues) {
  for (const auto& [key, values] : OptionTable()) {
    if (key == "move-limit") continue;
    Rules r;
    absl::Status s = r.Set(key, "maybe");
    ASSERT_FALSE(s.ok()) << key;
    const std::string message(s.message());
    EXPECT_NE(message.find("\"maybe\""), std::string::npos) << message;
    EXPECT_NE(message.find(key), std::string::npos) << message;
    for (const std::string& value : values)
      EXPECT_NE(message.find(value), std::string::npos) << value << " missing in: " << message;
    EXPECT_EQ(r, Rules::Standard());
  }
  // Values are case-sensitive words, not prefixes.
  Rules r;
  EXPECT_FALSE(r.Set("chain", "ON").ok());
  EXPECT_FALSE(r.Set("chain", "o").ok());
  EXPECT_FALSE(r.Set("block", "").ok());
}

TEST(Rules, MoveLimitMustBeAWholeNumber) {
  for (const char* value : {"-1", "abc", "", "12a", "1.5", " 12", "99999999999"}) {
    Rules r;
    absl::Status s = r.Set("move-limit", value);
    EXPECT_FALSE(s.ok()) << "\"" << value << "\"";
    EXPECT_NE(std::string(s.message()).find("move-limit"), std::string::npos) << s.message();
    EXPECT_EQ(r.move_limit, 0);
  }
  Rules r;
  ASSERT_TRUE(r.Set("move-limit", "0").ok());
  EXPECT_EQ(r.move_limit, 0);
}

TEST(Rules, SetFromStringNeedsKeyEqualsValue) {
  Rules r;
  absl::Status s = r.SetFromString("chain");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(std::string(s.message()).find("\"chain\""), std::string::npos) << s.message();
  EXPECT_NE(std::string(s.message()).find("KEY=VALUE"), std::string::npos) << s.message();
  EXPECT_FALSE(r.SetFromString("=on").ok());
  EXPECT_FALSE(r.SetFromString("chain=").ok());
  ASSERT_TRUE(r.SetFromString("chain=on").ok());
  EXPECT_TRUE(r.chain);
}

TEST(Rules, ParseStandardMoveLimit120) {
  absl::StatusOr<Rules> r = Rules::Parse("standard move-limit=120");
  ASSERT_TRUE(r.ok()) << r.status();
  OptionMap expected = kStandard;
  expected["move-limit"] = "120";
  EXPECT_EQ(OptionsOf(*r), expected);
  EXPECT_EQ(r->move_limit, 120);
  EXPECT_EQ(r->ToString(), "standard move-limit=120");
}

TEST(Rules, ParseSpecs) {
  struct Case {
    const char* spec;
    Rules expected;
  };
  Rules chained = Rules::Standard();
  chained.chain = true;
  chained.jump_dir = JumpDir::kAny;
  Rules forward_limit = Rules::Forward();
  forward_limit.move_limit = 60;
  forward_limit.limit_scoring = LimitScoring::kMoves;
  Rules overridden = Rules::Standard();
  overridden.chain = true;  // the last assignment wins
  for (const Case& c : std::vector<Case>{
           {"", Rules::Standard()},
           {"   ", Rules::Standard()},
           {"standard", Rules::Standard()},
           {"pre1900", Rules::Pre1900()},
           {"forward", Rules::Forward()},
           {"  forward  ", Rules::Forward()},
           {"standard chain=on jump-dir=any", chained},
           {"chain=on jump-dir=any", chained},  // no preset: standard
           {"forward move-limit=60 limit-scoring=moves", forward_limit},
           {"standard chain=off chain=on", overridden},
       }) {
    absl::StatusOr<Rules> r = Rules::Parse(c.spec);
    ASSERT_TRUE(r.ok()) << "\"" << c.spec << "\": " << r.status();
    EXPECT_EQ(*r, c.expected) << "\"" << c.spec << "\" gave " << r->ToString();
  }
}

TEST(Rules, ParseErrorsSayWhatIsWrong) {
  struct Case {
    const char* spec;
    std::vector<std::string> mentions;
  };
  for (const Case& c : std::vector<Case>{
           {"classic", {"\"classic\"", "standard", "pre1900", "forward"}},
           {"standard chains=on", {"\"chains\"", "steps", "limit-scoring"}},
           {"standard chain=yes", {"\"yes\"", "chain", "off", "on"}},
           {"standard block=never", {"\"never\"", "forbid", "lose", "allow"}},
           {"standard move-limit=lots", {"\"lots\"", "move-limit"}},
           {"standard chain", {"\"chain\"", "KEY=VALUE"}},
           {"standard forward", {"\"forward\"", "KEY=VALUE"}},
       }) {
    absl::StatusOr<Rules> r = Rules::Parse(c.spec);
    ASSERT_FALSE(r.ok()) << "\"" << c.spec << "\" parsed as " << r->ToString();
    const std::string message(r.status().message());
    for (const std::string& m : c.mentions)
      EXPECT_NE(message.find(m), std::string::npos)
          << "\"" << c.spec << "\": " << m << " missing in: " << message;
  }
}

TEST(Rules, ToStringNamesTheClosestPreset) {
  EXPECT_EQ(Rules::Standard().ToString(), "standard");
  EXPECT_EQ(Rules::Pre1900().ToString(), "pre1900");
  EXPECT_EQ(Rules::Forward().ToString(), "forward");
  Rules r = Rules::Forward();
  r.block = Block::kForbid;
  EXPECT_EQ(r.ToString(), "forward block=forbid");
  Rules s = Rules::Standard();
  s.chain = true;
  EXPECT_EQ(s.ToString(), "standard chain=on");
}

// Every combination of option values survives ToString then Parse, and no
// two different rule sets print the same.
TEST(Rules, ToStringParseRoundTripForEveryCombination) {
  std::map<std::string, Rules> seen;
  int combinations = 1;
  for (const auto& [key, values] : OptionTable()) combinations *= int(values.size());
  for (int index = 0; index < combinations; ++index) {
    Rules r;
    int rest = index;
    for (const auto& [key, values] : OptionTable()) {
      ASSERT_TRUE(r.Set(key, values[rest % values.size()]).ok());
      rest /= int(values.size());
    }
    const std::string text = r.ToString();
    absl::StatusOr<Rules> back = Rules::Parse(text);
    ASSERT_TRUE(back.ok()) << text << ": " << back.status();
    EXPECT_EQ(*back, r) << text;
    auto [it, inserted] = seen.emplace(text, r);
    EXPECT_TRUE(inserted) << "two rule sets print as " << text;
    // The text is a preset and the options that differ from it, so it is
    // never longer than the standard preset with its differing options.
    Rules standard = Rules::Standard();
    std::string longhand = "standard";
    for (const auto& [key, value] : r.Options())
      if (OptionsOf(standard)[key] != value) longhand += " " + key + "=" + value;
    EXPECT_LE(text.size(), longhand.size()) << text << " vs " << longhand;
  }
  EXPECT_EQ(int(seen.size()), combinations);
}

TEST(Rules, MakeVariantReportsBadOptionsAndGeometry) {
  absl::StatusOr<const Variant*> v = MakeVariant("standard", {"move-limit=120"}, 10, 3);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ((*v)->rules().move_limit, 120);
  EXPECT_EQ((*v)->geometry().size(), 10);

  absl::StatusOr<const Variant*> bad_preset = MakeVariant("nope", {}, 10, 3);
  ASSERT_FALSE(bad_preset.ok());
  EXPECT_NE(std::string(bad_preset.status().message()).find("pre1900"), std::string::npos);

  absl::StatusOr<const Variant*> bad_value = MakeVariant("standard", {"goal=home"}, 10, 3);
  ASSERT_FALSE(bad_value.ok());
  EXPECT_NE(std::string(bad_value.status().message()).find("translate"), std::string::npos);

  absl::StatusOr<const Variant*> bad_key = MakeVariant("standard", {"speed=9"}, 10, 3);
  ASSERT_FALSE(bad_key.ok());
  EXPECT_NE(std::string(bad_key.status().message()).find("extra-move"), std::string::npos);

  EXPECT_FALSE(MakeVariant("standard", {}, 7, 3).ok());
  EXPECT_FALSE(MakeVariant("standard", {}, 6, 3).ok());
  EXPECT_TRUE(MakeVariant("forward", {}, 6, 2).ok());
}

// Variants are interned: the same geometry and rules give the same variant.
TEST(Rules, VariantsAreInterned) {
  const Variant* a = *MakeVariant("standard", {"chain=on"}, 8, 2);
  const Variant* b = *MakeVariant("standard", {"chain=on"}, 8, 2);
  const Variant* c = *MakeVariant("standard", {"chain=off"}, 8, 2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(&Variant::Default(), *MakeVariant("standard", {}, 10, 3));
}

}  // namespace
}  // namespace salta
