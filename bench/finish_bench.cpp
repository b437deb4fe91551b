// The scoring count's benchmark: solves every position of two fixed sets
// exactly, one thread (with --threads 2 a count's two directions side by
// side), and prints the distribution of times and node counts of each.
//
//   build/bench/salta_finish_bench [--data FILE]... [--pdb-dir DIR]
//       [--group-size K] [--bound-table-mb MB] [--threads T] [--off TECHNIQUE]...
//       [--verbose] [--trace] [--successors]
//   build/bench/salta_finish_bench --generate 100 --seed 1 > data/finish-bench.txt
//   build/bench/salta_finish_bench --generate-far 100 --seed 1 > data/finish-bench-far.txt
//
// Without --data it runs data/finish-bench.txt and data/finish-bench-far.txt.
//
// --successors also counts every position one move away (a move of the
// counted side alone on the clear board) and checks the counts against each
// other: a reachable position's count is one more than the least of its
// successors', none needs fewer than that, none needs more than one move
// more where the move can be taken back, and every successor of an
// unreachable position is unreachable. The consistency check of the tests,
// at scale; the successors' times and nodes are reported apart. Exit status
// 1 where a count is inexact or inconsistent.
//
// --generate plays greedy, toward-the-goal games (standard rules, the
// 120-move limit) with a fixed seed and writes positions to count: the final
// position of each game that ended by the goal (the loser's side), and of
// each game that reached the move limit (both sides). Each line: the side,
// then the position.
//
// --generate-far writes positions far from home: the final positions of
// random games at the 120-move limit (standard and pre1900, 10x10 and
// smaller boards), positions in the middle of random and greedy games
// (forward too, also with one row), and the start position of every preset
// on every geometry.
// Each line: side | rules | board/rows | position.
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "salta/finish.h"
#include "salta/game.h"
#include "salta/movegen.h"
#include "salta/notation.h"
#include "salta/random.h"

namespace {

using salta::Move;
using salta::MoveList;
using salta::Position;
using salta::Random;
using salta::Side;

int DistanceSum(const Position& pos, Side s) {
  const salta::Geometry& g = pos.variant().geometry();
  int sum = 0;
  for (salta::PieceId p = int(s) * salta::kPiecesPerSide; p < (int(s) + 1) * salta::kPiecesPerSide;
       ++p)
    if (pos.square_of(p) != salta::kNoSquare)
      sum += g.distance(pos.square_of(p), pos.variant().target(p));
  return sum;
}

// One greedy game: the mover plays the move that brings its pieces nearest
// their targets (summed distance), ties broken at random, and now and then a
// random move.
Position PlayGreedy(const salta::Variant& v, std::mt19937_64& rng) {
  Position pos = Position::Start(v);
  std::uniform_real_distribution<double> unit(0, 1);
  while (!pos.over()) {
    MoveList moves;
    salta::GenerateLegal(pos, moves);
    if (moves.empty()) break;
    const Side s = pos.side_to_move();
    Move pick = moves[0];
    if (unit(rng) < 0.1) {
      pick = moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng)];
    } else {
      int best = 1 << 30, ties = 0;
      for (const Move& m : moves) {
        const Position::Undo u = pos.Make(m);
        const int d = DistanceSum(pos, s);
        pos.Unmake(m, u);
        if (d < best) {
          best = d;
          ties = 1;
          pick = m;
        } else if (d == best && std::uniform_int_distribution<int>(0, ties++)(rng) == 0) {
          pick = m;
        }
      }
    }
    pos.Make(pick);
  }
  return pos;
}

int Generate(int count, uint64_t seed) {
  salta::Rules rules = salta::Rules::Standard();
  rules.move_limit = 120;
  const salta::Variant& v = salta::Variant::Default(rules);
  std::mt19937_64 rng(seed);
  std::vector<std::pair<Side, std::string>> goal_ends, limit_ends;
  for (int game = 0;
       game < 20000 && (int(goal_ends.size()) < count / 2 || int(limit_ends.size()) < count);
       ++game) {
    const Position end = PlayGreedy(v, rng);
    const salta::GameStatus st = salta::StatusOf(end);
    const std::string text = salta::PositionToString(end);
    if (st.reason == salta::EndReason::kMoveLimit) {
      limit_ends.emplace_back(Side::kWhite, text);
      limit_ends.emplace_back(Side::kBlack, text);
    } else if (st.outcome == salta::Outcome::kWhiteWins) {
      goal_ends.emplace_back(Side::kBlack, text);
    } else if (st.outcome == salta::Outcome::kBlackWins) {
      goal_ends.emplace_back(Side::kWhite, text);
    }
  }
  std::printf(
      "# The scoring count's benchmark positions (bench/finish_bench.cpp --generate %d --seed "
      "%llu):\n# greedy self-play, standard rules, move-limit=120. Each line: the side to "
      "count, then the position (docs/notation.md).\n",
      count, (unsigned long long)seed);
  std::fprintf(stderr, "%zu goal ends, %zu limit sides\n", goal_ends.size(), limit_ends.size());
  // Half game ends, half limit positions, as far as there are.
  const int from_goal = std::min<int>(int(goal_ends.size()), count / 2);
  const int from_limit = std::min<int>(int(limit_ends.size()), count - from_goal);
  int written = 0;
  for (int i = 0; i < from_goal; ++i, ++written)
    std::printf("%s %s\n", goal_ends[i].first == Side::kWhite ? "white" : "black",
                goal_ends[i].second.c_str());
  for (int i = 0; i < from_limit; ++i, ++written)
    std::printf("%s %s\n", limit_ends[i].first == Side::kWhite ? "white" : "black",
                limit_ends[i].second.c_str());
  for (int i = from_goal; written < count && i < int(goal_ends.size()); ++i, ++written)
    std::printf("%s %s\n", goal_ends[i].first == Side::kWhite ? "white" : "black",
                goal_ends[i].second.c_str());
  return written == count ? 0 : 1;
}

const salta::Variant& VariantOf(const std::string& spec, int board, int rows) {
  absl::StatusOr<salta::Rules> rules = salta::Rules::Parse(spec);
  absl::StatusOr<salta::Geometry> g = salta::Geometry::Make(board, rows);
  if (!rules.ok() || !g.ok()) {
    std::cerr << "bad variant " << spec << " " << board << "x" << board << "/" << rows << "\n";
    std::exit(2);
  }
  absl::StatusOr<const salta::Variant*> v = salta::Variant::Get(*g, *rules);
  if (!v.ok()) std::exit(2);
  return **v;
}

// Plays from the start: random moves, or the move that brings the moved
// piece nearest its target (ties at random, 10% random moves), until the
// game is over or `stop_ply` plies are played.
Position Play(const salta::Variant& v, bool greedy, int stop_ply, Random& rng) {
  Position pos = Position::Start(v);
  const salta::Geometry& g = v.geometry();
  while (!pos.over() && pos.ply() < stop_ply) {
    MoveList moves;
    salta::GenerateLegal(pos, moves);
    if (moves.empty()) break;
    Move pick = moves[rng.Below(moves.size())];
    if (greedy && rng.Below(10) != 0) {
      int best = 1 << 30, ties = 0;
      for (const Move& m : moves) {
        if (m.is_pass()) continue;
        const salta::PieceId p = pos.piece_on(m.from);
        const int d = g.distance(m.to, v.target(p)) - g.distance(m.from, v.target(p));
        if (d < best) {
          best = d;
          ties = 1;
          pick = m;
        } else if (d == best && rng.Below(++ties) == 0) {
          pick = m;
        }
      }
    }
    pos.Make(pick);
  }
  return pos;
}

int GenerateFar(int count, uint64_t seed) {
  Random rng(seed);
  struct Line {
    Side side;
    std::string rules;
    int board, rows;
    std::string position;
  };
  std::vector<Line> lines;
  auto add = [&](Side side, const std::string& rules, int board, int rows, const Position& pos) {
    lines.push_back({side, rules, board, rows, salta::PositionToString(pos)});
  };
  // The start position of every preset on every geometry (White's count;
  // Black's is the same by symmetry).
  for (const char* preset : {"standard", "pre1900", "forward"})
    for (int board = 4; board <= 10; board += 2)
      for (int rows = 1; rows <= 3 && 2 * rows < board; ++rows)
        add(Side::kWhite, preset, board, rows, Position::Start(VariantOf(preset, board, rows)));
  const int starts = int(lines.size());
  // Random games at the 120-move limit, both sides: most of the set.
  struct Source {
    const char* rules;
    int board, rows;
    bool greedy;
    bool to_limit;  // else stopped at a random ply in the middle of the game
    int share;      // of the rest, in percent
  };
  const Source sources[] = {
      {"standard move-limit=120", 10, 3, false, true, 40},
      {"pre1900 move-limit=120", 10, 3, false, true, 10},
      {"standard move-limit=120", 8, 3, false, true, 5},
      {"standard move-limit=120", 10, 3, false, false, 15},
      {"standard move-limit=120", 10, 3, true, false, 15},
      // Forward-only moves: on 10x10 with three rows the goal is soon out
      // of reach; with one row it is not.
      {"forward", 10, 3, false, false, 3},
      {"forward", 10, 1, false, false, 6},
      {"forward", 8, 1, true, false, 6},
  };
  const int rest = count - starts;
  for (const Source& src : sources) {
    const int want = rest * src.share / 100;
    const salta::Variant& v = VariantOf(src.rules, src.board, src.rows);
    for (int made = 0; made < want;) {
      const int stop = src.to_limit ? 1 << 30 : 10 + rng.Below(src.greedy ? 120 : 200);
      const Position end = Play(v, src.greedy, stop, rng);
      if (src.to_limit && salta::StatusOf(end).reason != salta::EndReason::kMoveLimit) continue;
      if (src.to_limit && made + 1 < want) {
        add(Side::kWhite, src.rules, src.board, src.rows, end);
        add(Side::kBlack, src.rules, src.board, src.rows, end);
        made += 2;
      } else {
        add(rng.Below(2) ? Side::kBlack : Side::kWhite, src.rules, src.board, src.rows, end);
        ++made;
      }
    }
  }
  // Fill to the count with more random limit positions.
  const salta::Variant& v = VariantOf(sources[0].rules, 10, 3);
  while (int(lines.size()) < count) {
    const Position end = Play(v, false, 1 << 30, rng);
    if (salta::StatusOf(end).reason == salta::EndReason::kMoveLimit)
      add(rng.Below(2) ? Side::kBlack : Side::kWhite, sources[0].rules, 10, 3, end);
  }
  std::printf(
      "# The scoring count's positions far from home (bench/finish_bench.cpp --generate-far %d "
      "--seed %llu):\n# start positions of every preset and geometry, random games at the "
      "120-move limit, positions in the middle of random and greedy games.\n# Each line: the "
      "side to count | rules | board/rows | the position (docs/notation.md).\n",
      count, (unsigned long long)seed);
  for (const Line& l : lines)
    std::printf("%s | %s | %dx%d/%d | %s\n", l.side == Side::kWhite ? "white" : "black",
                l.rules.c_str(), l.board, l.board, l.rows, l.position.c_str());
  return 0;
}

double Percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return 0;
  const size_t i = std::min(v.size() - 1, size_t(q * double(v.size() - 1) + 0.5));
  return v[i];
}

struct Item {
  Side side;
  Position pos;
};

// Reads a benchmark file: "side position" lines (standard rules with the
// 120-move limit, 10x10) or "side | rules | NxN/R | position".
bool ReadItems(const std::string& file, std::vector<Item>& items) {
  std::ifstream in(file);
  if (!in) {
    std::cerr << "cannot read " << file << "\n";
    return false;
  }
  salta::Rules limit = salta::Rules::Standard();
  limit.move_limit = 120;
  const salta::Variant& default_variant = salta::Variant::Default(limit);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::string side, text;
    const salta::Variant* v = &default_variant;
    if (line.find(" | ") != std::string::npos) {
      std::vector<std::string> f = absl::StrSplit(line, " | ");
      int board = 0, rows = 0;
      if (f.size() != 4 || std::sscanf(f[2].c_str(), "%dx%*d/%d", &board, &rows) != 2) {
        std::cerr << "bad line: " << line << "\n";
        return false;
      }
      side = f[0];
      v = &VariantOf(f[1], board, rows);
      text = f[3];
    } else {
      const size_t space = line.find(' ');
      side = line.substr(0, space);
      text = line.substr(space + 1);
    }
    absl::StatusOr<Position> pos = salta::ParsePosition(*v, text);
    if (!pos.ok() || (side != "white" && side != "black")) {
      std::cerr << "bad line: " << line << "\n";
      return false;
    }
    items.push_back({side == "white" ? Side::kWhite : Side::kBlack, *pos});
  }
  return true;
}

// The successors' counts (--successors).
struct Successors {
  std::vector<double> times, nodes;
  int exact = 0, inconsistent = 0;
};

void PrintDistribution(const std::vector<double>& times, const std::vector<double>& nodes) {
  double total = 0;
  for (double t : times) total += t;
  std::printf("  time ms: min %.3f  median %.3f  p90 %.3f  p99 %.3f  max %.3f  total %.1f\n",
              Percentile(times, 0), Percentile(times, 0.5), Percentile(times, 0.9),
              Percentile(times, 0.99), Percentile(times, 1), total);
  std::printf("  nodes:   min %.0f  median %.0f  p90 %.0f  p99 %.0f  max %.0f\n",
              Percentile(nodes, 0), Percentile(nodes, 0.5), Percentile(nodes, 0.9),
              Percentile(nodes, 0.99), Percentile(nodes, 1));
}

// Counts every successor of item (its count `r`, exact) and checks the
// counts against each other; prints what disagrees. False on an error.
bool CheckSuccessors(size_t index, const Item& item, const salta::FinishResult& r,
                     const salta::FinishOptions& options, bool verbose, Successors& out) {
  absl::StatusOr<Position> board = salta::ClearBoard(item.pos, item.side);
  if (!board.ok()) {
    std::cerr << board.status().message() << "\n";
    return false;
  }
  MoveList moves;
  salta::GenerateRaw(*board, item.side, moves);
  int least = INT_MAX;  // over the reachable successors
  bool all_exact = true;
  auto disagree = [&](const std::string& what) {
    ++out.inconsistent;
    std::printf("INCONSISTENT position %zu (count %d): %s\n", index + 1, r.moves(), what.c_str());
  };
  for (int i = 0; i < moves.size(); ++i) {
    const Move m = moves[i];
    const std::string after = "after " + salta::MoveToString(*board, m);
    Position next = *board;
    next.Make(m);
    const auto t0 = std::chrono::steady_clock::now();
    absl::StatusOr<salta::FinishResult> c = salta::MinMovesToFinish(next, item.side, options);
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!c.ok()) {
      std::cerr << c.status().message() << "\n";
      return false;
    }
    out.times.push_back(t * 1000);
    out.nodes.push_back(double(c->nodes));
    if (verbose)
      std::printf("    %-13s moves %3d exact %d lower %3d upper %3d nodes %10llu ms %9.3f\n",
                  after.c_str(), c->moves(), c->exact, c->lower, c->upper,
                  (unsigned long long)c->nodes, t * 1000);
    if (!c->exact) {
      all_exact = false;
      continue;
    }
    ++out.exact;
    if (!r.reachable) {
      if (c->reachable) disagree(after + ": a successor of an unreachable goal reaches it");
      continue;
    }
    if (!c->reachable) continue;
    least = std::min(least, c->moves());
    if (c->moves() < r.moves() - 1)
      disagree(after + ": " + std::to_string(c->moves()) + " moves, fewer than the count less one");
    if (c->moves() > r.moves() + 1) {
      // Only where the move cannot be taken back (moves compare by their
      // squares: a jump's way back too).
      MoveList back;
      salta::GenerateRaw(next, item.side, back);
      if (back.contains(Move::Step(m.to, m.from)))
        disagree(after + ": " + std::to_string(c->moves()) +
                 " moves, more than the count plus one, though the move can be taken back");
    }
  }
  if (r.reachable && r.moves() > 0 && all_exact && least != r.moves() - 1)
    disagree("the least successor's count is " +
             (least == INT_MAX ? std::string("unreachable") : std::to_string(least)));
  return true;
}

// Solves every item; prints the distribution. Returns whether all were exact
// (and, with `successors`, consistent with their successors).
bool RunSet(const std::string& name, const std::vector<Item>& items,
            const salta::FinishOptions& options, bool verbose, bool trace, bool successors) {
  // The pattern databases are built (or loaded) once, before timing.
  const auto prep_start = std::chrono::steady_clock::now();
  for (const Item& it : items)
    if (absl::Status s = salta::PreparePatternDatabases(it.pos, it.side, options); !s.ok()) {
      std::cerr << s.message() << "\n";
      return false;
    }
  const double prep =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - prep_start).count();
  std::vector<double> times, nodes;
  int exact = 0;
  Successors counted;
  for (size_t i = 0; i < items.size(); ++i) {
    int first_lower = -1;
    salta::FinishOptions opts = options;
    const auto t0 = std::chrono::steady_clock::now();
    opts.progress = [&](int lower, uint64_t n) {
      if (first_lower < 0) first_lower = lower;
      // Where the time goes: each IDA* run's proven bound as it starts.
      if (trace)
        std::cerr << "  trace: lower " << lower << " nodes " << n << " seconds "
                  << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()
                  << "\n";
    };
    absl::StatusOr<salta::FinishResult> r =
        salta::MinMovesToFinish(items[i].pos, items[i].side, opts);
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.ok()) {
      std::cerr << r.status().message() << "\n";
      return false;
    }
    times.push_back(t * 1000);
    nodes.push_back(double(r->nodes));
    exact += r->exact;
    if (verbose)
      std::printf(
          "%3zu %s moves %3d exact %d lower %3d upper %3d first bound %3d nodes %10llu ms "
          "%9.3f\n",
          i + 1, items[i].side == Side::kWhite ? "white" : "black", r->moves(), r->exact, r->lower,
          r->upper, first_lower, (unsigned long long)r->nodes, t * 1000);
    std::fflush(stdout);
    if (successors && r->exact && !CheckSuccessors(i, items[i], *r, options, verbose, counted))
      return false;
  }
  std::printf("%s: positions %zu, exact %d, pattern databases ready in %.2f s\n", name.c_str(),
              items.size(), exact, prep);
  PrintDistribution(times, nodes);
  if (successors) {
    std::printf("%s successors: positions %zu, exact %d, inconsistent %d\n", name.c_str(),
                counted.times.size(), counted.exact, counted.inconsistent);
    PrintDistribution(counted.times, counted.nodes);
  }
  return exact == int(items.size()) &&
         (!successors || (counted.exact == int(counted.times.size()) && counted.inconsistent == 0));
}

// The switch of the technique named as in salta/finish.h, or null.
bool* TechniqueFlag(salta::FinishTechniques& t, const std::string& name) {
  const std::pair<const char*, bool*> flags[] = {{"quick_search", &t.quick_search},
                                                 {"upper_bound_search", &t.upper_bound_search},
                                                 {"move_pruning", &t.move_pruning},
                                                 {"bound_table", &t.bound_table},
                                                 {"stubborn_sets", &t.stubborn_sets},
                                                 {"group_bound", &t.group_bound},
                                                 {"conflict_partition", &t.conflict_partition},
                                                 {"shorten", &t.shorten},
                                                 {"goal_tangle", &t.goal_tangle},
                                                 {"longer_runs", &t.longer_runs},
                                                 {"rank_bound", &t.rank_bound},
                                                 {"neighbourhoods", &t.neighbourhoods},
                                                 {"groups_in_search", &t.groups_in_search},
                                                 {"pathmax", &t.pathmax},
                                                 {"carried_databases", &t.carried_databases},
                                                 {"both_ways", &t.both_ways},
                                                 {"pair_bound", &t.pair_bound},
                                                 {"pairs_in_sets", &t.pairs_in_sets},
                                                 {"cone_table", &t.cone_table}};
  for (const auto& [n, flag] : flags)
    if (name == n) return flag;
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> data;
  salta::FinishOptions options;
  bool verbose = false;
  bool trace = false;
  bool successors = false;
  int generate = 0, generate_far = 0;
  uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--data")
      data.push_back(next());
    else if (a == "--pdb-dir")
      options.pattern_dir = next();
    else if (a == "--group-size")
      options.pattern_group_size = std::stoi(next());
    else if (a == "--bound-table-mb")
      options.bound_table_megabytes = std::stoi(next());
    else if (a == "--time-limit")
      options.time_limit_seconds = std::stod(next());
    else if (a == "--node-limit")
      options.node_limit = std::stoull(next());
    else if (a == "--threads")
      options.threads = std::stoi(next());
    else if (a == "--verbose")
      verbose = true;
    else if (a == "--trace")
      trace = true;
    else if (a == "--successors")
      successors = true;
    else if (bool* flag = a == "--off" ? TechniqueFlag(options.techniques, next()) : nullptr)
      *flag = false;
    else if (a == "--generate")
      generate = std::stoi(next());
    else if (a == "--generate-far")
      generate_far = std::stoi(next());
    else if (a == "--seed")
      seed = std::stoull(next());
    else {
      std::cerr << "usage: salta_finish_bench [--data FILE]... [--pdb-dir DIR] [--group-size K] "
                   "[--bound-table-mb MB] [--time-limit S] [--node-limit N] [--threads T] "
                   "[--off TECHNIQUE]... "
                   "[--verbose] [--trace] [--successors]\n"
                   "       salta_finish_bench --generate N [--seed S]\n"
                   "       salta_finish_bench --generate-far N [--seed S]\n"
                   "TECHNIQUE: a switch of FinishTechniques (salta/finish.h), e.g. "
                   "stubborn_sets\n";
      return 2;
    }
  }
  if (generate > 0) return Generate(generate, seed);
  if (generate_far > 0) return GenerateFar(generate_far, seed);
  if (data.empty())
    data = {std::string(SALTA_DATA_DIR) + "/finish-bench.txt",
            std::string(SALTA_DATA_DIR) + "/finish-bench-far.txt"};
  bool all_exact = true;
  for (const std::string& file : data) {
    std::vector<Item> items;
    if (!ReadItems(file, items)) return 2;
    const size_t slash = file.find_last_of('/');
    all_exact &= RunSet(slash == std::string::npos ? file : file.substr(slash + 1), items, options,
                        verbose, trace, successors);
  }
  return all_exact ? 0 : 1;
}
