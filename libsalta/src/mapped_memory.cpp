#include "mapped_memory.h"

#include <cstdlib>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace salta {

namespace {
// Below this, the heap's memory (already touched) serves better.
constexpr size_t kMapped = size_t(2) << 20;
}  // namespace

MappedMemory::MappedMemory(size_t bytes) : size_(bytes) {
  if (bytes == 0) return;
#if defined(__linux__)
  if (bytes >= kMapped) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
      data_ = p;
      mapped_ = true;
      return;
    }
  }
#endif
  data_ = std::calloc(1, bytes);
  if (!data_) size_ = 0;
}

MappedMemory::~MappedMemory() {
  Release();
}

MappedMemory::MappedMemory(MappedMemory&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      mapped_(std::exchange(other.mapped_, false)) {}

MappedMemory& MappedMemory::operator=(MappedMemory&& other) noexcept {
  if (this != &other) {
    Release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, false);
  }
  return *this;
}

void MappedMemory::Release() {
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
