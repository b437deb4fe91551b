// Zeroed memory for large tables probed at random (the solver's bound
// table): on Linux mapped lazily and advised onto huge pages, so a table of
// hundreds of megabytes costs no upfront clearing and few TLB misses.
#pragma once

#include <cstddef>

namespace salta {

class LargePages {
 public:
  LargePages() = default;
  // `bytes` of zeroed memory; data() is null when it cannot be had.
  explicit LargePages(size_t bytes);
  ~LargePages();
  LargePages(LargePages&& other) noexcept;
  LargePages& operator=(LargePages&& other) noexcept;
  LargePages(const LargePages&) = delete;
  LargePages& operator=(const LargePages&) = delete;

  void* data() const { return data_; }

 private:
  void Release();
  void* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
};

}  // namespace salta
