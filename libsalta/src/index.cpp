#include "salta/index.h"

#include "absl/strings/str_cat.h"

namespace salta {

absl::StatusOr<PlacementIndex> PlacementIndex::Make(int num_squares, int num_pieces) {
  if (num_squares < 0 || num_squares > 64)
    return absl::InvalidArgumentError(
        absl::StrCat("a placement index takes 0 to 64 squares, not ", num_squares));
  if (num_pieces < 0 || num_pieces > kMaxPieces || num_pieces > num_squares)
    return absl::InvalidArgumentError(
        absl::StrCat("cannot place ", num_pieces, " pieces on distinct squares of ", num_squares));
  PlacementIndex index;
  index.num_squares_ = num_squares;
  index.num_pieces_ = num_pieces;
  // Radix of digit i: the squares left free by pieces 0..i-1.
  uint64_t weight = 1;
  for (int i = num_pieces - 1; i >= 0; --i) {
    index.weight_[i] = weight;
    const uint64_t radix = uint64_t(num_squares - i);
    if (weight > UINT64_MAX / radix)
      return absl::InvalidArgumentError(absl::StrCat(num_pieces, " pieces on ", num_squares,
                                                     " squares have more than 2^64 placements"));
    weight *= radix;
  }
  index.size_ = weight;
  return index;
}

}  // namespace salta
