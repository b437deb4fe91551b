#include "reference_movegen.h"

#include <algorithm>
#include <map>
#include <utility>

namespace salta::reference {
namespace {

// The four diagonal directions as (file, rank) offsets; "forward" for White
// is toward higher ranks, for Black toward lower ones.
constexpr int kDirs[4][2] = {{-1, 1}, {1, 1}, {-1, -1}, {1, -1}};

int Forward(Side s) {
  return s == Side::kWhite ? 1 : -1;
}

bool StepAllowed(const Rules& r, Side s, int dr) {
  return r.steps == Steps::kAny || dr == Forward(s);
}
bool JumpDirAllowed(const Rules& r, Side s, int dr) {
  return r.jump_dir == JumpDir::kAny || dr == Forward(s);
}
bool MayJumpOver(const Rules& r, Side mover, PieceId over) {
  if (over == kNoPiece) return false;
  return r.jump_over == JumpOver::kAny || SideOf(over) != mover;
}

// Searches every jump chain from `at`; `visited` holds the squares the chain
// has stood on (its origin included). Records each landing square with the
// fewest jumps that reach it.
void JumpSearch(const RefPosition& pos, Side mover, Coord at, int depth,
                std::array<std::array<bool, 10>, 10>& visited, std::map<Coord, int>& landings,
                RawInfo* info) {
  for (const auto& d : kDirs) {
    if (!JumpDirAllowed(pos.rules, mover, d[1])) continue;
    const int of = at.file + d[0], orank = at.rank + d[1];
    const int lf = at.file + 2 * d[0], lr = at.rank + 2 * d[1];
    if (!pos.OnBoard(lf, lr)) continue;
    if (!MayJumpOver(pos.rules, mover, pos.board[of][orank])) continue;
    if (pos.board[lf][lr] != kNoPiece) continue;
    if (visited[lf][lr]) {
      if (info) ++info->revisit_refused;
      continue;
    }
    const Coord land{lf, lr};
    auto it = landings.find(land);
    if (it == landings.end() || it->second > depth + 1) landings[land] = depth + 1;
    if (!pos.rules.chain) continue;
    visited[lf][lr] = true;
    JumpSearch(pos, mover, land, depth + 1, visited, landings, info);
    visited[lf][lr] = false;
  }
}

RefPosition After(const RefPosition& pos, const RefMove& m) {
  RefPosition next = pos;
  Play(next, m);
  return next;
}

int PiecesHome(const RefPosition& pos, Side s) {
  int n = 0;
  for (int f = 0; f < pos.size; ++f)
    for (int r = 0; r < pos.size; ++r) {
      const PieceId p = pos.board[f][r];
      if (p != kNoPiece && SideOf(p) == s &&
          TargetSquare(pos.size, pos.rows, pos.rules.goal, p) == Coord{f, r})
        ++n;
    }
  return n;
}

Coord Rotate(int size, Coord c) {
  return Coord{size - 1 - c.file, size - 1 - c.rank};
}

}  // namespace

bool PieceExists(int size, int rows, PieceId p) {
  if (p < 0 || p >= kMaxPieces) return false;
  return int(KindOf(p)) < rows && NumberOf(p) <= size / 2;
}

Coord StartSquare(int size, int rows, PieceId p) {
  (void)rows;
  // White: kind k on rank k (row k+1), number n the n-th dark square from the left.
  const int rank = int(KindOf(p));
  const Coord white{(rank % 2) + 2 * (NumberOf(p) - 1), rank};
  return SideOf(p) == Side::kWhite ? white : Rotate(size, white);
}

Coord TargetSquare(int size, int rows, Goal goal, PieceId p) {
  if (goal == Goal::kMirror) {
    // The start square of the opponent's piece of the same kind and number.
    const PieceId twin = MakePiece(Opponent(SideOf(p)), KindOf(p), NumberOf(p));
    return StartSquare(size, rows, twin);
  }
  // Translate: N - R ranks forward, the same order as seen by the owner.
  const int rank = int(KindOf(p)) + size - rows;
  const Coord white{(rank % 2) + 2 * (NumberOf(p) - 1), rank};
  return SideOf(p) == Side::kWhite ? white : Rotate(size, white);
}

RefPosition StartPosition(int size, int rows, const Rules& rules) {
  RefPosition pos;
  pos.size = size;
  pos.rows = rows;
  pos.rules = rules;
  for (PieceId p = 0; p < kMaxPieces; ++p) {
    if (!PieceExists(size, rows, p)) continue;
    const Coord c = StartSquare(size, rows, p);
    pos.board[c.file][c.rank] = p;
  }
  return pos;
}

bool Completed(const RefPosition& pos, Side s) {
  bool any = false;
  for (int f = 0; f < pos.size; ++f)
    for (int r = 0; r < pos.size; ++r) {
      const PieceId p = pos.board[f][r];
      if (p == kNoPiece || SideOf(p) != s) continue;
      any = true;
      if (!(TargetSquare(pos.size, pos.rows, pos.rules.goal, p) == Coord{f, r})) return false;
    }
  return any;
}

RefPhase PhaseOf(const RefPosition& pos) {
  const bool white_done = Completed(pos, Side::kWhite);
  const bool black_done = Completed(pos, Side::kBlack);
  const int limit = pos.rules.move_limit;
  if (limit > 0 && pos.ply >= 2 * limit) return RefPhase::kOver;
  if (black_done) return RefPhase::kOver;
  if (white_done) {
    // White has just completed (Black to move): Black's extra move. With
    // White to move again, Black's extra move has been played.
    // If Black has no move for it, the game is over at once.
    if (pos.rules.extra_move && pos.side_to_move == Side::kBlack && Mobile(pos, Side::kBlack))
      return RefPhase::kExtraMove;
    return RefPhase::kOver;
  }
  // block=lose: a side to move with no legal move has lost; the game is over.
  if (pos.rules.block == Block::kLose && !Mobile(pos, pos.side_to_move)) return RefPhase::kOver;
  return RefPhase::kPlay;
}

std::vector<RefMove> RawMoves(const RefPosition& pos, Side s, RawInfo* info) {
  std::map<std::pair<Coord, Coord>, RefMove> found;
  for (int f = 0; f < pos.size; ++f) {
    for (int r = 0; r < pos.size; ++r) {
      const PieceId p = pos.board[f][r];
      if (p == kNoPiece || SideOf(p) != s) continue;
      const Coord from{f, r};
      // Steps: one square diagonally to an empty square.
      for (const auto& d : kDirs) {
        if (!StepAllowed(pos.rules, s, d[1])) continue;
        const int tf = f + d[0], tr = r + d[1];
        if (!pos.OnBoard(tf, tr) || pos.board[tf][tr] != kNoPiece) continue;
        RefMove m;
        m.from = from;
        m.to = Coord{tf, tr};
        found[{m.from, m.to}] = m;
      }
      // Jumps, with the moving piece lifted off its origin. (It could not be
      // jumped over anyway: a chain lands an even number of files away from
      // the origin and jumps over squares an odd number away.)
      RefPosition lifted = pos;
      lifted.board[f][r] = kNoPiece;
      std::array<std::array<bool, 10>, 10> visited{};
      visited[f][r] = true;
      std::map<Coord, int> landings;
      JumpSearch(lifted, s, from, 0, visited, landings, info);
      for (const auto& [to, jumps] : landings) {
        RefMove m;
        m.from = from;
        m.to = to;
        m.jump = true;
        m.min_jumps = jumps;
        found[{m.from, m.to}] = m;  // a jump never lands next to its origin
      }
    }
  }
  std::vector<RefMove> moves;
  for (const auto& [key, m] : found) moves.push_back(m);
  return moves;
}

bool Mobile(const RefPosition& pos, Side s) {
  return !RawMoves(pos, s).empty();
}

std::vector<RefMove> LegalMoves(const RefPosition& pos, LegalInfo* info) {
  LegalInfo local;
  LegalInfo& in = info ? *info : local;
  in = LegalInfo{};
  const RefPhase phase = PhaseOf(pos);
  if (phase == RefPhase::kOver) {
    in.extra_no_move = pos.rules.extra_move && pos.side_to_move == Side::kBlack &&
                       Completed(pos, Side::kWhite) && !Completed(pos, Side::kBlack) &&
                       !(pos.rules.move_limit > 0 && pos.ply >= 2 * pos.rules.move_limit);
    in.blocked_lose = pos.rules.block == Block::kLose && !Completed(pos, Side::kWhite) &&
                      !Completed(pos, Side::kBlack) &&
                      !(pos.rules.move_limit > 0 && pos.ply >= 2 * pos.rules.move_limit);
    return {};
  }
  const Side side = pos.side_to_move;
  const Side opp = Opponent(side);
  const Rules& rules = pos.rules;
  std::vector<RefMove> m = RawMoves(pos, side, &in.raw_info);
  in.raw = int(m.size());

  std::vector<RefMove> legal;
  if (phase == RefPhase::kExtraMove) {
    // Black's compensating move: no filter, no pass.
    for (const RefMove& mv : m) {
      if (!Mobile(After(pos, mv), opp)) {
        ++in.exempt_kept;
        in.exempt_extra = true;
      }
    }
    legal = m;
  } else {
    if (m.empty()) {
      if (rules.block == Block::kLose) {
        in.blocked_lose = true;
        return {};
      }
      in.pass = true;
      RefMove pass;
      pass.pass = true;
      return {pass};
    }
    if (rules.block == Block::kForbid) {
      const int limit_ply = 2 * rules.move_limit;
      for (const RefMove& mv : m) {
        const RefPosition next = After(pos, mv);
        if (Mobile(next, opp)) {
          legal.push_back(mv);
          continue;
        }
        const bool completes = Completed(next, side);
        const bool goal_ends = completes && (side == Side::kBlack || !rules.extra_move);
        const bool limit_ends = rules.move_limit > 0 && pos.ply + 1 >= limit_ply;
        if (goal_ends || limit_ends) {
          legal.push_back(mv);
          ++in.exempt_kept;
          in.exempt_goal |= goal_ends;
          in.exempt_limit |= limit_ends;
          continue;
        }
        ++in.filter_removed;
        if (completes) in.completing_filtered = true;
      }
      if (legal.empty()) {
        in.fallback = true;
        legal = m;
      }
    } else {
      legal = m;
    }
  }
  if (rules.mandatory_jumps &&
      std::any_of(legal.begin(), legal.end(), [](const RefMove& x) { return x.jump; })) {
    std::vector<RefMove> jumps;
    for (const RefMove& x : legal)
      if (x.jump) jumps.push_back(x);
    in.mandatory_cut = jumps.size() < legal.size();
    legal = jumps;
  }
  std::sort(legal.begin(), legal.end());
  return legal;
}

RefStatus StatusOf(const RefPosition& pos) {
  RefStatus st;
  const RefPhase phase = PhaseOf(pos);
  const bool white_done = Completed(pos, Side::kWhite);
  const bool black_done = Completed(pos, Side::kBlack);
  if (phase == RefPhase::kOver) {
    if (white_done && black_done) {
      if (pos.side_to_move == Side::kWhite && pos.rules.extra_move) {
        // Black completed with its extra move after White's completion.
        st.reason = RefEnd::kExtraMove;
        st.outcome = RefOutcome::kDraw;
      } else if (pos.side_to_move == Side::kWhite) {
        st.reason = RefEnd::kGoal;  // White completed first, no extra move
        st.outcome = RefOutcome::kWhiteWins;
      } else {
        st.reason = RefEnd::kGoal;  // White moved last: Black had completed first
        st.outcome = RefOutcome::kBlackWins;
      }
    } else if (black_done) {
      st.reason = RefEnd::kGoal;
      st.outcome = RefOutcome::kBlackWins;
    } else if (white_done) {
      st.reason = pos.rules.extra_move ? RefEnd::kExtraMove : RefEnd::kGoal;
      st.outcome = RefOutcome::kWhiteWins;
    } else if (!(pos.rules.move_limit > 0 && pos.ply >= 2 * pos.rules.move_limit)) {
      st.reason = RefEnd::kBlocked;
      st.outcome =
          pos.side_to_move == Side::kWhite ? RefOutcome::kBlackWins : RefOutcome::kWhiteWins;
    } else {
      st.reason = RefEnd::kMoveLimit;
      if (pos.rules.limit_scoring == LimitScoring::kMoves) {
        st.outcome = RefOutcome::kUndecided;
      } else {
        const int w = PiecesHome(pos, Side::kWhite), b = PiecesHome(pos, Side::kBlack);
        st.outcome =
            w > b ? RefOutcome::kWhiteWins : (b > w ? RefOutcome::kBlackWins : RefOutcome::kDraw);
      }
    }
    return st;
  }
  return st;
}

void Play(RefPosition& pos, const RefMove& m) {
  if (!m.pass) {
    pos.board[m.to.file][m.to.rank] = pos.board[m.from.file][m.from.rank];
    pos.board[m.from.file][m.from.rank] = kNoPiece;
  }
  pos.side_to_move = Opponent(pos.side_to_move);
  ++pos.ply;
}

uint64_t Perft(const RefPosition& pos, int depth) {
  if (depth == 0) return 1;
  const std::vector<RefMove> moves = LegalMoves(pos);
  if (depth == 1) return moves.size();
  uint64_t n = 0;
  for (const RefMove& m : moves) n += Perft(After(pos, m), depth - 1);
  return n;
}

int SquareIndex(int size, Coord c) {
  return c.rank * (size / 2) + c.file / 2;
}

Coord CoordOf(int size, int square) {
  const int rank = square / (size / 2);
  const int index = square % (size / 2);
  return Coord{2 * index + (rank % 2), rank};
}

RefPosition FromLibrary(const Position& lib) {
  const Variant& v = lib.variant();
  RefPosition pos;
  pos.size = v.geometry().size();
  pos.rows = v.geometry().rows();
  pos.rules = v.rules();
  pos.side_to_move = lib.side_to_move();
  pos.ply = lib.ply();
  for (int s = 0; s < pos.size * pos.size / 2; ++s) {
    const Coord c = CoordOf(pos.size, s);
    pos.board[c.file][c.rank] = lib.piece_on(s);
  }
  return pos;
}

absl::StatusOr<Position> ToLibrary(const RefPosition& pos, const Variant& variant) {
  std::vector<std::pair<PieceId, Square>> pieces;
  for (int f = 0; f < pos.size; ++f)
    for (int r = 0; r < pos.size; ++r)
      if (pos.board[f][r] != kNoPiece)
        pieces.emplace_back(pos.board[f][r], SquareIndex(pos.size, Coord{f, r}));
  return Position::Make(variant, pieces, pos.side_to_move, pos.ply);
}

namespace {
std::string CoordName(Coord c) {
  // Appended, not std::string + std::string: GCC 12 warns falsely (-Wrestrict) on that at -O3.
  std::string name(1, char('a' + c.file));
  name += std::to_string(c.rank + 1);
  return name;
}
}  // namespace

std::string MoveName(const RefMove& m) {
  if (m.pass) return "--";
  return CoordName(m.from) + "-" + CoordName(m.to);
}

std::string ToString(const RefPosition& pos) {
  std::string out = pos.side_to_move == Side::kWhite ? "w" : "b";
  out += " ply " + std::to_string(pos.ply) + ":";
  static constexpr char kKinds[] = "SMU";
  for (int r = 0; r < pos.size; ++r)
    for (int f = 0; f < pos.size; ++f) {
      const PieceId p = pos.board[f][r];
      if (p == kNoPiece) continue;
      char k = kKinds[int(KindOf(p))];
      if (SideOf(p) == Side::kBlack) k = char(k - 'A' + 'a');
      out += " ";
      out += k;
      out += std::to_string(NumberOf(p)) + CoordName(Coord{f, r});
    }
  return out;
}

}  // namespace salta::reference
