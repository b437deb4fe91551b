// An endgame table on disk: one RocksDB directory (salta/store.h) holding
//   - the metadata: kind "salta-egtb", format version, geometry, rules and
//     the class's pieces;
//   - the values in blocks of kBlockPositions consecutive positions, one
//     entry per block, each a checksum of its block followed by the block's
//     codes (salta/egtb/value.h), one or two bytes each; RocksDB compresses
//     them (zstd) and checks its own block checksums too;
//   - an "info" entry (JSON): the counts of wins, losses and draws, the
//     longest win and where, the checksum of the whole value array;
//   - the completion record that store.h writes last.
// The checksum of the whole value array is a sum over positions of a hash
// of (index, code), so it depends on the values alone, not on how, in what
// order or in how many processes they were computed.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "salta/egtb/partition.h"
#include "salta/egtb/table_class.h"
#include "salta/egtb/value.h"
#include "salta/parallel.h"
#include "salta/store.h"

namespace salta::egtb {

inline constexpr uint64_t kBlockPositions = 1 << 15;
inline constexpr int kFormatVersion = 1;

// What a table holds, summed over its positions.
struct Tally {
  uint64_t positions = 0, wins = 0, losses = 0, draws = 0;
  // The longest win in plies (-1: no win) and the least index that has it.
  int longest_win = -1;
  uint64_t longest_win_index = 0;
  uint64_t checksum = 0;  // sum of PositionHash over the positions
  Code max_code = 0;

  void Add(const Tally& o);
  bool operator==(const Tally&) const = default;
};
// One position's share of the whole-array checksum.
uint64_t PositionHash(uint64_t index, Code code);
// The tally of values[k] at index begin + k.
Tally TallyOf(uint64_t begin, std::span<const Code> values, ThreadPool& pool);
// The tally of process `rank`'s positions, values in its local order.
Tally TallyOf(const Partition& partition, int rank, std::span<const Code> values, ThreadPool& pool);
// The metadata a table of the class has.
TableMeta MetaOf(const TableClass& cls);

// Writes the blocks of values (indices begin .. begin + size - 1; begin a
// multiple of kBlockPositions) into a table file at path.
absl::Status WriteBlocks(const std::string& path, uint64_t begin, std::span<const Code> values,
                         int code_bytes);
// The same for process `rank`'s blocks, values in its local order.
absl::Status WriteBlocks(const std::string& path, const Partition& partition, int rank,
                         std::span<const Code> values, int code_bytes);

// Completes the table at dir (created with MetaOf, see build.h): ingests the
// block files, writes the info entry and the completion record.
absl::Status CompleteTable(Table& table, const std::vector<std::string>& block_files,
                           const TableClass& cls, const Tally& tally);

// A finished table, read-only.
class EndgameTable {
 public:
  // Opens and checks the table at dir: its kind and version, its
  // completion record and the checksum over every entry (store.h); an error
  // says what is wrong (not a table, a foreign one, incomplete, damaged).
  // With check_entries false the checksum over every entry is left to
  // CheckEntries (verify reads the blocks first to name a damaged one).
  static absl::StatusOr<std::unique_ptr<EndgameTable>> Open(const std::string& dir,
                                                            bool check_entries = true);
  // The completion record's count and checksum against every entry.
  absl::Status CheckEntries() const { return table_->Verify(); }
  // The class a table's metadata names, without opening it fully.
  static absl::StatusOr<TableClass> ClassOf(const TableMeta& meta);

  const TableClass& cls() const { return cls_; }
  const Tally& tally() const { return tally_; }
  int code_bytes() const { return code_bytes_; }
  const std::string& dir() const { return dir_; }
  uint64_t disk_bytes() const { return Table::DiskBytes(dir_); }

  // The code of a position index; blocks are decoded once and kept (up to a
  // budget), their checksums checked. Not thread-safe.
  absl::StatusOr<Code> Get(uint64_t index) const;
  // Every code in index order; the first damaged block is an error naming
  // its first index.
  absl::Status ReadAll(std::span<Code> out, ThreadPool& pool) const;

 private:
  EndgameTable(TableClass cls) : cls_(std::move(cls)) {}
  absl::Status DecodeBlock(uint64_t block, std::span<Code> out) const;

  TableClass cls_;
  std::unique_ptr<Table> table_;
  std::string dir_;
  Tally tally_;
  int code_bytes_ = 1;
  mutable std::vector<std::vector<Code>> cache_;
  mutable uint64_t cached_bytes_ = 0;
};

// The first index of a damaged block in a ReadAll or Get error, if any.
std::optional<uint64_t> DamagedIndex(const absl::Status& status);

}  // namespace salta::egtb
