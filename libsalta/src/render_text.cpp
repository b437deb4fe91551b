#include "salta/render_text.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "salta/notation.h"

namespace salta {
namespace {

// ANSI SGR sequences: 256-colour backgrounds for the squares, bold
// foregrounds for the pieces.
constexpr const char* kReset = "\033[0m";
constexpr const char* kLightBg = "\033[48;5;223m";
constexpr const char* kDarkBg = "\033[48;5;137m";
constexpr const char* kLastMoveBg = "\033[48;5;143m";
constexpr const char* kMarkedBg = "\033[48;5;108m";
constexpr const char* kWhiteFg = "\033[1;38;5;231m";
constexpr const char* kBlackFg = "\033[1;38;5;16m";
constexpr const char* kEmptyFg = "\033[38;5;58m";

// Indexed by side, then kind.
constexpr const char* kSymbols[2][3] = {{"\u2606", "\u263D", "\u263C"},
                                        {"\u2605", "\u263E", "\u2600"}};

std::string PieceText(PieceId p, bool utf8) {
  if (!utf8) return PieceName(p);
  return absl::StrCat(kSymbols[int(SideOf(p))][int(KindOf(p))], NumberOf(p));
}

// The file letters, under the first character of each square's content.
std::string FileLine(const Geometry& g, bool flip) {
  std::string line = "   ";
  for (int column = 0; column < g.size(); ++column) {
    const int file = flip ? g.size() - 1 - column : column;
    absl::StrAppend(&line, " ", std::string(1, char('a' + file)),
                    column + 1 < g.size() ? "  " : "");
  }
  return line + "\n";
}

}  // namespace

std::string RenderText(const Position& pos, const TextOptions& options) {
  const Geometry& g = pos.variant().geometry();
  const BoardView& view = options.view;
  const int n = g.size();
  std::string out = FileLine(g, view.flip);
  for (int row = 0; row < n; ++row) {
    const int rank = view.flip ? row : n - 1 - row;
    absl::StrAppend(&out, rank + 1 < 10 ? " " : "", rank + 1, " ");
    for (int column = 0; column < n; ++column) {
      const int file = view.flip ? n - 1 - column : column;
      const Square s = g.at(file, rank);
      std::string content = "  ";
      const char* bg = kLightBg;
      const char* fg = kEmptyFg;
      char open = ' ', close = ' ';
      if (s != kNoSquare) {
        bg = kDarkBg;
        const PieceId p = pos.piece_on(s);
        if (p != kNoPiece) {
          content = PieceText(p, options.utf8);
          fg = SideOf(p) == Side::kWhite ? kWhiteFg : kBlackFg;
        } else {
          content = options.utf8 ? "\u00B7\u00B7" : "..";
        }
        const bool last =
            std::find(view.last_move.begin(), view.last_move.end(), s) != view.last_move.end();
        if (last) {
          open = '[', close = ']';
          bg = kLastMoveBg;
        } else if (Contains(view.marked, s)) {
          open = '(', close = ')';
          bg = kMarkedBg;
        }
      }
      const std::string cell = absl::StrCat(std::string(1, open), content, std::string(1, close));
      if (options.color)
        absl::StrAppend(&out, bg, fg, cell, kReset);
      else
        absl::StrAppend(&out, cell);
    }
    absl::StrAppend(&out, " ", rank + 1, "\n");
  }
  absl::StrAppend(&out, FileLine(g, view.flip));
  return out;
}

}  // namespace salta
