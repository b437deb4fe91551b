#include "salta/egtb/partition.h"

namespace salta::egtb {

Partition::Partition(uint64_t size, int parts, uint64_t block)
    : size_(size), block_(block), parts_(parts) {}

uint64_t Partition::size(int r) const {
  const uint64_t blocks = size_ / block_, rest = size_ % block_;
  // Whole blocks r, r + parts, ...; the last, partial block is block `blocks`.
  uint64_t n = (blocks + parts_ - 1 - r) / parts_ * block_;
  if (rest > 0 && blocks % parts_ == uint64_t(r)) n += rest;
  return n;
}

}  // namespace salta::egtb
