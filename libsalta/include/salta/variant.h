// A variant is a geometry with a rule set, and everything derived from them
// once: start and target squares, move masks, hash keys. Variants are interned:
// Get returns a pointer that stays valid for the life of the program, so
// positions can refer to theirs without owning it.
#pragma once

#include <array>
#include <cstdint>

#include "absl/status/statusor.h"
#include "salta/bitboard.h"
#include "salta/geometry.h"
#include "salta/piece.h"
#include "salta/rules.h"

namespace salta {

class Variant {
 public:
  static absl::StatusOr<const Variant*> Get(const Geometry& geometry, const Rules& rules);
  // 10x10, three rows, the given rules (default: standard). Never fails.
  static const Variant& Default(const Rules& rules = Rules::Standard());

  const Geometry& geometry() const { return geometry_; }
  const Rules& rules() const { return rules_; }

  // Whether the piece exists in this geometry (kind within the rows, number within N/2).
  bool HasPiece(PieceId p) const { return start_[p] != kNoSquare; }
  Square start(PieceId p) const { return start_[p]; }
  Square target(PieceId p) const { return target_[p]; }

  // Directions a piece of side s may step, and jump, in.
  const std::array<Direction, 4>& step_dirs(Side s) const { return step_dirs_[int(s)]; }
  int num_step_dirs() const { return num_step_dirs_; }
  const std::array<Direction, 4>& jump_dirs(Side s) const { return jump_dirs_[int(s)]; }
  int num_jump_dirs() const { return num_jump_dirs_; }
  // The ply after which the game ends by the move limit; 0 without a limit.
  int limit_ply() const { return 2 * rules_.move_limit; }

  uint64_t piece_key(PieceId p, Square s) const { return piece_keys_[p][s]; }
  uint64_t side_key() const { return side_key_; }
  uint64_t phase_key(int phase) const { return phase_keys_[phase]; }

 private:
  Variant(const Geometry& geometry, const Rules& rules);

  Geometry geometry_;
  Rules rules_;
  std::array<Square, kMaxPieces> start_;
  std::array<Square, kMaxPieces> target_;
  std::array<std::array<Direction, 4>, 2> step_dirs_{};
  std::array<std::array<Direction, 4>, 2> jump_dirs_{};
  int num_step_dirs_;
  int num_jump_dirs_;
  std::array<std::array<uint64_t, kMaxSquares>, kMaxPieces> piece_keys_;
  uint64_t side_key_;
  std::array<uint64_t, 3> phase_keys_;
};

}  // namespace salta
