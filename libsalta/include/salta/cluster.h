// The processes of a distributed run and the few collective operations the
// library's distributed algorithms need (perft shares, the endgame-table
// build). The library knows no transport: a one-process run uses
// SingleProcess(), and an MPI run passes an implementation over MPI (the
// tools' mpi_cluster). Every process must make the same calls in the same
// order; an error on any process is returned on every process.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace salta {

class Cluster {
 public:
  virtual ~Cluster() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;

  // Each process sends out[r] to process r; `in` receives what every process
  // sent to this one, in rank order. out is left empty.
  virtual absl::Status AllToAll(std::vector<std::vector<uint64_t>>& out,
                                std::vector<uint64_t>& in) = 0;
  // Replaces each value with its sum over every process.
  virtual absl::Status SumAll(std::span<uint64_t> values) = 0;
  // Replaces each value with its maximum over every process.
  virtual absl::Status MaxAll(std::span<uint64_t> values) = 0;
  // Ok on every process if `local` is ok on every process; otherwise every
  // process gets the error of the lowest rank that had one.
  virtual absl::Status Agree(const absl::Status& local) = 0;
  // Every process gets the root's `data`.
  virtual absl::Status Broadcast(std::string& data, int root) = 0;
  // The bytes this process has sent to others so far.
  virtual uint64_t bytes_sent() const = 0;
};

// A run of one process: collective operations are identities.
std::unique_ptr<Cluster> SingleProcess();

}  // namespace salta
