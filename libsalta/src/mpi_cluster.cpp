#include "salta/mpi_cluster.h"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>

#include "absl/strings/str_cat.h"

namespace salta {
namespace {

// Elements one MPI call moves at most per process pair: counts are ints.
constexpr uint64_t kRoundElements = uint64_t(1) << 26;

absl::Status FromMpi(int code, absl::string_view what) {
  if (code == MPI_SUCCESS) return absl::OkStatus();
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return absl::InternalError(absl::StrCat("MPI ", what, ": ", std::string(text, length)));
}

bool LaunchedByMpi() {
  // Open MPI's launcher, and the PMI/PMIx conventions other launchers use.
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
    if (std::getenv(v) != nullptr) return true;
  return false;
}

}  // namespace

absl::StatusOr<std::unique_ptr<MpiCluster>> MpiCluster::Launch(int* argc, char*** argv) {
  if (!LaunchedByMpi()) return std::unique_ptr<MpiCluster>();
  if (absl::Status s = FromMpi(MPI_Init(argc, argv), "init"); !s.ok()) return s;
  // Errors come back as codes (and become statuses) instead of aborting.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  std::unique_ptr<MpiCluster> c(new MpiCluster());
  MPI_Comm_rank(MPI_COMM_WORLD, &c->rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &c->size_);
  return c;
}

MpiCluster::~MpiCluster() {
  MPI_Finalize();
}

absl::Status MpiCluster::AllToAll(std::vector<std::vector<uint64_t>>& out,
                                  std::vector<uint64_t>& in) {
  out.resize(size_);
  in.clear();
  // In rounds of at most kRoundElements per pair, as long as any process
  // has something left to send.
  std::vector<uint64_t> sent(size_, 0);
  std::vector<int> send_counts(size_), recv_counts(size_), send_offsets(size_), recv_offsets(size_);
  std::vector<uint64_t> buffer;
  for (;;) {
    uint64_t left = 0;
    for (int r = 0; r < size_; ++r) left = std::max<uint64_t>(left, out[r].size() - sent[r]);
    uint64_t any = left;
    if (absl::Status s =
            FromMpi(MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD),
                    "all-reduce");
        !s.ok())
      return s;
    if (any == 0) break;
    buffer.clear();
    for (int r = 0; r < size_; ++r) {
      const uint64_t n = std::min(kRoundElements, out[r].size() - sent[r]);
      send_counts[r] = int(n);
      send_offsets[r] = int(buffer.size());
      buffer.insert(buffer.end(), out[r].begin() + sent[r], out[r].begin() + sent[r] + n);
      sent[r] += n;
      if (r != rank_) bytes_sent_ += n * sizeof(uint64_t);
    }
    if (absl::Status s = FromMpi(MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1,
                                              MPI_INT, MPI_COMM_WORLD),
                                 "all-to-all");
        !s.ok())
      return s;
    uint64_t total = 0;
    for (int r = 0; r < size_; ++r) {
      recv_offsets[r] = int(total);
      total += recv_counts[r];
    }
    if (total > uint64_t(INT32_MAX))
      return absl::ResourceExhaustedError("too many updates in one exchange round");
    const size_t base = in.size();
    in.resize(base + total);
    if (absl::Status s =
            FromMpi(MPI_Alltoallv(buffer.data(), send_counts.data(), send_offsets.data(),
                                  MPI_UINT64_T, in.data() + base, recv_counts.data(),
                                  recv_offsets.data(), MPI_UINT64_T, MPI_COMM_WORLD),
                    "all-to-all");
        !s.ok())
      return s;
  }
  for (std::vector<uint64_t>& v : out) std::vector<uint64_t>().swap(v);
  return absl::OkStatus();
}

absl::Status MpiCluster::SumAll(std::span<uint64_t> values) {
  return FromMpi(MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_UINT64_T,
                               MPI_SUM, MPI_COMM_WORLD),
                 "all-reduce");
}

absl::Status MpiCluster::MaxAll(std::span<uint64_t> values) {
  return FromMpi(MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_UINT64_T,
                               MPI_MAX, MPI_COMM_WORLD),
                 "all-reduce");
}

absl::Status MpiCluster::Agree(const absl::Status& local) {
  // The lowest rank with an error tells its error to all.
  int first = local.ok() ? size_ : rank_;
  if (absl::Status s = FromMpi(
          MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "all-reduce");
      !s.ok())
    return s;
  if (first == size_) return absl::OkStatus();
  std::string message = first == rank_ ? std::string(local.message()) : std::string();
  int code = int(local.code());
  if (absl::Status s = FromMpi(MPI_Bcast(&code, 1, MPI_INT, first, MPI_COMM_WORLD), "broadcast");
      !s.ok())
    return s;
  if (absl::Status s = Broadcast(message, first); !s.ok()) return s;
  if (first != rank_ && size_ > 1) message = absl::StrCat("process ", first, ": ", message);
  return absl::Status(absl::StatusCode(code), message);
}

absl::Status MpiCluster::Broadcast(std::string& data, int root) {
  uint64_t n = data.size();
  if (absl::Status s = FromMpi(MPI_Bcast(&n, 1, MPI_UINT64_T, root, MPI_COMM_WORLD), "broadcast");
      !s.ok())
    return s;
  data.resize(n);
  return FromMpi(MPI_Bcast(data.data(), int(n), MPI_CHAR, root, MPI_COMM_WORLD), "broadcast");
}

}  // namespace salta
