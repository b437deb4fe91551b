#include "salta/record.h"

#include <algorithm>
#include <istream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "salta/position.h"  // kMaxPly
#include "salta/text.h"

namespace salta {
namespace {

constexpr absl::string_view kResultTokens[] = {"1-0", "0-1", "1/2-1/2", "*"};
constexpr absl::string_view kRosterTags[] = {"Event", "Site",  "Date",  "Round",
                                             "White", "Black", "Result"};
constexpr absl::string_view kSaltaTags[] = {"Rules", "Board", "Position", "Score"};

bool IsSpace(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Where the text goes on after byte c: a column a character (a UTF-8
// continuation byte is none), a line after '\n'.
void StepPast(unsigned char c, int& line, int& column) {
  if (c == '\n') {
    ++line;
    column = 1;
  } else if ((c & 0xC0) != 0x80) {
    ++column;
  }
}

// Bytes that may appear in a movetext token (a move, a number, a result).
bool IsTokenByte(unsigned char c) {
  return c > ' ' && c < 0x7f && c != '{' && c != '}' && c != ';' && c != '[' && c != ']' &&
         c != '(' && c != ')' && c != '"';
}

// Whether a movetext token ends a game: a result token, alone or glued to a
// move number the parser accepts ("12.1-0", "12...*"). GameSplitter and the
// parser must agree on this, so that a game text ends where its game does.
bool EndsGame(absl::string_view token) {
  if (IsResultToken(token)) return true;
  size_t digits = 0;
  while (digits < token.size() && absl::ascii_isdigit(token[digits])) ++digits;
  if (digits == 0 || digits > 7 ||
      token.substr(0, digits).find_first_not_of('0') == absl::string_view::npos)
    return false;
  size_t dots = 0;
  while (digits + dots < token.size() && token[digits + dots] == '.') ++dots;
  return (dots == 1 || dots == 3) && IsResultToken(token.substr(digits + dots));
}

std::string Describe(unsigned char c) {
  if (c == '\t') return "a tab";
  if (c < ' ' || c == 0x7f)
    return absl::StrCat("control character 0x", absl::Hex(c, absl::kZeroPad2));
  if (c >= 0x80) return absl::StrCat("byte 0x", absl::Hex(c, absl::kZeroPad2));
  return absl::StrCat("'", std::string(1, char(c)), "'");
}

// Parses the games of one game text.
class Parser {
 public:
  Parser(const GameText& text, const RecordLimits& limits,
         const std::function<void(ParsedGame&&)>& on_game)
      : s_(text.text),
        line_(text.start.line),
        col_(text.start.column),
        limits_(limits),
        on_game_(on_game) {
    if (line_ < 1) line_ = 1;
    if (col_ < 1) col_ = 1;
  }

  void Run(bool too_long) {
    // About one move per 6 bytes of movetext.
    game_.record.moves.reserve(std::min<size_t>(s_.size() / 6 + 1, 4096));
    if (too_long) {
      game_.record.start = Here();
      Fail(Here(), absl::StrCat("the game is longer than ", limits_.max_game_bytes,
                                " bytes; it is skipped"));
      Emit();
      return;
    }
    while (true) {
      SkipSpace();
      if (i_ >= s_.size()) break;
      if (!Item()) {
        Emit();
        return;  // the rest of the text belongs to the game in error
      }
    }
    if (started_) Emit();
  }

 private:
  SourcePos Here() const { return {line_, col_}; }

  void Advance() { StepPast(s_[i_++], line_, col_); }

  void SkipSpace() {
    while (i_ < s_.size() && IsSpace(s_[i_])) Advance();
  }

  bool Fail(SourcePos at, std::string message) {
    Start();
    game_.error.emplace();
    game_.error->at = at;
    game_.error->message = std::move(message);
    game_.error->in_movetext = in_movetext_;
    return false;
  }

  // Starts the game at the current place if it has not started yet.
  void Start() {
    if (started_) return;
    started_ = true;
    game_.record.start = Here();
    game_.record.comments = std::move(pending_comments_);
    pending_comments_.clear();
  }

  // A game is something with tags, moves, a result or an error: comments or
  // move numbers alone are not one.
  void Emit() {
    const GameRecord& r = game_.record;
    if (game_.error || !r.tags.empty() || !r.moves.empty() || !r.result.empty())
      on_game_(std::move(game_));
    game_ = ParsedGame{};
    started_ = false;
    in_movetext_ = false;
    pending_number_ = 0;
  }

  // One tag pair, comment or token; false after a syntax error.
  bool Item() {
    const unsigned char c = s_[i_];
    if (c == '[') {
      if (in_movetext_) Emit();
      Start();
      return TagPair();
    }
    if (c == '{' || c == ';') {
      std::string comment;
      if (!Comment(comment)) return false;
      if (!started_) {
        pending_comments_.push_back(std::move(comment));
      } else if (game_.record.moves.empty()) {
        game_.record.comments.push_back(std::move(comment));
      } else {
        game_.record.moves.back().comments.push_back(std::move(comment));
      }
      return true;
    }
    Start();
    in_movetext_ = true;
    if (c == '(' || c == ')') return Fail(Here(), "variations in parentheses are not supported");
    if (c == ']') return Fail(Here(), "']' without a tag pair");
    if (c == '"') return Fail(Here(), "a quoted string outside a tag pair");
    if (c == '$')
      return Fail(Here(), "NAGs ($1, $2, ...) are not supported: write a comment in braces");
    if (c >= 0x80) return NonAscii();
    if (!IsTokenByte(c))
      return Fail(Here(), absl::StrCat("unexpected ", Describe(c),
                                       ": expected a move, a move number or a result"));
    return Token();
  }

  // A byte of 0x80 or more in the movetext, outside comments: the error is
  // that character, or the byte where it is not UTF-8.
  bool NonAscii() {
    const size_t n = Utf8Length(s_, i_);
    if (n == 0)
      return Fail(Here(), absl::StrCat("invalid UTF-8 (",
                                       Describe(static_cast<unsigned char>(s_[i_])), ")"));
    return Fail(Here(), absl::StrCat("unexpected character '", s_.substr(i_, n),
                                     "': expected a move, a move number or a result"));
  }

  bool TagPair() {
    const SourcePos at = Here();
    GameRecord& g = game_.record;
    Advance();  // '['
    SkipBlanks();
    const size_t name_start = i_;
    while (i_ < s_.size() && (absl::ascii_isalnum(s_[i_]) || s_[i_] == '_')) Advance();
    const absl::string_view name = s_.substr(name_start, i_ - name_start);
    if (name.empty()) {
      if (i_ >= s_.size()) return Fail(Here(), "the tag pair ends before its name");
      return Fail(Here(),
                  absl::StrCat("expected a tag name (letters, digits, '_'), found ", DescribeAt()));
    }
    if (name.size() > limits_.max_token_bytes)
      return Fail(
          at, absl::StrCat("the tag name is longer than ", limits_.max_token_bytes, " characters"));
    SkipBlanks();
    if (i_ >= s_.size() || s_[i_] != '"')
      return Fail(Here(), absl::StrCat("expected the quoted value of tag ", name, ", found ",
                                       DescribeAt()));
    const SourcePos value_at = Here();
    Advance();
    std::string value;
    while (true) {
      if (i_ >= s_.size() || s_[i_] == '\n' || s_[i_] == '\r')
        return Fail(value_at,
                    absl::StrCat("the value of tag ", name, " is not closed by '\"' on its line"));
      const unsigned char c = s_[i_];
      if (c == '"') {
        Advance();
        break;
      }
      if (c == '\\') {
        const SourcePos esc = Here();
        Advance();
        if (i_ >= s_.size() || (s_[i_] != '"' && s_[i_] != '\\'))
          return Fail(esc, "a backslash in a tag value must be followed by '\"' or '\\'");
      } else if (c >= 0x80) {
        const size_t n = Utf8Length(s_, i_);
        if (n == 0) return Fail(Here(), absl::StrCat("invalid UTF-8 (", Describe(c), ")"));
        value.append(s_.data() + i_, n);
        for (size_t k = 0; k < n; ++k) Advance();
        continue;
      } else if (c < ' ' && c != '\t') {
        return Fail(Here(), absl::StrCat("unexpected ", Describe(c), " in a tag value"));
      }
      value.push_back(s_[i_]);
      Advance();
      if (value.size() > limits_.max_tag_value_bytes)
        return Fail(value_at, absl::StrCat("the value of tag ", name, " is longer than ",
                                           limits_.max_tag_value_bytes, " bytes"));
    }
    SkipBlanks();
    if (i_ >= s_.size() || s_[i_] != ']')
      return Fail(Here(),
                  absl::StrCat("expected ']' to close tag ", name, ", found ", DescribeAt()));
    Advance();
    for (size_t k = 0; k < g.tags.size(); ++k)
      if (g.tags[k].first == name)
        return Fail(at, absl::StrCat("tag ", name, " is given twice (first at line ",
                                     g.tag_at[k].line, ", column ", g.tag_at[k].column, ")"));
    if (g.tags.size() >= limits_.max_tags)
      return Fail(at, absl::StrCat("more than ", limits_.max_tags, " tags"));
    g.tags.emplace_back(std::string(name), std::move(value));
    g.tag_at.push_back(at);
    return true;
  }

  std::string DescribeAt() const {
    if (i_ >= s_.size()) return "the end of the game";
    if (s_[i_] == '\n' || s_[i_] == '\r') return "the end of the line";
    return Describe(s_[i_]);
  }

  void SkipBlanks() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) Advance();
  }

  // A {brace} or ;line comment; its text trimmed, CRLF turned into LF and a
  // CR alone into a space (the writer's line ends are LF: the text reads
  // back the same).
  bool Comment(std::string& out) {
    const SourcePos at = Here();
    const bool brace = s_[i_] == '{';
    Advance();
    const size_t start = i_;
    while (true) {
      if (i_ >= s_.size()) {
        if (brace) return Fail(at, "the comment is not closed by '}'");
        break;
      }
      const unsigned char c = s_[i_];
      if (brace ? c == '}' : c == '\n') {
        Advance();
        break;
      }
      if (c >= 0x80) {
        const size_t n = Utf8Length(s_, i_);
        if (n == 0) return Fail(Here(), absl::StrCat("invalid UTF-8 (", Describe(c), ")"));
        out.append(s_.data() + i_, n);
        for (size_t k = 0; k < n; ++k) Advance();
      } else {
        if (c < ' ' && c != '\t' && c != '\n' && c != '\r')
          return Fail(Here(), absl::StrCat("unexpected ", Describe(c), " in a comment"));
        if (c != '\r')
          out.push_back(char(c));
        else if (i_ + 1 >= s_.size() || s_[i_ + 1] != '\n')
          out.push_back(' ');
        Advance();
      }
      if (i_ - start > limits_.max_comment_bytes)
        return Fail(at, absl::StrCat("the comment is longer than ", limits_.max_comment_bytes,
                                     " bytes (or not closed by '}')"));
    }
    const absl::string_view trimmed = absl::StripAsciiWhitespace(out);
    if (trimmed.size() != out.size()) out = std::string(trimmed);
    return true;
  }

  // A move number, a move (possibly right after a number: "12.c3-d4") or a result.
  bool Token() {
    const SourcePos at = Here();
    const size_t start = i_;
    while (i_ < s_.size() && IsTokenByte(s_[i_])) {
      Advance();
      if (i_ - start > limits_.max_token_bytes)
        return Fail(at,
                    absl::StrCat("a token longer than ", limits_.max_token_bytes, " characters"));
    }
    // A character no token holds, glued to one ("h8-\xc5g7"): that is the
    // error, not the token cut short before it.
    if (i_ < s_.size() && static_cast<unsigned char>(s_[i_]) >= 0x80) return NonAscii();
    absl::string_view token = s_.substr(start, i_ - start);
    if (IsResultToken(token)) {
      game_.record.result = std::string(token);
      game_.record.result_at = at;
      Emit();
      return true;
    }
    SourcePos move_at = at;
    if (absl::ascii_isdigit(token[0])) {
      size_t k = 0;
      while (k < token.size() && absl::ascii_isdigit(token[k])) ++k;
      if (k < token.size() && token[k] == '.') {
        size_t dots = 0;
        while (k + dots < token.size() && token[k + dots] == '.') ++dots;
        if (dots != 1 && dots != 3)
          return Fail(at, absl::StrCat("move number \"", token.substr(0, k + dots),
                                       "\": write 12. before White's move and 12... before "
                                       "Black's"));
        if (k > 7)
          return Fail(at, absl::StrCat("move number \"", token.substr(0, k), "\" is too large"));
        int number = 0;
        for (size_t d = 0; d < k; ++d) number = number * 10 + (token[d] - '0');
        if (number == 0) return Fail(at, "move numbers start at 1");
        pending_number_ = number;
        pending_black_ = dots == 3;
        pending_number_at_ = at;
        token.remove_prefix(k + dots);
        if (token.empty()) return true;
        move_at = SourcePos{at.line, at.column + int(k + dots)};
        if (IsResultToken(token)) {  // "12.1-0": the number, then the result
          game_.record.result = std::string(token);
          game_.record.result_at = move_at;
          Emit();
          return true;
        }
      }
    }
    return MoveToken(token, move_at);
  }

  bool MoveToken(absl::string_view token, SourcePos at) {
    // Annotation suffix: ! ? !! ?? !? ?!
    size_t end = token.size();
    while (end > 0 && (token[end - 1] == '!' || token[end - 1] == '?')) --end;
    const absl::string_view annotation = token.substr(end);
    const absl::string_view move = token.substr(0, end);
    if (annotation.size() > 2)
      return Fail(at, absl::StrCat("\"", token, "\": an annotation is at most two of ! and ?"));
    if (IsResultToken(move))
      return Fail(at, absl::StrCat("\"", token, "\": a result takes no annotation"));
    // "--", or squares (letters and digits) joined by single dashes.
    bool ok = move == "--";
    if (!ok && !move.empty()) {
      ok = move.front() != '-' && move.back() != '-';
      int dashes = 0;
      for (size_t k = 0; ok && k < move.size(); ++k) {
        if (move[k] == '-') {
          ++dashes;
          ok = move[k + 1] != '-';
        } else {
          ok = absl::ascii_isalnum(move[k]);
        }
      }
      ok = ok && dashes > 0;
    }
    if (!ok) {
      Fail(at, absl::StrCat("unexpected \"", token,
                            "\": expected a move such as c3-d4 or 32-43, -- for a pass, "
                            "a move number such as 12. or a result (1-0 0-1 1/2-1/2 *)"));
      game_.error->token = std::string(token);
      return false;
    }
    if (int(game_.record.moves.size()) >= kMaxRecordMoves)
      return Fail(at, absl::StrCat("more than ", kMaxRecordMoves, " moves in one game"));
    RecordMove& m = game_.record.moves.emplace_back();
    m.text = std::string(move);
    m.annotation = std::string(annotation);
    m.at = at;
    m.number = pending_number_;
    m.number_black = pending_black_;
    m.number_at = pending_number_at_;
    pending_number_ = 0;
    pending_black_ = false;
    pending_number_at_ = {};
    return true;
  }

  absl::string_view s_;
  size_t i_ = 0;
  int line_, col_;
  const RecordLimits& limits_;
  const std::function<void(ParsedGame&&)>& on_game_;
  ParsedGame game_;
  bool started_ = false;
  bool in_movetext_ = false;
  std::vector<std::string> pending_comments_;
  int pending_number_ = 0;
  bool pending_black_ = false;
  SourcePos pending_number_at_;
};

std::string EscapeTagValue(absl::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c == '\n' || c == '\r' ? ' ' : c);
  }
  return out;
}

// Lays out movetext tokens in lines of at most 79 characters.
class LineWriter {
 public:
  explicit LineWriter(std::string& out) : out_(out) {}
  void Add(absl::string_view token) {
    if (line_len_ > 0 && line_len_ + 1 + token.size() > 79) {
      out_.push_back('\n');
      line_len_ = 0;
    } else if (line_len_ > 0) {
      out_.push_back(' ');
      ++line_len_;
    }
    out_.append(token.data(), token.size());
    const size_t nl = token.rfind('\n');
    line_len_ = nl == absl::string_view::npos ? line_len_ + token.size() : token.size() - nl - 1;
    if (force_break_) {
      out_.push_back('\n');
      line_len_ = 0;
      force_break_ = false;
    }
  }
  void AddComment(absl::string_view text) {
    if (text.find('}') == absl::string_view::npos) {
      Add(absl::StrCat("{", text, "}"));
      return;
    }
    // A ';' comment runs to the end of the line.
    std::string flat(text);
    std::replace(flat.begin(), flat.end(), '\n', ' ');
    force_break_ = true;
    Add(absl::StrCat(";", flat));
  }
  void End() {
    if (line_len_ > 0) out_.push_back('\n');
    line_len_ = 0;
  }

 private:
  std::string& out_;
  size_t line_len_ = 0;
  bool force_break_ = false;
};

}  // namespace

bool IsResultToken(absl::string_view token) {
  for (absl::string_view r : kResultTokens)
    if (token == r) return true;
  return false;
}

const std::string* GameRecord::Tag(absl::string_view name) const {
  for (const auto& [n, v] : tags)
    if (n == name) return &v;
  return nullptr;
}

SourcePos GameRecord::TagAt(absl::string_view name) const {
  for (size_t k = 0; k < tags.size(); ++k)
    if (tags[k].first == name && k < tag_at.size()) return tag_at[k];
  return {};
}

void GameRecord::SetTag(absl::string_view name, absl::string_view value) {
  for (auto& [n, v] : tags)
    if (n == name) {
      v = std::string(value);
      return;
    }
  tags.emplace_back(std::string(name), std::string(value));
  tag_at.resize(tags.size());
}

bool GameRecord::operator==(const GameRecord& o) const {
  auto sorted = [](std::vector<std::pair<std::string, std::string>> t) {
    std::sort(t.begin(), t.end());
    return t;
  };
  if (moves.size() != o.moves.size() || result != o.result || comments != o.comments ||
      sorted(tags) != sorted(o.tags))
    return false;
  for (size_t k = 0; k < moves.size(); ++k)
    if (moves[k].text != o.moves[k].text || moves[k].annotation != o.moves[k].annotation ||
        moves[k].comments != o.moves[k].comments)
      return false;
  return true;
}

GameSplitter::GameSplitter(std::istream& in, const RecordLimits& limits)
    : in_(in), limits_(limits), buf_(size_t{1} << 16) {}

bool GameSplitter::Fill() {
  if (eof_) return false;
  in_.read(buf_.data(), std::streamsize(buf_.size()));
  end_ = size_t(in_.gcount());
  pos_ = 0;
  if (in_.bad()) io_error_ = true;
  if (end_ == 0) eof_ = true;
  return end_ > 0;
}

bool GameSplitter::Next(GameText& out) {
  out.text.clear();
  out.too_long = false;
  if (first_) {
    first_ = false;
    Fill();
    if (end_ - pos_ >= 3 && (unsigned char)buf_[0] == 0xEF && (unsigned char)buf_[1] == 0xBB &&
        (unsigned char)buf_[2] == 0xBF)
      pos_ = 3;
  }
  // White space before a game is not the game's: it counts toward no
  // limit, and the game starts where its text does.
  for (;;) {
    if (pos_ >= end_ && !Fill()) break;
    if (!IsSpace(buf_[pos_])) break;
    StepPast(buf_[pos_++], line_, column_);
  }
  enum State { kTop, kTag, kTagString, kTagEscape, kBrace, kSemi };
  State state = kTop;
  bool movetext = false;
  size_t comment_len = 0;
  // The movetext token being read (its first bytes: a token that ends a
  // game is short), so that a game ends after its result token.
  char token[16];
  size_t token_len = 0;
  out.start = {line_, column_};
  bool boundary = false;
  while (!boundary) {
    if (pos_ >= end_ && !Fill()) break;
    const size_t run = pos_;
    while (pos_ < end_) {
      const unsigned char c = buf_[pos_];
      switch (state) {
        case kTop:
          if (IsTokenByte(c)) {
            if (token_len < sizeof token) token[token_len] = char(c);
            ++token_len;
            movetext = true;
            break;
          }
          if (token_len > 0) {
            if (token_len <= sizeof token && EndsGame(absl::string_view(token, token_len))) {
              boundary = true;
              break;
            }
            token_len = 0;
          }
          if (c == '[') {
            if (movetext) {
              boundary = true;
              break;
            }
            state = kTag;
          } else if (c == '{') {
            state = kBrace;
            comment_len = 0;
          } else if (c == ';') {
            state = kSemi;
          } else if (!IsSpace(c)) {
            movetext = true;
          }
          break;
        case kTag:
          if (c == '"')
            state = kTagString;
          else if (c == ']' || c == '\n')
            state = kTop;
          break;
        case kTagString:
          if (c == '\\')
            state = kTagEscape;
          else if (c == '"')
            state = kTag;
          else if (c == '\n')
            state = kTop;
          break;
        case kTagEscape:
          state = c == '\n' ? kTop : kTagString;
          break;
        case kBrace:
          if (c == '}' || ++comment_len > limits_.max_comment_bytes) state = kTop;
          break;
        case kSemi:
          if (c == '\n') state = kTop;
          break;
      }
      if (boundary) break;
      StepPast(c, line_, column_);
      ++pos_;
    }
    const size_t n = pos_ - run;
    if (out.text.size() + n > limits_.max_game_bytes) {
      out.text.append(buf_.data() + run, limits_.max_game_bytes - out.text.size());
      out.too_long = true;
    } else if (!out.too_long) {
      out.text.append(buf_.data() + run, n);
    }
  }
  // Only white space was left after the last game where nothing was read.
  return !out.text.empty() || out.too_long;
}

void ParseGames(const GameText& text, const std::function<void(ParsedGame&&)>& on_game,
                const RecordLimits& limits) {
  Parser(text, limits, on_game).Run(text.too_long);
}

std::vector<ParsedGame> ParseRecords(absl::string_view text, const RecordLimits& limits) {
  std::istringstream in{std::string(text)};
  RecordReader reader(in, limits);
  std::vector<ParsedGame> games;
  ParsedGame g;
  while (reader.Next(g)) games.push_back(std::move(g));
  return games;
}

RecordReader::RecordReader(std::istream& in, const RecordLimits& limits)
    : splitter_(in, limits), limits_(limits) {}

bool RecordReader::Next(ParsedGame& out) {
  while (next_ >= queue_.size()) {
    queue_.clear();
    next_ = 0;
    GameText text;
    if (!splitter_.Next(text)) return false;
    ParseGames(
        text, [this](ParsedGame&& g) { queue_.push_back(std::move(g)); }, limits_);
  }
  out = std::move(queue_[next_++]);
  return true;
}

Numbering NumberingOf(const GameRecord& game) {
  Numbering n;
  const std::string* position = game.Tag("Position");
  if (position == nullptr) return n;
  std::vector<absl::string_view> fields = absl::StrSplit(*position, ' ', absl::SkipWhitespace());
  if (fields.empty() || fields[0] == "start") return n;
  n.black_first = fields[0] == "b" || fields[0] == "B";
  if (fields.size() >= 3) {
    int ply = 0;
    if (ParseDigits(fields[2], ply) && ply <= kMaxPly) n.first_number = ply / 2 + 1;
  }
  return n;
}

std::string WriteRecord(const GameRecord& game) {
  std::string out;
  std::vector<bool> written(game.tags.size(), false);
  auto write_tag = [&](size_t k) {
    written[k] = true;
    absl::StrAppend(&out, "[", game.tags[k].first, " \"", EscapeTagValue(game.tags[k].second),
                    "\"]\n");
  };
  for (absl::string_view name : kRosterTags)
    for (size_t k = 0; k < game.tags.size(); ++k)
      if (!written[k] && game.tags[k].first == name) write_tag(k);
  for (absl::string_view name : kSaltaTags)
    for (size_t k = 0; k < game.tags.size(); ++k)
      if (!written[k] && game.tags[k].first == name) write_tag(k);
  for (size_t k = 0; k < game.tags.size(); ++k)
    if (!written[k]) write_tag(k);
  if (!game.tags.empty()) out.push_back('\n');

  LineWriter lines(out);
  for (const std::string& c : game.comments) lines.AddComment(c);
  const Numbering numbering = NumberingOf(game);
  int number = numbering.first_number;
  bool black = numbering.black_first;
  bool need_number = true;
  for (const RecordMove& m : game.moves) {
    // A number stays on the line of its move.
    if (!black) {
      lines.Add(absl::StrCat(number, ". ", m.text, m.annotation));
    } else if (need_number) {
      lines.Add(absl::StrCat(number, "... ", m.text, m.annotation));
    } else {
      lines.Add(absl::StrCat(m.text, m.annotation));
    }
    for (const std::string& c : m.comments) lines.AddComment(c);
    need_number = !m.comments.empty();
    if (black) ++number;
    black = !black;
  }
  if (!game.result.empty()) lines.Add(game.result);
  lines.End();
  return out;
}

}  // namespace salta
