// A game viewer: one self-contained HTML page for one or more games (a list
// to pick from), each with its board (the SVG of render_svg.h), tags, move
// list and result; buttons and the arrow keys (Home and End too) step
// through the plies, showing each ply's position text. docs/salta-show.md
// describes the page.
//
// Every ply's data (piece squares, position text, arrow, status) is
// computed by the library (game_view.h) and embedded as JSON; the page's
// script only moves the drawn pieces to where the data says. The page loads
// nothing: no network, fonts or external scripts (a Content-Security-Policy
// forbids them), so it works from a file, offline.
//
// For tests and scripts, the page has: #position-text (the shown ply's
// position text), #status, #ply (the ply number), each game's board in
// #boards > .board[data-game=K] (K from 0, hidden unless shown) with the
// piece elements of render_svg.h, each game's move list entries
// .move[data-ply=P], and its result section .result with data-result,
// data-score, data-exact, data-white-count and data-black-count.
#pragma once

#include <string>
#include <vector>

#include "salta/game_view.h"

namespace salta {

struct HtmlOptions {
  std::string title = "Salta";  // the page's title, e.g. the record file's name
  bool flip = false;            // boards seen from Black's side
  bool targets = false;         // the side to move's target squares marked at first
};

std::string RenderHtml(const std::vector<GameView>& games, const HtmlOptions& options);

}  // namespace salta
