#include "salta/egtb/table_class.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "salta/notation.h"

namespace salta::egtb {
namespace {

constexpr char kKindLetters[] = "SMU";

std::string PieceListText(const std::vector<PieceId>& pieces) {
  std::vector<std::string> names;
  for (PieceId p : pieces)
    names.push_back(absl::StrCat(std::string(1, kKindLetters[int(KindOf(p))]), NumberOf(p)));
  return absl::StrJoin(names, ",");
}

absl::StatusOr<std::vector<PieceId>> ParseSide(const Variant& v, Side side,
                                               absl::string_view text) {
  std::vector<PieceId> pieces;
  const std::string flag = side == Side::kWhite ? "--white" : "--black";
  if (absl::StripAsciiWhitespace(text).empty()) {
    for (PieceId p = int(side) * kPiecesPerSide; p < (int(side) + 1) * kPiecesPerSide; ++p)
      if (v.HasPiece(p)) pieces.push_back(p);
    return pieces;
  }
  for (absl::string_view token : absl::StrSplit(text, ',')) {
    token = absl::StripAsciiWhitespace(token);
    const std::string where = absl::StrCat(flag, " piece \"", token, "\"");
    const char* kind =
        token.empty() ? nullptr : std::strchr(kKindLetters, absl::ascii_toupper(token[0]));
    if (token.size() != 2 || kind == nullptr || *kind == '\0' || token[1] < '1' ||
        token[1] > '0' + kMaxNumber)
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": expected a kind letter (S star, M moon, U sun) and a number 1 to 5, e.g. S1"));
    const PieceId p = MakePiece(side, Kind(kind - kKindLetters), token[1] - '0');
    if (!v.HasPiece(p))
      return absl::InvalidArgumentError(absl::StrCat(where, ": ", PieceDescription(p),
                                                     " does not exist on a ",
                                                     v.geometry().ToString(), " board"));
    if (std::find(pieces.begin(), pieces.end(), p) != pieces.end())
      return absl::InvalidArgumentError(absl::StrCat(where, ": given twice"));
    pieces.push_back(p);
  }
  std::sort(pieces.begin(), pieces.end());
  return pieces;
}

}  // namespace

Material Material::All(const Variant& v) {
  return *Parse(v, "", "");
}

absl::StatusOr<Material> Material::Parse(const Variant& v, absl::string_view white,
                                         absl::string_view black) {
  Material m;
  absl::StatusOr<std::vector<PieceId>> w = ParseSide(v, Side::kWhite, white);
  if (!w.ok()) return w.status();
  absl::StatusOr<std::vector<PieceId>> b = ParseSide(v, Side::kBlack, black);
  if (!b.ok()) return b.status();
  m.white = std::move(*w);
  m.black = std::move(*b);
  return m;
}

std::string Material::ToString() const {
  return absl::StrCat(PieceListText(white), " v ", PieceListText(black));
}

absl::StatusOr<TableClass> TableClass::Make(const Variant& variant, const Material& material) {
  if (variant.rules().move_limit > 0)
    return absl::InvalidArgumentError(
        absl::StrCat("endgame tables ignore the move limit, so a class cannot have one (the "
                     "rules set move-limit=",
                     variant.rules().move_limit, "; drop --rule move-limit)"));
  if (material.white.empty() || material.black.empty())
    return absl::InvalidArgumentError("a class needs at least one piece of each side");
  std::vector<PieceId> pieces = material.white;
  pieces.insert(pieces.end(), material.black.begin(), material.black.end());
  for (size_t i = 0; i < pieces.size(); ++i) {
    const PieceId p = pieces[i];
    if (p < 0 || p >= kMaxPieces || !variant.HasPiece(p))
      return absl::InvalidArgumentError(absl::StrCat("piece ", p, " does not exist on a ",
                                                     variant.geometry().ToString(), " board"));
    if (SideOf(p) != (i < material.white.size() ? Side::kWhite : Side::kBlack))
      return absl::InvalidArgumentError(absl::StrCat(PieceDescription(p), " is on the wrong side"));
    if (i > 0 && SideOf(pieces[i - 1]) == SideOf(p) && pieces[i - 1] >= p)
      return absl::InvalidArgumentError("each side's pieces must be distinct and in id order");
  }
  absl::StatusOr<PlacementIndex> index =
      PlacementIndex::Make(variant.geometry().num_squares(), int(pieces.size()));
  if (!index.ok()) return index.status();
  if (index->size() > (UINT64_MAX >> 1))
    return absl::InvalidArgumentError("the class has more than 2^63 positions");
  return TableClass(variant, material, std::move(pieces), *index);
}

absl::StatusOr<uint64_t> TableClass::IndexOf(const Position& pos) const {
  if (!(pos.variant().geometry() == variant_->geometry()))
    return absl::InvalidArgumentError(
        absl::StrCat("the position is on a ", pos.variant().geometry().ToString(),
                     " board; the table's class is on ", variant_->geometry().ToString()));
  for (PieceId p = 0; p < kMaxPieces; ++p) {
    const bool in_class = std::find(pieces_.begin(), pieces_.end(), p) != pieces_.end();
    const bool on_board = pos.square_of(p) != kNoSquare;
    if (in_class != on_board)
      return absl::InvalidArgumentError(absl::StrCat(
          "the position is not of the table's class (", material_.ToString(),
          "): ", PieceDescription(p), in_class ? " is missing" : " is not one of its pieces"));
  }
  return Index(pos);
}

Position TableClass::At(uint64_t index) const {
  int8_t squares[PlacementIndex::kMaxPieces];
  const bool black = index >= placements_.size();
  placements_.Unrank(black ? index - placements_.size() : index, squares);
  std::pair<PieceId, Square> pieces[PlacementIndex::kMaxPieces];
  for (int i = 0; i < num_pieces(); ++i) pieces[i] = {pieces_[i], squares[i]};
  // Distinct squares of existing pieces: Make cannot fail.
  return *Position::Make(*variant_, pieces, num_pieces(), black ? Side::kBlack : Side::kWhite, 0);
}

Position TableClass::Start() const {
  std::vector<std::pair<PieceId, Square>> pieces;
  for (PieceId p : pieces_) pieces.emplace_back(p, variant_->start(p));
  return *Position::Make(*variant_, pieces, Side::kWhite, 0);
}

std::string TableClass::ToString() const {
  return absl::StrCat(variant_->geometry().ToString(), ", ", variant_->rules().ToString(), ": ",
                      material_.ToString());
}

}  // namespace salta::egtb
