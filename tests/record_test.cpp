// The record format: parsing (tags, movetext, comments, results, many games,
// CRLF, BOM, UTF-8), error positions, recovery, limits, and the canonical
// writer's round trip.
#include "salta/record.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "salta/game.h"
#include "salta/selfplay.h"

namespace salta {
namespace {

std::vector<ParsedGame> Parse(const std::string& text) {
  return ParseRecords(text);
}

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(RecordTest, ParsesTagsMovesCommentsAndResult) {
  const std::string text =
      "[Event \"Club \\\"final\\\"\"]\n"
      "[Result \"1-0\"]\n"
      "\n"
      "{before} 1. c3-d4 h8-g7! {good} {twice} 2. 32-43?! ; to the end\n"
      "-- 1-0\n";
  std::vector<ParsedGame> games = Parse(text);
  ASSERT_EQ(games.size(), 1u);
  const ParsedGame& g = games[0];
  ASSERT_FALSE(g.error) << g.error->message;
  const GameRecord& r = g.record;
  ASSERT_EQ(r.tags.size(), 2u);
  EXPECT_EQ(*r.Tag("Event"), "Club \"final\"");
  EXPECT_EQ(*r.Tag("Result"), "1-0");
  EXPECT_EQ(r.Tag("Site"), nullptr);
  EXPECT_EQ(r.comments, std::vector<std::string>{"before"});
  ASSERT_EQ(r.moves.size(), 4u);
  EXPECT_EQ(r.moves[0].text, "c3-d4");
  EXPECT_EQ(r.moves[0].number, 1);
  EXPECT_FALSE(r.moves[0].number_black);
  EXPECT_EQ(r.moves[0].at, (SourcePos{4, 13}));
  EXPECT_EQ(r.moves[1].text, "h8-g7");
  EXPECT_EQ(r.moves[1].annotation, "!");
  EXPECT_EQ(r.moves[1].number, 0);
  EXPECT_EQ(r.moves[1].comments, (std::vector<std::string>{"good", "twice"}));
  EXPECT_EQ(r.moves[2].text, "32-43");
  EXPECT_EQ(r.moves[2].annotation, "?!");
  EXPECT_EQ(r.moves[2].comments, std::vector<std::string>{"to the end"});
  EXPECT_EQ(r.moves[3].text, "--");
  EXPECT_EQ(r.moves[3].at, (SourcePos{5, 1}));
  EXPECT_EQ(r.result, "1-0");
  EXPECT_EQ(r.result_at, (SourcePos{5, 4}));
  EXPECT_EQ(r.start, (SourcePos{1, 1}));
  EXPECT_EQ(r.TagAt("Result"), (SourcePos{2, 1}));
}

TEST(RecordTest, ManyGamesPerFileWithAndWithoutTags) {
  const std::string text =
      "[Event \"a\"]\n\n1. c3-d4 *\n\n"
      "[Event \"b\"]\n1. c3-d4 h8-g7 1-0\n"             // no blank lines at all
      "[Event \"c\"]\n1. a3-b4 0-1 1. e3-f4 1/2-1/2\n"  // a tagless game after a result
      "1. g3-h4 *";
  std::vector<ParsedGame> games = Parse(text);
  ASSERT_EQ(games.size(), 5u);
  for (const ParsedGame& g : games) EXPECT_FALSE(g.error) << g.error->message;
  EXPECT_EQ(*games[0].record.Tag("Event"), "a");
  EXPECT_EQ(*games[1].record.Tag("Event"), "b");
  EXPECT_EQ(games[1].record.moves.size(), 2u);
  EXPECT_EQ(games[1].record.start, (SourcePos{5, 1}));
  EXPECT_EQ(*games[2].record.Tag("Event"), "c");
  EXPECT_EQ(games[2].record.result, "0-1");
  EXPECT_TRUE(games[3].record.tags.empty());
  EXPECT_EQ(games[3].record.moves[0].text, "e3-f4");
  EXPECT_EQ(games[3].record.start, (SourcePos{8, 14}));
  EXPECT_EQ(games[3].record.result, "1/2-1/2");
  EXPECT_EQ(games[4].record.moves[0].text, "g3-h4");
  EXPECT_EQ(games[4].record.start, (SourcePos{9, 1}));
}

// Issue 10, item 1: a result token ends a game's movetext, tags or not, so a
// file of tagless games is read as that many games, each its own game text:
// memory is bounded by the largest game, not by the file.
TEST(RecordTest, AResultTokenEndsAGameWithoutTags) {
  constexpr int kGames = 400000;  // 4.4 MB: more than max_game_bytes together
  std::string text;
  for (int i = 0; i < kGames; ++i) text += "1. c3-d4 *\n";
  std::istringstream in(text);
  GameSplitter splitter(in);
  GameText game;
  int texts = 0;
  size_t longest = 0;
  while (splitter.Next(game)) {
    ++texts;
    longest = std::max(longest, game.text.size());
    EXPECT_FALSE(game.too_long);
  }
  EXPECT_EQ(texts, kGames);
  EXPECT_LE(longest, 11u);

  std::istringstream again(text);
  RecordReader reader(again);
  ParsedGame g;
  int games = 0;
  while (reader.Next(g)) {
    ++games;
    ASSERT_FALSE(g.error) << g.error->message;
    ASSERT_EQ(g.record.moves.size(), 1u);
    ASSERT_EQ(g.record.start, (SourcePos{games, 1}));
  }
  EXPECT_EQ(games, kGames);

  // A result glued to a move number ends the game too; a result with an
  // annotation is not a result, and a token that only starts like one neither.
  std::vector<ParsedGame> parsed = Parse("1. c3-d4 2.1-0 1. e3-f4 1/2-1/2{c}1. g3-h4 12...* *");
  ASSERT_EQ(parsed.size(), 4u);
  EXPECT_EQ(parsed[0].record.result, "1-0");
  EXPECT_EQ(parsed[1].record.result, "1/2-1/2");
  EXPECT_EQ(parsed[2].record.comments, std::vector<std::string>{"c"});
  EXPECT_EQ(parsed[2].record.result, "*");
  EXPECT_EQ(parsed[3].record.result, "*");
  EXPECT_TRUE(parsed[3].record.moves.empty());
  parsed = Parse("1. c3-d4 1-0! 2. d4-e5 *");
  ASSERT_EQ(parsed.size(), 1u);
  EXPECT_TRUE(parsed[0].error);
}

TEST(RecordTest, CrlfAndByteOrderMarkReadLikeLf) {
  const std::string lf = "[Event \"x\"]\n[Result \"*\"]\n\n1. c3-d4 {a\nb} h8-g7 ; c\n2. d4-e5 *\n";
  std::string crlf = "\xEF\xBB\xBF";
  for (char c : lf) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  std::vector<ParsedGame> a = Parse(lf), b = Parse(crlf);
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  ASSERT_FALSE(b[0].error) << b[0].error->message;
  EXPECT_EQ(a[0].record, b[0].record);
  EXPECT_EQ(b[0].record.moves[0].comments, std::vector<std::string>{"a\nb"});
  EXPECT_EQ(b[0].record.moves[1].comments, std::vector<std::string>{"c"});
  // The byte-order mark is not a column.
  EXPECT_EQ(b[0].record.start, (SourcePos{1, 1}));
  for (size_t k = 0; k < a[0].record.moves.size(); ++k)
    EXPECT_EQ(a[0].record.moves[k].at, b[0].record.moves[k].at);
}

// A CR alone in a comment (here also before a CRLF, as a fuzzer found) is a
// space: kept as a CR, the writer's LF after it read back as a CRLF, that is,
// as LF, and the comment came back one character shorter.
TEST(RecordTest, LoneCarriageReturnInACommentReadsBackTheSame) {
  for (const std::string text :
       {"1. c3-d4 {a\r\r\nb} h8-g7 *", "1. c3-d4 {a\rb} *", "1. c3-d4 ;a\r} b\r\n*"}) {
    std::vector<ParsedGame> games = Parse(text);
    ASSERT_EQ(games.size(), 1u);
    ASSERT_FALSE(games[0].error) << games[0].error->message;
    const std::string comment = games[0].record.moves[0].comments.at(0);
    EXPECT_EQ(comment.find('\r'), std::string::npos) << text;
    std::vector<ParsedGame> back = Parse(WriteRecord(games[0].record));
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(back[0].record, games[0].record) << text;
  }
  EXPECT_EQ(Parse("1. c3-d4 {a\r\r\nb} *")[0].record.moves[0].comments[0], "a \nb");
}

TEST(RecordTest, Utf8InTagsAndCommentsColumnsCountCharacters) {
  const std::string text = "[White \"Jürgen Müller\"]\n1. c3-d4 {é è} h8-g7 \xC3\xA9 *\n";
  std::vector<ParsedGame> games = Parse(text);
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(*games[0].record.Tag("White"), "Jürgen Müller");
  EXPECT_EQ(games[0].record.moves[0].comments, std::vector<std::string>{"é è"});
  EXPECT_EQ(games[0].record.moves[1].at, (SourcePos{2, 16}));
  ASSERT_TRUE(games[0].error);
  // "1. c3-d4 {é è} h8-g7 " is 21 characters: the é after it is column 22.
  EXPECT_EQ(games[0].error->at, (SourcePos{2, 22}));
  EXPECT_NE(games[0].error->message.find("unexpected character"), std::string::npos);
}

struct ErrorCase {
  std::string text;
  SourcePos at;
  std::string message;  // a part of it
};

TEST(RecordTest, ErrorsSayLineAndColumn) {
  const std::vector<ErrorCase> cases = {
      {"[Event \"x]\n1. c3-d4 *", {1, 8}, "not closed"},
      {"[Event x]\n", {1, 8}, "expected the quoted value of tag Event"},
      {"[\"x\"]\n", {1, 2}, "expected a tag name"},
      {"[Event \"x\" [Site \"y\"]\n", {1, 12}, "expected ']' to close tag Event"},
      {"[A \"1\"]\n[B \"2\"]\n[A \"3\"]\n",
       {3, 1},
       "tag A is given twice (first at line 1, column 1)"},
      {"[A \"a\\nb\"]", {1, 6}, "a backslash in a tag value"},
      {"1. c3-d4\n   h8-g7 2. d4+e5 *", {2, 13}, "unexpected \"d4+e5\""},
      {"1. c3-d4 {open\n\n h8-g7", {1, 10}, "the comment is not closed"},
      {"1. c3-d4 ( h8-g7 )", {1, 10}, "variations"},
      {"1. c3-d4 ]", {1, 10}, "']' without a tag pair"},
      {"1. c3-d4 \"x\"", {1, 10}, "quoted string"},
      {"0. c3-d4", {1, 1}, "move numbers start at 1"},
      {"1.... c3-d4", {1, 1}, "move number \"1....\""},
      {"1. c3-d4!!!", {1, 4}, "an annotation is at most two"},
      {"1. c3-", {1, 4}, "unexpected \"c3-\""},
      {"1. c3-d4 \x7f", {1, 10}, "control character 0x7f"},
      {"1. c3-d4 {\x80}", {1, 11}, "invalid UTF-8 (byte 0x80)"},
      {"1. c3-d4 {\xC0\xAF}", {1, 11}, "invalid UTF-8"},          // overlong
      {"1. c3-d4 {\xED\xA0\x80}", {1, 11}, "invalid UTF-8"},      // a surrogate
      {"1. c3-d4 {\xF4\x90\x80\x80}", {1, 11}, "invalid UTF-8"},  // past U+10FFFF
      {"1. c3-d4 {\xE2\x82}", {1, 11}, "invalid UTF-8"},          // truncated
      // Within a move: the byte, not the move cut short before it.
      {"1. c3-d4 h8-\xc5g7 *", {1, 13}, "invalid UTF-8 (byte 0xc5)"},
      {"1. c3-d4 h8-g7\xc3\xa9 *", {1, 15}, "unexpected character '\xc3\xa9'"},
      {"1. c3-d4 $1 h8-g7 *", {1, 10}, "NAGs ($1, $2, ...) are not supported"},
  };
  for (const ErrorCase& c : cases) {
    std::vector<ParsedGame> games = Parse(c.text);
    ASSERT_EQ(games.size(), 1u) << c.text;
    ASSERT_TRUE(games[0].error) << c.text;
    EXPECT_EQ(games[0].error->at, c.at) << c.text << ": " << games[0].error->message;
    EXPECT_NE(games[0].error->message.find(c.message), std::string::npos)
        << c.text << ": " << games[0].error->message;
  }
}

TEST(RecordTest, MovetextErrorKeepsTheMovesBefore) {
  std::vector<ParsedGame> games = Parse("1. c3-d4 h8-g7 2. d4-e5 x9 3. e5-f6 *");
  ASSERT_EQ(games.size(), 1u);
  ASSERT_TRUE(games[0].error);
  EXPECT_TRUE(games[0].error->in_movetext);
  EXPECT_EQ(games[0].error->token, "x9");
  EXPECT_EQ(games[0].record.moves.size(), 3u);
}

TEST(RecordTest, AnErrorSkipsToTheNextGame) {
  const std::string text =
      "[Event \"1\"]\n1. c3-d4 ?? h8-g7 *\n\n"
      "[Event \"2\"\n[Result \"*\"]\n1. c3-d4 *\n\n"  // a broken tag: the game is skipped
      "[Event \"3\"]\n1. c3-d4 *\n";
  std::vector<ParsedGame> games = Parse(text);
  ASSERT_EQ(games.size(), 3u);
  EXPECT_TRUE(games[0].error);
  EXPECT_TRUE(games[1].error);
  EXPECT_EQ(games[1].error->at, (SourcePos{4, 11}));
  ASSERT_FALSE(games[2].error);
  EXPECT_EQ(*games[2].record.Tag("Event"), "3");
  EXPECT_EQ(games[2].record.start, (SourcePos{8, 1}));
}

TEST(RecordTest, LimitsKeepMemoryBounded) {
  RecordLimits limits;
  limits.max_comment_bytes = 100;
  limits.max_game_bytes = 1000;
  limits.max_token_bytes = 20;
  const std::string long_comment =
      "1. c3-d4 {" + std::string(500, 'x') + "} *\n\n[Event \"next\"]\n*";
  std::vector<ParsedGame> games = ParseRecords(long_comment, limits);
  ASSERT_EQ(games.size(), 2u);
  ASSERT_TRUE(games[0].error);
  EXPECT_NE(games[0].error->message.find("longer than 100"), std::string::npos);
  EXPECT_FALSE(games[1].error);

  std::string long_game = "[Event \"long\"]\n";
  for (int i = 0; i < 300; ++i) long_game += "1. c3-d4 ";
  long_game += "*\n[Event \"next\"]\n*";
  games = ParseRecords(long_game, limits);
  ASSERT_EQ(games.size(), 2u);
  ASSERT_TRUE(games[0].error);
  EXPECT_NE(games[0].error->message.find("longer than 1000 bytes"), std::string::npos);
  EXPECT_EQ(*games[1].record.Tag("Event"), "next");

  games = ParseRecords("1. " + std::string(50, 'a') + " *", limits);
  ASSERT_TRUE(games[0].error);
  EXPECT_NE(games[0].error->message.find("longer than 20"), std::string::npos);

  // White space before a game is not the game's: however much there is,
  // the game is read, and found where its text starts.
  games = ParseRecords(std::string(2000, ' ') + "\n\n  1. c3-d4 *\n" + std::string(3000, '\n') +
                           "\t[Event \"next\"]\n*",
                       limits);
  ASSERT_EQ(games.size(), 2u);
  EXPECT_FALSE(games[0].error) << games[0].error->message;
  EXPECT_EQ(games[0].record.moves.size(), 1u);
  EXPECT_EQ(games[0].record.start, (SourcePos{3, 3}));
  EXPECT_FALSE(games[1].error) << games[1].error->message;
  EXPECT_EQ(games[1].record.start, (SourcePos{3004, 2}));
}

TEST(RecordTest, StreamingReaderReadsGameByGame) {
  std::string text;
  for (int i = 1; i <= 50; ++i) text += "[Round \"" + std::to_string(i) + "\"]\n1. c3-d4 *\n\n";
  std::istringstream in(text);
  RecordReader reader(in);
  ParsedGame g;
  int n = 0;
  while (reader.Next(g)) {
    ++n;
    EXPECT_EQ(*g.record.Tag("Round"), std::to_string(n));
    EXPECT_EQ(g.record.start.line, 1 + 3 * (n - 1));
  }
  EXPECT_EQ(n, 50);
  EXPECT_FALSE(reader.io_error());
}

TEST(RecordTest, EmptyAndBlankInputHaveNoGames) {
  EXPECT_TRUE(Parse("").empty());
  EXPECT_TRUE(Parse("\n \r\n\t").empty());
  EXPECT_TRUE(Parse("\xEF\xBB\xBF").empty());
  // Comments and move numbers alone are not a game.
  EXPECT_TRUE(Parse("{just a comment} ; and another\n").empty());
  EXPECT_TRUE(Parse("{c} 12.").empty());
}

// Found by the fuzzer: a result glued to a move number was read as a move,
// and the canonical text of that game read back as two games.
TEST(RecordTest, ResultGluedToAMoveNumberIsTheResult) {
  std::vector<ParsedGame> games = Parse("1. c3-d4 2.1-0\n");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_FALSE(games[0].error.has_value());
  EXPECT_EQ(games[0].record.moves.size(), 1u);
  EXPECT_EQ(games[0].record.result, "1-0");
  std::vector<ParsedGame> back = Parse(WriteRecord(games[0].record));
  ASSERT_EQ(back.size(), 1u);
  EXPECT_TRUE(back[0].record == games[0].record);

  games = Parse("1. c3-d4 1-0!\n");
  ASSERT_FALSE(games.empty());
  ASSERT_TRUE(games[0].error.has_value());
  EXPECT_NE(games[0].error->message.find("a result takes no annotation"), std::string::npos)
      << games[0].error->message;
}

TEST(RecordTest, WriterIsCanonical) {
  GameRecord r;
  r.SetTag("Rules", "standard");
  r.SetTag("Annotator", "me");
  r.SetTag("Result", "*");
  r.SetTag("Event", "E \"q\" \\");
  r.comments = {"start"};
  for (const char* m : {"c3-d4", "h8-g7", "d4-e5"})
    r.moves.push_back(RecordMove{m, "", {}, 0, false, {}, {}});
  r.moves[0].comments = {"with } brace"};
  r.moves[1].annotation = "!";
  r.result = "*";
  const std::string text = WriteRecord(r);
  EXPECT_EQ(text,
            "[Event \"E \\\"q\\\" \\\\\"]\n"
            "[Result \"*\"]\n"
            "[Rules \"standard\"]\n"
            "[Annotator \"me\"]\n"
            "\n"
            "{start} 1. c3-d4 ;with } brace\n"
            "1... h8-g7! 2. d4-e5 *\n");
  std::vector<ParsedGame> back = Parse(text);
  ASSERT_EQ(back.size(), 1u);
  ASSERT_FALSE(back[0].error) << back[0].error->message;
  EXPECT_EQ(back[0].record, r);
}

TEST(RecordTest, WriterNumbersFromThePositionTag) {
  GameRecord r;
  r.SetTag("Position", "b S1a1,s1j10 37 -");
  for (const char* m : {"j10-i9", "a1-b2", "i9-h8"})
    r.moves.push_back(RecordMove{m, "", {}, 0, false, {}, {}});
  r.result = "*";
  EXPECT_EQ(WriteRecord(r), "[Position \"b S1a1,s1j10 37 -\"]\n\n19... j10-i9 20. a1-b2 i9-h8 *\n");
  const Numbering n = NumberingOf(r);
  EXPECT_TRUE(n.black_first);
  EXPECT_EQ(n.first_number, 19);
}

TEST(RecordTest, WriterWrapsLines) {
  GameRecord r;
  for (int i = 0; i < 200; ++i)
    r.moves.push_back(RecordMove{i % 2 ? "h8-g7" : "c3-d4", "", {}, 0, false, {}, {}});
  r.result = "*";
  const std::string text = WriteRecord(r);
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    EXPECT_LE(end - start, 79u);
    start = end + 1;
  }
  EXPECT_EQ(Parse(text)[0].record, r);
}

// parse(write(game)) == game, and writing is idempotent, for many generated
// games of every preset and several boards.
TEST(RecordTest, RoundTripOfGeneratedGames) {
  struct Setup {
    const char* preset;
    std::vector<std::string> overrides;
    int size, rows;
  };
  const std::vector<Setup> setups = {{"standard", {}, 10, 3},
                                     {"pre1900", {}, 10, 3},
                                     {"forward", {}, 10, 3},
                                     {"standard", {}, 6, 2},
                                     {"pre1900", {}, 8, 2},
                                     {"forward", {}, 4, 1},
                                     {"standard", {"chain=on"}, 8, 3},
                                     {"standard", {"block=allow"}, 4, 1}};
  int games = 0;
  for (const Setup& s : setups) {
    const Variant* v = *MakeVariant(s.preset, s.overrides, s.size, s.rows);
    for (uint64_t g = 0; g < 40; ++g) {
      SelfPlayOptions o;
      o.white = g % 2 ? Player::kRandom : Player::kGreedy;
      o.black = g % 3 ? Player::kGreedy : Player::kRandom;
      o.max_plies = 150;
      GameRecord r = PlayGame(Position::Start(*v), o, 99, g).record;
      if (g % 4 == 1 && !r.moves.empty()) r.moves[0].comments = {"note", "x } y"};
      if (g % 4 == 2) r.comments = {"multi\nline"};
      const std::string text = WriteRecord(r);
      std::vector<ParsedGame> back = Parse(text);
      ASSERT_EQ(back.size(), 1u) << text;
      ASSERT_FALSE(back[0].error) << back[0].error->message << "\n" << text;
      EXPECT_EQ(back[0].record, r) << text;
      EXPECT_EQ(WriteRecord(back[0].record), text);
      ++games;
    }
  }
  EXPECT_EQ(games, 320);
}

TEST(RecordTest, RoundTripOfTheCorpus) {
  int games = 0;
  for (const char* dir : {"valid", "invalid"})
    for (const auto& entry :
         std::filesystem::directory_iterator(std::string(SALTA_DATA_DIR) + "/games/" + dir)) {
      if (entry.path().extension() != ".sgn") continue;
      for (const ParsedGame& g : Parse(ReadFile(entry.path()))) {
        if (g.error) continue;
        std::vector<ParsedGame> back = Parse(WriteRecord(g.record));
        ASSERT_EQ(back.size(), 1u) << entry.path();
        EXPECT_EQ(back[0].record, g.record) << entry.path();
        ++games;
      }
    }
  EXPECT_GT(games, 40);
}

// Damaged input: random bytes, random edits and every truncation of a real
// record parse without crashing or hanging, each game with or without an error.
TEST(RecordTest, GarbageAndTruncatedInputNeverCrash) {
  const std::string base = ReadFile(std::string(SALTA_DATA_DIR) + "/games/valid/features.sgn") +
                           ReadFile(std::string(SALTA_DATA_DIR) + "/games/invalid/syntax.sgn");
  ASSERT_GT(base.size(), 1000u);
  for (size_t n = 0; n <= base.size(); n += 7) {
    std::vector<ParsedGame> games = Parse(base.substr(0, n));
    for (const ParsedGame& g : games)
      if (g.error) {
        EXPECT_GE(g.error->at.line, 1);
      }
  }
  std::mt19937_64 rng(12345);
  const std::string alphabet = "[]{}();\"\\-.*/ \n\r\t01abc9\xff\xc3\xa9\xef\xbb\xbf";
  for (int round = 0; round < 2000; ++round) {
    std::string text = base;
    const int edits = 1 + int(rng() % 20);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0:
          text[at] = alphabet[rng() % alphabet.size()];
          break;
        case 1:
          text.erase(at, 1 + rng() % 10);
          break;
        default:
          text.insert(at, 1, char(rng() % 256));
          break;
      }
      if (text.empty()) text = "x";
    }
    if (round % 10 == 0) {
      text.resize(rng() % 2000);
      for (char& c : text) c = char(rng() % 256);
    }
    std::vector<ParsedGame> games = Parse(text);
    for (const ParsedGame& g : games) {
      if (!g.error) {
        std::vector<ParsedGame> back = Parse(WriteRecord(g.record));
        ASSERT_EQ(back.size(), 1u);
        EXPECT_EQ(back[0].record, g.record);
      }
    }
  }
}

}  // namespace
}  // namespace salta
