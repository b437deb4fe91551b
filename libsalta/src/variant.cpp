#include "salta/variant.h"

#include <map>
#include <memory>
#include <tuple>

#include "absl/synchronization/mutex.h"
#include "salta/random.h"

namespace salta {

Variant::Variant(const Geometry& geometry, const Rules& rules)
    : geometry_(geometry), rules_(rules) {
  const Geometry& g = geometry_;
  start_.fill(kNoSquare);
  target_.fill(kNoSquare);
  // White's row k (from 1) is rank k-1; number i is the i-th dark square from
  // the left. Black's squares are White's turned half a turn.
  const int shift = g.size() - g.rows();
  for (int row = 0; row < g.rows(); ++row) {
    for (int number = 1; number <= g.half(); ++number) {
      PieceId w = MakePiece(Side::kWhite, Kind(row), number);
      PieceId b = MakePiece(Side::kBlack, Kind(row), number);
      Square start = row * g.half() + number - 1;
      start_[w] = start;
      start_[b] = g.rotate(start);
      Square target =
          rules.goal == Goal::kTranslate ? (row + shift) * g.half() + number - 1 : g.rotate(start);
      target_[w] = target;
      target_[b] = g.rotate(target);
    }
  }
  const bool fwd_steps = rules.steps == Steps::kForward;
  const bool fwd_jumps = rules.jump_dir == JumpDir::kForward;
  num_step_dirs_ = fwd_steps ? 2 : 4;
  num_jump_dirs_ = fwd_jumps ? 2 : 4;
  // Forward directions first, so that a forward-only list is a prefix.
  step_dirs_[0] = jump_dirs_[0] = {kUpLeft, kUpRight, kDownLeft, kDownRight};
  step_dirs_[1] = jump_dirs_[1] = {kDownLeft, kDownRight, kUpLeft, kUpRight};

  Random keys(0x5A17A1899ull);
  for (auto& piece : piece_keys_)
    for (uint64_t& k : piece) k = keys.Next();
  side_key_ = keys.Next();
  phase_keys_[0] = 0;
  phase_keys_[1] = keys.Next();
  phase_keys_[2] = keys.Next();
}

absl::StatusOr<const Variant*> Variant::Get(const Geometry& geometry, const Rules& rules) {
  static absl::Mutex mu;
  static auto* cache =
      new std::map<std::pair<std::pair<int, int>, std::string>, std::unique_ptr<const Variant>>();
  // Rules have no ordering of their own; their canonical text is a fine key.
  auto key = std::make_pair(std::make_pair(geometry.size(), geometry.rows()), rules.ToString());
  absl::MutexLock lock(&mu);
  auto& slot = (*cache)[key];
  if (!slot) slot.reset(new Variant(geometry, rules));
  return slot.get();
}

const Variant& Variant::Default(const Rules& rules) {
  return **Get(Geometry(), rules);
}

}  // namespace salta
