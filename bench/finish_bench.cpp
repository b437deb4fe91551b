// The scoring count's benchmark: solves every position of
// data/finish-bench.txt exactly, one thread, and prints the distribution of
// times and node counts.
//
//   build/bench/salta_finish_bench [--data data/finish-bench.txt] [--pdb-dir DIR]
//       [--group-size K] [--verbose]
//   build/bench/salta_finish_bench --generate 100 --seed 1 > data/finish-bench.txt
//
// --generate plays greedy, toward-the-goal games (standard rules, the
// 120-move limit) with a fixed seed and writes positions to count: the final
// position of each game that ended by the goal (the loser's side), and of
// each game that reached the move limit (both sides).
#include <algorithm>
#include <chrono>
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

namespace {

using salta::Move;
using salta::MoveList;
using salta::Position;
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

double Percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return 0;
  const size_t i = std::min(v.size() - 1, size_t(q * double(v.size() - 1) + 0.5));
  return v[i];
}

}  // namespace

int main(int argc, char** argv) {
  std::string data = std::string(SALTA_DATA_DIR) + "/finish-bench.txt";
  salta::FinishOptions options;
  bool verbose = false;
  int generate = 0;
  uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--data")
      data = next();
    else if (a == "--pdb-dir")
      options.pattern_dir = next();
    else if (a == "--group-size")
      options.pattern_group_size = std::stoi(next());
    else if (a == "--time-limit")
      options.time_limit_seconds = std::stod(next());
    else if (a == "--verbose")
      verbose = true;
    else if (a == "--generate")
      generate = std::stoi(next());
    else if (a == "--seed")
      seed = std::stoull(next());
    else {
      std::cerr << "usage: salta_finish_bench [--data FILE] [--pdb-dir DIR] [--group-size K] "
                   "[--time-limit S] [--verbose] | --generate N [--seed S]\n";
      return 2;
    }
  }
  if (generate > 0) return Generate(generate, seed);

  salta::Rules rules = salta::Rules::Standard();
  rules.move_limit = 120;
  const salta::Variant& v = salta::Variant::Default(rules);
  std::ifstream in(data);
  if (!in) {
    std::cerr << "cannot read " << data << "\n";
    return 2;
  }
  struct Item {
    Side side;
    Position pos;
  };
  std::vector<Item> items;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.find(' ');
    const std::string side = line.substr(0, space);
    absl::StatusOr<Position> pos = salta::ParsePosition(v, line.substr(space + 1));
    if (!pos.ok() || (side != "white" && side != "black")) {
      std::cerr << "bad line: " << line << "\n";
      return 2;
    }
    items.push_back({side == "white" ? Side::kWhite : Side::kBlack, *pos});
  }
  // The pattern databases are built (or loaded) once, before timing.
  const auto prep_start = std::chrono::steady_clock::now();
  for (const Item& it : items)
    if (absl::Status s = salta::PreparePatternDatabases(it.pos, it.side, options); !s.ok()) {
      std::cerr << s.message() << "\n";
      return 2;
    }
  const double prep =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - prep_start).count();
  std::vector<double> times, nodes;
  int exact = 0, sum_moves = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    int first_lower = -1;
    salta::FinishOptions opts = options;
    opts.progress = [&](int lower, uint64_t) {
      if (first_lower < 0) first_lower = lower;
    };
    const auto t0 = std::chrono::steady_clock::now();
    absl::StatusOr<salta::FinishResult> r =
        salta::MinMovesToFinish(items[i].pos, items[i].side, opts);
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.ok()) {
      std::cerr << r.status().message() << "\n";
      return 1;
    }
    times.push_back(t * 1000);
    nodes.push_back(double(r->nodes));
    exact += r->exact;
    sum_moves += r->exact ? r->lower : 0;
    if (verbose)
      std::printf("%3zu %s moves %3d exact %d lower %3d first bound %3d nodes %10llu ms %9.3f\n",
                  i + 1, items[i].side == Side::kWhite ? "white" : "black", r->moves(), r->exact,
                  r->lower, first_lower, (unsigned long long)r->nodes, t * 1000);
  }
  std::printf("positions %zu, exact %d, pattern databases ready in %.2f s\n", items.size(), exact,
              prep);
  std::printf("time ms: min %.3f  median %.3f  p90 %.3f  p99 %.3f  max %.3f  total %.1f\n",
              Percentile(times, 0), Percentile(times, 0.5), Percentile(times, 0.9),
              Percentile(times, 0.99), Percentile(times, 1), [&] {
                double s = 0;
                for (double t : times) s += t;
                return s;
              }());
  std::printf("nodes:   min %.0f  median %.0f  p90 %.0f  p99 %.0f  max %.0f\n",
              Percentile(nodes, 0), Percentile(nodes, 0.5), Percentile(nodes, 0.9),
              Percentile(nodes, 0.99), Percentile(nodes, 1));
  return exact == int(items.size()) ? 0 : 1;
}
