#include "huge_page_allocator.h"

#include <cstdlib>

// (GCC says AddressSanitizer is on with the macro, clang with the feature.)
#if defined(__SANITIZE_ADDRESS__)
#define SALTA_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SALTA_ADDRESS_SANITIZER 1
#endif
#endif
#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#if !SALTA_ADDRESS_SANITIZER
#define SALTA_HUGE_PAGES 1
#endif
#endif

namespace salta {

namespace {

constexpr uintptr_t kHugePage = uintptr_t(2) << 20;

}  // namespace

void AdviseHugePages(const void* data, size_t bytes) {
#if defined(__linux__)
  if (bytes < kHugePage) return;
  const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
  const uintptr_t begin = reinterpret_cast<uintptr_t>(data) & ~(page - 1);
  madvise(reinterpret_cast<void*>(begin), reinterpret_cast<uintptr_t>(data) + bytes - begin,
          MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

bool HugePagesAdvised() {
#if SALTA_HUGE_PAGES
  return true;
#else
  return false;
#endif
}

#if SALTA_HUGE_PAGES
namespace {

uintptr_t RoundUp(uintptr_t bytes) {
  return (bytes + kHugePage - 1) & ~(kHugePage - 1);
}

}  // namespace

void* AllocateHugePages(size_t bytes) {
  if (bytes < kHugePage) return std::malloc(bytes ? bytes : 1);
  const uintptr_t size = RoundUp(bytes);
  // One huge page more than asked, its ends unmapped: the kernel maps a
  // huge page only where the range holds a whole aligned one.
  void* mapped =
      mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(mapped);
  const uintptr_t aligned = RoundUp(start);
  if (aligned > start) munmap(mapped, aligned - start);
  if (start + kHugePage > aligned)
    munmap(reinterpret_cast<void*>(aligned + size), start + kHugePage - aligned);
  // Advice: where the kernel declines it, small pages serve.
  AdviseHugePages(reinterpret_cast<void*>(aligned), size);
  return reinterpret_cast<void*>(aligned);
}

void FreeHugePages(void* data, size_t bytes) {
  if (!data) return;
  if (bytes < kHugePage) {
    std::free(data);
    return;
  }
  munmap(data, RoundUp(bytes));
}
#else
void* AllocateHugePages(size_t bytes) {
  return std::malloc(bytes ? bytes : 1);
}
void FreeHugePages(void* data, size_t) {
  std::free(data);
}
#endif

}  // namespace salta
