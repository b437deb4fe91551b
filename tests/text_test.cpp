// Messages that quote the input are valid UTF-8 (issue 10, item 10): text.h,
// and the library's parsers that quote what they were given.
#include "salta/text.h"

#include <gtest/gtest.h>

#include <string>

#include "salta/game.h"
#include "salta/notation.h"
#include "salta/replay.h"
#include "salta/rules.h"
#include "salta/selfplay.h"
#include "test_util.h"

namespace salta {
namespace {

bool ValidUtf8(const std::string& s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = Utf8Length(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

TEST(Text, ParseDigitsTakesDecimalDigitsAlone) {
  for (auto [text, want] : {std::pair{"0", 0}, std::pair{"7", 7}, std::pair{"08", 8},
                            std::pair{"123456789", 123456789}}) {
    int v = -1;
    EXPECT_TRUE(ParseDigits(text, v)) << text;
    EXPECT_EQ(v, want) << text;
  }
  for (const char* bad : {"", "+1", "-1", " 1", "1 ", "1.0", "0x1", "1e3", "1234567890", "١"}) {
    int v = 42;
    EXPECT_FALSE(ParseDigits(bad, v)) << bad;
    EXPECT_EQ(v, 42) << bad;  // untouched
  }
}

TEST(Text, Utf8Length) {
  EXPECT_EQ(Utf8Length("a", 0), 1u);
  EXPECT_EQ(Utf8Length("\xC5\x9A", 0), 2u);          // Ś
  EXPECT_EQ(Utf8Length("\xE2\x80\xA6", 0), 3u);      // …
  EXPECT_EQ(Utf8Length("\xF0\x9F\x98\x80", 0), 4u);  // an emoji
  EXPECT_EQ(Utf8Length("\xC5", 0), 0u);              // truncated
  EXPECT_EQ(Utf8Length("\x9A", 0), 0u);              // a continuation byte alone
  EXPECT_EQ(Utf8Length("\xC0\x80", 0), 0u);          // overlong
  EXPECT_EQ(Utf8Length("\xED\xA0\x80", 0), 0u);      // a surrogate
  EXPECT_EQ(Utf8Length("\xF4\x90\x80\x80", 0), 0u);  // beyond U+10FFFF
  EXPECT_EQ(Utf8Length("\xFF", 0), 0u);
}

TEST(Text, EscapeForMessageKeepsValidUtf8AndEscapesTheRest) {
  EXPECT_EQ(EscapeForMessage("c3-d4 Ś …"), "c3-d4 Ś …");
  EXPECT_EQ(EscapeForMessage("a\xC5"
                             "b"),
            "a\\xc5b");
  EXPECT_EQ(EscapeForMessage("\xFF\xFE"), "\\xff\\xfe");
  EXPECT_EQ(EscapeForMessage("line\nbreak\ttab\x1B[31m"), "line\\x0abreak\\x09tab\\x1b[31m");
  const std::string once = EscapeForMessage("x\xC5\x9A\xC5y\x7F");
  EXPECT_EQ(once, "x\xC5\x9A\\xc5y\\x7f");
  EXPECT_EQ(EscapeForMessage(once), once);
}

TEST(Text, ParsersQuoteTheInputAsValidUtf8) {
  const Variant& v = V("standard");
  // A valid character that is not a kind letter is quoted whole.
  absl::StatusOr<Position> p = ParsePosition(v, "w Ś1a1");
  ASSERT_FALSE(p.ok());
  const std::string m(p.status().message());
  EXPECT_TRUE(ValidUtf8(m)) << m;
  EXPECT_NE(m.find("unknown kind 'Ś'"), std::string::npos) << m;
  // Invalid bytes are escaped, wherever they are quoted.
  for (const char* text : {"w \xC5\x31"
                           "a1",
                           "\xFF S1a1", "w S1a1 \xFF", "w S1\xE2\x80"}) {
    absl::StatusOr<Position> bad = ParsePosition(v, text);
    ASSERT_FALSE(bad.ok()) << text;
    EXPECT_TRUE(ValidUtf8(std::string(bad.status().message()))) << bad.status();
  }
  absl::StatusOr<Position> start = ParsePosition(v, "start");
  ASSERT_TRUE(start.ok());
  absl::Status s = PlayMoves(*start, "c3-d4 \xFF-\xC5");
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(ValidUtf8(std::string(s.message()))) << s;
  EXPECT_NE(s.message().find("\\xff"), absl::string_view::npos) << s;
  for (const absl::Status& e :
       {Rules::Parse("st\xE4ndard").status(), Rules::Parse("standard chain=\xFF").status(),
        Rules::Parse("standard \xFF=1").status(), Rules::Parse("standard \xFF").status(),
        ParsePlayer("gr\xFF").status(), ParseBoardTag("8\xFF").status(),
        ParseSquare(v.geometry(), "\xC5\x9A").status(),
        ParseMoveText(v.geometry(), "a\xFF").status(),
        MakeVariant("standard", {"steps=\xFF"}, 10, 3).status()}) {
    ASSERT_FALSE(e.ok());
    EXPECT_TRUE(ValidUtf8(std::string(e.message()))) << e;
  }
}

}  // namespace
}  // namespace salta
