// salta-show: a position as a board on the terminal, an SVG diagram, or a
// game viewer (one HTML page). docs/salta-show.md.
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "cli.h"
#include "input.h"
#include "issue.h"
#include "output.h"
#include "salta/game.h"
#include "salta/game_view.h"
#include "salta/notation.h"
#include "salta/record.h"
#include "salta/render_html.h"
#include "salta/render_svg.h"
#include "salta/render_text.h"
#include "salta/replay.h"
#include "tool.h"

namespace {

constexpr int kExitOk = 0;

// Whether the locale's character set is UTF-8: the first of LC_ALL,
// LC_CTYPE and LANG that is set decides, as for setlocale.
bool Utf8Locale() {
  for (const char* name : {"LC_ALL", "LC_CTYPE", "LANG"}) {
    const char* value = std::getenv(name);
    if (value == nullptr || *value == '\0') continue;
    const std::string v = absl::AsciiStrToLower(value);
    return absl::StrContains(v, "utf-8") || absl::StrContains(v, "utf8");
  }
  return false;
}

// Colours only on a terminal, and never where NO_COLOR asks (no-color.org).
bool ColourTerminal() {
  if (!isatty(STDOUT_FILENO)) return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0') return false;
  const char* term = std::getenv("TERM");
  return term == nullptr || std::strcmp(term, "dumb") != 0;
}

// Writes `text` to the file, or to standard output for "-"; a failed write
// (a full disk, a closed pipe) is an error naming the file and the reason.
// Standard output is checked when the tool ends (tools/tool.h).
absl::Status WriteOutput(salta::tools::Tool& tool, const std::string& path,
                         const std::string& text) {
  if (path == "-") {
    tool.out() << text;
    return absl::OkStatus();
  }
  absl::StatusOr<std::unique_ptr<salta::tools::Output>> out = salta::tools::Output::Open(path);
  if (!out.ok()) return out.status();
  (*out)->stream() << text;
  return (*out)->Close();
}

struct RecordRequest {
  std::string file;
  int game = 0;  // from 1; 0: every game
  salta::ReplayOptions replay;
};

// The games of a record file (one, or all), replayed; an error with, in
// `where`, the place it concerns, located as salta-validate and salta-score
// locate it: "FILE:LINE:COLUMN: game K: invalid: ...".
absl::StatusOr<std::vector<salta::GameView>> ReadGames(const RecordRequest& request,
                                                       salta::tools::Where& where) {
  absl::StatusOr<std::unique_ptr<salta::tools::Input>> in = salta::tools::Input::Open(request.file);
  if (!in.ok()) return in.status();
  salta::RecordReader reader((*in)->stream());
  salta::ReplayOptions options = request.replay;
  options.keep_moves = true;
  std::vector<salta::GameView> games;
  salta::ParsedGame game;
  int k = 0;
  while (reader.Next(game)) {
    ++k;
    if (request.game != 0 && k != request.game) continue;
    const salta::ReplayReport report = salta::ReplayGame(game, options);
    if (!report.valid || !report.start) {
      where.file = request.file;
      if (!report.error) return absl::InvalidArgumentError(absl::StrCat("game ", k, ": invalid"));
      where.at = report.error->at;
      return absl::InvalidArgumentError(
          absl::StrCat("game ", k, ": invalid: ", salta::tools::IssueText(*report.error)));
    }
    games.push_back(salta::ViewReplay(game, report));
    if (request.game != 0) break;
  }
  if (absl::Status s = (*in)->status(); !s.ok()) return s;
  where.file = request.file;
  // (Without --game every game is kept, so none means the file has none.)
  if (games.empty()) return salta::tools::MissingGame(k, request.game);
  return games;
}

// The lines under the board: the position text, the last move, how the
// game stands and, at the end of a game that is over, its result.
std::string Summary(const salta::GameView& game, int ply) {
  const salta::ViewPly& shown = game.plies[ply];
  std::string out = absl::StrCat("Position: ", salta::PositionToString(shown.position), "\n");
  if (ply > 0) {
    const bool black = game.plies[ply - 1].position.side_to_move() == salta::Side::kBlack;
    absl::StrAppend(&out, "Last move: ", shown.number, black ? "... " : ". ", shown.move,
                    shown.annotation, " (ply ", ply, ")\n");
  }
  absl::StrAppend(&out, salta::PlyStatus(shown.position), "\n");
  if (ply == game.moves() && game.score) {
    const salta::GameScore& score = *game.score;
    absl::StrAppend(&out, "Result: ", salta::ResultToken(score.outcome), ", ", score.summary, "\n");
    for (salta::Side s : {salta::Side::kWhite, salta::Side::kBlack})
      if (const auto& c = game.counts[int(s)])
        absl::StrAppend(&out, salta::SideName(s), " needs: ", salta::CountText(*c), "\n");
    absl::StrAppend(&out, "Score: ",
                    score.points == salta::kUnknownMoves ? std::string("unknown (not exact)")
                                                         : std::to_string(score.points),
                    "\n");
  }
  return out;
}

int Run(salta::tools::Tool& tool, int argc, char** argv) {
  CLI::App app{
      "Shows a Salta position: a board on the terminal (the default), an SVG diagram (--svg)\n"
      "or a game viewer, one self-contained HTML page (--html). The position is the start,\n"
      "--position, the start or --position after --moves, or a game of a --record file (its\n"
      "final position, or the one after --ply plies).\n\n"
      "Exit status: 0 shown or written; 2 bad arguments, position, moves or record, or an\n"
      "output that cannot be written (the message says which)."};
  salta::tools::VariantFlags variant_flags;
  variant_flags.Add(app);
  std::string position_text = "start", moves_text, record_file, svg_file, html_file;
  std::string charset = "auto", colour = "auto";
  int game_number = 0, ply = -1;
  uint64_t node_limit = 1000000;
  bool targets = false, flip = false;
  auto* position_opt =
      app.add_option("--position", position_text, "The position (docs/notation.md), or \"start\"");
  auto* moves_opt = app.add_option(
      "--moves", moves_text,
      "Play these moves first (from --position, else the start), e.g. \"c3-d4 h8-g7\"; the last "
      "one is shown as the last move");
  auto* record_opt = app.add_option("--record", record_file, "A game record file (docs/records.md)")
                         ->check(salta::tools::NonEmpty());
  app.add_option("--game", game_number,
                 "Which game of the --record file, from 1 (default: the first; with --html, "
                 "every game)")
      ->transform(salta::tools::Integer(1, 1000000000))
      ->needs(record_opt);
  auto* ply_opt = app.add_option("--ply", ply,
                                 "Show the position after the game's first P plies (0: its start; "
                                 "default: the final position)")
                      ->transform(salta::tools::Integer(0, salta::kMaxPly))
                      ->needs(record_opt);
  record_opt->excludes(position_opt)->excludes(moves_opt);
  auto* svg_opt = app.add_option("--svg", svg_file,
                                 "Write an SVG diagram to this file (- for "
                                 "standard output)")
                      ->check(salta::tools::NonEmpty());
  auto* html_opt =
      app.add_option("--html", html_file,
                     "Write a game viewer, one HTML page, to this file (- for standard output)")
          ->check(salta::tools::NonEmpty());
  svg_opt->excludes(html_opt);
  ply_opt->excludes(html_opt);
  app.add_flag("--targets", targets,
               "Mark the target squares of the side to move (in the viewer: at first; a box "
               "turns them on and off)");
  app.add_flag("--flip", flip, "Show the board from Black's side");
  app.add_option("--charset", charset,
                 "Terminal board: ascii (letters), utf8 (symbols), or auto (utf8 where LC_ALL, "
                 "LC_CTYPE or LANG says UTF-8)")
      ->capture_default_str()
      ->check(salta::tools::OneOf({"auto", "ascii", "utf8"}));
  app.add_option("--color", colour,
                 "Terminal board colours: always, never, or auto (on a terminal, unless NO_COLOR "
                 "is set or TERM is dumb)")
      ->capture_default_str()
      ->check(salta::tools::OneOf({"auto", "always", "never"}));
  app.add_option("--node-limit", node_limit,
                 "Search nodes allowed for each minimum-moves count of a game that is over; 0 for "
                 "no limit. Past it, proven bounds are shown instead of exact counts")
      ->capture_default_str()
      ->transform(salta::tools::Integer(0, std::numeric_limits<uint64_t>::max()));
  if (int status = salta::tools::ParseCommandLine(app, tool, argc, argv); status >= 0)
    return status;

  absl::StatusOr<const salta::Variant*> variant = variant_flags.Make();
  if (!variant.ok()) return tool.Fail(variant.status().message());

  salta::FinishOptions count;
  count.node_limit = node_limit;
  std::vector<salta::GameView> games;
  std::string title = "Salta";
  if (!record_file.empty()) {
    RecordRequest request;
    request.file = record_file;
    // One game unless a page shows them all.
    request.game = game_number != 0 ? game_number : html_file.empty() ? 1 : 0;
    if (variant_flags.rules_option->count() > 0) request.replay.rules = variant_flags.rules_text;
    request.replay.overrides = variant_flags.overrides;
    // The replay's count, where the record's result or Score tag needs
    // one, is the one shown: made once, with the tool's limit.
    request.replay.count = count;
    salta::tools::Where where;
    absl::StatusOr<std::vector<salta::GameView>> read = ReadGames(request, where);
    if (!read.ok())
      return where.file.empty() ? tool.Fail(read.status().message())
                                : tool.Fail(where, read.status().message());
    games = *std::move(read);
    const size_t slash = record_file.rfind('/');
    title = slash == std::string::npos ? record_file : record_file.substr(slash + 1);
  } else {
    absl::StatusOr<salta::Position> start = salta::ParsePosition(**variant, position_text);
    if (!start.ok()) return tool.Fail(start.status().message());
    salta::Position pos = *start;
    std::vector<salta::Move> played;
    if (absl::Status s = salta::PlayMoves(pos, moves_text, played); !s.ok())
      return tool.Fail(s.message());
    games.push_back(salta::ViewGame(*start, played));
  }

  const bool shows_end = ply < 0 || ply == games.front().moves();
  if (ply > games.front().moves())
    return tool.Fail(absl::StrCat("--ply ", ply, ": the game has ", games.front().moves(),
                                  games.front().moves() == 1 ? " ply" : " plies",
                                  ", so the ply must be 0 to ", games.front().moves()));
  if (ply < 0) ply = games.front().moves();
  // The result is shown on the page, and under a terminal board of the end.
  if (!html_file.empty() || (svg_file.empty() && shows_end))
    for (salta::GameView& game : games)
      if (absl::Status s = salta::ScoreView(game, count); !s.ok()) return tool.Fail(s.message());

  if (!html_file.empty()) {
    salta::HtmlOptions options;
    options.title = title;
    options.flip = flip;
    options.targets = targets;
    if (absl::Status s = WriteOutput(tool, html_file, salta::RenderHtml(games, options)); !s.ok())
      return tool.Fail(s.message());
    return kExitOk;
  }

  const salta::GameView& game = games.front();
  const salta::ViewPly& shown = game.plies[ply];
  salta::BoardView view;
  view.flip = flip;
  view.last_move = shown.move_squares;
  if (targets) view.marked = shown.position.targets(shown.position.side_to_move());
  if (!svg_file.empty()) {
    salta::SvgOptions options;
    options.view = view;
    options.title = salta::PositionToString(shown.position);
    if (absl::Status s = WriteOutput(tool, svg_file, salta::RenderSvg(shown.position, options));
        !s.ok())
      return tool.Fail(s.message());
    return kExitOk;
  }
  salta::TextOptions options;
  options.view = view;
  options.utf8 = charset == "utf8" || (charset == "auto" && Utf8Locale());
  options.color = colour == "always" || (colour == "auto" && ColourTerminal());
  if (absl::Status s =
          WriteOutput(tool, "-", salta::RenderText(shown.position, options) + Summary(game, ply));
      !s.ok())
    return tool.Fail(s.message());
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return salta::tools::Main("salta-show", argc, argv,
                            [&](salta::tools::Tool& tool) { return Run(tool, argc, argv); });
}
