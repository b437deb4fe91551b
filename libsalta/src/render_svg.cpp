#include "salta/render_svg.h"

#include "absl/strings/str_cat.h"
#include "markup.h"
#include "salta/notation.h"

namespace salta {
namespace {

constexpr const char* kLightFill = "#f0d9b5";
constexpr const char* kDarkFill = "#b58863";
constexpr const char* kFrameFill = "#fbf8f1";
constexpr const char* kCoordinateFill = "#5b4636";
constexpr const char* kMarkedStroke = "#2e8b3e";
constexpr const char* kArrowColour = "#2a6fdb";
// Each side's colour, and the outline that keeps it visible on any square.
constexpr const char* kSideFill[2] = {"#ffffff", "#1b1b1b"};
constexpr const char* kSideStroke[2] = {"#1b1b1b", "#f2f2f2"};
constexpr const char* kSideName[2] = {"white", "black"};
constexpr const char* kKindName[3] = {"star", "moon", "sun"};

// The symbols, centred on (0, 0), about 34 units across (written out, not
// computed, so that every build draws the same bytes). Star: five points;
// moon: a crescent, the difference of two circles; sun: a disc and eight rays.
constexpr const char* kKindPath[3] = {
    "M0 -15.5 4.1 -4.2 16.2 -3.8 6.7 3.7 10 15.3 0 8.5 -10 15.3 -6.7 3.7 -16.2 -3.8 -4.1 "
    "-4.2Z",
    "M14.2 6.2A15.5 15.5 0 1 1 1.8 -15.4A12.5 12.5 0 0 0 14.2 6.2Z",
    "M8 0A8 8 0 1 0 -8 0A8 8 0 1 0 8 0ZM-3.1 -10 0 -17 3.1 -10ZM4.9 -9.3 12 -12 9.3 -4.9ZM10 "
    "-3.1 17 0 10 3.1ZM9.3 4.9 12 12 4.9 9.3ZM3.1 10 0 17 -3.1 10ZM-4.9 9.3 -12 12 -9.3 4.9ZM-10 "
    "3.1 -17 0 -10 -3.1ZM-9.3 -4.9 -12 -12 -4.9 -9.3Z",
};

SvgPoint Corner(const Geometry& g, int file, int rank, bool flip) {
  const BoardCell c = CellOf(g, file, rank, flip);
  return {kSvgMargin + c.column * kSvgSquare, kSvgMargin + c.row * kSvgSquare};
}

std::string SquareRect(const char* cls, const std::string& square, SvgPoint at, int inset,
                       const std::string& style) {
  return absl::StrCat(
      "<rect class=\"", cls, "\"",
      square.empty() ? std::string() : absl::StrCat(" data-square=\"", square, "\""), " x=\"",
      at.x + inset, "\" y=\"", at.y + inset, "\" width=\"", kSvgSquare - 2 * inset, "\" height=\"",
      kSvgSquare - 2 * inset, "\" ", style, "/>\n");
}

std::string MarkedRect(const Geometry& g, Square s, bool flip) {
  return SquareRect("marked", SquareName(g, s), Corner(g, g.file_of(s), g.rank_of(s), flip), 4,
                    absl::StrCat("fill=\"none\" stroke=\"", kMarkedStroke,
                                 "\" stroke-width=\"4\" stroke-opacity=\"0.9\""));
}

std::string Piece(const Geometry& g, PieceId p, Square s, bool flip) {
  const SvgPoint c = SvgSquareCentre(g, s, flip);
  const int side = int(SideOf(p));
  return absl::StrCat(
      "<g class=\"piece\" data-piece=\"", PieceName(p), "\" data-square=\"", SquareName(g, s),
      "\" data-side=\"", kSideName[side], "\" data-kind=\"", kKindName[int(KindOf(p))],
      "\" transform=\"translate(", c.x, " ", c.y, ")\">", "<path d=\"", kKindPath[int(KindOf(p))],
      "\" transform=\"translate(-5 -4)\" fill=\"", kSideFill[side], "\" stroke=\"",
      kSideStroke[side], "\" stroke-width=\"1.5\" stroke-linejoin=\"round\"/>",
      "<text x=\"14\" y=\"20\" font-family=\"sans-serif\" font-size=\"16\" font-weight=\"bold\" "
      "text-anchor=\"middle\" fill=\"",
      kSideFill[side], "\" stroke=\"", kSideStroke[side],
      "\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\">", NumberOf(p),
      "</text></g>\n");
}

}  // namespace

int SvgSize(const Geometry& g) {
  return g.size() * kSvgSquare + 2 * kSvgMargin;
}

SvgPoint SvgSquareCentre(const Geometry& g, Square s, bool flip) {
  const SvgPoint at = Corner(g, g.file_of(s), g.rank_of(s), flip);
  return {at.x + kSvgSquare / 2, at.y + kSvgSquare / 2};
}

std::string SvgArrowPoints(const Geometry& g, const std::vector<Square>& squares, bool flip) {
  if (squares.size() < 2) return "";
  std::string points;
  for (size_t i = 0; i < squares.size(); ++i) {
    SvgPoint p = SvgSquareCentre(g, squares[i], flip);
    if (i + 1 == squares.size()) {
      // Stop short so that the head ends inside the square, not over the
      // middle of the piece's symbol. Steps and jumps are diagonal, so the
      // shortening is the same along x and y.
      const SvgPoint q = SvgSquareCentre(g, squares[i - 1], flip);
      p.x += p.x > q.x ? -8 : 8;
      p.y += p.y > q.y ? -8 : 8;
    }
    absl::StrAppend(&points, i ? " " : "", p.x, ",", p.y);
  }
  return points;
}

std::string RenderSvg(const Position& pos, const SvgOptions& options) {
  const Geometry& g = pos.variant().geometry();
  const bool flip = options.view.flip;
  const int n = g.size();
  const int size = SvgSize(g);
  const std::string prefix = markup::Escape(options.id_prefix);
  std::string out;
  if (options.xml_declaration) out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  absl::StrAppend(&out,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"salta-board\" viewBox=\"0 0 ",
                  size, " ", size, "\" width=\"", size, "\" height=\"", size, "\" data-board=\"", n,
                  "\" data-rows=\"", g.rows(), "\" data-flip=\"", flip ? "true" : "false", "\">\n");
  if (!options.title.empty())
    absl::StrAppend(&out, "<title>", markup::Escape(options.title), "</title>\n");
  absl::StrAppend(&out, "<defs><marker id=\"", prefix,
                  "arrowhead\" viewBox=\"0 0 10 10\" refX=\"6\" refY=\"5\" markerWidth=\"3\" "
                  "markerHeight=\"3\" orient=\"auto\"><path d=\"M0 0L10 5L0 10Z\" fill=\"",
                  kArrowColour, "\"/></marker></defs>\n");
  absl::StrAppend(&out, "<rect class=\"frame\" width=\"", size, "\" height=\"", size, "\" fill=\"",
                  kFrameFill, "\"/>\n");

  out += "<g class=\"squares\">\n";
  for (int rank = 0; rank < n; ++rank)
    for (int file = 0; file < n; ++file) {
      const Square s = g.at(file, rank);
      const SvgPoint at = Corner(g, file, rank, flip);
      if (s == kNoSquare)
        out += SquareRect("light", "", at, 0, absl::StrCat("fill=\"", kLightFill, "\""));
      else
        out +=
            SquareRect("dark", SquareName(g, s), at, 0, absl::StrCat("fill=\"", kDarkFill, "\""));
    }
  out += "</g>\n";

  absl::StrAppend(&out,
                  "<g class=\"coordinates\" font-family=\"sans-serif\" font-size=\"14\" fill=\"",
                  kCoordinateFill, "\" text-anchor=\"middle\">\n");
  for (int i = 0; i < n; ++i) {
    const int file = flip ? n - 1 - i : i;
    const int x = kSvgMargin + i * kSvgSquare + kSvgSquare / 2;
    const std::string letter(1, char('a' + file));
    absl::StrAppend(&out, "<text x=\"", x, "\" y=\"", kSvgMargin / 2 + 5, "\">", letter, "</text>");
    absl::StrAppend(&out, "<text x=\"", x, "\" y=\"", size - kSvgMargin / 2 + 5, "\">", letter,
                    "</text>\n");
  }
  for (int i = 0; i < n; ++i) {
    const int rank = flip ? i : n - 1 - i;
    const int y = kSvgMargin + i * kSvgSquare + kSvgSquare / 2 + 5;
    absl::StrAppend(&out, "<text x=\"", kSvgMargin / 2, "\" y=\"", y, "\">", rank + 1, "</text>");
    absl::StrAppend(&out, "<text x=\"", size - kSvgMargin / 2, "\" y=\"", y, "\">", rank + 1,
                    "</text>\n");
  }
  out += "</g>\n";

  if (options.view.marked != 0) {
    out += "<g class=\"marks\">\n";
    for (Square s = 0; s < g.num_squares(); ++s)
      if (Contains(options.view.marked, s)) out += MarkedRect(g, s, flip);
    out += "</g>\n";
  }
  if (options.interactive)
    for (Side side : {Side::kWhite, Side::kBlack}) {
      absl::StrAppend(&out, "<g class=\"targets\" data-side=\"", kSideName[int(side)],
                      "\" display=\"none\">\n");
      for (Square s = 0; s < g.num_squares(); ++s)
        if (Contains(pos.targets(side), s)) out += MarkedRect(g, s, flip);
      out += "</g>\n";
    }

  out += "<g class=\"pieces\">\n";
  for (PieceId p = 0; p < kMaxPieces; ++p)
    if (const Square s = pos.square_of(p); s != kNoSquare) out += Piece(g, p, s, flip);
  out += "</g>\n";

  const std::string arrow = SvgArrowPoints(g, options.view.last_move, flip);
  if (!arrow.empty() || options.interactive)
    absl::StrAppend(&out, "<polyline class=\"last-move\" points=\"", arrow, "\"",
                    arrow.empty() ? " display=\"none\"" : "", " fill=\"none\" stroke=\"",
                    kArrowColour,
                    "\" stroke-width=\"6\" stroke-opacity=\"0.8\" stroke-linecap=\"round\" "
                    "stroke-linejoin=\"round\" marker-end=\"url(#",
                    prefix, "arrowhead)\"/>\n");
  out += "</svg>\n";
  return out;
}

}  // namespace salta
