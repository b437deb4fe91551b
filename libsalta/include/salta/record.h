// Game records: the PGN-style text format of docs/records.md.
//
//   [Event "Club championship"]
//   [Rules "standard move-limit=120"]
//   [Result "1-0"]
//
//   1. c3-d4 h8-g7 2. d4-e5 {a comment} f8-g7 ... 1-0
//
// Reading is streaming: GameSplitter cuts an input stream into the text of one
// game at a time (memory bounded by the longest game, itself bounded), and
// ParseGames turns that text into GameRecords. Every syntax error carries the
// line and column where it is. RecordReader does both.
//
// The parser checks syntax only; what a move means (legal or not, on which
// board) is the business of replay.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace salta {

// A place in the input: line and column from 1. Columns count characters
// (UTF-8 code points); a byte-order mark at the start of a file is not counted.
struct SourcePos {
  int line = 0;
  int column = 0;
  auto operator<=>(const SourcePos&) const = default;  // in the order of the text
};

// One move of the movetext, as written.
struct RecordMove {
  std::string text;                   // "c3-d4", "32-43", "c3-e5-g7", "--"
  std::string annotation;             // a suffix such as "!" or "?!" ("" when none)
  SourcePos at;                       // where the move starts
  int number = 0;                     // the move number written just before it; 0 when none
  bool number_black = false;          // that number was written "N..." (Black to move)
  SourcePos number_at;                // where that number starts
  std::vector<std::string> comments;  // the comments that follow the move
};

struct GameRecord {
  // Tag pairs in the order read. Names are unique within a game.
  std::vector<std::pair<std::string, std::string>> tags;
  std::vector<SourcePos> tag_at;      // where each tag pair starts (parallel to tags)
  std::vector<std::string> comments;  // comments before the first move
  std::vector<RecordMove> moves;
  std::string result;   // the result token ("1-0", "0-1", "1/2-1/2", "*"); "" when missing
  SourcePos start;      // where the game starts
  SourcePos result_at;  // where the result token is

  // The value of a tag, or nullptr.
  const std::string* Tag(absl::string_view name) const;
  SourcePos TagAt(absl::string_view name) const;
  // Sets a tag, replacing its value if present.
  void SetTag(absl::string_view name, absl::string_view value);

  // Same tags (in any order), comments, moves (text, annotation, comments)
  // and result. Where things were in the input does not count.
  bool operator==(const GameRecord& o) const;
};

// A syntax error: where, and what is wrong.
struct RecordError {
  SourcePos at;
  std::string message;
  bool in_movetext = false;  // after the tag section: it concerns the next move
  std::string token;         // the token at fault, when it is a malformed move
};

// A game as read: what could be read of it and, when it is malformed, the
// first syntax error. After an error the game holds the tags and moves read
// before it; the rest of the game's text is skipped.
struct ParsedGame {
  GameRecord record;
  std::optional<RecordError> error;
};

// The most moves one game of a record may hold: the reader refuses a game
// with more (a syntax error), so nothing writes one.
inline constexpr int kMaxRecordMoves = 100000;

// Limits that keep memory bounded on any input. Exceeding one is a syntax
// error of the game concerned (the reader then goes on with the next game).
struct RecordLimits {
  size_t max_game_bytes = size_t{4} << 20;  // the text of one game
  size_t max_comment_bytes = size_t{64} << 10;
  size_t max_token_bytes = 256;  // a move, number or result token; a tag name
  size_t max_tag_value_bytes = 4096;
  size_t max_tags = 256;
};

// The text of one game, where it starts in the input, and whether it had to
// be cut at max_game_bytes.
struct GameText {
  std::string text;
  SourcePos start;
  bool too_long = false;
};

// Cuts a stream into game texts. A game ends after its result token (as in
// PGN, with or without tags) or where a '[' outside comments and tag values
// follows its movetext. Only the current game's text is held in memory, so
// memory is bounded by the longest game whatever the number of games.
class GameSplitter {
 public:
  explicit GameSplitter(std::istream& in, const RecordLimits& limits = {});
  // The next game text; false at the end of the input.
  bool Next(GameText& out);
  // Whether reading failed for another reason than the end of input.
  bool io_error() const { return io_error_; }

 private:
  bool Fill();

  std::istream& in_;
  RecordLimits limits_;
  std::vector<char> buf_;
  size_t pos_ = 0, end_ = 0;
  bool eof_ = false;
  bool io_error_ = false;
  bool first_ = true;
  int line_ = 1, column_ = 1;
};

// Parses the games in a game text (usually one). Calls `on_game` for each,
// in order. Never fails as a whole: errors are per game.
void ParseGames(const GameText& text, const std::function<void(ParsedGame&&)>& on_game,
                const RecordLimits& limits = {});
// The same for a whole text in memory (as if it were a file: it is split first).
std::vector<ParsedGame> ParseRecords(absl::string_view text, const RecordLimits& limits = {});

// Streaming reader: one game at a time.
class RecordReader {
 public:
  explicit RecordReader(std::istream& in, const RecordLimits& limits = {});
  // The next game; false at the end of the input.
  bool Next(ParsedGame& out);
  bool io_error() const { return splitter_.io_error(); }

 private:
  GameSplitter splitter_;
  RecordLimits limits_;
  std::vector<ParsedGame> queue_;
  size_t next_ = 0;
};

// Move numbering of a game: the side that makes the first recorded move and
// the number of that move, read from the Position tag without a board (its
// first field w|b and its third field, the ply). Defaults: White, 1.
struct Numbering {
  bool black_first = false;
  int first_number = 1;
};
Numbering NumberingOf(const GameRecord& game);

// The canonical text of a game: the seven standard tags in their usual order
// (Event Site Date Round White Black Result) where present, then Rules Board
// Position Score, then the other tags in their order; a blank line; the
// movetext with move numbers, lines of at most 79 characters where the tokens
// allow, comments in braces; the result token; a blank line.
// ParseRecords(WriteRecord(g)) gives back g for every g that was read.
std::string WriteRecord(const GameRecord& game);

// The result token of a result: "1-0", "0-1", "1/2-1/2", "*".
bool IsResultToken(absl::string_view token);

}  // namespace salta
