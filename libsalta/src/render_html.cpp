#include "salta/render_html.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "markup.h"
#include "nlohmann/json.hpp"
#include "salta/game.h"
#include "salta/notation.h"
#include "salta/render_svg.h"

namespace salta {
namespace {

using markup::Escape;

constexpr const char* kSideKey[2] = {"white", "black"};

// Forbids every load: the page must work from a file, offline.
constexpr const char* kPolicy =
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'";

constexpr const char* kStyle = R"css(
:root { color-scheme: light; }
body { font-family: system-ui, sans-serif; margin: 0 auto; padding: 0.5em 1em 2em;
       max-width: 1100px; color: #222; background: #fdfcf8; line-height: 1.4; }
h1 { font-size: 1.4em; margin: 0.4em 0; }
h2 { font-size: 1.15em; margin: 0 0 0.4em; }
h3 { font-size: 1em; margin: 0.8em 0 0.3em; }
#games ol { margin: 0.3em 0 0.8em; padding-left: 1.5em; columns: 16em; }
#games a { color: #1d4f91; }
#games a.current { font-weight: bold; color: #000; }
main { display: grid; grid-template-columns: minmax(0, 560px) minmax(0, 1fr); gap: 0.5em 1.5em;
       align-items: start; }
@media (max-width: 820px) { main { grid-template-columns: minmax(0, 1fr); } }
.board svg { display: block; width: 100%; height: auto; max-width: 560px; }
#controls { display: flex; align-items: center; gap: 0.4em; flex-wrap: wrap; margin: 0.4em 0; }
#controls button { font-size: 1.3em; min-width: 2.4em; padding: 0.1em 0.4em; }
#ply { min-width: 5.5em; text-align: center; font-variant-numeric: tabular-nums; }
#move-text { font-weight: bold; }
#position-text { display: block; word-break: break-all; font-size: 0.85em; background: #f1ede2;
                 padding: 0.3em 0.5em; border-radius: 4px; }
#comment { font-style: italic; }
table.tags { border-collapse: collapse; margin-bottom: 0.5em; }
table.tags th { text-align: left; padding-right: 1em; font-weight: normal; color: #666; }
.moves { line-height: 1.8; max-height: 28em; overflow-y: auto; position: relative; }
.moves .turn { white-space: nowrap; }
.moves .number { color: #777; margin-left: 0.3em; }
.moves .move { cursor: pointer; padding: 0.05em 0.25em; border-radius: 3px; white-space: nowrap; }
.moves .move:hover { background: #e8e2d0; }
.moves .move.current { background: #2a6fdb; color: #fff; }
.moves .comment { color: #666; font-style: italic; }
.result { border-top: 1px solid #ddd; margin-top: 0.8em; }
.result table th { text-align: left; padding-right: 1em; font-weight: normal; }
.note { color: #8a4b00; }
)css";

constexpr const char* kScript = R"js(
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("salta-data").textContent);
  var boards = document.querySelectorAll("#boards > .board");
  var infos = document.querySelectorAll("#infos > .info");
  var links = document.querySelectorAll("#games a[data-game]");
  var targets = document.getElementById("targets");
  var state = { game: 0, ply: 0 };
  var currentMove = null;  // the highlighted entry of the move list

  function byId(id) { return document.getElementById(id); }
  function setShown(el, shown) {
    if (shown) el.removeAttribute("display"); else el.setAttribute("display", "none");
  }

  function show() {
    var game = data.games[state.game];
    var p = game.plies[state.ply];
    var last = game.plies.length - 1;
    var i;
    for (i = 0; i < boards.length; i++) boards[i].hidden = i !== state.game;
    for (i = 0; i < infos.length; i++) infos[i].hidden = i !== state.game;
    for (i = 0; i < links.length; i++) links[i].classList.toggle("current", i === state.game);
    var svg = boards[state.game].querySelector("svg");
    var pieces = svg.querySelectorAll(".piece");
    for (i = 0; i < pieces.length; i++) {
      var square = p.at[i];
      setShown(pieces[i], square !== null);
      if (square === null) continue;
      var c = game.squares[square];
      pieces[i].setAttribute("transform", "translate(" + c[0] + " " + c[1] + ")");
      pieces[i].setAttribute("data-square", square);
    }
    var arrow = svg.querySelector(".last-move");
    arrow.setAttribute("points", p.arrow);
    setShown(arrow, p.arrow !== "");
    var groups = svg.querySelectorAll(".targets");
    for (i = 0; i < groups.length; i++)
      setShown(groups[i], targets.checked && groups[i].getAttribute("data-side") === p.to_move);
    if (currentMove) {
      currentMove.classList.remove("current");
      currentMove.removeAttribute("aria-current");
    }
    currentMove = infos[state.game].querySelector('.move[data-ply="' + state.ply + '"]');
    if (currentMove) {
      currentMove.classList.add("current");
      currentMove.setAttribute("aria-current", "step");
      // Keep the current move in view in the list, without scrolling the page.
      var list = currentMove.closest(".moves");
      var top = currentMove.offsetTop;
      if (top < list.scrollTop || top + currentMove.offsetHeight > list.scrollTop + list.clientHeight)
        list.scrollTop = top - list.clientHeight / 2;
    }
    var ply = byId("ply");
    ply.textContent = "ply " + state.ply + " of " + last;
    ply.setAttribute("data-ply", String(state.ply));
    byId("move-text").textContent = p.move === "" ? "start" :
        p.number + (p.side === "black" ? "... " : ". ") + p.move + p.annotation;
    byId("status").textContent = p.status;
    byId("position-text").textContent = p.position;
    var comment = byId("comment");
    comment.textContent = (state.ply === 0 ? game.comments : p.comments).join(" ");
    comment.hidden = comment.textContent === "";
    byId("first").disabled = byId("prev").disabled = state.ply === 0;
    byId("next").disabled = byId("last").disabled = state.ply === last;
  }

  function go(ply) {
    var last = data.games[state.game].plies.length - 1;
    state.ply = Math.max(0, Math.min(last, ply));
    show();
  }
  function select(game) {
    if (!(game >= 0 && game < data.games.length) || game === state.game) return;
    state.game = game;
    state.ply = 0;
    show();
  }

  byId("first").addEventListener("click", function () { go(0); });
  byId("prev").addEventListener("click", function () { go(state.ply - 1); });
  byId("next").addEventListener("click", function () { go(state.ply + 1); });
  byId("last").addEventListener("click", function () { go(Infinity); });
  targets.addEventListener("change", show);
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var t = e.target;
    if (t && (t.tagName === "SELECT" || t.tagName === "TEXTAREA" ||
              (t.tagName === "INPUT" && t.type !== "checkbox"))) return;
    switch (e.key) {
      case "ArrowRight": go(state.ply + 1); break;
      case "ArrowLeft": go(state.ply - 1); break;
      case "Home": go(0); break;
      case "End": go(Infinity); break;
      default: return;
    }
    e.preventDefault();
  });
  byId("infos").addEventListener("click", function (e) {
    var move = e.target.closest(".move");
    if (move) go(Number(move.getAttribute("data-ply")));
  });
  byId("infos").addEventListener("keydown", function (e) {
    var move = e.target.closest(".move");
    if (move && (e.key === "Enter" || e.key === " ")) {
      go(Number(move.getAttribute("data-ply")));
      e.preventDefault();
    }
  });
  function fromHash() {
    var m = /^#game-(\d+)$/.exec(location.hash);
    if (m) select(Number(m[1]) - 1);
  }
  window.addEventListener("hashchange", fromHash);
  // A click shows its game at once; the hashchange that follows (a later
  // task) then finds the game shown and leaves the ply alone.
  for (var k = 0; k < links.length; k++)
    links[k].addEventListener("click", function (e) {
      select(Number(e.currentTarget.getAttribute("data-game")));
    });
  show();
  fromHash();
})();
)js";

// JSON that is safe inside <script>: ASCII only, and no < > & that could
// end the element or start a comment (they only occur inside strings,
// where the \u escapes mean the same).
void AppendScriptJson(std::string& out, const nlohmann::json& j) {
  const std::string text = j.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
  for (char c : text) {
    if (c == '<')
      out += "\\u003c";
    else if (c == '>')
      out += "\\u003e";
    else if (c == '&')
      out += "\\u0026";
    else
      out += c;
  }
}

nlohmann::json Strings(const std::vector<std::string>& texts) {
  nlohmann::json a = nlohmann::json::array();
  for (const std::string& t : texts) a.push_back(markup::ValidText(t));
  return a;
}

const std::string* FindTag(const GameView& game, const char* name) {
  for (const auto& [key, value] : game.tags)
    if (key == name) return &value;
  return nullptr;
}

// "A. Ivanov – B. Petrov", else the event, else "Game K".
std::string GameLabel(const GameView& game, size_t k) {
  const std::string* white = FindTag(game, "White");
  const std::string* black = FindTag(game, "Black");
  if (white || black) return absl::StrCat(white ? *white : "?", " \u2013 ", black ? *black : "?");
  if (const std::string* event = FindTag(game, "Event")) return *event;
  return absl::StrCat("Game ", k + 1);
}

std::string GameResultToken(const GameView& game) {
  if (game.score) return salta::ResultToken(game.score->outcome);
  return "*";
}

nlohmann::json GameJson(const GameView& game, bool flip) {
  const Position& start = game.plies.front().position;
  const Geometry& g = start.variant().geometry();
  std::vector<PieceId> pieces;
  for (PieceId p = 0; p < kMaxPieces; ++p)
    if (start.square_of(p) != kNoSquare) pieces.push_back(p);
  nlohmann::json j;
  j["pieces"] = nlohmann::json::array();
  for (PieceId p : pieces) j["pieces"].push_back(PieceName(p));
  j["squares"] = nlohmann::json::object();
  for (Square s = 0; s < g.num_squares(); ++s) {
    const SvgPoint c = SvgSquareCentre(g, s, flip);
    j["squares"][SquareName(g, s)] = {c.x, c.y};
  }
  j["comments"] = Strings(game.comments);
  j["plies"] = nlohmann::json::array();
  for (size_t k = 0; k < game.plies.size(); ++k) {
    const ViewPly& ply = game.plies[k];
    const Position& pos = ply.position;
    nlohmann::json at = nlohmann::json::array();
    for (PieceId p : pieces) {
      const Square s = pos.square_of(p);
      at.push_back(s == kNoSquare ? nlohmann::json() : nlohmann::json(SquareName(g, s)));
    }
    // The side that made the move: the one to move before it (a pass too
    // hands the move over).
    const Side mover = k == 0 ? pos.side_to_move() : game.plies[k - 1].position.side_to_move();
    j["plies"].push_back({{"position", PositionToString(pos)},
                          {"at", std::move(at)},
                          {"move", ply.move},
                          {"annotation", markup::ValidText(ply.annotation)},
                          {"number", ply.number},
                          {"side", kSideKey[int(mover)]},
                          {"to_move", kSideKey[int(pos.side_to_move())]},
                          {"arrow", SvgArrowPoints(g, ply.move_squares, flip)},
                          {"status", PlyStatus(pos)},
                          {"comments", Strings(ply.comments)}});
  }
  return j;
}

std::string MoveList(const GameView& game) {
  std::string out = "<h3>Moves</h3>\n<p class=\"moves\">";
  for (const std::string& c : game.comments)
    absl::StrAppend(&out, "<span class=\"comment\">{", Escape(c), "}</span> ");
  for (size_t k = 1; k < game.plies.size(); ++k) {
    const ViewPly& ply = game.plies[k];
    const bool black = game.plies[k - 1].position.side_to_move() == Side::kBlack;
    // White's moves carry their number; Black's only first and after a comment.
    const bool numbered = !black || k == 1 || !game.plies[k - 1].comments.empty();
    // A number stays on the line of its move.
    absl::StrAppend(&out, "<span class=\"turn\">");
    if (numbered)
      absl::StrAppend(&out, "<span class=\"number\">", ply.number, black ? "..." : ".", "</span> ");
    absl::StrAppend(&out, "<span class=\"move\" role=\"button\" tabindex=\"0\" data-ply=\"", k,
                    "\">", Escape(ply.move), Escape(ply.annotation), "</span></span> ");
    for (const std::string& c : ply.comments)
      absl::StrAppend(&out, "<span class=\"comment\">{", Escape(c), "}</span> ");
  }
  if (game.plies.size() == 1) out += "(no moves)";
  absl::StrAppend(&out, "<span class=\"result-token\">", GameResultToken(game), "</span></p>\n");
  return out;
}

std::string ResultSection(const GameView& game) {
  const Position& pos = game.final_position();
  if (!game.score)
    return absl::StrCat("<section class=\"result\" data-result=\"*\">\n<h3>Result</h3>\n<p>",
                        "Not over after ply ", game.moves(), ": ", Escape(PlyStatus(pos)),
                        ".</p>\n</section>\n");
  const GameScore& score = *game.score;
  const std::string token = salta::ResultToken(score.outcome);
  const bool points_known = score.points != kUnknownMoves;
  auto count_attr = [&](Side s) {
    const std::optional<FinishResult>& c = game.counts[int(s)];
    return c && c->exact && c->reachable ? std::to_string(c->lower) : std::string();
  };
  std::string out =
      absl::StrCat("<section class=\"result\" data-result=\"", token, "\" data-reason=\"",
                   EndReasonName(score.reason), "\" data-score=\"",
                   points_known ? std::to_string(score.points) : std::string(), "\" data-exact=\"",
                   score.exact && game.counts[0] && game.counts[0]->exact && game.counts[1] &&
                           game.counts[1]->exact
                       ? "true"
                       : "false",
                   "\" data-white-count=\"", count_attr(Side::kWhite), "\" data-black-count=\"",
                   count_attr(Side::kBlack), "\">\n<h3>Result</h3>\n");
  absl::StrAppend(&out, "<p><strong class=\"result-token\">", token, "</strong> ",
                  Escape(score.summary), "</p>\n<table>\n");
  for (Side s : {Side::kWhite, Side::kBlack})
    if (const std::optional<FinishResult>& c = game.counts[int(s)])
      absl::StrAppend(&out, "<tr><th>", SideName(s), " needs</th><td class=\"count\" data-side=\"",
                      kSideKey[int(s)], "\">", Escape(CountText(*c)), "</td></tr>\n");
  absl::StrAppend(&out, "<tr><th>Score</th><td class=\"score\">",
                  points_known ? std::to_string(score.points)
                               : std::string("unknown (a count it needs is not exact)"),
                  "</td></tr>\n</table>\n");
  if (score.extra_move_credited)
    out +=
        "<p class=\"note\">Black's extra move is not recorded: it is credited as played "
        "optimally.</p>\n";
  if (!score.exact)
    out +=
        "<p class=\"note\">The counts were cut short by their limit: the bounds are proven, "
        "the exact values are not known.</p>\n";
  out += "</section>\n";
  return out;
}

std::string Info(const GameView& game, size_t k, size_t total) {
  const Position& start = game.plies.front().position;
  const Variant& v = start.variant();
  std::string out = absl::StrCat(
      "<div class=\"info\" data-game=\"", k, "\" data-rules=\"", Escape(v.rules().ToString()),
      "\" data-board=\"", v.geometry().size(), "\" data-rows=\"", v.geometry().rows(), "\"",
      k ? " hidden" : "", ">\n<h2>", total > 1 ? absl::StrCat("Game ", k + 1, ": ") : std::string(),
      Escape(GameLabel(game, k)), "</h2>\n<table class=\"tags\">\n");
  for (const auto& [name, value] : game.tags)
    absl::StrAppend(&out, "<tr><th>", Escape(name), "</th><td>", Escape(value), "</td></tr>\n");
  absl::StrAppend(&out, "<tr><th>Variant</th><td>", Escape(v.rules().ToString()), "; ",
                  Escape(v.geometry().ToString()), "</td></tr>\n</table>\n");
  out += MoveList(game);
  out += ResultSection(game);
  out += "</div>\n";
  return out;
}

}  // namespace

std::string RenderHtml(const std::vector<GameView>& games, const HtmlOptions& options) {
  std::string out =
      absl::StrCat("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
                   "<meta http-equiv=\"Content-Security-Policy\" content=\"", kPolicy, "\">\n",
                   "<meta name=\"generator\" content=\"salta-show\">\n<title>",
                   Escape(options.title), "</title>\n<style>", kStyle,
                   "</style>\n</head>\n<body>\n<h1>", Escape(options.title), "</h1>\n");
  if (games.size() > 1) {
    out += "<nav id=\"games\"><ol>\n";
    for (size_t k = 0; k < games.size(); ++k)
      absl::StrAppend(&out, "<li><a href=\"#game-", k + 1, "\" data-game=\"", k, "\">",
                      Escape(GameLabel(games[k], k)), "</a> ", GameResultToken(games[k]),
                      "</li>\n");
    out += "</ol></nav>\n";
  }
  out += "<main>\n<div id=\"view\">\n<div id=\"boards\">\n";
  for (size_t k = 0; k < games.size(); ++k) {
    SvgOptions svg;
    svg.view.flip = options.flip;
    svg.id_prefix = absl::StrCat("g", k + 1, "-");
    svg.xml_declaration = false;
    svg.interactive = true;
    svg.title = absl::StrCat("Board of game ", k + 1);
    absl::StrAppend(&out, "<div class=\"board\" data-game=\"", k, "\"", k ? " hidden" : "", ">\n",
                    RenderSvg(games[k].plies.front().position, svg), "</div>\n");
  }
  absl::StrAppend(
      &out, "</div>\n<div id=\"panel\">\n<div id=\"controls\">",
      "<button id=\"first\" title=\"Start (Home)\" aria-label=\"Start\">\u00AB</button>",
      "<button id=\"prev\" title=\"Back (Left arrow)\" aria-label=\"Back\">\u2039</button>",
      "<span id=\"ply\" data-ply=\"0\">ply 0</span>",
      "<button id=\"next\" title=\"Forward (Right arrow)\" aria-label=\"Forward\">\u203A</button>",
      "<button id=\"last\" title=\"End (End)\" aria-label=\"End\">\u00BB</button>",
      "<label><input type=\"checkbox\" id=\"targets\"", options.targets ? " checked" : "",
      "> targets of the side to move</label></div>\n",
      "<p><span id=\"move-text\"></span> <span id=\"status\"></span></p>\n",
      "<p>Position: <code id=\"position-text\"></code></p>\n",
      "<p id=\"comment\" hidden></p>\n</div>\n</div>\n<div id=\"infos\">\n");
  for (size_t k = 0; k < games.size(); ++k) out += Info(games[k], k, games.size());
  out += "</div>\n</main>\n";
  // {"games": [...]}, each game's data made and written in turn: the tree of
  // every game at once took most of the memory (2.3 GB for 500 long games).
  out += "<script type=\"application/json\" id=\"salta-data\">{\"games\":[";
  for (size_t k = 0; k < games.size(); ++k) {
    if (k > 0) out += ',';
    AppendScriptJson(out, GameJson(games[k], options.flip));
  }
  absl::StrAppend(&out, "]}</script>\n<script>", kScript, "</script>\n</body>\n</html>\n");
  return out;
}

}  // namespace salta
