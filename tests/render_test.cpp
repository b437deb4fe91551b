// The pictures of a position (render_text.h, render_svg.h), the game view
// (game_view.h) and the viewer page (render_html.h): golden text boards,
// the SVG's pieces and squares where the documented layout puts them, and
// the page's embedded data and escaping. The SVG as XML and the page in a
// browser are checked by show_cli_test.cpp and tests/browser/.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "salta/board_view.h"
#include "salta/game.h"
#include "salta/game_view.h"
#include "salta/legality.h"
#include "salta/notation.h"
#include "salta/record.h"
#include "salta/render_html.h"
#include "salta/render_svg.h"
#include "salta/render_text.h"
#include "test_util.h"

namespace salta {
namespace {

Position Start(int size, int rows, const std::string& rules = "standard") {
  return Position::Start(V(rules, size, rows));
}

Position Parse(const Variant& v, const std::string& text) {
  absl::StatusOr<Position> pos = ParsePosition(v, text);
  EXPECT_TRUE(pos.ok()) << text << ": " << pos.status();
  return pos.ok() ? *pos : Position::Start(v);
}

std::string Text(const Position& pos, bool utf8 = false, BoardView view = {}) {
  TextOptions options;
  options.view = std::move(view);
  options.utf8 = utf8;
  return RenderText(pos, options);
}

int Count(const std::string& text, const std::string& part) {
  int n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// ---------------------------------------------------------------------------
// Text.

TEST(ShowText, Start4x4Ascii) {
  EXPECT_EQ(Text(Start(4, 1)),
            "    a   b   c   d\n"
            " 4      s2      s1  4\n"
            " 3  ..      ..      3\n"
            " 2      ..      ..  2\n"
            " 1  S1      S2      1\n"
            "    a   b   c   d\n");
}

TEST(ShowText, Start4x4Utf8) {
  EXPECT_EQ(Text(Start(4, 1), true),
            "    a   b   c   d\n"
            " 4      ★2      ★1  4\n"
            " 3  ··      ··      3\n"
            " 2      ··      ··  2\n"
            " 1  ☆1      ☆2      1\n"
            "    a   b   c   d\n");
}

TEST(ShowText, Start6x6Ascii) {
  EXPECT_EQ(Text(Start(6, 2)),
            "    a   b   c   d   e   f\n"
            " 6      s3      s2      s1  6\n"
            " 5  m3      m2      m1      5\n"
            " 4      ..      ..      ..  4\n"
            " 3  ..      ..      ..      3\n"
            " 2      M1      M2      M3  2\n"
            " 1  S1      S2      S3      1\n"
            "    a   b   c   d   e   f\n");
}

TEST(ShowText, Start6x6Utf8) {
  EXPECT_EQ(Text(Start(6, 2), true),
            "    a   b   c   d   e   f\n"
            " 6      ★3      ★2      ★1  6\n"
            " 5  ☾3      ☾2      ☾1      5\n"
            " 4      ··      ··      ··  4\n"
            " 3  ··      ··      ··      3\n"
            " 2      ☽1      ☽2      ☽3  2\n"
            " 1  ☆1      ☆2      ☆3      1\n"
            "    a   b   c   d   e   f\n");
}

TEST(ShowText, Start10x10Ascii) {
  EXPECT_EQ(Text(Start(10, 3)),
            "    a   b   c   d   e   f   g   h   i   j\n"
            "10      s5      s4      s3      s2      s1  10\n"
            " 9  m5      m4      m3      m2      m1      9\n"
            " 8      u5      u4      u3      u2      u1  8\n"
            " 7  ..      ..      ..      ..      ..      7\n"
            " 6      ..      ..      ..      ..      ..  6\n"
            " 5  ..      ..      ..      ..      ..      5\n"
            " 4      ..      ..      ..      ..      ..  4\n"
            " 3  U1      U2      U3      U4      U5      3\n"
            " 2      M1      M2      M3      M4      M5  2\n"
            " 1  S1      S2      S3      S4      S5      1\n"
            "    a   b   c   d   e   f   g   h   i   j\n");
}

TEST(ShowText, Start10x10Utf8) {
  EXPECT_EQ(Text(Start(10, 3), true),
            "    a   b   c   d   e   f   g   h   i   j\n"
            "10      ★5      ★4      ★3      ★2      ★1  10\n"
            " 9  ☾5      ☾4      ☾3      ☾2      ☾1      9\n"
            " 8      ☀5      ☀4      ☀3      ☀2      ☀1  8\n"
            " 7  ··      ··      ··      ··      ··      7\n"
            " 6      ··      ··      ··      ··      ··  6\n"
            " 5  ··      ··      ··      ··      ··      5\n"
            " 4      ··      ··      ··      ··      ··  4\n"
            " 3  ☼1      ☼2      ☼3      ☼4      ☼5      3\n"
            " 2      ☽1      ☽2      ☽3      ☽4      ☽5  2\n"
            " 1  ☆1      ☆2      ☆3      ☆4      ☆5      1\n"
            "    a   b   c   d   e   f   g   h   i   j\n");
}

// The last move in [ ], the marked squares in ( ), the board from Black's side.
TEST(ShowText, LastMoveTargetsFlipped) {
  Position pos = Start(6, 2);
  ASSERT_TRUE(PlayMoves(pos, "b2-a3 e5-d4 a3-b4").ok());
  Position before = pos;
  std::vector<Move> played;
  ASSERT_TRUE(PlayMoves(pos, "c5-a3", played).ok());
  BoardView view;
  view.flip = true;
  view.last_move = MoveSquares(before, played.back());
  view.marked = pos.targets(pos.side_to_move());
  EXPECT_EQ(Text(pos, false, view),
            "    f   e   d   c   b   a\n"
            " 1      S3      S2      S1  1\n"
            " 2  M3      M2      ..      2\n"
            " 3      ..      ..     [m2] 3\n"
            " 4  ..      m1      M1      4\n"
            " 5     (..)    [..]    (m3) 5\n"
            " 6 (s1)    (s2)    (s3)     6\n"
            "    f   e   d   c   b   a\n");
}

// The text without its colour escape sequences (ESC [ digits and ; m).
std::string WithoutColour(const std::string& text) {
  std::string plain;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\033' && i + 1 < text.size() && text[i + 1] == '[') {
      size_t end = i + 2;
      while (end < text.size() &&
             (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == ';'))
        ++end;
      if (end < text.size() && text[end] == 'm') {
        i = end;
        continue;
      }
    }
    plain += text[i];
  }
  return plain;
}

// Each line without the spaces it ends in.
std::string WithoutTrailingSpaces(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n')
      while (!out.empty() && out.back() == ' ') out.pop_back();
    out += c;
  }
  return out;
}

// Colour adds escape sequences around the same characters.
TEST(ShowText, ColourIsOnlyDecoration) {
  const Position pos = Start(8, 2);
  TextOptions options;
  options.color = true;
  const std::string coloured = RenderText(pos, options);
  EXPECT_NE(coloured.find("\033["), std::string::npos);
  const std::string plain = WithoutColour(coloured);
  // Without colour no line ends in a space; with it, the last square may.
  std::string expected = Text(pos);
  EXPECT_EQ(WithoutTrailingSpaces(plain), WithoutTrailingSpaces(expected));
  EXPECT_EQ(Text(pos).find('\033'), std::string::npos);
}

TEST(ShowText, EveryBoardSize) {
  for (int n = 4; n <= 10; n += 2) {
    const std::string text = Text(Start(n, n == 4 ? 1 : 2));
    EXPECT_EQ(Count(text, "\n"), n + 2) << n;
    EXPECT_EQ(Count(text, " .. ") + Count(text, " S") + Count(text, " M") + Count(text, " s") +
                  Count(text, " m"),
              n * n / 2)
        << text;
    EXPECT_EQ(text.find(" \n"), std::string::npos) << text;
  }
}

// ---------------------------------------------------------------------------
// SVG.

// The centre of (file, rank) as docs/salta-show.md documents the layout:
// squares of 50 units after a band of 25, rank N at the top.
std::pair<int, int> DocumentedCentre(int n, int file, int rank, bool flip) {
  const int column = flip ? n - 1 - file : file;
  const int row = flip ? rank : n - 1 - rank;
  return {25 + 50 * column + 25, 25 + 50 * row + 25};
}

void ExpectPiecesWhereTheyStand(const Position& pos, bool flip) {
  SvgOptions options;
  options.view.flip = flip;
  const std::string svg = RenderSvg(pos, options);
  const Geometry& g = pos.variant().geometry();
  int pieces = 0;
  for (PieceId p = 0; p < kMaxPieces; ++p) {
    const Square s = pos.square_of(p);
    if (s == kNoSquare) continue;
    ++pieces;
    const auto [x, y] = DocumentedCentre(g.size(), g.file_of(s), g.rank_of(s), flip);
    const std::string element = "<g class=\"piece\" data-piece=\"" + PieceName(p) +
                                "\" data-square=\"" + SquareName(g, s) + "\"";
    EXPECT_EQ(Count(svg, element), 1) << element;
    EXPECT_EQ(Count(svg, "data-piece=\"" + PieceName(p) + "\""), 1);
    const size_t at = svg.find(element);
    ASSERT_NE(at, std::string::npos);
    const std::string tail = svg.substr(at, svg.find('>', at) - at);
    EXPECT_NE(
        tail.find("transform=\"translate(" + std::to_string(x) + " " + std::to_string(y) + ")\""),
        std::string::npos)
        << tail;
  }
  EXPECT_EQ(Count(svg, "class=\"piece\""), pieces);
  EXPECT_EQ(Count(svg, "<rect class=\"dark\""), g.num_squares());
  EXPECT_EQ(Count(svg, "<rect class=\"light\""), g.num_squares());
}

TEST(ShowSvg, PiecesAtTheirSquaresEveryBoard) {
  for (int n = 4; n <= 10; n += 2)
    for (int rows = 1; 2 * rows < n && rows <= 3; ++rows)
      for (bool flip : {false, true}) {
        SCOPED_TRACE(testing::Message() << n << "x" << n << " rows " << rows << " flip " << flip);
        Position pos = Start(n, rows);
        ExpectPiecesWhereTheyStand(pos, flip);
      }
}

TEST(ShowSvg, LayoutAndCoordinates) {
  const Position pos = Start(6, 2);
  const std::string svg = RenderSvg(pos, {});
  EXPECT_EQ(svg.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=", 0), 0u);
  EXPECT_NE(svg.find("viewBox=\"0 0 350 350\""), std::string::npos);
  EXPECT_EQ(SvgSize(pos.variant().geometry()), 350);
  // a1 at the bottom left; c3 is file 2, rank 2.
  EXPECT_NE(svg.find("<rect class=\"dark\" data-square=\"a1\" x=\"25\" y=\"275\""),
            std::string::npos);
  EXPECT_NE(svg.find("<rect class=\"dark\" data-square=\"f6\" x=\"275\" y=\"25\""),
            std::string::npos);
  // File letters top and bottom, rank numbers left and right.
  const size_t from = svg.find("<g class=\"coordinates\"");
  ASSERT_NE(from, std::string::npos);
  const std::string coordinates = svg.substr(from, svg.find("</g>", from) - from);
  for (const char* letter : {">a</text>", ">f</text>", ">1</text>", ">6</text>"})
    EXPECT_EQ(Count(coordinates, letter), 2) << letter;
  EXPECT_EQ(Count(coordinates, "<text "), 4 * 6);
  // No font, image or link: the only URL is the namespace.
  EXPECT_EQ(Count(svg, "http"), 1);
  EXPECT_EQ(svg.find("href"), std::string::npos);
  EXPECT_EQ(svg.find("@font-face"), std::string::npos);
  // Pieces are shapes, numbers are text.
  EXPECT_EQ(Count(svg, "<path d="), 12 + 1);  // 12 pieces and the arrowhead
  const absl::StatusOr<Square> c3 = ParseSquare(pos.variant().geometry(), "c3");
  ASSERT_TRUE(c3.ok());
  const SvgPoint centre = SvgSquareCentre(pos.variant().geometry(), *c3, false);
  EXPECT_EQ(centre.x, 150);
  EXPECT_EQ(centre.y, 200);
  const SvgPoint flipped = SvgSquareCentre(pos.variant().geometry(), *c3, true);
  EXPECT_EQ(flipped.x, 200);
  EXPECT_EQ(flipped.y, 150);
}

TEST(ShowSvg, LastMoveArrowAndMarks) {
  const Variant& v = V("forward");
  const Position before = Parse(v, "w M1b2,U1c3,u1e5,s1j10");
  absl::StatusOr<Move> chain = ParseMove(before, "b2-d4-f6");
  ASSERT_TRUE(chain.ok()) << chain.status();
  const std::vector<Square> squares = MoveSquares(before, *chain);
  const Geometry& g = v.geometry();
  ASSERT_EQ(squares.size(), 3u);
  EXPECT_EQ(SquareName(g, squares[0]), "b2");
  EXPECT_EQ(SquareName(g, squares[1]), "d4");
  EXPECT_EQ(SquareName(g, squares[2]), "f6");
  // b2 (100, 450), d4 (200, 350), f6 (300, 250); the head stops 8 short.
  EXPECT_EQ(SvgArrowPoints(g, squares, false), "100,450 200,350 292,258");
  Position after = before;
  after.Make(*chain);
  SvgOptions options;
  options.view.last_move = squares;
  options.view.marked = after.targets(Side::kWhite);
  const std::string svg = RenderSvg(after, options);
  EXPECT_NE(svg.find("<polyline class=\"last-move\" points=\"100,450 200,350 292,258\""),
            std::string::npos);
  EXPECT_NE(svg.find("marker-end=\"url(#salta-arrowhead)\""), std::string::npos);
  EXPECT_NE(svg.find("<marker id=\"salta-arrowhead\""), std::string::npos);
  // White's moon 1 and sun 1 are on the board: two targets.
  EXPECT_EQ(Count(svg, "<rect class=\"marked\""), 2);
  for (PieceId p :
       {MakePiece(Side::kWhite, Kind::kMoon, 1), MakePiece(Side::kWhite, Kind::kSun, 1)})
    EXPECT_NE(svg.find("<rect class=\"marked\" data-square=\"" + SquareName(g, v.target(p)) + "\""),
              std::string::npos);
  // A step: two squares; a pass or no move: no arrow.
  EXPECT_EQ(SvgArrowPoints(g, {}, false), "");
  EXPECT_EQ(RenderSvg(after, {}).find("last-move"), std::string::npos);
  EXPECT_TRUE(MoveSquares(before, Move::Pass()).empty());
}

TEST(ShowSvg, TitleAndIdsEscaped) {
  SvgOptions options;
  options.title = "<\"A & B\"> '\xff' \x01";
  options.id_prefix = "x\"y-";
  options.view.last_move = {0, 6};
  const std::string svg = RenderSvg(Start(4, 1), options);
  EXPECT_NE(svg.find("<title>&lt;&quot;A &amp; B&quot;&gt; &#39;\xEF\xBF\xBD&#39; "
                     "\xEF\xBF\xBD</title>"),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find("id=\"x&quot;y-arrowhead\""), std::string::npos);
}

TEST(ShowSvg, InteractiveHasHiddenArrowAndBothTargets) {
  SvgOptions options;
  options.interactive = true;
  options.xml_declaration = false;
  const std::string svg = RenderSvg(Start(6, 2), options);
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("<polyline class=\"last-move\" points=\"\" display=\"none\""),
            std::string::npos);
  EXPECT_NE(svg.find("<g class=\"targets\" data-side=\"white\" display=\"none\">"),
            std::string::npos);
  EXPECT_NE(svg.find("<g class=\"targets\" data-side=\"black\" display=\"none\">"),
            std::string::npos);
  EXPECT_EQ(Count(svg, "<rect class=\"marked\""), 12);
}

// ---------------------------------------------------------------------------
// The game view.

TEST(ShowView, PliesFromMoves) {
  const Variant& v = V("standard");
  Position pos = Position::Start(v);
  std::vector<Move> played;
  ASSERT_TRUE(PlayMoves(pos, "1. c3-d4 h8-g7 2. d4-e5", played).ok());
  ASSERT_EQ(played.size(), 3u);
  const GameView view = ViewGame(Position::Start(v), played);
  ASSERT_EQ(view.plies.size(), 4u);
  EXPECT_EQ(view.moves(), 3);
  EXPECT_EQ(view.plies[0].move, "");
  EXPECT_EQ(view.plies[0].position, Position::Start(v));
  EXPECT_EQ(view.plies[1].move, "c3-d4");
  EXPECT_EQ(view.plies[2].move, "h8-g7");
  EXPECT_EQ(view.plies[3].move, "d4-e5");
  EXPECT_EQ(view.plies[1].number, 1);
  EXPECT_EQ(view.plies[2].number, 1);
  EXPECT_EQ(view.plies[3].number, 2);
  EXPECT_EQ(view.final_position(), pos);
  EXPECT_FALSE(view.score);
  EXPECT_EQ(PlyStatus(view.plies[2].position), "White to move");
  GameView scored = view;
  ASSERT_TRUE(ScoreView(scored, {}).ok());
  EXPECT_FALSE(scored.score);  // in play: nothing to score
}

std::vector<ParsedGame> ReadFile(const std::string& name) {
  std::ifstream in(std::string(SALTA_DATA_DIR) + "/games/" + name, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return ParseRecords(text.str());
}

TEST(ShowView, RecordWithPositionTagAndComments) {
  const std::vector<ParsedGame> games = ReadFile("valid/features.sgn");
  ASSERT_GE(games.size(), 2u);
  absl::StatusOr<GameView> first = ViewRecord(games[0], {});
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_EQ(first->moves(), 5);
  EXPECT_EQ(first->plies[1].move, "g3-f4");  // written 34-43
  EXPECT_EQ(first->plies[2].annotation, "!");
  ASSERT_EQ(first->plies[2].comments.size(), 1u);
  EXPECT_EQ(first->plies[2].comments[0], "the usual reply");
  // The comments before the first move: the file's three ; lines and one in braces.
  ASSERT_EQ(first->comments.size(), 4u);
  EXPECT_EQ(first->comments.back(), "Numeric squares, Meyer 1908");
  EXPECT_EQ(first->tags.front().first, "Event");
  absl::StatusOr<GameView> second = ViewRecord(games[1], {});
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->plies[0].position.side_to_move(), Side::kBlack);
  EXPECT_EQ(second->plies[1].number, 1);  // 1... b8-a7
  EXPECT_EQ(second->plies[2].number, 2);  // 2. e3-d4
  EXPECT_EQ(second->plies[3].number, 2);
}

TEST(ShowView, InvalidRecordSaysWhere) {
  const std::vector<ParsedGame> games = ParseRecords("1. c3-d4 c9-d8 *\n");
  ASSERT_EQ(games.size(), 1u);
  absl::StatusOr<GameView> view = ViewRecord(games[0], {});
  ASSERT_FALSE(view.ok());
  EXPECT_EQ(view.status().message(), "1:10: ply 2 \"c9-d8\": destination d8 is occupied");
}

TEST(ShowView, FinishedGameScoredWithBothCounts) {
  const std::vector<ParsedGame> games = ReadFile("valid/scored.sgn");
  ASSERT_EQ(games.size(), 2u);
  absl::StatusOr<GameView> view = ViewRecord(games[0], {});
  ASSERT_TRUE(view.ok()) << view.status();
  ASSERT_TRUE(ScoreView(*view, {}).ok());
  ASSERT_TRUE(view->score);
  EXPECT_EQ(view->score->outcome, Outcome::kWhiteWins);
  EXPECT_EQ(view->score->points, 1);
  ASSERT_TRUE(view->counts[0] && view->counts[1]);
  EXPECT_EQ(view->counts[0]->moves(), 0);
  EXPECT_EQ(view->counts[1]->moves(), 1);
  EXPECT_EQ(CountText(*view->counts[1]), "1 move");
  // The move limit, counted in moves: White needs 4, Black 3.
  absl::StatusOr<GameView> limit = ViewRecord(games[1], {});
  ASSERT_TRUE(limit.ok()) << limit.status();
  ASSERT_TRUE(ScoreView(*limit, {}).ok());
  ASSERT_TRUE(limit->score);
  EXPECT_EQ(limit->score->outcome, Outcome::kBlackWins);
  EXPECT_EQ(limit->score->points, 2);
  EXPECT_EQ(limit->counts[0]->moves(), 4);
  EXPECT_EQ(limit->counts[1]->moves(), 3);
  EXPECT_EQ(PlyStatus(limit->final_position()),
            "Game over: the move limit of 2 moves each is reached");
}

// A record whose Score tag the replay counts: that count is the one shown,
// not made again (salta-show and salta-score count once).
TEST(ShowView, TheReplaysCountIsShownNotMadeAgain) {
  const std::vector<ParsedGame> games = ReadFile("valid/scored.sgn");
  ASSERT_EQ(games.size(), 2u);
  int replayed = 0, viewed = 0;
  ReplayOptions replay;
  replay.count.progress = [&](int, uint64_t) { ++replayed; };
  absl::StatusOr<GameView> view = ViewRecord(games[0], replay);
  ASSERT_TRUE(view.ok()) << view.status();
  ASSERT_TRUE(view->score);
  EXPECT_GT(replayed, 0);
  FinishOptions count;
  count.progress = [&](int, uint64_t) { ++viewed; };
  ASSERT_TRUE(ScoreView(*view, count).ok());
  EXPECT_EQ(viewed, 0);
  EXPECT_EQ(view->score->points, 1);
  ASSERT_TRUE(view->counts[0] && view->counts[1]);
  EXPECT_EQ(view->counts[1]->moves(), 1);
}

TEST(ShowView, BoundedCountsAreBounds) {
  FinishResult r;
  r.exact = false;
  r.lower = 31;
  r.upper = 47;
  EXPECT_EQ(CountText(r), "at least 31 and at most 47 moves (not exact: a limit was reached)");
  r.upper = kUnknownMoves;
  EXPECT_EQ(CountText(r), "at least 31 moves (not exact: a limit was reached)");
  r.reachable = false;
  EXPECT_EQ(CountText(r), "cannot finish (the goal is unreachable)");
}

// ---------------------------------------------------------------------------
// The page.

std::string Page(const std::string& record) {
  std::vector<GameView> games;
  for (const ParsedGame& game : ParseRecords(record)) {
    absl::StatusOr<GameView> view = ViewRecord(game, {});
    EXPECT_TRUE(view.ok()) << view.status();
    if (view.ok()) games.push_back(*view);
  }
  HtmlOptions options;
  options.title = "t";
  return RenderHtml(games, options);
}

TEST(ShowHtml, SelfContained) {
  const std::string page = Page("[Board \"6x6\"]\n1. b2-a3 e5-d4 *\n");
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("Content-Security-Policy"), std::string::npos);
  // Nothing loaded: no src, no stylesheet link, no URL but the SVG namespace.
  EXPECT_EQ(page.find(" src="), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_EQ(page.find("@import"), std::string::npos);
  EXPECT_EQ(page.find("url(http"), std::string::npos);
  EXPECT_EQ(Count(page, "://"), Count(page, "http://www.w3.org/2000/svg"));
  EXPECT_EQ(Count(page, "<svg "), 1);
  EXPECT_EQ(Count(page, "class=\"move\""), 2);
  EXPECT_NE(page.find("id=\"position-text\""), std::string::npos);
}

TEST(ShowHtml, EmbedsEveryPlyAsTheLibrarySaysIt) {
  const std::string page = Page("[Board \"6x6\"]\n1. b2-a3 e5-d4 *\n");
  Position pos = Start(6, 2);
  EXPECT_NE(page.find("\"position\":\"" + PositionToString(pos) + "\""), std::string::npos);
  ASSERT_TRUE(PlayMoves(pos, "b2-a3").ok());
  EXPECT_NE(page.find("\"position\":\"" + PositionToString(pos) + "\""), std::string::npos);
  ASSERT_TRUE(PlayMoves(pos, "e5-d4").ok());
  EXPECT_NE(page.find("\"position\":\"" + PositionToString(pos) + "\""), std::string::npos);
  EXPECT_NE(page.find("\"arrow\":\"250,100 208,142\""), std::string::npos);
}

// Tag values are user text: nothing in them may end the script, open an
// element or break out of an attribute; invalid UTF-8 becomes U+FFFD.
TEST(ShowHtml, UserTextEscaped) {
  GameView game = ViewGame(Start(4, 1), {});
  game.tags = {{"White", "</script><script>alert(1)</script>"},
               {"Black", "\"a\" & 'b' <!-- \xC3\x28"},
               {"Event", "\xE2\x80\xA8 line"}};
  game.comments = {"</SCRIPT >", "x\xEF\xBF\xBEy\x01z"};  // U+FFFE and a control: not XML
  const std::string page = RenderHtml({game}, {});
  EXPECT_EQ(Count(page, "<script"), 2);  // the data and the code, nothing else
  EXPECT_EQ(Count(page, "</script>"), 2);
  EXPECT_EQ(page.find("<!--"), std::string::npos);
  EXPECT_EQ(page.find("</SCRIPT"), std::string::npos);
  EXPECT_NE(page.find("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(page.find("&quot;a&quot; &amp; &#39;b&#39; &lt;!-- \xEF\xBF\xBD("), std::string::npos);
  EXPECT_NE(page.find("\\u003c/SCRIPT \\u003e"), std::string::npos);  // the comment, in the data
  EXPECT_EQ(page.find("\xC3\x28"), std::string::npos);
  // In the data (ASCII JSON), each byte replaced by U+FFFD.
  EXPECT_NE(page.find("x\\ufffd\\ufffd\\ufffdy\\ufffdz"), std::string::npos);
  EXPECT_EQ(page.find("\xEF\xBF\xBE"), std::string::npos);
  EXPECT_EQ(page.find("\\ufffe"), std::string::npos);
}

TEST(ShowHtml, ResultSection) {
  std::vector<GameView> games;
  for (const ParsedGame& game : ReadFile("valid/scored.sgn")) {
    absl::StatusOr<GameView> view = ViewRecord(game, {});
    ASSERT_TRUE(view.ok()) << view.status();
    ASSERT_TRUE(ScoreView(*view, {}).ok());
    games.push_back(*view);
  }
  const std::string page = RenderHtml(games, {});
  EXPECT_NE(page.find("<section class=\"result\" data-result=\"1-0\" data-reason=\"extra-move\" "
                      "data-score=\"1\" data-exact=\"true\" data-white-count=\"0\" "
                      "data-black-count=\"1\">"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("<section class=\"result\" data-result=\"0-1\" data-reason=\"move-limit\" "
                      "data-score=\"2\" data-exact=\"true\" data-white-count=\"4\" "
                      "data-black-count=\"3\">"),
            std::string::npos);
  EXPECT_EQ(Count(page, "<a href=\"#game-"), 2);  // the list to pick from
}

}  // namespace
}  // namespace salta
