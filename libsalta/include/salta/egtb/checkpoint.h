// A build's checkpoint: the retrograde state of one process's positions saved at
// the end of a level, so that a build killed at any moment (kill -9, a power
// cut) resumes from there and ends with the identical table. The file is
// written beside the table under a temporary name, synced, then renamed into
// place, so a checkpoint is always whole; its own checksum rejects a damaged
// one (the build then starts afresh). The checkpoint before it is kept, as
// the previous one, until every process has saved its new one: processes
// killed while they save hold different levels, and resume from the newest
// level they all hold.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "absl/status/statusor.h"
#include "salta/cluster.h"
#include "salta/egtb/retrograde.h"
#include "salta/egtb/value.h"

namespace salta::egtb {

struct CheckpointHeader {
  std::string class_text;  // TableClass::ToString of the class
  int rank = 0, processes = 1;
  uint64_t positions = 0;  // the positions this process owns
  int level = 0;           // the next level to propagate
  uint64_t resolved = 0;   // of them, resolved
  bool done = false;       // the last level is done; only writing is left

  bool SameRun(const CheckpointHeader& o) const {
    return class_text == o.class_text && rank == o.rank && processes == o.processes &&
           positions == o.positions;
  }
};

// The checkpoint file of a process in a table directory.
std::string CheckpointPath(const std::string& dir, int rank, int processes);

// Removes the files of a directory whose names begin with prefix.
void RemoveFilesNamed(const std::string& dir, const std::string& prefix);

// Removes every process's checkpoint (of any run) from a table directory;
// for a finished table, whose checkpoints are of no more use.
void RemoveCheckpoints(const std::string& dir);

// Saves the checkpoint at path; the one that was there becomes the previous
// one, kept until DropPreviousCheckpoint.
absl::Status SaveCheckpoint(const std::string& path, const CheckpointHeader& header,
                            std::span<const Code> values, std::span<const uint8_t> counts);

// Removes the previous checkpoint of path, once every process has saved.
void DropPreviousCheckpoint(const std::string& path);

// Loads the checkpoint at path into values and counts if it is whole and of
// the same run as `expected` (class, process and its positions); returns its header,
// or nullopt when there is none or it does not fit (with the reason in
// `why`). An error only for a file that cannot be read at all.
absl::StatusOr<std::optional<CheckpointHeader>> LoadCheckpoint(const std::string& path,
                                                               const CheckpointHeader& expected,
                                                               std::span<Code> values,
                                                               std::span<uint8_t> counts,
                                                               std::string& why);

// Loads, on every process of the cluster, the checkpoint of the newest level
// that every process holds (its checkpoint at path or the previous one) and
// returns its header; nullopt on every process where there is no such level.
// `note`: where this process's checkpoint at path is there but damaged or of
// another run, why, and what the build does instead; else empty.
// A collective call: every process makes it.
absl::StatusOr<std::optional<CheckpointHeader>> LoadCommonCheckpoint(
    Cluster& cluster, const std::string& path, const CheckpointHeader& expected,
    std::span<Code> values, std::span<uint8_t> counts, std::string& note);

}  // namespace salta::egtb
