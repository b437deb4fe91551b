// A position: pieces with identity on squares, side to move, ply, the phase
// of the game (play, Black's extra move, over) and an incremental hash.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "salta/bitboard.h"
#include "salta/move.h"
#include "salta/piece.h"
#include "salta/variant.h"

namespace salta {

enum class Phase : uint8_t {
  kPlay = 0,       // the side to move plays normally
  kExtraMove = 1,  // White has completed; Black makes its one compensating move
  kOver = 2,       // the game has ended (goal, extra move, move limit, block=lose)
};

class Position {
 public:
  // What Make changed that Unmake needs back.
  struct Undo {
    uint64_t hash;
    Phase phase;
  };

  // The start position of the variant.
  static Position Start(const Variant& variant);
  // Any subset of the pieces on any squares. The phase is derived from the
  // pieces, the side to move and the ply: a completed goal or a reached move
  // limit ends the game, White's completion gives Black its extra move.
  static absl::StatusOr<Position> Make(const Variant& variant,
                                       const std::vector<std::pair<PieceId, Square>>& pieces,
                                       Side side_to_move, int ply) {
    return Make(variant, pieces.data(), int(pieces.size()), side_to_move, ply);
  }
  // The same from an array, without allocating (retrograde analysis makes
  // positions by the billion).
  static absl::StatusOr<Position> Make(const Variant& variant,
                                       const std::pair<PieceId, Square>* pieces, int count,
                                       Side side_to_move, int ply);

  const Variant& variant() const { return *variant_; }
  Bitboard pieces(Side s) const { return bb_[int(s)]; }
  Bitboard occupied() const { return bb_[0] | bb_[1]; }
  Bitboard empty() const { return variant_->geometry().all() & ~occupied(); }
  PieceId piece_on(Square s) const { return piece_on_[s]; }
  // kNoSquare if the piece is not on the board.
  Square square_of(PieceId p) const { return square_of_[p]; }
  // The target squares of the pieces of s that are on the board.
  Bitboard targets(Side s) const { return targets_[int(s)]; }
  Side side_to_move() const { return side_to_move_; }
  int ply() const { return ply_; }
  Phase phase() const { return phase_; }
  bool over() const { return phase_ == Phase::kOver; }
  uint64_t hash() const { return hash_; }

  // Every piece of s on the board stands on its target, and s has a piece.
  bool Completed(Side s) const;
  // Whether a move of the side to move would complete its goal.
  bool Completes(Move m) const;

  // Plays a legal move (or pass) of the side to move; the move is not checked.
  Undo Make(Move m);
  void Unmake(Move m, const Undo& undo);
  // Retrograde analysis: turns this position into the one before the other
  // side played m (its piece on m.to goes back to m.from; a pass moves
  // nothing), with the phase derived from the board as Make(pieces) does and
  // the ply one less (never below 0). Whether m was legal there is the
  // caller's question (IsLegal in movegen.h).
  void Unplay(Move m);

  // The hash recomputed from scratch (for tests of the incremental one).
  uint64_t ComputeHash() const;
  bool operator==(const Position& o) const;

 private:
  explicit Position(const Variant& variant) : variant_(&variant) {}
  void MovePiece(Square from, Square to);
  Phase DerivePhase() const;

  const Variant* variant_;
  std::array<Bitboard, 2> bb_{};
  std::array<Bitboard, 2> targets_{};
  std::array<int8_t, kMaxSquares> piece_on_;
  std::array<int8_t, kMaxPieces> square_of_;
  Side side_to_move_ = Side::kWhite;
  Phase phase_ = Phase::kPlay;
  int ply_ = 0;
  uint64_t hash_ = 0;
};

}  // namespace salta
