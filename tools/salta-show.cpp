// salta-show: a position as a board on the terminal, an SVG diagram, or a
// game viewer (one HTML page). docs/salta-show.md.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "cli.h"
#include "salta/game.h"
#include "salta/game_view.h"
#include "salta/notation.h"
#include "salta/record.h"
#include "salta/render_html.h"
#include "salta/render_svg.h"
#include "salta/render_text.h"
#include "salta/replay.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;

int Fail(const std::string& message) {
  std::cerr << "salta-show: " << message << "\n";
  return kExitBadInput;
}

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
absl::Status WriteOutput(const std::string& path, const std::string& text) {
  if (path == "-") {
    errno = 0;
    std::cout << text << std::flush;
    if (!std::cout)
      return absl::DataLossError(absl::StrCat("cannot write to standard output: ",
                                              errno ? std::strerror(errno) : "write failed"));
    return absl::OkStatus();
  }
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out)
    return absl::PermissionDeniedError(absl::StrCat(
        "cannot write ", path, ": ", errno ? std::strerror(errno) : "cannot open the file"));
  out << text;
  out.close();
  if (!out)
    return absl::DataLossError(
        absl::StrCat("cannot write ", path, ": ", errno ? std::strerror(errno) : "write failed"));
  return absl::OkStatus();
}

struct RecordRequest {
  std::string file;
  int game = 0;  // from 1; 0: every game
  salta::ReplayOptions replay;
};

// The games of a record file (one, or all), replayed.
absl::StatusOr<std::vector<salta::GameView>> ReadGames(const RecordRequest& request) {
  std::ifstream in(request.file, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", request.file));
  salta::RecordReader reader(in);
  std::vector<salta::GameView> games;
  salta::ParsedGame game;
  int k = 0;
  while (reader.Next(game)) {
    ++k;
    if (request.game != 0 && k != request.game) continue;
    if (game.error)
      return absl::InvalidArgumentError(absl::StrCat(request.file, ":", game.error->at.line, ":",
                                                     game.error->at.column, ": game ", k, ": ",
                                                     game.error->message));
    absl::StatusOr<salta::GameView> view = salta::ViewRecord(game, request.replay);
    if (!view.ok())
      return absl::InvalidArgumentError(
          absl::StrCat(request.file, ": game ", k, ": ", view.status().message()));
    games.push_back(*std::move(view));
    if (request.game != 0) break;
  }
  if (reader.io_error()) return absl::DataLossError(absl::StrCat("error reading ", request.file));
  if (request.game != 0 && games.empty())
    return absl::NotFoundError(absl::StrCat(request.file, " has ", k, k == 1 ? " game" : " games",
                                            ", not ", request.game));
  if (games.empty()) return absl::NotFoundError(absl::StrCat(request.file, " has no games"));
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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Shows a Salta position: a board on the terminal (the default), an SVG diagram (--svg)\n"
      "or a game viewer, one self-contained HTML page (--html). The position is the start,\n"
      "--position, the start or --position after --moves, or a game of a --record file (its\n"
      "final position, or the one after --ply moves).\n\n"
      "Exit status: 0 shown or written; 2 bad arguments, position, moves or record, or an\n"
      "output that cannot be written (the message says which)."};
  salta::tools::VariantFlags variant_flags;
  variant_flags.Add(app);
  std::string position_text, moves_text, record_file, svg_file, html_file;
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
  auto* record_opt =
      app.add_option("--record", record_file, "A game record file (docs/records.md)");
  app.add_option("--game", game_number,
                 "Which game of the --record file, from 1 (default: the first; with --html, "
                 "every game)")
      ->check(CLI::Range(1, 1000000000))
      ->needs(record_opt);
  auto* ply_opt = app.add_option("--ply", ply,
                                 "Show the position after the game's first P moves (0: its start; "
                                 "default: the final position)")
                      ->check(CLI::Range(0, 1000000000))
                      ->needs(record_opt);
  record_opt->excludes(position_opt)->excludes(moves_opt);
  auto* svg_opt = app.add_option("--svg", svg_file,
                                 "Write an SVG diagram to this file (- for "
                                 "standard output)");
  auto* html_opt =
      app.add_option("--html", html_file,
                     "Write a game viewer, one HTML page, to this file (- for standard output)");
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
      ->check(CLI::IsMember({"auto", "ascii", "utf8"}));
  app.add_option("--color", colour,
                 "Terminal board colours: always, never, or auto (on a terminal, unless NO_COLOR "
                 "is set or TERM is dumb)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "always", "never"}));
  app.add_option("--node-limit", node_limit,
                 "Search nodes allowed for each minimum-moves count of a game that is over; 0 for "
                 "no limit. Past it, proven bounds are shown instead of exact counts")
      ->capture_default_str();
  if (int status = salta::tools::ParseCommandLine(app, argc, argv, kExitBadInput); status >= 0)
    return status;

  absl::StatusOr<const salta::Variant*> variant = variant_flags.Make();
  if (!variant.ok()) return Fail(std::string(variant.status().message()));

  std::vector<salta::GameView> games;
  std::string title = "Salta";
  if (!record_file.empty()) {
    RecordRequest request;
    request.file = record_file;
    // One game unless a page shows them all.
    request.game = game_number != 0 ? game_number : html_file.empty() ? 1 : 0;
    if (variant_flags.rules_option->count() > 0) request.replay.rules = variant_flags.preset;
    request.replay.overrides = variant_flags.overrides;
    absl::StatusOr<std::vector<salta::GameView>> read = ReadGames(request);
    if (!read.ok()) return Fail(std::string(read.status().message()));
    games = *std::move(read);
    const size_t slash = record_file.rfind('/');
    title = slash == std::string::npos ? record_file : record_file.substr(slash + 1);
  } else {
    absl::StatusOr<salta::Position> start =
        salta::ParsePosition(**variant, position_text.empty() ? "start" : position_text);
    if (!start.ok()) return Fail(std::string(start.status().message()));
    salta::Position pos = *start;
    std::vector<salta::Move> played;
    if (absl::Status s = salta::PlayMoves(pos, moves_text, played); !s.ok())
      return Fail(std::string(s.message()));
    games.push_back(salta::ViewGame(*start, played));
  }

  const bool shows_end = ply < 0 || ply == games.front().moves();
  if (ply > games.front().moves())
    return Fail(absl::StrCat("--ply ", ply, ": the game has ", games.front().moves(),
                             games.front().moves() == 1 ? " move" : " moves",
                             ", so the ply must be 0 to ", games.front().moves()));
  if (ply < 0) ply = games.front().moves();
  salta::FinishOptions count;
  count.node_limit = node_limit;
  // The result is shown on the page, and under a terminal board of the end.
  if (!html_file.empty() || (svg_file.empty() && shows_end))
    for (salta::GameView& game : games)
      if (absl::Status s = salta::ScoreView(game, count); !s.ok())
        return Fail(std::string(s.message()));

  if (!html_file.empty()) {
    salta::HtmlOptions options;
    options.title = title;
    options.flip = flip;
    options.targets = targets;
    if (absl::Status s = WriteOutput(html_file, salta::RenderHtml(games, options)); !s.ok())
      return Fail(std::string(s.message()));
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
    if (absl::Status s = WriteOutput(svg_file, salta::RenderSvg(shown.position, options)); !s.ok())
      return Fail(std::string(s.message()));
    return kExitOk;
  }
  salta::TextOptions options;
  options.view = view;
  options.utf8 = charset == "utf8" || (charset == "auto" && Utf8Locale());
  options.color = colour == "always" || (colour == "auto" && ColourTerminal());
  if (absl::Status s =
          WriteOutput("-", salta::RenderText(shown.position, options) + Summary(game, ply));
      !s.ok())
    return Fail(std::string(s.message()));
  return kExitOk;
}
