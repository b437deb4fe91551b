// Memory for the pattern databases: tables of megabytes, written once as
// they load and read at random by the searches. On Linux it is advised onto
// huge pages (2 MiB), so that a table is touched in a few page faults
// rather than thousands, and looked up with fewer TLB misses. A one-shot
// count that loads a side's twelve four-piece tables took 0.33 to 0.39 s,
// and 0.13 to 0.23 s on huge pages; the benchmark's searches took about
// the same (docs/scoring-measurements.md). The scratch a table is read
// into stays on the heap, which reuses it from table to table, and the
// solver's bound table on small pages (mapped_memory.h): it grows while a
// count runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

namespace salta {

// Whether large requests are mapped and advised onto huge pages in this
// build (Linux, not under AddressSanitizer).
bool HugePagesAdvised();

// `bytes` of memory, not cleared, or null where it cannot be had: large
// requests mapped and advised onto huge pages, small ones from the heap
// (and every one from the heap under AddressSanitizer, which checks it).
void* AllocateHugePages(size_t bytes);
// Frees what AllocateHugePages(bytes) gave.
void FreeHugePages(void* data, size_t bytes);

// Advises memory already mapped (a file's too) onto huge pages: the whole
// pages of [data, data + bytes), where that is at least a huge page. Only
// advice, which the kernel may decline; nothing but on Linux. For a file
// not yet in memory, the kernel then reads it into huge pages and keeps
// them for later processes.
void AdviseHugePages(const void* data, size_t bytes);

// For std::vector.
template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}
  T* allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_array_new_length();
    void* data = AllocateHugePages(n * sizeof(T));
    if (!data) throw std::bad_alloc();
    return static_cast<T*>(data);
  }
  void deallocate(T* data, size_t n) noexcept { FreeHugePages(data, n * sizeof(T)); }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace salta
