#include "salta/finish.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"
#include "finish/bound_table.h"
#include "finish/pattern_db.h"
#include "finish/problem.h"
#include "finish/search.h"
#include "salta/movegen.h"
#include "salta/notation.h"

namespace salta {

using namespace finish_internal;

absl::StatusOr<Position> ClearBoard(const Position& pos, Side side) {
  std::vector<std::pair<PieceId, Square>> pieces;
  for (PieceId id = int(side) * kPiecesPerSide; id < (int(side) + 1) * kPiecesPerSide; ++id)
    if (pos.square_of(id) != kNoSquare) pieces.emplace_back(id, pos.square_of(id));
  return Position::Make(pos.variant(), pieces, side, 0);
}

absl::Status CheckSolution(const Position& pos, Side side, const std::vector<Move>& moves) {
  absl::StatusOr<Position> board = ClearBoard(pos, side);
  if (!board.ok()) return board.status();
  Position& b = *board;
  const Geometry& g = pos.variant().geometry();
  for (size_t i = 0; i < moves.size(); ++i) {
    if (b.Completed(side))
      return absl::InvalidArgumentError(
          absl::StrCat("the goal is complete before move ", i + 1, " of ", moves.size()));
    MoveList raw;
    GenerateRaw(b, side, raw);
    const Move m = moves[i];
    if (m.is_pass() || !raw.contains(m))
      return absl::InvalidArgumentError(
          absl::StrCat("move ", i + 1, " (",
                       m.is_pass() ? std::string("--")
                                   : absl::StrCat(SquareName(g, m.from), "-", SquareName(g, m.to)),
                       ") is not a step or jump of ", SideName(side), " on the clear board"));
    b.Make(m);
    b.Make(Move::Pass());
  }
  if (!b.Completed(side) && b.pieces(side) != 0)
    return absl::InvalidArgumentError(
        absl::StrCat("the goal is not complete after ", moves.size(), " moves"));
  return absl::OkStatus();
}

absl::Status PreparePatternDatabases(const Position& pos, Side side, const FinishOptions& options) {
  const Problem p = MakeProblem(pos, side);
  if (p.k == 0 || p.jumps) return absl::OkStatus();
  const int size =
      options.pattern_group_size < 0 ? DefaultGroupSize(p.n) : options.pattern_group_size;
  if (size <= 0) return absl::OkStatus();
  absl::StatusOr<std::vector<Partition>> parts =
      MakePartitions(p, size, DefaultOffsets(size), options.pattern_dir);
  return parts.status();
}

absl::StatusOr<FinishResult> MinMovesToFinish(const Position& pos, Side side,
                                              const FinishOptions& options) {
  const auto start = Clock::now();
  const Problem p = MakeProblem(pos, side);
  FinishResult result;
  auto finish = [&](FinishResult& r) {
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return r;
  };
  if (p.k == 0) {
    result.exact = true;
    result.lower = result.upper = 0;
    return finish(result);
  }
  // Per-piece (relaxed) distances: one partition of single pieces.
  const std::vector<Bitboard> reach = RelaxedMoves(p);
  Partition singles;
  for (int i = 0; i < p.k; ++i) {
    Group group;
    group.pieces = {i};
    group.pdb = BuildDistance(p, reach, p.target[i]);
    group.weight[0] = 1;
    singles.group_of[i] = int8_t(i);
    singles.groups.push_back(std::move(group));
  }
  // A piece that cannot reach its target even alone: seen before any
  // database is built.
  for (const Group& group : singles.groups)
    if (group.pdb->table[p.start[group.pieces[0]]] == kPdbUnreachable) {
      result.reachable = false;
      result.exact = true;
      result.lower = result.upper = kUnknownMoves;
      return finish(result);
    }
  std::vector<Partition> partitions;
  // Large databases (four pieces: 6 MB, 0.3 s each to build) are built only
  // when a first search with small ones (three pieces, milliseconds) has not
  // finished within a node budget: most counts need no more.
  int size = 0, small = 0;
  if (!p.jumps) {
    size = std::min(
        p.k, options.pattern_group_size < 0 ? DefaultGroupSize(p.n) : options.pattern_group_size);
    small = options.pattern_group_size < 0 && size > 3 ? 3 : size;
    if (small < size) {
      // Already in memory: no reason to start small.
      absl::StatusOr<std::vector<Partition>> cached =
          MakePartitions(p, size, DefaultOffsets(size), options.pattern_dir, true);
      if (cached.ok() && !cached->empty()) {
        small = size;
        for (Partition& part : *cached) partitions.push_back(std::move(part));
      }
    }
    if (small > 1 && partitions.empty()) {
      absl::StatusOr<std::vector<Partition>> parts =
          MakePartitions(p, small, DefaultOffsets(small), options.pattern_dir);
      if (!parts.ok()) return parts.status();
      for (Partition& part : *parts) partitions.push_back(std::move(part));
    }
  }
  // Each database is at least the sum of its pieces' distances, so the
  // single pieces only count when there are no databases.
  if (partitions.empty()) partitions.push_back(std::move(singles));
  if (partitions.size() > 8) partitions.resize(8);

  // Under a limit, the exact search gets three quarters of it and a quick
  // search for a way to finish (the upper bound) the rest.
  FinishOptions exact_options = options;
  if (options.time_limit_seconds > 0) exact_options.time_limit_seconds *= 0.75;
  if (options.node_limit > 0) exact_options.node_limit = options.node_limit * 3 / 4 + 1;
  Solver solver(p, exact_options, start);
  solver.SetPartitions(std::move(partitions));
  std::vector<PieceMove> path;
  bool unreachable = false;
  int lower = 0;
  bool done;
  if (small < size) {
    solver.set_budget(100000);
    done = solver.Run(lower, path, unreachable);
    // Building the large databases takes seconds: not under a tighter limit.
    const double left = exact_options.time_limit_seconds - solver.seconds();
    if (!done && !solver.limit_hit()) {
      if (exact_options.time_limit_seconds <= 0 || left > 4.0) {
        absl::StatusOr<std::vector<Partition>> parts =
            MakePartitions(p, size, DefaultOffsets(size), options.pattern_dir);
        if (!parts.ok()) return parts.status();
        if (parts->size() > 8) parts->resize(8);
        solver.SetPartitions(std::move(*parts));
      }
      solver.set_budget(0);
      solver.clear_abort();
      done = solver.Run(lower, path, unreachable);
    }
  } else {
    done = solver.Run(lower, path, unreachable);
  }
  result.nodes = solver.nodes();
  if (unreachable) {
    result.reachable = false;
    result.exact = true;
    result.lower = result.upper = kUnknownMoves;
    return finish(result);
  }
  if (done) {
    // Every bound below the iteration's was refuted, so the path found is
    // as long as the bound; anything else would be a defect, reported as
    // bounds rather than as an exact count.
    result.exact = int(path.size()) == lower;
    result.lower = std::min(lower, int(path.size()));
    result.upper = int(path.size());
    if (options.want_solution) {
      for (const PieceMove& mv : path) {
        const Square from = p.Normal(mv.from), to = p.Normal(mv.to);
        result.solution.push_back(mv.jump ? Move::Jump(from, to) : Move::Step(from, to));
      }
    }
    return finish(result);
  }
  result.exact = false;
  result.lower = lower;
  result.upper = kUnknownMoves;
  {
    const Clock::time_point deadline =
        options.time_limit_seconds > 0
            ? start + std::chrono::duration_cast<Clock::duration>(
                          std::chrono::duration<double>(options.time_limit_seconds))
            : Clock::time_point::max();
    const uint64_t budget =
        options.node_limit > 0 ? std::max<uint64_t>(options.node_limit / 4, 1) : uint64_t(1) << 20;
    std::vector<PieceMove> way;
    if (solver.WeightedSearch(budget, deadline, way)) {
      result.upper = int(way.size());
      if (result.upper == result.lower) {
        result.exact = true;
        if (options.want_solution)
          for (const PieceMove& mv : way) {
            const Square from = p.Normal(mv.from), to = p.Normal(mv.to);
            result.solution.push_back(mv.jump ? Move::Jump(from, to) : Move::Step(from, to));
          }
      }
    }
  }
  return finish(result);
}

}  // namespace salta
