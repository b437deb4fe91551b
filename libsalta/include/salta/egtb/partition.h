// Which process of a distributed build owns which positions of a class.
#pragma once

#include <cstdint>

namespace salta::egtb {

// Which process owns which positions: the index is cut into blocks of
// `block` positions dealt round-robin (block b to process b mod parts), so
// that every process holds both sides to move and a like share of every
// region of the index -- a predecessor is then as likely to be local as
// anywhere else. A process keeps its positions in a dense local array.
class Partition {
 public:
  Partition(uint64_t size, int parts, uint64_t block);
  int parts() const { return parts_; }
  uint64_t block() const { return block_; }
  int owner(uint64_t index) const { return int(index / block_ % uint64_t(parts_)); }
  // The number of positions process r owns.
  uint64_t size(int r) const;
  // Process r's local position `local` as a class index, and back.
  uint64_t global(int r, uint64_t local) const {
    return (local / block_ * parts_ + r) * block_ + local % block_;
  }
  uint64_t local(uint64_t index) const { return index / block_ / parts_ * block_ + index % block_; }

 private:
  uint64_t size_, block_;
  int parts_;
};

}  // namespace salta::egtb
