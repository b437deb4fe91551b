#include "salta/index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

namespace salta {
namespace {

// Every placement in lexicographic order of (square of piece 0, piece 1, ...)
// gets the next number: the plain enumeration the index must equal.
void ExpectDenseAndOrdered(int squares, int pieces) {
  absl::StatusOr<PlacementIndex> index = PlacementIndex::Make(squares, pieces);
  ASSERT_TRUE(index.ok()) << index.status();
  std::vector<int8_t> sq(pieces, 0);
  uint64_t expected = 0;
  // Odometer over all k-tuples of squares, keeping those with distinct squares.
  std::vector<int> digits(pieces, 0);
  for (;;) {
    bool distinct = true;
    for (int i = 0; i < pieces && distinct; ++i)
      for (int j = 0; j < i; ++j) distinct &= digits[i] != digits[j];
    if (distinct) {
      for (int i = 0; i < pieces; ++i) sq[i] = int8_t(digits[i]);
      ASSERT_EQ(index->Rank(sq.data()), expected);
      std::vector<int8_t> back(pieces, -1);
      index->Unrank(expected, back.data());
      ASSERT_EQ(back, sq);
      ++expected;
    }
    int i = pieces - 1;
    while (i >= 0 && ++digits[i] == squares) digits[i--] = 0;
    if (i < 0) break;
  }
  EXPECT_EQ(index->size(), expected);
}

TEST(PlacementIndex, DenseOrderedAndInverse) {
  ExpectDenseAndOrdered(8, 4);  // 4x4, one row: 1680
  ExpectDenseAndOrdered(18, 3);
  ExpectDenseAndOrdered(5, 5);   // a full board
  ExpectDenseAndOrdered(7, 0);   // the empty placement
  ExpectDenseAndOrdered(50, 2);  // 10x10, two pieces
}

TEST(PlacementIndex, Sizes) {
  EXPECT_EQ(PlacementIndex::Make(18, 6)->size(), 13366080u);  // 6x6, one row
  EXPECT_EQ(PlacementIndex::Make(32, 8)->size(), 424097856000u);
  EXPECT_FALSE(PlacementIndex::Make(50, 30).ok());  // more than 2^64
}

TEST(PlacementIndex, RoundTripsOnLargeBoards) {
  absl::StatusOr<PlacementIndex> index = PlacementIndex::Make(50, 10);
  ASSERT_TRUE(index.ok());
  uint64_t step = index->size() / 9973;
  for (uint64_t i = 0; i < index->size(); i += step) {
    int8_t sq[10];
    index->Unrank(i, sq);
    for (int a = 0; a < 10; ++a)
      for (int b = 0; b < a; ++b) ASSERT_NE(sq[a], sq[b]);
    ASSERT_EQ(index->Rank(sq), i);
  }
}

TEST(PlacementIndex, RefusesWhatCannotBe) {
  EXPECT_FALSE(PlacementIndex::Make(4, 5).ok());
  EXPECT_FALSE(PlacementIndex::Make(65, 1).ok());
  EXPECT_FALSE(PlacementIndex::Make(-1, 0).ok());
  EXPECT_FALSE(PlacementIndex::Make(64, 30).ok());  // 64!/34! > 2^64
}

TEST(PlacementIndex, NthFree) {
  const Bitboard used = 0b1011010;  // 1, 3, 4, 6 used
  std::vector<Square> free;
  for (int n = 0; n < 6; ++n) free.push_back(PlacementIndex::NthFree(used, n));
  EXPECT_EQ(free, (std::vector<Square>{0, 2, 5, 7, 8, 9}));
}

}  // namespace
}  // namespace salta
