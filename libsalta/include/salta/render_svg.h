// A position as an SVG drawing: standalone, scalable (a viewBox), valid XML,
// with no fonts, images or links outside it. docs/salta-show.md describes it.
//
// Layout, in the drawing's units: each square is kSvgSquare wide, with a
// band of kSvgMargin around the board for the file letters (top and bottom)
// and rank numbers (left and right). The board is drawn from White's side
// unless the view is flipped.
//
// Elements the tests and the viewer's script rely on:
//   <rect class="dark" data-square="c3" .../>        each dark square
//   <g class="piece" data-piece="U1" data-square="c3" data-side="white"
//      data-kind="sun" transform="translate(X Y)">   each piece, (X, Y) the
//                                                     centre of its square
//   <rect class="marked" data-square="j10" .../>     each marked square
//   <polyline class="last-move" points="..." .../>   the last move, an arrow
#pragma once

#include <string>
#include <vector>

#include "salta/board_view.h"
#include "salta/geometry.h"
#include "salta/position.h"

namespace salta {

inline constexpr int kSvgSquare = 50;
inline constexpr int kSvgMargin = 25;

struct SvgOptions {
  BoardView view;
  // Prefixes every id in the drawing (the arrowhead marker), so that several
  // drawings can share one HTML page.
  std::string id_prefix = "salta-";
  // Begin with <?xml ...?>: for a file; not inside an HTML page.
  bool xml_declaration = true;
  // The drawing's <title> (omitted when empty).
  std::string title;
  // For a page whose script shows ply after ply (render_html.h): also draw,
  // hidden, the last-move arrow when there is none, and each side's target
  // squares as <g class="targets" data-side="white|black">.
  bool interactive = false;
};

std::string RenderSvg(const Position& pos, const SvgOptions& options);

// The width and height of the drawing.
int SvgSize(const Geometry& g);

struct SvgPoint {
  int x = 0;
  int y = 0;
};
// The centre of a square in the drawing.
SvgPoint SvgSquareCentre(const Geometry& g, Square s, bool flip);

// The points attribute of the last-move arrow through `squares` (a
// BoardView::last_move), its head short of the last square's centre; ""
// for fewer than two squares.
std::string SvgArrowPoints(const Geometry& g, const std::vector<Square>& squares, bool flip);

}  // namespace salta
