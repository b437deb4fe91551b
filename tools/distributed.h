// The processes of a tool's run: all of an MPI job when the tool was started
// by mpirun (and built with MPI), else this one process. Only the first
// process (rank 0) writes to standard output and shows progress; errors on
// any process reach every process through Cluster::Agree.
#pragma once

#include <cstdio>
#include <memory>

#include "absl/status/statusor.h"
#include "salta/cluster.h"
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

}  // namespace salta::tools
