#include "large_pages.h"

#include <cstdlib>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace salta {

namespace {
// Below this a huge page would be mostly wasted.
constexpr size_t kHugePage = size_t(2) << 20;
}  // namespace

LargePages::LargePages(size_t bytes) : size_(bytes) {
  if (bytes == 0) return;
#if defined(__linux__)
  if (bytes >= kHugePage) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
      madvise(p, bytes, MADV_HUGEPAGE);  // advice only: its failure costs speed, not results
      data_ = p;
      mapped_ = true;
      return;
    }
  }
#endif
  data_ = std::calloc(1, bytes);
  if (!data_) size_ = 0;
}

LargePages::~LargePages() {
  Release();
}

LargePages::LargePages(LargePages&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      mapped_(std::exchange(other.mapped_, false)) {}

LargePages& LargePages::operator=(LargePages&& other) noexcept {
  if (this != &other) {
    Release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, false);
  }
  return *this;
}

void LargePages::Release() {
  if (!data_) return;
#if defined(__linux__)
  if (mapped_) {
    munmap(data_, size_);
    data_ = nullptr;
    return;
  }
#endif
  std::free(data_);
  data_ = nullptr;
}

}  // namespace salta
