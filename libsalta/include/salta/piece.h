// Piece identity: side, kind (star, moon, sun) and number (1..N/2).
#pragma once

#include <cstdint>

namespace salta {

enum class Side : uint8_t { kWhite = 0, kBlack = 1 };
constexpr Side Opponent(Side s) {
  return Side(int(s) ^ 1);
}

// Row 1 from the owner holds the stars, row 2 the moons, row 3 the suns.
enum class Kind : uint8_t { kStar = 0, kMoon = 1, kSun = 2 };

// A piece id is the same for every geometry: side * 15 + kind * 5 + number - 1.
using PieceId = int;
inline constexpr PieceId kNoPiece = -1;
inline constexpr int kMaxNumber = 5;
inline constexpr int kPiecesPerSide = 15;
inline constexpr int kMaxPieces = 30;

constexpr PieceId MakePiece(Side s, Kind k, int number) {
  return int(s) * kPiecesPerSide + int(k) * kMaxNumber + number - 1;
}
constexpr Side SideOf(PieceId p) {
  return Side(p / kPiecesPerSide);
}
constexpr Kind KindOf(PieceId p) {
  return Kind(p % kPiecesPerSide / kMaxNumber);
}
constexpr int NumberOf(PieceId p) {
  return p % kMaxNumber + 1;
}
// The historical alternative marking: stars 1-5, moons 6-10, suns 11-15.
constexpr int SerialOf(PieceId p) {
  return p % kPiecesPerSide + 1;
}

}  // namespace salta
