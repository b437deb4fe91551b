#include "salta/egtb/build.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "machine.h"
#include "salta/egtb/checkpoint.h"
#include "salta/egtb/retrograde.h"

namespace salta::egtb {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

std::string BlockFilePath(const std::string& dir, int rank, int processes) {
  return (std::filesystem::path(dir) / absl::StrCat("blocks-", rank, "-of-", processes, ".sst"))
      .string();
}

// Removes what runs leave beside a finished table, of no more use: every
// process's checkpoints (of this run or one with another number of
// processes, 3 bytes a position each) and block files (a run killed as its
// blocks went in leaves names the table does not use; its own have others).
void RemoveRunFiles(const std::string& dir) {
  RemoveCheckpoints(dir);
  RemoveFilesNamed(dir, "blocks-");
}

// What the directory holds, decided by the first process.
enum class DirState : char { kNew = 'n', kResume = 'r', kDone = 'd' };

absl::StatusOr<DirState> Prepare(const TableClass& cls, const std::string& dir,
                                 std::unique_ptr<Table>& table) {
  const TableMeta meta = MetaOf(cls);
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec) || std::filesystem::is_empty(dir, ec) ||
      (std::filesystem::is_directory(dir, ec) && !Table::ReadMeta(dir).ok() &&
       Table::OnlyCreationFiles(dir))) {
    absl::StatusOr<std::unique_ptr<Table>> t =
        Table::Create(dir, meta, Table::CreateOptions{.replace = true});
    if (!t.ok()) return t.status();
    table = std::move(*t);
    return DirState::kNew;
  }
  if (!std::filesystem::is_directory(dir, ec))
    return absl::FailedPreconditionError(absl::StrCat(dir, " exists and is not a directory"));
  absl::StatusOr<TableMeta> have = Table::ReadMeta(dir);
  if (!have.ok())
    return absl::FailedPreconditionError(
        absl::StrCat(dir, " is not empty and holds no endgame table",
                     have.status().code() == absl::StatusCode::kNotFound
                         ? std::string()
                         : absl::StrCat(" (", have.status().message(), ")"),
                     "; choose another --db"));
  if (!(*have == meta)) {
    absl::StatusOr<TableClass> other = EndgameTable::ClassOf(*have);
    return absl::FailedPreconditionError(absl::StrCat(
        dir, " holds ",
        other.ok() ? absl::StrCat("the table of another class (", other->ToString(), ")")
                   : absl::StrCat("something else (", other.status().message(), ")"),
        "; choose another --db or delete it"));
  }
  absl::StatusOr<bool> complete = Table::IsComplete(dir);
  if (!complete.ok()) return complete.status();
  if (*complete) return DirState::kDone;
  absl::StatusOr<std::unique_ptr<Table>> t = Table::Resume(dir, meta);
  if (!t.ok()) return t.status();
  table = std::move(*t);
  return DirState::kResume;
}

// Sums the processes' tallies: counts add, the longest win is the longest
// anywhere at its least index.
absl::Status CombineTallies(Cluster& cluster, Tally& t) {
  uint64_t sums[5] = {t.positions, t.wins, t.losses, t.draws, t.checksum};
  if (absl::Status s = cluster.SumAll(sums); !s.ok()) return s;
  uint64_t maxima[2] = {uint64_t(t.longest_win + 1), t.max_code};
  if (absl::Status s = cluster.MaxAll(maxima); !s.ok()) return s;
  uint64_t least[1] = {
      uint64_t(t.longest_win + 1) == maxima[0] && t.longest_win >= 0 ? ~t.longest_win_index : 0};
  if (absl::Status s = cluster.MaxAll(least); !s.ok()) return s;
  t.positions = sums[0];
  t.wins = sums[1];
  t.losses = sums[2];
  t.draws = sums[3];
  t.checksum = sums[4];
  t.longest_win = int(maxima[0]) - 1;
  t.max_code = Code(maxima[1]);
  t.longest_win_index = t.longest_win >= 0 ? ~least[0] : 0;
  return absl::OkStatus();
}

}  // namespace

uint64_t BuildMemoryBytes(const TableClass& cls, int processes) {
  const uint64_t per = (cls.size() + processes - 1) / processes;
  // The arrays, plus room for the exchanged updates and RocksDB's buffers.
  return per * Retrograde::BytesPerPosition() + per / 4 + (uint64_t(64) << 20);
}

absl::StatusOr<BuildReport> Build(const TableClass& cls, const std::string& dir,
                                  const BuildOptions& options) {
  const Clock::time_point start = Clock::now();
  std::unique_ptr<Cluster> single;
  Cluster& cluster = options.cluster ? *options.cluster : *(single = SingleProcess());
  const int rank = cluster.rank(), processes = cluster.size();
  BuildReport report;

  // Refused at once when it cannot fit.
  const uint64_t need = BuildMemoryBytes(cls, processes);
  const uint64_t cap = options.memory_mb > 0 ? options.memory_mb << 20
                       : MachineMemory() > 0 ? MachineMemory()
                                             : UINT64_MAX;  // (unknown: no cap)
  absl::Status fits;
  if (need > cap)
    fits = absl::ResourceExhaustedError(absl::StrCat(
        "the class ", cls.ToString(), " (", cls.size(), " positions) needs ", (need >> 20) + 1,
        " MB per process", processes > 1 ? absl::StrCat(" with ", processes, " processes") : "",
        ", more than the ", cap >> 20, " MB ",
        options.memory_mb > 0 ? "that --memory allows" : "this machine has"));
  if (absl::Status s = cluster.Agree(fits); !s.ok()) return s;
  report.memory_bytes = need;

  absl::StatusOr<std::unique_ptr<ThreadPool>> pool = ThreadPool::Make(options.threads);
  if (absl::Status s = cluster.Agree(pool.status()); !s.ok()) return s;

  // The first process looks at the directory and tells the others.
  std::unique_ptr<Table> table;
  std::string state(1, char(DirState::kNew));
  absl::Status prepared;
  if (rank == 0) {
    absl::StatusOr<DirState> st = Prepare(cls, dir, table);
    prepared = st.status();
    if (st.ok()) state[0] = char(*st);
  }
  if (absl::Status s = cluster.Agree(prepared); !s.ok()) return s;
  if (absl::Status s = cluster.Broadcast(state, 0); !s.ok()) return s;
  if (DirState(state[0]) == DirState::kDone) {
    absl::Status opened;
    if (rank == 0) {
      absl::StatusOr<std::unique_ptr<EndgameTable>> t = EndgameTable::Open(dir);
      opened = t.status();
      if (t.ok()) report.tally = (*t)->tally();
      // A run that failed after the table was complete (in its last
      // exchange) left its checkpoints: they are of no more use.
      if (t.ok()) RemoveRunFiles(dir);
    }
    if (absl::Status s = cluster.Agree(opened); !s.ok()) return s;
    report.already_built = true;
    report.seconds = Since(start);
    return report;
  }

  const Partition partition(cls.size(), processes, kBlockPositions);
  absl::StatusOr<std::unique_ptr<Retrograde>> made =
      Retrograde::Make(cls, partition, cluster, **pool);
  if (absl::Status s = cluster.Agree(made.status()); !s.ok()) return s;
  Retrograde& r = **made;

  // Progress: the stage's share done, and an estimate of the time left.
  BuildProgress progress;
  progress.positions = cls.size();
  std::atomic<uint64_t> resolved_before{0};
  Clock::time_point stage_start = Clock::now();
  double estimate = -1;
  auto report_progress = [&](uint64_t done, uint64_t total) {
    if (!options.progress) return;
    BuildProgress p = progress;
    p.fraction = total > 0 ? double(done) / double(total) : 1;
    p.resolved = resolved_before.load(std::memory_order_relaxed);
    if (p.stage == BuildProgress::kInitialize && p.fraction > 0.01)
      p.seconds_left = Since(stage_start) * (1 - p.fraction) / p.fraction;
    else
      p.seconds_left = estimate;
    options.progress(p);
  };
  r.set_progress(report_progress);

  // A checkpoint of every process at the same level, or a fresh start.
  CheckpointHeader header{cls.ToString(), rank, processes, r.values().size()};
  const std::string checkpoint = CheckpointPath(dir, rank, processes);
  std::optional<CheckpointHeader> loaded;
  if (DirState(state[0]) == DirState::kResume) {
    std::string note;
    absl::StatusOr<std::optional<CheckpointHeader>> common = LoadCommonCheckpoint(
        cluster, checkpoint, header, r.mutable_values(), r.mutable_counts(), note);
    if (!common.ok()) return common.status();
    if (!note.empty() && options.note) options.note(note);
    loaded = *common;
  }
  bool done = false;
  if (loaded) {
    header = *loaded;
    r.Restore(header.level, header.resolved);
    done = header.done;
    report.resumed = true;
    report.resumed_level = header.level;
  } else {
    progress.stage = BuildProgress::kInitialize;
    stage_start = Clock::now();
    if (absl::Status s = r.Initialize(); !s.ok()) return s;
  }
  // The first checkpoint comes once the build has run that long.
  Clock::time_point last_checkpoint = report.resumed ? Clock::now() : start;
  auto save = [&](bool final_level) -> absl::Status {
    // Every process checkpoints at the same levels: the first one decides.
    std::string go(1, Since(last_checkpoint) >= options.checkpoint_seconds ? '1' : '0');
    if (absl::Status s = cluster.Broadcast(go, 0); !s.ok()) return s;
    if (go[0] != '1') return absl::OkStatus();
    header.level = r.level();
    header.resolved = r.resolved();
    header.done = final_level;
    absl::Status s =
        cluster.Agree(SaveCheckpoint(checkpoint, header, r.values(), r.mutable_counts()));
    // Every process holds the new one: the one before is of no more use.
    if (s.ok()) DropPreviousCheckpoint(checkpoint);
    last_checkpoint = Clock::now();
    return s;
  };
  if (!report.resumed)
    if (absl::Status s = save(false); !s.ok()) return s;

  // The levels.
  progress.stage = BuildProgress::kLevels;
  uint64_t total_resolved[1] = {r.resolved()};
  if (absl::Status s = cluster.SumAll(total_resolved); !s.ok()) return s;
  resolved_before = total_resolved[0];
  // The time left, modelled: a level costs a scan of the positions plus a share
  // per position it propagates from, and toward the end the levels shrink
  // about geometrically (the ratio averaged over recent levels).
  double scan_seconds = -1, per_position = 0, ratio = 0.9;
  uint64_t previous_new = 0;
  while (!done) {
    progress.level = r.level();
    const Clock::time_point level_start = Clock::now();
    absl::StatusOr<bool> more = r.Step();
    if (!more.ok()) return more.status();
    resolved_before += r.last_new();
    const double level_seconds = Since(level_start);
    if (scan_seconds < 0 || level_seconds < scan_seconds) scan_seconds = level_seconds;
    if (previous_new > 0) {
      per_position = std::max(0.0, level_seconds - scan_seconds) / double(previous_new);
      const double r_now = std::clamp(double(r.last_new()) / double(previous_new), 0.5, 0.97);
      ratio = 0.7 * ratio + 0.3 * r_now;
    }
    if (r.last_new() > 0 && r.last_new() < previous_new) {
      const double levels_left = std::ceil(std::log(double(r.last_new())) / -std::log(ratio));
      estimate = scan_seconds * levels_left + per_position * double(r.last_new()) / (1 - ratio) +
                 1e-8 * double(cls.size());  // writing
    }
    previous_new = r.last_new();
    done = !*more;
    if (absl::Status s = save(done); !s.ok()) return s;
  }
  report.levels = r.level();

  // The table: every process writes its blocks, the first ingests them all.
  progress.stage = BuildProgress::kWrite;
  report_progress(0, 1);
  Tally tally = TallyOf(partition, rank, r.values(), **pool);
  if (absl::Status s = CombineTallies(cluster, tally); !s.ok()) return s;
  const int code_bytes = tally.max_code > 0xFF ? 2 : 1;
  const std::string blocks = BlockFilePath(dir, rank, processes);
  if (absl::Status s = cluster.Agree(WriteBlocks(blocks, partition, rank, r.values(), code_bytes));
      !s.ok())
    return s;
  absl::Status completed;
  if (rank == 0) {
    std::vector<std::string> files;
    std::error_code ec;
    for (int k = 0; k < processes; ++k)
      if (std::filesystem::exists(BlockFilePath(dir, k, processes), ec))
        files.push_back(BlockFilePath(dir, k, processes));
    completed = CompleteTable(*table, files, cls, tally);
    table.reset();
  }
  if (absl::Status s = cluster.Agree(completed); !s.ok()) return s;
  // The directory is every process's (see distributed.md): the first
  // process tidies it for all.
  if (rank == 0) RemoveRunFiles(dir);
  report.tally = tally;
  uint64_t sent[1] = {cluster.bytes_sent()};
  if (absl::Status s = cluster.SumAll(sent); !s.ok()) return s;
  report.bytes_exchanged = sent[0];
  report.seconds = Since(start);
  return report;
}

}  // namespace salta::egtb
