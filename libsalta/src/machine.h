// What this machine has to give: its memory, all of it and what is free now.
// Decided where work is sized (perft's hash table, the endgame build, how
// many pattern tables are built at once), never inside a hot path.
#pragma once

#include <cstdint>

namespace salta {

// The bytes of physical memory, 0 where the system does not say.
uint64_t MachineMemory();

// The bytes a new allocation can take without pushing others out: Linux's
// MemAvailable (free memory and what the page cache gives back), else the
// free pages, else MachineMemory(); 0 where the system says nothing.
uint64_t AvailableMemory();

}  // namespace salta
