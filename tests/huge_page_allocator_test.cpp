// Memory for the pattern databases (libsalta/src/huge_page_allocator.h):
// every byte asked for can be written and read back, at every size, and on
// Linux a large table lies on whole huge pages the kernel may back.
#include "huge_page_allocator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace salta {
namespace {

constexpr size_t kHugePage = size_t(2) << 20;

TEST(HugePageAllocator, EveryByteAskedForHolds) {
  for (size_t bytes : {size_t(0), size_t(1), size_t(4095), kHugePage - 1, kHugePage, kHugePage + 1,
                       size_t(6250000), size_t(13) << 20}) {
    uint8_t* data = static_cast<uint8_t*>(AllocateHugePages(bytes));
    ASSERT_NE(data, nullptr) << bytes;
    for (size_t i = 0; i < bytes; ++i) data[i] = uint8_t(i * 7 + bytes);
    size_t wrong = 0;
    for (size_t i = 0; i < bytes; ++i) wrong += data[i] != uint8_t(i * 7 + bytes);
    EXPECT_EQ(wrong, 0u) << bytes;
    FreeHugePages(data, bytes);
  }
}

TEST(HugePageAllocator, ServesVectors) {
  using Bytes = std::vector<uint8_t, HugePageAllocator<uint8_t>>;
  Bytes values(6250000, 255);
  EXPECT_EQ(values.size(), 6250000u);
  EXPECT_EQ(values.front(), 255);
  EXPECT_EQ(values.back(), 255);
  values.back() = 3;
  Bytes moved = std::move(values);
  EXPECT_EQ(moved.back(), 3);
  moved.resize(16);  // (keeps its memory)
  moved.shrink_to_fit();
  EXPECT_EQ(moved.size(), 16u);
  EXPECT_EQ(moved[15], 255);
  Bytes copy = moved;
  EXPECT_EQ(copy, moved);
}

// The kernel's own word (/proc/self/smaps) on the mapping holding `data`:
// the value of `field` ("THPeligible"), empty where not found.
std::string MappingField(const void* data, const std::string& field) {
  std::ifstream smaps("/proc/self/smaps");
  const uintptr_t at = reinterpret_cast<uintptr_t>(data);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t from = 0, to = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> from >> dash >> to && dash == '-') {
      inside = from <= at && at < to;
      continue;
    }
    if (inside && line.rfind(field + ":", 0) == 0) {
      std::istringstream value(line.substr(field.size() + 1));
      std::string v;
      value >> v;
      return v;
    }
  }
  return "";
}

TEST(HugePageAllocator, LargeTablesLieOnHugePages) {
  if (!HugePagesAdvised()) GTEST_SKIP() << "large tables come from the heap in this build";
  std::ifstream enabled("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  std::getline(enabled, modes);
  if (modes.empty() || modes.find("[never]") != std::string::npos)
    GTEST_SKIP() << "transparent huge pages are off here";
  const size_t bytes = 6250000;
  void* data = AllocateHugePages(bytes);
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % kHugePage, 0u);
  // Advised (or always on): the kernel may back it with huge pages.
  EXPECT_EQ(MappingField(data, "THPeligible"), "1");
  FreeHugePages(data, bytes);
  // Small requests come from the heap.
  void* small = AllocateHugePages(4096);
  ASSERT_NE(small, nullptr);
  FreeHugePages(small, 4096);
}

}  // namespace
}  // namespace salta
