#include "salta/geometry.h"

#include <gtest/gtest.h>

namespace salta {
namespace {

TEST(Geometry, RejectsUnsupportedSizes) {
  EXPECT_FALSE(Geometry::Make(3, 1).ok());
  EXPECT_FALSE(Geometry::Make(12, 3).ok());
  EXPECT_FALSE(Geometry::Make(7, 2).ok());
  EXPECT_FALSE(Geometry::Make(6, 3).ok());  // 2R must be less than N
  EXPECT_FALSE(Geometry::Make(10, 0).ok());
  EXPECT_FALSE(Geometry::Make(10, 4).ok());
  EXPECT_TRUE(Geometry::Make(4, 1).ok());
  EXPECT_TRUE(Geometry::Make(8, 3).ok());
}

// The shifts must agree with the neighbour table on every board.
TEST(Geometry, ShiftsMatchNeighbours) {
  for (int n = 4; n <= 10; n += 2) {
    Geometry g = *Geometry::Make(n, 1);
    EXPECT_EQ(g.num_squares(), n * n / 2);
    for (Square s = 0; s < g.num_squares(); ++s) {
      EXPECT_EQ((g.file_of(s) + g.rank_of(s)) % 2, 0);
      EXPECT_EQ(g.at(g.file_of(s), g.rank_of(s)), s);
      for (int d = 0; d < kNumDirections; ++d) {
        const Square t = g.neighbor(s, Direction(d));
        EXPECT_EQ(g.shift(SquareBit(s), Direction(d)), t == kNoSquare ? 0 : SquareBit(t))
            << "n=" << n << " s=" << s << " d=" << d;
      }
    }
  }
}

}  // namespace
}  // namespace salta
