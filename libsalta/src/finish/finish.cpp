#include "salta/finish.h"

// The driver: checks the options, builds the bounds, then a beam search for
// a way to finish and IDA* until the lower bound meets it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "finish/heuristic.h"
#include "finish/pattern_db.h"
#include "finish/policy.h"
#include "finish/problem.h"
#include "finish/search.h"
#include "salta/movegen.h"
#include "salta/notation.h"

namespace salta {

using namespace finish_internal;

namespace {

// The group size of the pattern databases: the option, or by the board.
int GroupSize(const Problem& p, const FinishOptions& options, const Policy& policy) {
  if (options.pattern_group_size >= 0) return std::min(options.pattern_group_size, p.k);
  int k = 1;
  while (k < kMaxGroupSize && k < p.k) {
    absl::StatusOr<PlacementIndex> index = PlacementIndex::Make(p.n, k + 1);
    if (!index.ok() || index->size() > policy.max_default_pdb_entries) break;
    ++k;
  }
  return k;
}

// The partitions the bound is the maximum over (with their databases); none
// where databases do not apply.
absl::StatusOr<std::vector<Partition>> BoundPartitions(const Problem& p,
                                                       const FinishOptions& options,
                                                       const Policy& policy) {
  const int size = GroupSize(p, options, policy);
  if (p.jumps || size < 2) return std::vector<Partition>();
  std::vector<int> offsets;
  for (int o = 0; o < std::min(size, policy.partitions); ++o) offsets.push_back(o);
  PatternSource source{options.pattern_dir, options.report};
  return ResolvePartitions(p, PartitionsByTarget(p, size, offsets), source, false);
}

std::vector<Move> ToMoves(const Problem& p, const std::vector<PieceMove>& path) {
  std::vector<Move> moves;
  for (const PieceMove& mv : path) {
    const Square from = p.Normal(mv.from), to = p.Normal(mv.to);
    moves.push_back(mv.jump ? Move::Jump(from, to) : Move::Step(from, to));
  }
  return moves;
}

}  // namespace

std::string DefaultPatternDir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && xdg[0] == '/')
    return absl::StrCat(xdg, "/salta");
  if (const char* home = std::getenv("HOME"); home && home[0] != '\0')
    return absl::StrCat(home, "/.cache/salta");
  return "";
}

absl::Status ValidateFinishOptions(const FinishOptions& options) {
  if (!std::isfinite(options.time_limit_seconds) || options.time_limit_seconds < 0)
    return absl::InvalidArgumentError(
        absl::StrCat("the time limit must be a finite number of seconds, 0 or more, not ",
                     options.time_limit_seconds));
  if (options.pattern_group_size < -1 || options.pattern_group_size > kMaxPatternGroupSize)
    return absl::InvalidArgumentError(absl::StrCat(
        "the pattern group size must be -1 (by the board), 0 (no pattern databases) or 1 to ",
        kMaxPatternGroupSize, ", not ", options.pattern_group_size));
  return absl::OkStatus();
}

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
  if (absl::Status s = ValidateFinishOptions(options); !s.ok()) return s;
  const Problem p = MakeProblem(pos, side);
  if (p.k == 0) return absl::OkStatus();
  return BoundPartitions(p, options, Policy{}).status();
}

absl::StatusOr<FinishResult> MinMovesToFinish(const Position& pos, Side side,
                                              const FinishOptions& options) {
  const auto start = Clock::now();
  if (absl::Status s = ValidateFinishOptions(options); !s.ok()) return s;
  const Policy policy;
  const Problem p = MakeProblem(pos, side);
  FinishResult result;
  auto finish = [&](FinishResult& r) {
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return r;
  };
  auto unreachable = [&]() {
    result.reachable = false;
    result.exact = true;
    result.lower = result.upper = kUnknownMoves;
    result.solution.clear();
    return finish(result);
  };
  if (p.k == 0) {
    result.exact = true;
    result.lower = result.upper = 0;
    return finish(result);
  }
  // A piece that cannot reach its target even alone is seen before any
  // database is built.
  Partition singles = SinglePieces(p);
  for (const Group& group : singles)
    if (group.pdb->values[p.start[group.pieces[0]]] == kPdbUnreachable) return unreachable();
  absl::StatusOr<std::vector<Partition>> partitions = BoundPartitions(p, options, policy);
  if (!partitions.ok()) return partitions.status();
  // Each database is at least the sum of its pieces' distances, so the
  // single pieces only count when there are no databases.
  if (partitions->empty()) partitions->push_back(std::move(singles));
  Heuristic h;
  h.SetPartitions(std::move(*partitions), p.k);
  h.Set(p.start);
  if (h.value() >= kInf) return unreachable();

  SearchLimits limits;
  if (options.time_limit_seconds > 0)
    limits.deadline = start + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(options.time_limit_seconds));
  limits.max_nodes = options.node_limit;
  int lower = h.value();
  std::vector<PieceMove> best;  // the shortest way found
  bool found = false;
  auto conclude = [&](bool exact) {
    result.exact = exact;
    result.lower = lower;
    result.upper = found ? int(best.size()) : kUnknownMoves;
    if (options.want_solution && found) result.solution = ToMoves(p, best);
    return finish(result);
  };
  IdaOptions ida_options;
  ida_options.move_pruning = options.techniques.move_pruning;
  ida_options.bound_table = options.techniques.bound_table;
  ida_options.bound_table_entries = policy.bound_table_entries;
  ida_options.progress = options.progress;
  Ida ida(p, h, ida_options);
  // Runs IDA* within `nodes` more nodes (0: the limits only); true when it
  // concluded (the count found, proven, or unreachable).
  std::vector<PieceMove> path;
  bool unreachable_found = false;
  auto run_ida = [&](uint64_t nodes) {
    SearchLimits ida_limits = limits;
    const uint64_t used = result.nodes + ida.nodes();
    if (limits.max_nodes > 0)
      ida_limits.max_nodes = ida.nodes() + (limits.max_nodes > used ? limits.max_nodes - used : 0);
    if (nodes > 0 && (ida_limits.max_nodes == 0 || ida.nodes() + nodes < ida_limits.max_nodes))
      ida_limits.max_nodes = ida.nodes() + nodes;
    const Ida::Outcome outcome = ida.Run(lower, found ? int(best.size()) : 0, ida_limits, path);
    if (outcome == Ida::Outcome::kUnreachable) unreachable_found = true;
    if (outcome == Ida::Outcome::kSolved) {
      if (!found || path.size() <= best.size()) best = path;
      found = true;
    }
    return outcome != Ida::Outcome::kStopped || (found && lower >= int(best.size()));
  };
  auto concluded = [&]() {
    result.nodes += ida.nodes();
    if (unreachable_found) return unreachable();
    // Every bound below the iteration's was refuted, so a path found is as
    // long as the bound; anything else would be a defect, reported as
    // bounds rather than as an exact count.
    return conclude(found && int(best.size()) == lower);
  };
  // Most counts take a few hundred nodes of IDA*.
  if (run_ida(policy.first_ida_nodes)) return concluded();
  // Then a way to finish: where it meets the lower bound, the count is proven.
  if (options.techniques.upper_bound_search) {
    SearchLimits beam_limits = limits;
    if (limits.max_nodes > 0) beam_limits.max_nodes = std::max<uint64_t>(1, limits.max_nodes / 4);
    std::vector<PieceMove> way;
    if (BeamSearch(p, h, policy.beam_width, 2 * lower + 20, beam_limits, way, result.nodes) &&
        (!found || way.size() < best.size())) {
      best = std::move(way);
      found = true;
    }
    if (found && int(best.size()) <= lower) return concluded();
  }
  run_ida(0);
  return concluded();
}

}  // namespace salta
