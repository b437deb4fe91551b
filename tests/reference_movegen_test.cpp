// The library's legal moves, move counts, phases, game ends and perft
// compared with the independent reference generator (reference_movegen.h)
// on positions from random games and on positions built to reach blocks,
// passes, extra moves, completed goals and the move limit.
#include "reference_movegen.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "salta/game.h"
#include "salta/geometry.h"
#include "salta/movegen.h"
#include "salta/notation.h"
#include "salta/perft.h"
#include "salta/position.h"
#include "salta/rules.h"
#include "salta/variant.h"

namespace salta {
namespace {

namespace ref = reference;

// Under the sanitizers everything runs about ten times slower: sample less.
bool Sanitized() {
  const char* sanitized = std::getenv("SALTA_SANITIZED");
  return sanitized != nullptr && *sanitized != '\0';
}
int Scaled(int n) {
  return Sanitized() ? std::max(1, n / 8) : n;
}

struct Shape {
  int size;
  int rows;
};
constexpr Shape kShapes[] = {{10, 3}, {8, 2}, {8, 3}, {6, 1}, {6, 2}, {4, 1}};

// Each preset and, for each, option combinations that change move generation
// or the game end.
const std::vector<std::string>& RuleSpecs(const std::string& preset) {
  static const std::vector<std::string> standard = {
      "standard",
      "standard chain=on",
      "standard jump-dir=any",
      "standard jump-over=any",
      "standard chain=on jump-dir=any jump-over=any",
      "standard block=allow",
      "standard block=lose",
      "standard steps=forward",
      "standard jumps=optional",
      "standard extra-move=off",
      "standard move-limit=10",
      "standard steps=forward block=lose move-limit=12",
  };
  static const std::vector<std::string> pre1900 = {
      "pre1900",
      "pre1900 chain=on",
      "pre1900 steps=forward",
      "pre1900 jump-dir=any jumps=optional move-limit=10",
  };
  static const std::vector<std::string> forward = {
      "forward",
      "forward block=forbid",
      "forward block=allow",
      "forward jumps=mandatory",
      "forward jump-dir=any",
      "forward extra-move=on move-limit=10",
      "forward steps=any jump-over=opponent",
  };
  if (preset == "standard") return standard;
  if (preset == "pre1900") return pre1900;
  return forward;
}

const Variant& GetVariant(Shape shape, const std::string& spec) {
  absl::StatusOr<Geometry> g = Geometry::Make(shape.size, shape.rows);
  absl::StatusOr<Rules> r = Rules::Parse(spec);
  if (!g.ok() || !r.ok()) {
    ADD_FAILURE() << "bad geometry or rules: " << spec;
    return Variant::Default();
  }
  absl::StatusOr<const Variant*> v = Variant::Get(*g, *r);
  if (!v.ok()) {
    ADD_FAILURE() << "no variant for " << spec << ": " << v.status();
    return Variant::Default();
  }
  return **v;
}

struct Coverage {
  int64_t positions = 0;
  int64_t jump = 0;                 // the legal moves hold a jump
  int64_t chain2 = 0;               // ... a jump that needs a chain of two or more
  int64_t revisit = 0;              // a chain was stopped from revisiting a square
  int64_t mandatory_cut = 0;        // mandatory jumps removed steps
  int64_t filter_removed = 0;       // the block filter removed a move (no fallback)
  int64_t fallback = 0;             // the filter would remove every move: M kept whole
  int64_t exempt_goal = 0;          // a blocking move kept: completes the goal, no extra move
  int64_t exempt_limit = 0;         // a blocking move kept: reaches the move limit
  int64_t exempt_extra = 0;         // a blocking move kept: Black's extra move
  int64_t completing_filtered = 0;  // White's completing move removed (extra-move=on)
  int64_t pass = 0;
  int64_t blocked_lose = 0;   // block=lose, no move
  int64_t extra_phase = 0;    // Black's extra move
  int64_t extra_no_move = 0;  // ... with no move: over at once
  int64_t completed = 0;      // a side has completed its goal
  int64_t move_limit = 0;     // over by the move limit
  int64_t mismatches = 0;

  void Add(const Coverage& o) {
    positions += o.positions;
    jump += o.jump;
    chain2 += o.chain2;
    revisit += o.revisit;
    mandatory_cut += o.mandatory_cut;
    filter_removed += o.filter_removed;
    fallback += o.fallback;
    exempt_goal += o.exempt_goal;
    exempt_limit += o.exempt_limit;
    exempt_extra += o.exempt_extra;
    completing_filtered += o.completing_filtered;
    pass += o.pass;
    blocked_lose += o.blocked_lose;
    extra_phase += o.extra_phase;
    extra_no_move += o.extra_no_move;
    completed += o.completed;
    move_limit += o.move_limit;
    mismatches += o.mismatches;
  }
  std::string ToString() const {
    std::ostringstream out;
    out << "positions=" << positions << " jump=" << jump << " chain2+=" << chain2
        << " revisit=" << revisit << " mandatory-cut=" << mandatory_cut
        << " filter-removed=" << filter_removed << " fallback=" << fallback
        << " exempt-goal=" << exempt_goal << " exempt-limit=" << exempt_limit
        << " exempt-extra=" << exempt_extra << " completing-filtered=" << completing_filtered
        << " pass=" << pass << " blocked-lose=" << blocked_lose << " extra-phase=" << extra_phase
        << " extra-no-move=" << extra_no_move << " completed=" << completed
        << " move-limit=" << move_limit;
    return out.str();
  }
};

// Stop reporting (and comparing) after this many disagreements.
constexpr int kMaxMismatches = 5;

using MoveKey = std::tuple<int, int, bool>;  // from, to, pass

int PhaseNumber(Phase p) {
  return int(p);
}
int PhaseNumber(ref::RefPhase p) {
  switch (p) {
    case ref::RefPhase::kPlay:
      return int(Phase::kPlay);
    case ref::RefPhase::kExtraMove:
      return int(Phase::kExtraMove);
    case ref::RefPhase::kOver:
      return int(Phase::kOver);
  }
  return -1;
}
int EndNumber(EndReason r) {
  switch (r) {
    case EndReason::kNone:
      return 0;
    case EndReason::kGoal:
      return 1;
    case EndReason::kExtraMove:
      return 2;
    case EndReason::kMoveLimit:
      return 3;
    case EndReason::kBlocked:
      return 4;
  }
  return -1;
}
int EndNumber(ref::RefEnd r) {
  return int(r);
}
int OutcomeNumber(Outcome o) {
  return int(o);
}
int OutcomeNumber(ref::RefOutcome o) {
  return int(o);
}

std::string KeyName(int size, const MoveKey& k) {
  ref::RefMove m;
  m.pass = std::get<2>(k);
  if (!m.pass) {
    m.from = ref::CoordOf(size, std::get<0>(k));
    m.to = ref::CoordOf(size, std::get<1>(k));
  }
  return ref::MoveName(m);
}

std::string KeysText(int size, const std::set<MoveKey>& keys) {
  std::string out;
  for (const MoveKey& k : keys) {
    out += ' ';
    out += KeyName(size, k);
  }
  return out.empty() ? " (none)" : out;
}

Move ToLibraryMove(int size, const ref::RefMove& m) {
  if (m.pass) return Move::Pass();
  const Square from = ref::SquareIndex(size, m.from), to = ref::SquareIndex(size, m.to);
  return m.jump ? Move::Jump(from, to) : Move::Step(from, to);
}

// Compares everything at one position; returns the reference's legal moves.
// Returns false (and reports) on a disagreement.
bool CompareAt(const Position& lib, Coverage& cov, std::vector<ref::RefMove>& ref_moves) {
  const ref::RefPosition rp = ref::FromLibrary(lib);
  ref::LegalInfo info;
  ref_moves = ref::LegalMoves(rp, &info);
  const int size = rp.size;

  MoveList list;
  GenerateLegal(lib, list);
  std::set<MoveKey> lib_keys;
  bool jump_flags_ok = true;
  for (const Move& m : list) {
    lib_keys.emplace(m.is_pass() ? -1 : int(m.from), m.is_pass() ? -1 : int(m.to), m.is_pass());
    if (!m.is_pass()) {
      const ref::Coord f = ref::CoordOf(size, m.from), t = ref::CoordOf(size, m.to);
      const bool is_step = std::abs(f.file - t.file) == 1 && std::abs(f.rank - t.rank) == 1;
      if (m.jump == is_step) jump_flags_ok = false;
    }
  }
  std::set<MoveKey> ref_keys;
  for (const ref::RefMove& m : ref_moves)
    ref_keys.emplace(m.pass ? -1 : ref::SquareIndex(size, m.from),
                     m.pass ? -1 : ref::SquareIndex(size, m.to), m.pass);

  const int lib_count = CountLegal(lib);
  const ref::RefPhase ref_phase = ref::PhaseOf(rp);
  const ref::RefStatus ref_status = ref::StatusOf(rp);
  const GameStatus lib_status = StatusOf(lib);

  ++cov.positions;
  std::ostringstream why;
  if (lib_keys != ref_keys) {
    std::set<MoveKey> only_lib, only_ref;
    std::set_difference(lib_keys.begin(), lib_keys.end(), ref_keys.begin(), ref_keys.end(),
                        std::inserter(only_lib, only_lib.begin()));
    std::set_difference(ref_keys.begin(), ref_keys.end(), lib_keys.begin(), lib_keys.end(),
                        std::inserter(only_ref, only_ref.begin()));
    why << "\n  legal moves differ; library:" << KeysText(size, lib_keys)
        << "\n  reference:" << KeysText(size, ref_keys)
        << "\n  only in library:" << KeysText(size, only_lib)
        << "\n  only in reference:" << KeysText(size, only_ref);
  }
  if (int(lib_keys.size()) != list.size())
    why << "\n  the library's list has duplicates: " << list.size() << " entries, "
        << lib_keys.size() << " distinct";
  if (!jump_flags_ok) why << "\n  the library marks a step as a jump or a jump as a step";
  if (lib_count != int(ref_keys.size()))
    why << "\n  CountLegal " << lib_count << ", reference " << ref_keys.size();
  if (PhaseNumber(lib.phase()) != PhaseNumber(ref_phase))
    why << "\n  phase: library " << PhaseNumber(lib.phase()) << ", reference "
        << PhaseNumber(ref_phase) << " (0 play, 1 extra move, 2 over)";
  // Both goals complete arises in a game only from Black's extra move (a
  // draw). Otherwise the side that completed second moved after the game had
  // ended: the rules say such a position is over, not why or who won.
  const bool unreachable = ref::Completed(rp, Side::kWhite) && ref::Completed(rp, Side::kBlack) &&
                           !(rp.rules.extra_move && rp.side_to_move == Side::kWhite);
  if (unreachable ? lib_status.over() != ref_status.over()
                  : (EndNumber(lib_status.reason) != EndNumber(ref_status.reason) ||
                     OutcomeNumber(lib_status.outcome) != OutcomeNumber(ref_status.outcome)))
    why << "\n  game status: library reason " << EndReasonName(lib_status.reason) << " outcome "
        << OutcomeNumber(lib_status.outcome) << ", reference reason "
        << EndNumber(ref_status.reason) << " outcome " << OutcomeNumber(ref_status.outcome)
        << " (reasons 0 none 1 goal 2 extra-move 3 move-limit 4 blocked; outcomes 0 none 1 "
           "white 2 black 3 draw 4 undecided)";
  if (!why.str().empty()) {
    ++cov.mismatches;
    ADD_FAILURE() << "library and reference disagree\n  rules: " << lib.variant().rules().ToString()
                  << ", board " << lib.variant().geometry().ToString()
                  << "\n  position: " << PositionToString(lib)
                  << "\n  reference view: " << ref::ToString(rp) << why.str();
    return false;
  }

  // Coverage.
  bool any_jump = false, chain = false;
  for (const ref::RefMove& m : ref_moves) {
    any_jump |= m.jump;
    chain |= m.jump && m.min_jumps >= 2;
  }
  cov.jump += any_jump;
  cov.chain2 += chain;
  cov.revisit += info.raw_info.revisit_refused > 0;
  cov.mandatory_cut += info.mandatory_cut;
  cov.filter_removed += info.filter_removed > 0 && !info.fallback;
  cov.fallback += info.fallback;
  cov.exempt_goal += info.exempt_goal;
  cov.exempt_limit += info.exempt_limit;
  cov.exempt_extra += info.exempt_extra;
  cov.completing_filtered += info.completing_filtered && !info.fallback;
  cov.pass += info.pass;
  cov.blocked_lose += info.blocked_lose;
  cov.extra_phase += ref_phase == ref::RefPhase::kExtraMove;
  cov.extra_no_move += info.extra_no_move;
  cov.completed += ref::Completed(rp, Side::kWhite) || ref::Completed(rp, Side::kBlack);
  cov.move_limit += ref_status.reason == ref::RefEnd::kMoveLimit;
  return true;
}

// Plays `m` in both and checks that they still hold the same position.
bool PlayBoth(Position& lib, ref::RefPosition& rp, const ref::RefMove& m, Coverage& cov) {
  lib.Make(ToLibraryMove(rp.size, m));
  ref::Play(rp, m);
  const ref::RefPosition back = ref::FromLibrary(lib);
  if (back.board != rp.board || back.side_to_move != rp.side_to_move || back.ply != rp.ply) {
    ++cov.mismatches;
    ADD_FAILURE() << "after " << ref::MoveName(m) << " the library holds " << ref::ToString(back)
                  << ", the reference " << ref::ToString(rp);
    return false;
  }
  return true;
}

// Compares at every position of a random continuation of up to max_plies.
void RandomWalk(Position lib, ref::RefPosition rp, int max_plies, std::mt19937_64& rng,
                Coverage& cov) {
  std::vector<ref::RefMove> moves;
  for (int i = 0;; ++i) {
    if (cov.mismatches >= kMaxMismatches) return;
    if (!CompareAt(lib, cov, moves)) return;
    if (moves.empty() || i == max_plies) return;
    const ref::RefMove m = moves[rng() % moves.size()];
    if (!PlayBoth(lib, rp, m, cov)) return;
  }
}

TEST(ReferenceMovegen, StartAndTargetSquaresMatchTheLibrary) {
  for (const Shape shape : kShapes) {
    for (const char* spec : {"standard", "pre1900"}) {
      const Variant& v = GetVariant(shape, spec);
      for (PieceId p = 0; p < kMaxPieces; ++p) {
        ASSERT_EQ(v.HasPiece(p), ref::PieceExists(shape.size, shape.rows, p)) << p;
        if (!v.HasPiece(p)) continue;
        EXPECT_EQ(v.start(p),
                  ref::SquareIndex(shape.size, ref::StartSquare(shape.size, shape.rows, p)))
            << spec << " " << shape.size << "x" << shape.size << " piece " << PieceName(p);
        EXPECT_EQ(v.target(p),
                  ref::SquareIndex(shape.size,
                                   ref::TargetSquare(shape.size, shape.rows, v.rules().goal, p)))
            << spec << " " << shape.size << "x" << shape.size << " piece " << PieceName(p);
      }
    }
  }
  // The spec's examples on 10x10 (file, rank from 0).
  using C = ref::Coord;
  EXPECT_EQ(ref::StartSquare(10, 3, MakePiece(Side::kBlack, Kind::kStar, 1)), (C{9, 9}));  // j10
  EXPECT_EQ(ref::StartSquare(10, 3, MakePiece(Side::kBlack, Kind::kSun, 1)), (C{9, 7}));   // j8
  EXPECT_EQ(ref::TargetSquare(10, 3, Goal::kTranslate, MakePiece(Side::kWhite, Kind::kStar, 1)),
            (C{1, 7}));  // b8
  EXPECT_EQ(ref::TargetSquare(10, 3, Goal::kTranslate, MakePiece(Side::kWhite, Kind::kMoon, 5)),
            (C{8, 8}));  // i9
  EXPECT_EQ(ref::TargetSquare(10, 3, Goal::kTranslate, MakePiece(Side::kBlack, Kind::kStar, 1)),
            (C{8, 2}));  // i3
  EXPECT_EQ(ref::TargetSquare(10, 3, Goal::kTranslate, MakePiece(Side::kBlack, Kind::kSun, 1)),
            (C{8, 0}));  // i1
  EXPECT_EQ(ref::TargetSquare(10, 3, Goal::kMirror, MakePiece(Side::kWhite, Kind::kStar, 5)),
            (C{1, 9}));  // b10
  EXPECT_EQ(ref::TargetSquare(10, 3, Goal::kMirror, MakePiece(Side::kWhite, Kind::kMoon, 1)),
            (C{8, 8}));  // i9
}

// Random games from the start of every geometry, for one preset's rule sets.
Coverage RandomGames(const std::string& preset, uint64_t seed) {
  Coverage total;
  for (const std::string& spec : RuleSpecs(preset)) {
    for (const Shape shape : kShapes) {
      const Variant& v = GetVariant(shape, spec);
      std::mt19937_64 rng(seed++);
      Coverage cov;
      const ref::RefPosition start = ref::StartPosition(shape.size, shape.rows, v.rules());
      const Position lib = Position::Start(v);
      if (ref::FromLibrary(lib).board != start.board) {
        ADD_FAILURE() << "start positions differ for " << spec << " on " << shape.size;
        ++total.mismatches;
        continue;
      }
      // Longer games on larger boards; about 2000 positions per variant.
      const int max_plies = 40 + 12 * shape.size;
      const int games = Scaled(std::max(2, 2000 / max_plies));
      for (int g = 0; g < games && cov.mismatches < kMaxMismatches; ++g)
        RandomWalk(lib, start, max_plies, rng, cov);
      total.Add(cov);
      if (total.mismatches >= kMaxMismatches) return total;
    }
  }
  return total;
}

TEST(ReferenceMovegen, RandomGamesStandard) {
  const Coverage cov = RandomGames("standard", 1000);
  std::cout << "standard: " << cov.ToString() << "\n";
  EXPECT_EQ(cov.mismatches, 0);
  EXPECT_GE(cov.positions, Scaled(8000));
  EXPECT_GT(cov.jump, 0);
  EXPECT_GT(cov.chain2, 0);
}

TEST(ReferenceMovegen, RandomGamesPre1900) {
  const Coverage cov = RandomGames("pre1900", 2000);
  std::cout << "pre1900: " << cov.ToString() << "\n";
  EXPECT_EQ(cov.mismatches, 0);
  EXPECT_GE(cov.positions, Scaled(4000));
  EXPECT_GT(cov.jump, 0);
  EXPECT_GT(cov.chain2, 0);
}

TEST(ReferenceMovegen, RandomGamesForward) {
  const Coverage cov = RandomGames("forward", 3000);
  std::cout << "forward: " << cov.ToString() << "\n";
  EXPECT_EQ(cov.mismatches, 0);
  EXPECT_GE(cov.positions, Scaled(4000));
  EXPECT_GT(cov.jump, 0);
  EXPECT_GT(cov.chain2, 0);
}

// Positions built directly: random pieces on random squares, pieces on or
// near their targets, crowded boards, a few pieces in a corner; random side
// to move and ply (of the right parity), near the move limit where there is one.
ref::RefPosition BuildPosition(Shape shape, const Rules& rules, std::mt19937_64& rng) {
  ref::RefPosition pos;
  pos.size = shape.size;
  pos.rows = shape.rows;
  pos.rules = rules;
  auto uniform = [&](int n) { return int(rng() % uint64_t(n)); };
  auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };

  std::vector<ref::Coord> dark;
  for (int f = 0; f < shape.size; ++f)
    for (int r = 0; r < shape.size; ++r)
      if ((f + r) % 2 == 0) dark.push_back(ref::Coord{f, r});
  auto empty_near = [&](ref::Coord c, int dist) {
    std::vector<ref::Coord> near;
    for (const ref::Coord d : dark)
      if (std::abs(d.file - c.file) <= dist && std::abs(d.rank - c.rank) <= dist &&
          pos.At(d) == kNoPiece)
        near.push_back(d);
    return near;
  };
  auto put_near = [&](PieceId p, ref::Coord c, int dist) {
    std::vector<ref::Coord> near = empty_near(c, dist);
    if (near.empty()) near = empty_near(c, 2 * shape.size);
    const ref::Coord at = near[uniform(int(near.size()))];
    pos.board[at.file][at.rank] = p;
  };
  std::vector<PieceId> pieces;
  for (PieceId p = 0; p < kMaxPieces; ++p)
    if (ref::PieceExists(shape.size, shape.rows, p)) pieces.push_back(p);
  std::shuffle(pieces.begin(), pieces.end(), rng);
  const ref::Coord anywhere{shape.size / 2, shape.size / 2};

  switch (uniform(6)) {
    case 0: {  // a random subset anywhere
      const double keep = 0.1 + 0.9 * std::uniform_real_distribution<double>(0, 1)(rng);
      for (PieceId p : pieces)
        if (chance(keep)) put_near(p, anywhere, shape.size);
      break;
    }
    case 1: {  // on or near their targets
      const double home = 0.5 + 0.5 * std::uniform_real_distribution<double>(0, 1)(rng);
      for (PieceId p : pieces) {
        if (!chance(0.85)) continue;
        const ref::Coord t = ref::TargetSquare(shape.size, shape.rows, rules.goal, p);
        put_near(p, t, chance(home) ? 0 : 1 + uniform(2));
      }
      break;
    }
    case 2: {  // crowded: every piece
      for (PieceId p : pieces) put_near(p, anywhere, shape.size);
      break;
    }
    case 3: {  // a few pieces of each side around one square (often an edge or corner)
      const ref::Coord centre = dark[uniform(int(dark.size()))];
      int n[2] = {uniform(4), 1 + uniform(3)};
      if (chance(0.5)) std::swap(n[0], n[1]);
      for (PieceId p : pieces)
        if (n[int(SideOf(p))] > 0) {
          --n[int(SideOf(p))];
          put_near(p, centre, 1 + uniform(2));
        }
      break;
    }
    case 4: {  // one side home but for one piece a step away; the other side's few pieces near it
      const Side s = chance(0.5) ? Side::kWhite : Side::kBlack;
      std::vector<PieceId> own, other;
      for (PieceId p : pieces) (SideOf(p) == s ? own : other).push_back(p);
      own.resize(1 + uniform(int(own.size())));
      for (PieceId p : own) {
        const ref::Coord t = ref::TargetSquare(shape.size, shape.rows, rules.goal, p);
        pos.board[t.file][t.rank] = p;
      }
      const PieceId last = own[0];
      const ref::Coord t = ref::TargetSquare(shape.size, shape.rows, rules.goal, last);
      pos.board[t.file][t.rank] = kNoPiece;
      put_near(last, t, 1);
      for (int n = 1 + uniform(3); n > 0 && !other.empty(); --n) {
        put_near(other.back(), t, 1 + uniform(2));
        other.pop_back();
      }
      break;
    }
    default: {  // one side all home but one or two pieces next to home; the other anywhere
      const Side s = chance(0.5) ? Side::kWhite : Side::kBlack;
      int away = 1 + uniform(2);
      for (PieceId p : pieces) {
        if (SideOf(p) != s) continue;
        const ref::Coord t = ref::TargetSquare(shape.size, shape.rows, rules.goal, p);
        if (pos.At(t) == kNoPiece)
          pos.board[t.file][t.rank] = p;
        else
          put_near(p, t, 1);
      }
      for (PieceId p : pieces) {
        if (SideOf(p) != s || away == 0 || !chance(0.5)) continue;
        for (int f = 0; f < shape.size; ++f)
          for (int r = 0; r < shape.size; ++r)
            if (pos.board[f][r] == p) pos.board[f][r] = kNoPiece;
        put_near(p, ref::TargetSquare(shape.size, shape.rows, rules.goal, p), 2);
        --away;
      }
      const double keep = std::uniform_real_distribution<double>(0, 1)(rng);
      for (PieceId p : pieces)
        if (SideOf(p) != s && chance(keep)) put_near(p, anywhere, shape.size);
      break;
    }
  }
  pos.side_to_move = chance(0.5) ? Side::kWhite : Side::kBlack;
  const int limit_ply = 2 * rules.move_limit;
  int ply = limit_ply > 0 ? (chance(0.5) ? limit_ply - uniform(std::min(limit_ply, 4) + 1)
                                         : uniform(limit_ply + 1))
                          : uniform(200);
  if ((ply % 2 == 1) != (pos.side_to_move == Side::kBlack)) ply += ply == 0 ? 1 : -1;
  pos.ply = ply;
  return pos;
}

Coverage ConstructedPositions(uint64_t seed, int per_variant) {
  Coverage total;
  for (const std::string preset : {"standard", "pre1900", "forward"}) {
    for (const std::string& base : RuleSpecs(preset)) {
      // Each rule set as it is and, where it has none, with a short move limit.
      std::vector<std::string> specs = {base};
      if (base.find("move-limit") == std::string::npos) specs.push_back(base + " move-limit=6");
      for (const std::string& spec : specs) {
        for (const Shape shape : kShapes) {
          const Variant& v = GetVariant(shape, spec);
          std::mt19937_64 rng(seed++);
          for (int i = 0; i < per_variant && total.mismatches < kMaxMismatches; ++i) {
            const ref::RefPosition rp = BuildPosition(shape, v.rules(), rng);
            absl::StatusOr<Position> lib = ref::ToLibrary(rp, v);
            if (!lib.ok()) {
              ADD_FAILURE() << "Position::Make refused " << ref::ToString(rp) << ": "
                            << lib.status();
              ++total.mismatches;
              continue;
            }
            RandomWalk(*lib, rp, 6, rng, total);
          }
          if (total.mismatches >= kMaxMismatches) return total;
        }
      }
    }
  }
  return total;
}

// Positions built by hand for what random placement rarely produces. The
// expected moves still come from the reference; these only make sure the
// comparison meets the case.
struct Crafted {
  const char* spec;
  Shape shape;
  Side side;
  int ply;
  std::vector<std::pair<PieceId, const char*>> pieces;
};

ref::Coord ParseCoord(const char* name) {
  return ref::Coord{name[0] - 'a', std::atoi(name + 1) - 1};
}

const std::vector<Crafted>& CraftedPositions() {
  constexpr Side W = Side::kWhite, B = Side::kBlack;
  static const std::vector<Crafted> crafted = {
      // White's b6-a7 completes its goal (moon 1 a7, moon 2 c7, star 2 d6) and
      // leaves Black without a move (b8 hemmed in: a7, c7 taken, the jump over
      // a7 off the board, the one over c7 onto d6 taken; a1 cannot step down).
      // With extra-move=on it is filtered like any other move; c7-d8 and d6-e7
      // keep Black mobile. With extra-move=off it ends the game and stays.
      {"standard steps=forward",
       {8, 3},
       W,
       20,
       {{MakePiece(W, Kind::kMoon, 1), "b6"},
        {MakePiece(W, Kind::kMoon, 2), "c7"},
        {MakePiece(W, Kind::kStar, 2), "d6"},
        {MakePiece(B, Kind::kSun, 1), "b8"},
        {MakePiece(B, Kind::kStar, 1), "a1"}}},
      {"standard steps=forward extra-move=off",
       {8, 3},
       W,
       20,
       {{MakePiece(W, Kind::kMoon, 1), "b6"},
        {MakePiece(W, Kind::kMoon, 2), "c7"},
        {MakePiece(W, Kind::kStar, 2), "d6"},
        {MakePiece(B, Kind::kSun, 1), "b8"},
        {MakePiece(B, Kind::kStar, 1), "a1"}}},
  };
  return crafted;
}

TEST(ReferenceMovegen, ConstructedPositions) {
  Coverage cov;
  for (const Crafted& c : CraftedPositions()) {
    const Variant& v = GetVariant(c.shape, c.spec);
    ref::RefPosition rp;
    rp.size = c.shape.size;
    rp.rows = c.shape.rows;
    rp.rules = v.rules();
    rp.side_to_move = c.side;
    rp.ply = c.ply;
    for (const auto& [piece, square] : c.pieces) {
      const ref::Coord at = ParseCoord(square);
      rp.board[at.file][at.rank] = piece;
    }
    absl::StatusOr<Position> lib = ref::ToLibrary(rp, v);
    ASSERT_TRUE(lib.ok()) << lib.status();
    std::mt19937_64 rng(c.ply);
    RandomWalk(*lib, rp, 6, rng, cov);
  }
  cov.Add(ConstructedPositions(7000, Scaled(400)));
  std::cout << "constructed: " << cov.ToString() << "\n";
  EXPECT_EQ(cov.mismatches, 0);
  EXPECT_GT(cov.positions, Scaled(40000));
  // The sample reached every rule the comparison is meant to cover.
  EXPECT_GT(cov.jump, 0);
  EXPECT_GT(cov.chain2, 0);
  EXPECT_GT(cov.revisit, 0);
  EXPECT_GT(cov.mandatory_cut, 0);
  EXPECT_GT(cov.filter_removed, 0);
  EXPECT_GT(cov.fallback, 0);
  EXPECT_GT(cov.exempt_goal, 0);
  EXPECT_GT(cov.exempt_limit, 0);
  EXPECT_GT(cov.exempt_extra, 0);
  EXPECT_GT(cov.completing_filtered, 0);
  EXPECT_GT(cov.pass, 0);
  EXPECT_GT(cov.blocked_lose, 0);
  EXPECT_GT(cov.extra_phase, 0);
  EXPECT_GT(cov.extra_no_move, 0);
  EXPECT_GT(cov.completed, 0);
  EXPECT_GT(cov.move_limit, 0);
}

// The library's perft in each of its configurations against the reference's.
// Returns whether every configuration agreed.
bool ComparePerft(const Position& pos, int depth, uint64_t expected, int hash_mb) {
  SCOPED_TRACE(PositionToString(pos) + " rules " + pos.variant().rules().ToString() + " " +
               pos.variant().geometry().ToString() + " depth " + std::to_string(depth));
  bool ok = true;
  Position copy = pos;
  const uint64_t plain = PerftPlain(copy, depth);
  EXPECT_EQ(plain, expected) << "PerftPlain";
  ok &= plain == expected;
  for (int threads : {1, 2}) {
    for (int hash : {0, hash_mb}) {
      PerftOptions options;
      options.threads = threads;
      options.hash_mb = hash;
      absl::StatusOr<PerftResult> r = Perft(pos, depth, options);
      EXPECT_TRUE(r.ok()) << r.status();
      if (!r.ok()) return false;
      EXPECT_EQ(r->nodes, expected) << "Perft threads=" << threads << " hash_mb=" << hash;
      ok &= r->nodes == expected;
    }
  }
  return ok;
}

// The reference itself against the count measured with a separate compact
// bitboard perft when the rules were pinned (shared/design-notes.md).
TEST(ReferenceMovegen, ReferencePerftOfTheStartMatchesThePublishedCount) {
  if (Sanitized()) GTEST_SKIP() << "perft(6) of the reference takes too long under sanitizers";
  const ref::RefPosition start = ref::StartPosition(10, 3, Rules::Standard());
  EXPECT_EQ(ref::Perft(start, 6), 1562875u);
}

TEST(ReferenceMovegen, PerftFromTheStart) {
  struct Case {
    const char* spec;
    Shape shape;
    int depth;
  };
  const std::vector<Case> cases = {
      {"standard", {10, 3}, Sanitized() ? 4 : 5},
      {"pre1900", {10, 3}, Sanitized() ? 4 : 5},
      {"forward", {10, 3}, 4},
      {"standard chain=on jump-dir=any jump-over=any", {10, 3}, 4},
      {"standard", {8, 2}, 5},
      {"forward", {8, 3}, 5},
      {"pre1900", {6, 1}, 6},
      {"standard block=lose", {4, 1}, 8},
      {"standard", {4, 1}, 8},
  };
  for (const Case& c : cases) {
    const Variant& v = GetVariant(c.shape, c.spec);
    const ref::RefPosition rp = ref::StartPosition(c.shape.size, c.shape.rows, v.rules());
    const uint64_t expected = ref::Perft(rp, c.depth);
    ComparePerft(Position::Start(v), c.depth, expected, 16);

    // Divide: the count under each move is the reference's count after it.
    PerftOptions options;
    options.threads = 1;
    options.divide = true;
    absl::StatusOr<PerftResult> r = Perft(Position::Start(v), c.depth, options);
    ASSERT_TRUE(r.ok()) << r.status();
    const std::vector<ref::RefMove> moves = ref::LegalMoves(rp);
    ASSERT_EQ(r->divide.size(), moves.size()) << c.spec;
    for (const auto& [move, count] : r->divide) {
      // (Clang before 16 cannot capture a structured binding.)
      const Move wanted = move;
      auto it = std::find_if(moves.begin(), moves.end(), [&](const ref::RefMove& m) {
        return ToLibraryMove(c.shape.size, m) == wanted;
      });
      ASSERT_NE(it, moves.end()) << c.spec;
      ref::RefPosition next = rp;
      ref::Play(next, *it);
      EXPECT_EQ(count, ref::Perft(next, c.depth - 1)) << c.spec << " " << ref::MoveName(*it);
    }
  }
}

TEST(ReferenceMovegen, PerftFromBuiltAndPlayedPositions) {
  std::mt19937_64 rng(9000);
  int compared = 0, failed_positions = 0;
  for (const std::string preset : {"standard", "pre1900", "forward"}) {
    for (const std::string& spec : RuleSpecs(preset)) {
      for (const Shape shape : kShapes) {
        const Variant& v = GetVariant(shape, spec);
        for (int i = 0; i < Scaled(12); ++i) {
          ref::RefPosition rp;
          if (i % 2 == 0) {
            rp = BuildPosition(shape, v.rules(), rng);
          } else {  // somewhere in a random game
            rp = ref::StartPosition(shape.size, shape.rows, v.rules());
            const int plies = int(rng() % 40);
            for (int k = 0; k < plies; ++k) {
              const std::vector<ref::RefMove> moves = ref::LegalMoves(rp);
              if (moves.empty()) break;
              ref::Play(rp, moves[rng() % moves.size()]);
            }
          }
          absl::StatusOr<Position> lib = ref::ToLibrary(rp, v);
          ASSERT_TRUE(lib.ok()) << lib.status();
          // Depth 3 and 4 reach the bulk count of the last two plies with one
          // thread and with two (which splits the root two plies deep).
          const int depth = shape.size <= 6 ? 3 + int(rng() % 2) : 2 + int(rng() % 2);
          ++compared;
          if (!ComparePerft(*lib, depth, ref::Perft(rp, depth), 1) &&
              ++failed_positions >= kMaxMismatches)
            return;
        }
      }
    }
  }
  std::cout << "perft compared from " << compared << " positions\n";
}

}  // namespace
}  // namespace salta
