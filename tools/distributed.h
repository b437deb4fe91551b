// The processes of a tool's run: all of an MPI job when the tool was started
// by mpirun (and built with MPI), else this one process. Only the first
// process (rank 0) writes to standard output and shows progress; errors on
// any process reach every process through Cluster::Agree.
#pragma once

#include <cstdio>
#include <memory>

#include "absl/status/statusor.h"
#include "salta/cluster.h"
#include "tool.h"
#ifdef SALTA_HAVE_MPI
#include "salta/mpi_cluster.h"
#endif

namespace salta::tools {

inline absl::StatusOr<std::unique_ptr<Cluster>> StartProcesses(int* argc, char*** argv) {
#ifdef SALTA_HAVE_MPI
  absl::StatusOr<std::unique_ptr<MpiCluster>> mpi = MpiCluster::Launch(argc, argv);
  if (!mpi.ok()) return mpi.status();
  if (*mpi) {
    // The other processes' results are rank 0's: one copy of the output.
    if ((*mpi)->rank() != 0 && std::freopen("/dev/null", "w", stdout) == nullptr)
      return absl::InternalError("cannot silence standard output");
    return std::unique_ptr<Cluster>(std::move(*mpi));
  }
#else
  (void)argc;
  (void)argv;
#endif
  return SingleProcess();
}

// After ParseCommandLine's `parsed` on every process: a bad command line on
// any process ends them all (status 2; rank 0 says so where its own line was
// fine: the process at fault named the error). The exit status to end with,
// or -1 to go on.
inline int AgreeOnCommandLine(Cluster& cluster, Tool& tool, int parsed) {
  if (absl::Status s = cluster.Agree(parsed > 0 ? absl::InvalidArgumentError("bad command line")
                                                : absl::OkStatus());
      !s.ok()) {
    if (cluster.rank() == 0 && parsed <= 0) tool.Fail(s.message());
    return kExitBadInput;
  }
  return parsed;
}

}  // namespace salta::tools
