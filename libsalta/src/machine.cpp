#include "machine.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace salta {

uint64_t MachineMemory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
}

uint64_t AvailableMemory() {
  std::ifstream meminfo("/proc/meminfo");
  const std::string key = "MemAvailable:";
  for (std::string line; std::getline(meminfo, line);)
    if (line.compare(0, key.size(), key) == 0) {
      const unsigned long long kib = std::strtoull(line.c_str() + key.size(), nullptr, 10);
      if (kib > 0) return uint64_t(kib) << 10;  // (the unit is always kB)
    }
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) return uint64_t(pages) * uint64_t(page);
  return MachineMemory();
}

}  // namespace salta
