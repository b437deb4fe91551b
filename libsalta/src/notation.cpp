#include "salta/notation.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "salta/movegen.h"
#include "salta/text.h"

namespace salta {
namespace {

constexpr char kKindLetters[3] = {'S', 'M', 'U'};
constexpr absl::string_view kKindNames[3] = {"star", "moon", "sun"};

// Messages quote the input: escaped where it is not valid UTF-8.
absl::Status Invalid(absl::string_view what, absl::string_view why) {
  return absl::InvalidArgumentError(EscapeForMessage(absl::StrCat(what, ": ", why)));
}

bool AllDigits(absl::string_view text) {
  for (char c : text)
    if (!absl::ascii_isdigit(c)) return false;
  return !text.empty();
}

}  // namespace

absl::string_view SideName(Side s) {
  return s == Side::kWhite ? "White" : "Black";
}

std::string SquareName(const Geometry& g, Square s) {
  return absl::StrCat(std::string(1, char('a' + g.file_of(s))), g.rank_of(s) + 1);
}

std::string SquareNumber(const Geometry& g, Square s) {
  return absl::StrCat(g.rank_of(s) + 1, s % g.half() + 1);
}

absl::StatusOr<Square> ParseSquare(const Geometry& g, absl::string_view text) {
  const std::string quoted = absl::StrCat("square \"", text, "\"");
  if (text.empty()) return Invalid("square", "missing");
  const std::string size = absl::StrCat(g.size(), "x", g.size());
  if (AllDigits(text)) {
    // Numeric: the last digit is the index on the rank, the rest the rank.
    int rank = 0;
    if (text.size() < 2 || !ParseDigits(text.substr(0, text.size() - 1), rank))
      return Invalid(quoted, "a numeric square has a rank and an index, e.g. 32");
    const int index = text.back() - '0';
    if (rank < 1 || rank > g.size())
      return Invalid(quoted, absl::StrCat("rank ", rank, " is off the ", size, " board"));
    if (index < 1 || index > g.half())
      return Invalid(quoted, absl::StrCat("index ", index, " is not 1 to ", g.half()));
    return (rank - 1) * g.half() + index - 1;
  }
  const char letter = absl::ascii_tolower(text[0]);
  int rank = 0;
  if (!absl::ascii_isalpha(letter) || !ParseDigits(text.substr(1), rank))
    return Invalid(quoted, "expected a file letter and a rank, e.g. c3, or a number, e.g. 32");
  const int file = letter - 'a';
  if (file >= g.size())
    return Invalid(quoted,
                   absl::StrCat("file ", std::string(1, letter), " is off the ", size, " board"));
  if (rank < 1 || rank > g.size())
    return Invalid(quoted, absl::StrCat("rank ", rank, " is off the ", size, " board"));
  const Square s = g.at(file, rank - 1);
  if (s == kNoSquare) return Invalid(quoted, "is a light square; pieces stand on dark squares");
  return s;
}

absl::StatusOr<MoveText> ParseMoveText(const Geometry& g, absl::string_view text) {
  if (text == "--") return MoveText{};
  MoveText move;
  std::vector<absl::string_view> parts = absl::StrSplit(text, '-');
  if (parts.size() < 2)
    return Invalid(absl::StrCat("move \"", text, "\""),
                   "expected squares joined by '-', e.g. c3-d4, or -- for a pass");
  const std::string where = absl::StrCat("move \"", text, "\"");
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].empty())
      return Invalid(where, i == 0                  ? "no square before the first '-'"
                            : i + 1 == parts.size() ? "no square after the last '-'"
                                                    : "no square between two '-'");
    absl::StatusOr<Square> s = ParseSquare(g, parts[i]);
    if (!s.ok()) return Invalid(where, s.status().message());
    move.path.push_back(*s);
  }
  return move;
}

std::vector<Square> JumpPath(const Position& pos, Move m) {
  // Breadth-first layers of the jump walk from the moving piece; a shortest
  // path never visits a square twice, so it is a chain the rules allow. The
  // path is read back from the last layer, one jump at a time.
  const Variant& v = pos.variant();
  const Geometry& g = v.geometry();
  const Side side = pos.side_to_move();
  const Bitboard occupied = pos.occupied() & ~SquareBit(m.from);
  const Bitboard jumpable =
      Jumpable(v.rules(), occupied & pos.pieces(side), pos.pieces(Opponent(side)));
  const Bitboard empty = g.all() & ~occupied & ~SquareBit(m.from);
  const Direction* dirs = v.jump_dirs(side).data();
  const int n = v.num_jump_dirs();
  std::vector<Bitboard> layers{SquareBit(m.from)};
  Bitboard seen = SquareBit(m.from);
  while (!Contains(layers.back(), m.to)) {
    const Bitboard next = JumpStep(g, dirs, n, layers.back(), empty, jumpable) & ~seen;
    if (next == 0) return {};
    seen |= next;
    layers.push_back(next);
  }
  std::vector<Square> path(layers.size() - 1);
  Square at = m.to;
  for (size_t i = layers.size() - 1; i > 0; --i) {
    path[i - 1] = at;
    // A square of the layer before from which one jump lands on `at`.
    for (Bitboard prev = layers[i - 1]; prev;) {
      const Square s = PopLowest(prev);
      if (Contains(JumpStep(g, dirs, n, SquareBit(s), empty, jumpable), at)) {
        at = s;
        break;
      }
    }
  }
  return path;
}

std::string MoveToString(const Position& pos, Move m) {
  if (m.is_pass()) return "--";
  const Geometry& g = pos.variant().geometry();
  std::string text = SquareName(g, m.from);
  if (m.jump && pos.variant().rules().chain) {
    std::vector<Square> path = JumpPath(pos, m);
    if (!path.empty()) {
      for (Square s : path) absl::StrAppend(&text, "-", SquareName(g, s));
      return text;
    }
  }
  return absl::StrCat(text, "-", SquareName(g, m.to));
}

std::string PieceName(PieceId p) {
  char kind = kKindLetters[int(KindOf(p))];
  if (SideOf(p) == Side::kBlack) kind = absl::ascii_tolower(kind);
  return absl::StrCat(std::string(1, kind), NumberOf(p));
}

std::string PieceDescription(PieceId p) {
  return absl::StrCat(SideName(SideOf(p)), " ", kKindNames[int(KindOf(p))], " ", NumberOf(p));
}

std::string PositionToString(const Position& pos) {
  const Geometry& g = pos.variant().geometry();
  std::vector<std::string> pieces;
  for (PieceId p = 0; p < kMaxPieces; ++p)
    if (Square s = pos.square_of(p); s != kNoSquare)
      pieces.push_back(absl::StrCat(PieceName(p), SquareName(g, s)));
  const char* state = pos.phase() == Phase::kPlay        ? "-"
                      : pos.phase() == Phase::kExtraMove ? "x"
                                                         : "#";
  return absl::StrCat(pos.side_to_move() == Side::kWhite ? "w" : "b", " ",
                      pieces.empty() ? "-" : absl::StrJoin(pieces, ","), " ", pos.ply(), " ",
                      state);
}

absl::StatusOr<Position> ParsePosition(const Variant& variant, absl::string_view text) {
  const absl::string_view trimmed = absl::StripAsciiWhitespace(text);
  if (trimmed == "start") return Position::Start(variant);
  const Geometry& g = variant.geometry();
  std::vector<absl::string_view> fields =
      absl::StrSplit(trimmed, absl::ByAnyChar(" \t"), absl::SkipEmpty());
  const absl::string_view kShape =
      "expected \"<side w|b> <pieces> [<ply> [<state -|x|#>]]\" or \"start\"";
  if (fields.size() < 2 || fields.size() > 4)
    return Invalid("position", absl::StrCat("has ", fields.size(),
                                            fields.size() == 1 ? " field; " : " fields; ", kShape));

  Side side;
  if (fields[0] == "w" || fields[0] == "W") {
    side = Side::kWhite;
  } else if (fields[0] == "b" || fields[0] == "B") {
    side = Side::kBlack;
  } else if (fields[0] == "start") {
    return Invalid("position \"start\"", "stands alone: it has no other fields");
  } else {
    return Invalid(absl::StrCat("position field 1 \"", fields[0], "\""),
                   "the side to move must be w or b");
  }

  std::vector<std::pair<PieceId, Square>> pieces;
  std::array<absl::string_view, kMaxPieces> placed_by{};
  std::array<absl::string_view, kMaxSquares> square_by{};
  if (fields[1] != "-") {
    std::vector<absl::string_view> tokens = absl::StrSplit(fields[1], ',');
    for (size_t i = 0; i < tokens.size(); ++i) {
      const absl::string_view token = tokens[i];
      const std::string where = absl::StrCat("position field 2, piece ", i + 1, " \"", token, "\"");
      if (token.size() < 4)
        return Invalid(where, "expected kind, number and square, e.g. S1a1 (White star 1 on a1)");
      const char letter = token[0];
      int kind = -1;
      for (int k = 0; k < 3; ++k)
        if (absl::ascii_toupper(letter) == kKindLetters[k]) kind = k;
      if (kind < 0)
        return Invalid(where,
                       absl::StrCat("unknown kind '",
                                    token.substr(0, std::max<size_t>(1, Utf8Length(token, 0))),
                                    "': S star, M moon, U sun; uppercase for White, "
                                    "lowercase for Black"));
      const Side owner = absl::ascii_isupper(letter) ? Side::kWhite : Side::kBlack;
      const int number = token[1] - '0';
      if (number < 1 || number > kMaxNumber)
        return Invalid(where, "the piece number must be a digit from 1 to 5");
      const PieceId p = MakePiece(owner, Kind(kind), number);
      if (!variant.HasPiece(p))
        return Invalid(where, absl::StrCat(PieceDescription(p), " does not exist on a ",
                                           g.ToString(), " board"));
      absl::StatusOr<Square> s = ParseSquare(g, token.substr(2));
      // A square begins with a digit only where it is a number (S132: star
      // 1 on square 32), so "S10a1" has a number of two digits.
      if (!s.ok() && absl::ascii_isdigit(token[2]) && !AllDigits(token.substr(2)))
        return Invalid(where, "the piece number must be a digit from 1 to 5");
      if (!s.ok()) return Invalid(where, s.status().message());
      if (!placed_by[p].empty())
        return Invalid(where, absl::StrCat(PieceDescription(p), " is already placed by \"",
                                           placed_by[p], "\""));
      if (!square_by[*s].empty())
        return Invalid(where, absl::StrCat("square ", SquareName(g, *s), " is already taken by \"",
                                           square_by[*s], "\""));
      placed_by[p] = token;
      square_by[*s] = token;
      pieces.emplace_back(p, *s);
    }
  }

  int ply = 0;
  if (fields.size() >= 3 && (fields[2].size() > 7 || !ParseDigits(fields[2], ply) || ply > kMaxPly))
    return Invalid(
        absl::StrCat("position field 3 \"", fields[2], "\""),
        absl::StrCat("the ply must be a whole number from 0 to ", kMaxPly, " (half-moves played)"));
  absl::StatusOr<Position> pos = Position::Make(variant, pieces, side, ply);
  if (!pos.ok()) return Invalid("position", pos.status().message());
  if (fields.size() == 4) {
    const absl::string_view state = fields[3];
    const Phase derived = pos->phase();
    const absl::string_view expected = derived == Phase::kPlay        ? "-"
                                       : derived == Phase::kExtraMove ? "x"
                                                                      : "#";
    if (state != "-" && state != "x" && state != "#")
      return Invalid(absl::StrCat("position field 4 \"", state, "\""),
                     "the state must be - (in play), x (Black's extra move) or # (over)");
    if (state != expected) {
      std::string why =
          derived == Phase::kPlay ? "the game is in play: no goal is completed and no move limit "
                                    "reached"
          : derived == Phase::kExtraMove
              ? "White has completed its goal and Black is to make its extra move"
              : "the game is over (a goal completed, the extra move played, the move limit "
                "reached, or block=lose and the side to move has no move)";
      return Invalid(
          absl::StrCat("position field 4 \"", state, "\""),
          absl::StrCat("contradicts the position: ", why, ", so the state is ", expected));
    }
  }
  return pos;
}

}  // namespace salta
