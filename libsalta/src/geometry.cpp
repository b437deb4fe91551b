#include "salta/geometry.h"

#include "absl/strings/str_cat.h"

namespace salta {

absl::StatusOr<Geometry> Geometry::Make(int size, int rows) {
  if (size < kMinSize || size > kMaxSize || size % 2 != 0)
    return absl::InvalidArgumentError(
        absl::StrCat("board size ", size, " is not supported: use an even size from 4 to 10"));
  if (rows < 1 || rows > kMaxRows || 2 * rows >= size)
    return absl::InvalidArgumentError(
        absl::StrCat("rows ", rows, " is not supported on a ", size, "x", size,
                     " board: use 1 to 3 rows with twice the rows less than the board size"));
  return Geometry(size, rows);
}

Geometry::Geometry(int size, int rows) : size_(size), rows_(rows) {
  const int n = num_squares();
  all_ = n == 64 ? ~Bitboard{0} : (Bitboard{1} << n) - 1;
  for (int r = 0; r < size_; ++r)
    for (int f = 0; f < size_; ++f)
      if (Square s = at(f, r); s != kNoSquare) rank_mask_[r] |= SquareBit(s);
  const int df[kNumDirections] = {-1, +1, -1, +1};
  const int dr[kNumDirections] = {+1, +1, -1, -1};
  for (int d = 0; d < kNumDirections; ++d) {
    neighbor_[d].fill(kNoSquare);
    for (Square s = 0; s < n; ++s) neighbor_[d][s] = at(file_of(s) + df[d], rank_of(s) + dr[d]);
  }
  // A step changes the square index by one of two amounts, depending on the
  // parity of the rank; mask_a holds even ranks, mask_b odd ranks, each
  // limited to the squares that have a neighbour that way.
  const int h = half();
  const int up_by[2][2] = {{h - 1, h}, {h, h + 1}};  // [left/right][even/odd rank]
  const int down_by[2][2] = {{h + 1, h}, {h, h - 1}};
  for (int d = 0; d < kNumDirections; ++d) {
    Shift& t = shift_[d];
    Bitboard a = 0, b = 0;
    for (Square s = 0; s < n; ++s) {
      if (neighbor_[d][s] == kNoSquare) continue;
      (rank_of(s) % 2 == 0 ? a : b) |= SquareBit(s);
    }
    const bool right = d == kUpRight || d == kDownRight;
    const bool up = d <= kUpRight;
    t.mask_a = a;
    t.mask_b = b;
    t.by_a = (up ? up_by : down_by)[right][0];
    t.by_b = (up ? up_by : down_by)[right][1];
  }
}

Square Geometry::at(int file, int rank) const {
  if (file < 0 || file >= size_ || rank < 0 || rank >= size_ || (file + rank) % 2 != 0)
    return kNoSquare;
  return rank * half() + file / 2;
}

std::string Geometry::ToString() const {
  return absl::StrCat(size_, "x", size_, ", ", rows_, rows_ == 1 ? " row" : " rows");
}

}  // namespace salta
