// Tables on disk: a small, generic layer over RocksDB shared by every kind of
// precomputed table (the scoring count's pattern databases, endgame tables).
//
// A table is one RocksDB directory holding
//   - a metadata record: kind, format version, geometry, rules, parameters;
//   - key/value data, written once (directly or in batches);
//   - a completion record, written by Finish(): the number of data
//     entries and a checksum over them;
//   - a seal (the file SEAL), written last by Finish(): each data file's
//     size and a hash of its end, checked before RocksDB reads the files.
// Open() refuses, with an error that says why and what to do, a directory
// that is not a table, a half-written table (no completion record), a table
// whose metadata differs from what the caller expects (named field by field),
// a table whose files no longer match its seal, or which lacks the seal it
// was created to get, and a table whose data no longer matches its count or
// checksum.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"

namespace rocksdb {
class DB;
class PinnableSlice;
}  // namespace rocksdb

namespace salta {

// What Open()'s messages for a damaged or half-written table end with: what
// a user does about it. A caller that rebuilds the table itself leaves it
// out (RepairAdviceRemoved).
inline constexpr absl::string_view kRepairAdvice = "; delete it and build it again";

// `message` without kRepairAdvice at its end.
inline absl::string_view RepairAdviceRemoved(absl::string_view message) {
  return absl::StripSuffix(message, kRepairAdvice);
}

struct TableMeta {
  std::string kind;        // what the table holds, e.g. "finish-pdb", "endgame"
  int version = 1;         // the format version of that kind
  std::string geometry;    // e.g. "10x10/3"
  std::string rules;       // the rules spec that matters to the table
  std::string parameters;  // anything else that identifies the contents

  bool operator==(const TableMeta&) const = default;
};

// Raw bytes of trivially copyable values, for typed keys and values.
template <typename T>
std::string EncodeValue(const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  return std::string(reinterpret_cast<const char*>(&value), sizeof(T));
}
template <typename T>
std::optional<T> DecodeValue(absl::string_view bytes) {
  static_assert(std::is_trivially_copyable_v<T>);
  if (bytes.size() != sizeof(T)) return std::nullopt;
  T value;
  std::memcpy(&value, bytes.data(), sizeof(T));
  return value;
}
// A 64-bit hash of bytes that is the same on every build and machine
// (unlike std::hash or absl::Hash), for checksums of what is stored.
uint64_t StableHash(absl::string_view bytes, uint64_t seed = 0);

// An unsigned key as 8 big-endian bytes, so that keys sort as numbers.
std::string EncodeKey(uint64_t key);
std::optional<uint64_t> DecodeKey(absl::string_view bytes);

// Makes the directory where tables go, and its parents, where missing: an
// error naming the directory that cannot be made, and why.
absl::Status MakeTableDirectory(const std::string& dir);

// A file of data entries made apart from any table -- by another thread or
// process -- and moved into one by Table::Ingest (RocksDB's bulk ingestion).
class TableFile {
 public:
  ~TableFile();
  static absl::StatusOr<std::unique_ptr<TableFile>> Create(const std::string& path);
  // Keys must come in increasing byte order.
  absl::Status Add(absl::string_view key, absl::string_view value);
  // Completes and syncs the file; with no entry added, no file is left.
  absl::Status Finish();
  uint64_t entries() const { return entries_; }

 private:
  TableFile() = default;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string path_;
  uint64_t entries_ = 0;
};

// A value read where it lies (Table::GetPinned): valid while it and its
// table live.
class PinnedValue {
 public:
  PinnedValue();
  ~PinnedValue();
  PinnedValue(PinnedValue&&) noexcept;
  PinnedValue& operator=(PinnedValue&&) noexcept;
  absl::string_view bytes() const;
  // Whether the bytes lie in the table's mapped file (a table stored
  // uncompressed and opened with OpenOptions::map_files), not in a copy.
  bool in_place() const;

 private:
  friend class Table;
  std::unique_ptr<rocksdb::PinnableSlice> slice_;
  bool in_place_ = false;
};

class Table {
 public:
  struct OpenOptions {
    // Read every entry on open and compare with the completion record.
    bool verify_checksum = true;
    // Map the table's files into memory, so that GetPinned reads the
    // values of an uncompressed table in place: no copy, and pages the
    // kernel already caches for the file are shared, not cleared afresh.
    // The data is then checked by the table's checksum alone (with
    // verify_checksum as it opens, else by RocksDB's block by block as
    // it is read): one reading of it, not two. Values of 2 MB or more
    // are marked for large pages as that check reads them.
    bool map_files = false;
  };
  struct CreateOptions {
    // Replace whatever table (complete or not) is at the directory.
    bool replace = false;
    // Store the values as they are, not compressed: larger on disk, but
    // read in place where the table is opened with map_files.
    bool uncompressed = false;
  };

  // Writes accumulated and applied at once by Table::Write.
  class Batch {
   public:
    void Put(absl::string_view key, absl::string_view value);
    template <typename K, typename V>
    void PutTyped(const K& key, const V& value) {
      Put(EncodeValue(key), EncodeValue(value));
    }
    size_t size() const { return entries_.size(); }

   private:
    friend class Table;
    std::vector<std::pair<std::string, std::string>> entries_;
  };

  ~Table();
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  // A new, writable table at dir with the given metadata. Fails if dir
  // already holds a table, unless options.replace.
  static absl::StatusOr<std::unique_ptr<Table>> Create(const std::string& dir,
                                                       const TableMeta& meta,
                                                       const CreateOptions& options);
  static absl::StatusOr<std::unique_ptr<Table>> Create(const std::string& dir,
                                                       const TableMeta& meta) {
    return Create(dir, meta, CreateOptions{});
  }
  // An incomplete table (created, never finished, or finished and not
  // sealed) whose metadata equals `expected`, writable again: a build
  // resumes here.
  static absl::StatusOr<std::unique_ptr<Table>> Resume(const std::string& dir,
                                                       const TableMeta& expected);
  // Whether dir holds a finished table (its completion record, and its seal
  // where it was created to get one), without checks.
  static absl::StatusOr<bool> IsComplete(const std::string& dir);
  // A complete table, read-only, whose metadata must equal `expected`.
  static absl::StatusOr<std::unique_ptr<Table>> Open(const std::string& dir,
                                                     const TableMeta& expected,
                                                     const OpenOptions& options);
  static absl::StatusOr<std::unique_ptr<Table>> Open(const std::string& dir,
                                                     const TableMeta& expected) {
    return Open(dir, expected, OpenOptions{});
  }
  // The metadata of the table at dir, complete or not, without checks.
  static absl::StatusOr<TableMeta> ReadMeta(const std::string& dir);
  // Whether dir holds only what RocksDB writes as it creates a database,
  // and no data: a creation that was killed, to be made again.
  static bool OnlyCreationFiles(const std::string& dir);

  const TableMeta& meta() const { return meta_; }
  const std::string& dir() const { return dir_; }
  bool writable() const { return writable_; }
  // Data entries of a complete table (0 while writing).
  uint64_t count() const { return count_; }

  absl::Status Put(absl::string_view key, absl::string_view value);
  absl::Status Write(const Batch& batch);
  // Moves the files (TableFile) into the table; their keys replace any the
  // table has.
  absl::Status Ingest(const std::vector<std::string>& paths);
  // The same, for files whose keys all lie in [begin, end), replacing what
  // the table holds there on disk too: where an earlier ingest left keys
  // there (a run killed after its ingest and before its end), its files
  // are dropped or compacted away, so that no second copy stays.
  absl::Status IngestReplacing(const std::vector<std::string>& paths, absl::string_view begin,
                               absl::string_view end);
  // The bytes of the table's files on disk.
  static uint64_t DiskBytes(const std::string& dir);
  // The value at key, nullopt if absent.
  absl::StatusOr<std::optional<std::string>> Get(absl::string_view key) const;
  // The same, read in place where it can be (PinnedValue).
  absl::StatusOr<std::optional<PinnedValue>> GetPinned(absl::string_view key) const;

  template <typename K, typename V>
  absl::Status PutTyped(const K& key, const V& value) {
    return Put(EncodeValue(key), EncodeValue(value));
  }
  // nullopt if absent; an error if present with the wrong size.
  template <typename K, typename V>
  absl::StatusOr<std::optional<V>> GetTyped(const K& key) const {
    absl::StatusOr<std::optional<std::string>> raw = Get(EncodeValue(key));
    if (!raw.ok()) return raw.status();
    if (!raw->has_value()) return std::optional<V>();
    std::optional<V> v = DecodeValue<V>(**raw);
    if (!v) return absl::DataLossError("table value has the wrong size for its type");
    return v;
  }

  // Visits every data entry in key order; stops at the first error the
  // visitor returns.
  absl::Status ForEach(const std::function<absl::Status(absl::string_view key,
                                                        absl::string_view value)>& visit) const;

  // Reads every entry of a complete table and compares them with the
  // completion record (what Open does with verify_checksum).
  absl::Status Verify() const;
  // ForEach and Verify in one reading of the table (for a table opened
  // without verify_checksum, read whole): where it fails, what was visited
  // is to be thrown away.
  absl::Status ForEachVerified(
      const std::function<absl::Status(absl::string_view key, absl::string_view value)>& visit)
      const;

  // The completion record's checksum over the entries: XXH3 (what Finish
  // writes), or in tables finished before StableHash, or FNV-1a a byte at
  // a time (each slower to check).
  enum class Checksum { kFnv1a, kStable, kXxh3 };
  static constexpr Checksum kChecksumNow = Checksum::kXxh3;
  Checksum checksum_kind() const { return checksum_kind_; }

  // Writes the completion record (count and checksum) last and syncs, then
  // closes the table, seals its files (each one's size and last bytes,
  // checked before any later open) and opens it again, read-only.
  absl::Status Finish();

 private:
  Table() = default;
  // Counts and checksums the entries, each visited first where `visit` is
  // given.
  absl::Status Scan(
      Checksum kind, uint64_t& count, uint64_t& checksum,
      const std::function<absl::Status(absl::string_view key, absl::string_view value)>* visit =
          nullptr) const;
  absl::Status CheckMeta(const TableMeta& expected) const;
  // NotFound where dir is no directory, or an empty one: no table, rather
  // than a damaged one.
  static absl::Status CheckHasTable(const std::string& dir);
  // Whether dir holds any file of a RocksDB database (CURRENT, IDENTITY, a
  // manifest, a table file): a table, maybe damaged, not a directory that
  // never was one.
  static bool HasDatabaseFiles(const std::string& dir);
  // The table at `dir`, of the expected kind, complete or not: its
  // completion record in `complete` (none where it has none yet).
  static absl::StatusOr<std::unique_ptr<Table>> OpenExisting(const std::string& dir,
                                                             const TableMeta& expected,
                                                             bool writable, bool map,
                                                             std::optional<std::string>& complete);

  std::unique_ptr<rocksdb::DB> db_;
  std::string dir_;
  TableMeta meta_;
  bool writable_ = false;
  bool mapped_ = false;    // opened with OpenOptions::map_files
  bool verified_ = false;  // its checksum checked as it opened
  uint64_t count_ = 0;
  uint64_t checksum_ = 0;  // the completion record's
  Checksum checksum_kind_ = kChecksumNow;
};

}  // namespace salta
