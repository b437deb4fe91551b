// Building an endgame table: the retrograde analysis of a class
// (retrograde.h) with checkpoints (checkpoint.h), stored in one RocksDB
// directory (storage.h). The same call serves a single process and every
// process of a distributed run (salta/cluster.h): each owns a share of the
// index, and the table ends identical either way.
//
// The directory decides what a build does: none or empty, a new build; a
// build of the same class that did not finish, a resume from its last
// checkpoint (or from the start if it has none); a finished table of the same
// class, nothing (it is reported). Anything else is refused.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "salta/cluster.h"
#include "salta/egtb/storage.h"
#include "salta/egtb/table_class.h"

namespace salta::egtb {

struct BuildProgress {
  enum Stage { kInitialize, kLevels, kWrite } stage = kInitialize;
  int level = 0;             // the level being propagated
  uint64_t resolved = 0;     // positions resolved so far, every process
  uint64_t positions = 0;    // positions of the class
  double fraction = 0;       // of the current stage, where it is known; -1 if not
  double seconds_left = -1;  // an estimate for the whole build; -1 unknown
};

struct BuildOptions {
  int threads = 0;  // per process; 0: every core
  // The memory the build may use, per process, in MB; 0: the machine's.
  uint64_t memory_mb = 0;
  // Checkpoints at the end of a level, at most this often (0: every level).
  double checkpoint_seconds = 60;
  // Null: one process.
  Cluster* cluster = nullptr;
  // Called now and then on every process (the caller shows rank 0's).
  std::function<void(const BuildProgress&)> progress;
  // Called on a process with what its user should know: a checkpoint that
  // was there but could not be used (damaged, or of another run), and what
  // the build does instead.
  std::function<void(absl::string_view)> note;
};

struct BuildReport {
  Tally tally;
  bool already_built = false;  // the directory held the finished table
  bool resumed = false;        // started from a checkpoint
  int resumed_level = 0;
  int levels = 0;  // levels propagated in all
  double seconds = 0;
  uint64_t bytes_exchanged = 0;  // sent between processes, all of them
  uint64_t memory_bytes = 0;     // the arrays of one process
};

// The memory a process needs to build the class split over `processes`.
uint64_t BuildMemoryBytes(const TableClass& cls, int processes);

absl::StatusOr<BuildReport> Build(const TableClass& cls, const std::string& dir,
                                  const BuildOptions& options);

}  // namespace salta::egtb
