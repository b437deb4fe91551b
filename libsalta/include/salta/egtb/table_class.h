// The class of an endgame table: a variant (geometry and rules) and the
// pieces of each side. Its positions are every placement of exactly those
// pieces on the dark squares, with either side to move; the phase is the one
// the library derives from the board. Nothing is ever captured, so a class is
// closed under moves.
//
// Positions are numbered densely (the position index): White to move first,
// then Black, each by the placement's number (salta/index.h, the class's
// pieces in slot order: White's, then Black's, each by id). Keeping one side
// to move together makes neighbouring values alike, which compresses.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "salta/index.h"
#include "salta/piece.h"
#include "salta/position.h"
#include "salta/variant.h"

namespace salta::egtb {

// The pieces of each side, each list in increasing id order.
struct Material {
  std::vector<PieceId> white, black;

  // Every piece of the geometry.
  static Material All(const Variant& v);
  // Comma-separated kind letter (S star, M moon, U sun, either case) and
  // number for each side, e.g. "S1,S2" and "S1,U3"; an empty list takes
  // every piece of that side.
  static absl::StatusOr<Material> Parse(const Variant& v, absl::string_view white,
                                        absl::string_view black);
  // "S1,S2,S3 v S1,S2,S3": kinds upper case, White's first.
  std::string ToString() const;
  bool operator==(const Material&) const = default;
};

class TableClass {
 public:
  // Refuses rules with a move limit (tables ignore it), pieces the geometry
  // does not have, repeated pieces, and a side with no piece.
  static absl::StatusOr<TableClass> Make(const Variant& variant, const Material& material);

  const Variant& variant() const { return *variant_; }
  const Material& material() const { return material_; }
  int num_pieces() const { return int(pieces_.size()); }
  PieceId piece(int slot) const { return pieces_[slot]; }
  // The number of positions: placements times the two sides to move.
  uint64_t size() const { return 2 * placements_.size(); }
  const PlacementIndex& placements() const { return placements_; }

  // The index of a position with exactly the class's pieces; otherwise an
  // error that says what differs.
  absl::StatusOr<uint64_t> IndexOf(const Position& pos) const;
  // The same without checks, for positions known to be of the class.
  uint64_t Index(const Position& pos) const {
    int8_t squares[PlacementIndex::kMaxPieces];
    for (int i = 0; i < num_pieces(); ++i) squares[i] = int8_t(pos.square_of(pieces_[i]));
    return Index(squares, pos.side_to_move());
  }
  // The index of the placement squares[slot] with `side` to move.
  uint64_t Index(const int8_t* squares, Side side) const {
    return uint64_t(side) * placements_.size() + placements_.Rank(squares);
  }
  // The slot of a piece of the class.
  int slot(PieceId p) const { return slot_[p]; }
  // The position of an index below size(), at ply 0.
  Position At(uint64_t index) const;
  // The class's pieces on their start squares, White to move.
  Position Start() const;

  // "6x6, 1 row, standard: S1,S2,S3 v S1,S2,S3", for messages and info.
  std::string ToString() const;

 private:
  TableClass(const Variant& v, Material m, std::vector<PieceId> pieces, PlacementIndex index)
      : variant_(&v), material_(std::move(m)), pieces_(std::move(pieces)), placements_(index) {
    slot_.fill(-1);
    for (int i = 0; i < num_pieces(); ++i) slot_[pieces_[i]] = int8_t(i);
  }

  const Variant* variant_;
  Material material_;
  std::vector<PieceId> pieces_;  // slot order
  PlacementIndex placements_;
  std::array<int8_t, kMaxPieces> slot_;
};

}  // namespace salta::egtb
