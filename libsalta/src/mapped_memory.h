// Zeroed memory for large tables probed at random (the solver's bound
// table): on Linux mapped lazily, so a table of hundreds of megabytes costs
// no upfront clearing, only the pages its entries touch. Not advised onto
// huge pages: where the kernel compacts memory to find them (defrag
// "madvise", Debian's default), growing a table to 128 MiB stalled a count
// for 1 to 1.5 s, and unseen far position s3 #57 took 14.0 to 16.0 s with
// them against 11.2 to 11.8 s without (docs/scoring.md).
#pragma once

#include <cstddef>

namespace salta {

class MappedMemory {
 public:
  MappedMemory() = default;
  // `bytes` of zeroed memory; data() is null when it cannot be had.
  explicit MappedMemory(size_t bytes);
  ~MappedMemory();
  MappedMemory(MappedMemory&& other) noexcept;
  MappedMemory& operator=(MappedMemory&& other) noexcept;
  MappedMemory(const MappedMemory&) = delete;
  MappedMemory& operator=(const MappedMemory&) = delete;

  void* data() const { return data_; }

 private:
  void Release();
  void* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
};

}  // namespace salta
