// The Cluster of an MPI run (Open MPI): built only where CMake finds MPI
// (SALTA_HAVE_MPI, library salta_mpi). A tool started by mpirun calls
// MpiCluster::Launch first; started any other way it runs as one process
// and never touches MPI.
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "salta/cluster.h"

namespace salta {

class MpiCluster final : public Cluster {
 public:
  // Initialises MPI if this process was started by an MPI launcher (its
  // environment says so), else returns null: the run is one process.
  static absl::StatusOr<std::unique_ptr<MpiCluster>> Launch(int* argc, char*** argv);
  ~MpiCluster() override;  // finalises MPI

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  absl::Status AllToAll(std::vector<std::vector<uint64_t>>& out,
                        std::vector<uint64_t>& in) override;
  absl::Status SumAll(std::span<uint64_t> values) override;
  absl::Status MaxAll(std::span<uint64_t> values) override;
  absl::Status Agree(const absl::Status& local) override;
  absl::Status Broadcast(std::string& data, int root) override;
  uint64_t bytes_sent() const override { return bytes_sent_; }

 private:
  MpiCluster() = default;
  int rank_ = 0, size_ = 1;
  uint64_t bytes_sent_ = 0;
};

}  // namespace salta
