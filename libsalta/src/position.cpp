#include "salta/position.h"

#include "absl/strings/str_cat.h"
#include "salta/movegen.h"

namespace salta {

Position Position::Start(const Variant& variant) {
  std::vector<std::pair<PieceId, Square>> pieces;
  for (PieceId p = 0; p < kMaxPieces; ++p)
    if (variant.HasPiece(p)) pieces.emplace_back(p, variant.start(p));
  return *Make(variant, pieces, Side::kWhite, 0);
}

absl::StatusOr<Position> Position::Make(const Variant& variant,
                                        const std::pair<PieceId, Square>* pieces, int count,
                                        Side side_to_move, int ply) {
  Position pos(variant);
  pos.piece_on_.fill(kNoPiece);
  pos.square_of_.fill(kNoSquare);
  const Geometry& g = variant.geometry();
  for (int i = 0; i < count; ++i) {
    const auto [p, s] = pieces[i];
    if (p < 0 || p >= kMaxPieces || !variant.HasPiece(p))
      return absl::InvalidArgumentError(
          absl::StrCat("piece ", p, " does not exist on a ", g.ToString(), " board"));
    if (s < 0 || s >= g.num_squares())
      return absl::InvalidArgumentError(absl::StrCat("square ", s, " is off the board"));
    if (pos.square_of_[p] != kNoSquare)
      return absl::InvalidArgumentError(absl::StrCat("piece ", p, " is placed twice"));
    if (pos.piece_on_[s] != kNoPiece)
      return absl::InvalidArgumentError(absl::StrCat("square ", s, " holds two pieces"));
    pos.piece_on_[s] = int8_t(p);
    pos.square_of_[p] = int8_t(s);
    pos.bb_[int(SideOf(p))] |= SquareBit(s);
    pos.targets_[int(SideOf(p))] |= SquareBit(variant.target(p));
  }
  if (ply < 0) return absl::InvalidArgumentError(absl::StrCat("ply ", ply, " is negative"));
  pos.side_to_move_ = side_to_move;
  pos.ply_ = ply;
  pos.phase_ = pos.DerivePhase();
  pos.hash_ = pos.ComputeHash();
  return pos;
}

Phase Position::DerivePhase() const {
  const int limit = variant_->limit_ply();
  const bool limit_reached = limit > 0 && ply_ >= limit;
  if (Completed(Side::kBlack)) return Phase::kOver;
  if (Completed(Side::kWhite)) {
    // Black to move after White's completion is Black's extra move, if it has one.
    if (variant_->rules().extra_move && side_to_move_ == Side::kBlack && !limit_reached &&
        IsMobile(*this, Side::kBlack))
      return Phase::kExtraMove;
    return Phase::kOver;
  }
  if (limit_reached) return Phase::kOver;
  // block=lose: a side to move with no move has lost.
  if (variant_->rules().block == Block::kLose && !IsMobile(*this, side_to_move_))
    return Phase::kOver;
  return Phase::kPlay;
}

bool Position::Completed(Side s) const {
  const int side = int(s);
  if (bb_[side] == 0 || bb_[side] != targets_[side]) return false;
  for (PieceId p = side * kPiecesPerSide; p < (side + 1) * kPiecesPerSide; ++p)
    if (square_of_[p] != kNoSquare && square_of_[p] != variant_->target(p)) return false;
  return true;
}

bool Position::Completes(Move m) const {
  if (m.is_pass()) return false;
  const int side = int(side_to_move_);
  if ((bb_[side] ^ SquareBit(m.from) ^ SquareBit(m.to)) != targets_[side]) return false;
  const PieceId mover = piece_on_[m.from];
  if (variant_->target(mover) != m.to) return false;
  for (PieceId p = side * kPiecesPerSide; p < (side + 1) * kPiecesPerSide; ++p)
    if (p != mover && square_of_[p] != kNoSquare && square_of_[p] != variant_->target(p))
      return false;
  return true;
}

void Position::MovePiece(Square from, Square to) {
  const PieceId p = piece_on_[from];
  const Bitboard change = SquareBit(from) | SquareBit(to);
  bb_[int(SideOf(p))] ^= change;
  piece_on_[from] = kNoPiece;
  piece_on_[to] = int8_t(p);
  square_of_[p] = int8_t(to);
  hash_ ^= variant_->piece_key(p, from) ^ variant_->piece_key(p, to);
}

Position::Undo Position::Make(Move m) {
  const Undo undo{hash_, phase_};
  const Side mover = side_to_move_;
  if (!m.is_pass()) MovePiece(m.from, m.to);
  side_to_move_ = Opponent(mover);
  hash_ ^= variant_->side_key();
  ++ply_;
  // Black's extra move ends the game whatever it does; otherwise the phase
  // follows from the board as for any position (one derivation, DerivePhase).
  const Phase next = phase_ == Phase::kExtraMove ? Phase::kOver : DerivePhase();
  if (next != phase_) {
    hash_ ^= variant_->phase_key(int(phase_)) ^ variant_->phase_key(int(next));
    phase_ = next;
  }
  return undo;
}

void Position::Unmake(Move m, const Undo& undo) {
  if (!m.is_pass()) MovePiece(m.to, m.from);
  side_to_move_ = Opponent(side_to_move_);
  --ply_;
  hash_ = undo.hash;
  phase_ = undo.phase;
}

void Position::Unplay(Move m) {
  if (!m.is_pass()) MovePiece(m.to, m.from);
  side_to_move_ = Opponent(side_to_move_);
  hash_ ^= variant_->side_key();
  if (ply_ > 0) --ply_;
  const Phase before = DerivePhase();
  hash_ ^= variant_->phase_key(int(phase_)) ^ variant_->phase_key(int(before));
  phase_ = before;
}

uint64_t Position::ComputeHash() const {
  uint64_t h = 0;
  for (PieceId p = 0; p < kMaxPieces; ++p)
    if (square_of_[p] != kNoSquare) h ^= variant_->piece_key(p, square_of_[p]);
  if (side_to_move_ == Side::kBlack) h ^= variant_->side_key();
  return h ^ variant_->phase_key(int(phase_));
}

bool Position::operator==(const Position& o) const {
  return variant_ == o.variant_ && bb_ == o.bb_ && piece_on_ == o.piece_on_ &&
         side_to_move_ == o.side_to_move_ && ply_ == o.ply_ && phase_ == o.phase_ &&
         hash_ == o.hash_;
}

}  // namespace salta
