#include "salta/store.h"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "huge_page_allocator.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table.h"
#include "rocksdb/write_batch.h"
#include "xxhash.h"

namespace salta {
namespace {

// Keys: metadata and the completion record under "m/", data under "d/".
constexpr absl::string_view kDataPrefix = "d/";
const std::string kKindKey = "m/kind";
const std::string kVersionKey = "m/version";
const std::string kGeometryKey = "m/geometry";
const std::string kRulesKey = "m/rules";
const std::string kParametersKey = "m/parameters";
const std::string kCompleteKey = "m/complete";

std::string DataKey(absl::string_view key) {
  return absl::StrCat(kDataPrefix, key);
}

// A damaged table (RocksDB's corruption) is data loss, which callers may
// rebuild; anything else (I/O errors, locks) an internal error.
absl::Status FromRocks(const rocksdb::Status& s, absl::string_view what) {
  if (s.ok()) return absl::OkStatus();
  if (s.IsCorruption()) return absl::DataLossError(absl::StrCat(what, ": ", s.ToString()));
  return absl::InternalError(absl::StrCat(what, ": ", s.ToString()));
}

// FNV-1a, 64 bits, over length-prefixed keys and values.
void MixFnv1a(uint64_t& h, absl::string_view bytes) {
  uint64_t n = bytes.size();
  for (int i = 0; i < 8; ++i) {
    h ^= (n >> (8 * i)) & 0xFF;
    h *= 0x100000001B3ull;
  }
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001B3ull;
  }
}

// The completion record's checksum: XXH3 (64 bits, xxHash's) chained over
// the keys and values, each seeded with the hash so far, named in the
// record ("<count> <hex> xxh3"). Tables finished before it carry StableHash
// chained the same way ("<count> <hex> stable"): a chain of multiplies,
// half as fast (a count's twelve pattern tables, 75 MB: 25 ms against 12),
// or FNV-1a over the same stream with each length ("<count> <hex>"), a
// byte at a time: both are still read.
constexpr absl::string_view kXxh3Sum = "xxh3";
constexpr absl::string_view kStableSum = "stable";
void Mix(Table::Checksum kind, uint64_t& h, absl::string_view bytes) {
  switch (kind) {
    case Table::Checksum::kXxh3:
      h = XXH3_64bits_withSeed(bytes.data(), bytes.size(), h);
      return;
    case Table::Checksum::kStable:
      h = StableHash(bytes, h);
      return;
    case Table::Checksum::kFnv1a:
      MixFnv1a(h, bytes);
      return;
  }
}

absl::StatusOr<std::string> GetRequired(rocksdb::DB& db, const std::string& key,
                                        const std::string& dir) {
  std::string value;
  rocksdb::Status s = db.Get(rocksdb::ReadOptions(), key, &value);
  if (s.IsNotFound())
    return absl::DataLossError(absl::StrCat("table ", dir, " has no \"", key.substr(2),
                                            "\" record: not a table, or damaged"));
  if (!s.ok()) return FromRocks(s, absl::StrCat("reading table ", dir));
  return value;
}

absl::StatusOr<TableMeta> ReadMetaFrom(rocksdb::DB& db, const std::string& dir) {
  TableMeta meta;
  absl::StatusOr<std::string> kind = GetRequired(db, kKindKey, dir);
  if (!kind.ok()) {
    // A database with no record at all: killed between its creation and
    // the first write of its metadata.
    std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(rocksdb::ReadOptions()));
    it->SeekToFirst();
    if (!it->Valid() && it->status().ok())
      return absl::FailedPreconditionError(absl::StrCat(
          "table ", dir,
          " is empty: its creation did not finish (a build killed as it began: run it again)"));
    return kind.status();
  }
  absl::StatusOr<std::string> version = GetRequired(db, kVersionKey, dir);
  if (!version.ok()) return version.status();
  absl::StatusOr<std::string> geometry = GetRequired(db, kGeometryKey, dir);
  if (!geometry.ok()) return geometry.status();
  absl::StatusOr<std::string> rules = GetRequired(db, kRulesKey, dir);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<std::string> parameters = GetRequired(db, kParametersKey, dir);
  if (!parameters.ok()) return parameters.status();
  meta.kind = *kind;
  if (!absl::SimpleAtoi(*version, &meta.version))
    return absl::DataLossError(absl::StrCat("table ", dir, " has a malformed version"));
  meta.geometry = *geometry;
  meta.rules = *rules;
  meta.parameters = *parameters;
  return meta;
}

// RocksDB's informational log, kept nowhere. Its file (LOG) in a table's
// directory told the user nothing that the statuses returned do not, and
// on a full disk Debian's build stopped on an assertion when it wrote to
// that file again after a write had failed (SIGABRT instead of "No space
// left on device").
class DiscardingLogger : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char*, va_list) override {}
};

// The options every table and table file shares: zstd compression, no
// silent recovery past a damaged log record, no informational log;
// `block_cache`: RocksDB keeps blocks it has read in a cache of its own.
rocksdb::Options BaseOptions(bool block_cache = true) {
  rocksdb::Options options;
  options.info_log = std::make_shared<DiscardingLogger>();
  // Debian's RocksDB is built with zstd.
  options.compression = rocksdb::kZSTD;
  options.bottommost_compression = rocksdb::kZSTD;
  options.compression_opts.level = 9;
  options.bottommost_compression_opts = options.compression_opts;
  options.bottommost_compression_opts.enabled = true;
  // A write torn by a crash at the log's end never completed and is dropped;
  // damage anywhere before it is an error.
  options.wal_recovery_mode = rocksdb::WALRecoveryMode::kTolerateCorruptedTailRecords;
  options.paranoid_checks = true;
  rocksdb::BlockBasedTableOptions table;
  table.block_size = 16 << 10;
  table.no_block_cache = !block_cache;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return options;
}

// The seal of a finished table (the file kSealName): for each of its data
// files, its size and a hash of its last kSealTail bytes. RocksDB reads a
// file's properties, near its end, as it opens the file, and checks their
// checksum only after parsing them (it allows for a sequence number written
// into them in place); Debian's build then stops on an assertion where they
// are damaged. The seal is checked first, so that such damage is reported.
constexpr char kSealName[] = "SEAL";
constexpr uint64_t kSealTail = 16 << 10;
// Written as a table is created: it gets a seal as it is finished. A
// finished table without one then lost it, or its build stopped as it
// sealed it (a full disk), and is told from a table finished before seals,
// which opens without the check.
const std::string kSealedKey = "m/sealed";

// The completion record of the table at dir, opened as db: nullopt where
// there is none, or where the table was to be sealed and has no seal
// (`unsealed` then true: finished, but its build stopped as it sealed it,
// or the seal was removed).
absl::StatusOr<std::optional<std::string>> CompletionOf(rocksdb::DB& db, const std::string& dir,
                                                        bool& unsealed) {
  unsealed = false;
  std::string record, value;
  rocksdb::Status s = db.Get(rocksdb::ReadOptions(), kCompleteKey, &record);
  if (s.IsNotFound()) return std::nullopt;
  if (!s.ok()) return FromRocks(s, absl::StrCat("reading table ", dir));
  s = db.Get(rocksdb::ReadOptions(), kSealedKey, &value);
  if (!s.ok() && !s.IsNotFound()) return FromRocks(s, absl::StrCat("reading table ", dir));
  if (s.ok()) {
    std::error_code ec;
    unsealed = !std::filesystem::exists(absl::StrCat(dir, "/", kSealName), ec);
    if (ec) return absl::InternalError(absl::StrCat("cannot read table ", dir, ": ", ec.message()));
    if (unsealed) return std::nullopt;
  }
  return record;
}

// "name size hash" a line for each data file, by name.
absl::StatusOr<std::vector<std::string>> SealLines(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    // RocksDB's names (NNNNNN.sst), not the block files a build ingests.
    const absl::string_view number = absl::string_view(name).substr(0, name.size() - 4);
    if (absl::EndsWith(name, ".sst") && !number.empty() &&
        std::all_of(number.begin(), number.end(), absl::ascii_isdigit))
      names.push_back(name);
  }
  if (ec) return absl::InternalError(absl::StrCat("cannot list table ", dir, ": ", ec.message()));
  std::sort(names.begin(), names.end());
  std::vector<std::string> lines;
  std::string tail;
  for (const std::string& name : names) {
    const std::string path = absl::StrCat(dir, "/", name);
    std::ifstream in(path, std::ios::binary);
    const uint64_t size = std::filesystem::file_size(path, ec);
    if (!in || ec) return absl::InternalError(absl::StrCat("cannot read ", path));
    tail.resize(std::min(size, kSealTail));
    in.seekg(std::streamoff(size - tail.size()));
    if (!in.read(tail.data(), std::streamsize(tail.size())))
      return absl::InternalError(absl::StrCat("cannot read ", path));
    lines.push_back(absl::StrCat(name, " ", size, " ", absl::Hex(StableHash(tail))));
  }
  return lines;
}

std::string SealText(const std::vector<std::string>& lines) {
  const std::string body = absl::StrJoin(lines, "\n");
  return absl::StrCat(body, "\nseal ", absl::Hex(StableHash(body)), "\n");
}

absl::Status WriteSeal(const std::string& dir) {
  absl::StatusOr<std::vector<std::string>> lines = SealLines(dir);
  if (!lines.ok()) return lines.status();
  const std::string path = absl::StrCat(dir, "/", kSealName), tmp = path + ".tmp";
  const std::string text = SealText(*lines);
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  bool ok = f != nullptr && std::fwrite(text.data(), 1, text.size(), f) == text.size() &&
            std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
  if (f != nullptr && std::fclose(f) != 0) ok = false;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0)
    return absl::InternalError(
        absl::StrCat("cannot write ", path, ": ", std::strerror(errno ? errno : EIO)));
  return absl::OkStatus();
}

// Where the table has a seal, its data files must match it.
absl::Status CheckSeal(const std::string& dir) {
  const std::string path = absl::StrCat(dir, "/", kSealName);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return absl::OkStatus();  // unfinished, or older
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) return absl::InternalError(absl::StrCat("cannot read ", path));
  std::vector<std::string> sealed = absl::StrSplit(text.str(), '\n');
  if (sealed.size() < 2 || !sealed.back().empty())
    return absl::DataLossError(
        absl::StrCat("table ", dir, " is damaged: its seal ", path, " is cut short"));
  sealed.pop_back();  // the empty string after the last line
  sealed.pop_back();  // "seal HASH"
  if (SealText(sealed) != text.str())
    return absl::DataLossError(
        absl::StrCat("table ", dir, " is damaged: its seal ", path, " does not match itself"));
  absl::StatusOr<std::vector<std::string>> now = SealLines(dir);
  if (!now.ok()) return now.status();
  auto by_name = [](const std::vector<std::string>& lines) {
    std::map<std::string, std::string> m;
    for (const std::string& line : lines)
      if (!line.empty()) m[line.substr(0, line.find(' '))] = line;
    return m;
  };
  const std::map<std::string, std::string> want = by_name(sealed), have = by_name(*now);
  auto damaged = [&](const std::string& name, absl::string_view how) {
    return absl::DataLossError(
        absl::StrCat("table ", dir, " is damaged: its file ", name, " ", how));
  };
  for (const auto& [name, line] : want) {
    const auto it = have.find(name);
    if (it == have.end()) return damaged(name, "is missing");
    if (it->second != line)
      return damaged(name, "does not match its seal (the size or the bytes at its end differ)");
  }
  for (const auto& [name, line] : have)
    if (!want.contains(name)) return damaged(name, "is not in its seal");
  return absl::OkStatus();
}

// How a table's database is opened: `compress` applies to what it writes,
// `map` to what it reads (Table::OpenOptions::map_files).
struct DbMode {
  bool writable = false;
  bool create = false;
  bool compress = true;
  bool map = false;
};

absl::StatusOr<std::unique_ptr<rocksdb::DB>> OpenDb(const std::string& dir, const DbMode& mode) {
  const bool writable = mode.writable, create = mode.create;
  if (!create)
    if (absl::Status s = CheckSeal(dir); !s.ok()) return s;
  // A mapped table's blocks are in the kernel's page cache.
  rocksdb::Options options = BaseOptions(/*block_cache=*/!mode.map);
  if (!mode.compress) {
    options.compression = rocksdb::kNoCompression;
    options.bottommost_compression = rocksdb::kNoCompression;
  }
  if (mode.map) {
    // Read-only with every file open for the database's life (RocksDB's
    // default max_open_files), so its tables are immortal and a value
    // read from a mapped, uncompressed block is pinned there, not copied.
    options.allow_mmap_reads = true;
    options.max_open_files = -1;
  }
  options.create_if_missing = create;
  options.error_if_exists = create;
  // A table has a few files: opening them on one thread is faster than
  // starting the default 16 (a one-shot count opens up to 17 pattern
  // tables: 40 ms with them, 15 ms without).
  options.max_file_opening_threads = 1;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s;
  if (writable) {
    s = rocksdb::DB::Open(options, dir, &raw);
  } else if (mode.map) {
    // Named column families: RocksDB opens the table once, without first
    // trying it as a fully compacted database (a table of two files is
    // not one, and that try cost as much as the open).
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    s = rocksdb::DB::OpenForReadOnly(
        rocksdb::DBOptions(options), dir,
        {rocksdb::ColumnFamilyDescriptor(rocksdb::kDefaultColumnFamilyName,
                                         rocksdb::ColumnFamilyOptions(options))},
        &handles, &raw);
    for (rocksdb::ColumnFamilyHandle* handle : handles) delete handle;  // (the default stays)
  } else {
    s = rocksdb::DB::OpenForReadOnly(options, dir, &raw);
  }
  // A file the table names (CURRENT, a MANIFEST, a data file) gone from a
  // directory that is there: the table is damaged, not unreadable.
  std::error_code ec;
  if (s.IsPathNotFound() && !create) {
    if (std::filesystem::is_directory(dir, ec))
      return absl::DataLossError(
          absl::StrCat("table ", dir, " is damaged: a file of it is missing: ", s.ToString()));
    // Gone as it was opened (moved by another process): as if never there.
    if (!std::filesystem::exists(dir, ec))
      return absl::NotFoundError(absl::StrCat("no table at ", dir));
  }
  // RocksDB's lock on the directory: a writer holds it.
  if (writable && s.IsIOError() && absl::StrContains(s.ToString(), "lock file"))
    return absl::FailedPreconditionError(absl::StrCat(
        "table ", dir, " is in use: another process is writing it (", s.ToString(), ")"));
  if (!s.ok()) return FromRocks(s, absl::StrCat("cannot open table ", dir));
  return std::unique_ptr<rocksdb::DB>(raw);
}

}  // namespace

uint64_t StableHash(absl::string_view bytes, uint64_t seed) {
  // Eight bytes at a time, each word multiplied in and folded (a
  // multiply-rotate mix); the tail and the length go in last.
  constexpr uint64_t k1 = 0x9E3779B97F4A7C15ull, k2 = 0xC2B2AE3D27D4EB4Full;
  uint64_t h = seed ^ (uint64_t(bytes.size()) * k1);
  size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, bytes.data() + i, 8);
    if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
    h = std::rotl(h ^ (w * k2), 29) * k1;
  }
  uint64_t tail = 0;
  for (size_t j = 0; i + j < bytes.size(); ++j) tail |= uint64_t(uint8_t(bytes[i + j])) << (8 * j);
  h = std::rotl(h ^ (tail * k2), 29) * k1;
  h ^= h >> 32;
  h *= k2;
  return h ^ (h >> 29);
}

std::string EncodeKey(uint64_t key) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = char((key >> (8 * (7 - i))) & 0xFF);
  return out;
}

std::optional<uint64_t> DecodeKey(absl::string_view bytes) {
  if (bytes.size() != 8) return std::nullopt;
  uint64_t key = 0;
  for (unsigned char c : bytes) key = (key << 8) | c;
  return key;
}

struct TableFile::Impl {
  rocksdb::Options options = BaseOptions();
  rocksdb::SstFileWriter writer{rocksdb::EnvOptions(), options};
  bool open = false;
};

TableFile::~TableFile() {
  if (impl_ && impl_->open && entries_ == 0) {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
}

absl::StatusOr<std::unique_ptr<TableFile>> TableFile::Create(const std::string& path) {
  std::unique_ptr<TableFile> file(new TableFile());
  file->impl_ = std::make_unique<Impl>();
  file->path_ = path;
  // A file already there may be a hard link into a table (an ingestion that
  // a kill cut short before it took the file away): writing it in place
  // would change that table's file under it, so a new file takes its name.
  std::error_code ec;
  if (std::filesystem::remove(path, ec); ec)
    return absl::InternalError(absl::StrCat("cannot replace ", path, ": ", ec.message()));
  if (absl::Status s = FromRocks(file->impl_->writer.Open(path),
                                 absl::StrCat("cannot create table file ", path));
      !s.ok())
    return s;
  file->impl_->open = true;
  return file;
}

absl::Status TableFile::Add(absl::string_view key, absl::string_view value) {
  ++entries_;
  return FromRocks(impl_->writer.Put(DataKey(key), rocksdb::Slice(value.data(), value.size())),
                   absl::StrCat("writing table file ", path_));
}

absl::Status TableFile::Finish() {
  if (entries_ == 0) return absl::OkStatus();
  impl_->open = false;
  return FromRocks(impl_->writer.Finish(), absl::StrCat("finishing table file ", path_));
}

void Table::Batch::Put(absl::string_view key, absl::string_view value) {
  entries_.emplace_back(std::string(key), std::string(value));
}

Table::~Table() {
  if (db_) db_->Close().PermitUncheckedError();
}

absl::Status MakeTableDirectory(const std::string& dir) {
  std::error_code ec;
  if (!dir.empty() && !std::filesystem::create_directories(dir, ec) && ec)
    return absl::InternalError(absl::StrCat("cannot create directory ", dir, ": ", ec.message()));
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Table>> Table::Create(const std::string& dir, const TableMeta& meta,
                                                     const CreateOptions& options) {
  std::error_code ec;
  const bool exists = std::filesystem::exists(dir, ec);
  if (exists && !std::filesystem::is_directory(dir, ec))
    return absl::FailedPreconditionError(
        absl::StrCat("cannot create table ", dir, ": it exists and is not a directory"));
  if (exists && !std::filesystem::is_empty(dir, ec)) {
    if (!options.replace)
      return absl::AlreadyExistsError(
          absl::StrCat("cannot create table ", dir, ": the directory exists and is not empty"));
    rocksdb::Status s = rocksdb::DestroyDB(dir, rocksdb::Options());
    if (!s.ok()) return FromRocks(s, absl::StrCat("cannot replace table ", dir));
    std::filesystem::remove_all(dir, ec);
    if (ec)
      return absl::InternalError(absl::StrCat("cannot replace table ", dir, ": ", ec.message()));
  }
  if (absl::Status s = MakeTableDirectory(std::filesystem::path(dir).parent_path().string());
      !s.ok())
    return s;
  absl::StatusOr<std::unique_ptr<rocksdb::DB>> db =
      OpenDb(dir, DbMode{.writable = true, .create = true, .compress = !options.uncompressed});
  if (!db.ok()) return db.status();
  std::unique_ptr<Table> table(new Table());
  table->db_ = std::move(*db);
  table->dir_ = dir;
  table->meta_ = meta;
  table->writable_ = true;
  rocksdb::WriteBatch batch;
  batch.Put(kKindKey, meta.kind);
  batch.Put(kVersionKey, absl::StrCat(meta.version));
  batch.Put(kGeometryKey, meta.geometry);
  batch.Put(kRulesKey, meta.rules);
  batch.Put(kParametersKey, meta.parameters);
  batch.Put(kSealedKey, kSealName);
  if (absl::Status s = FromRocks(table->db_->Write(rocksdb::WriteOptions(), &batch),
                                 absl::StrCat("writing table ", dir));
      !s.ok())
    return s;
  return table;
}

absl::Status Table::CheckHasTable(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    return absl::NotFoundError(absl::StrCat(
        "no table at ", dir, std::filesystem::exists(dir, ec) ? " (it is not a directory)" : ""));
  // An empty directory holds no table either (not a damaged one).
  if (std::filesystem::is_empty(dir, ec) && !ec)
    return absl::NotFoundError(absl::StrCat("no table at ", dir, " (an empty directory)"));
  return absl::OkStatus();
}

bool Table::OnlyCreationFiles(const std::string& dir) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    const bool bookkeeping =
        name == "LOCK" || name == "IDENTITY" || name == "CURRENT" || name.rfind("LOG", 0) == 0 ||
        name.rfind("MANIFEST-", 0) == 0 || name.rfind("OPTIONS-", 0) == 0 ||
        // the temporary of CURRENT, written before its rename
        (name.size() > 6 && name.substr(name.size() - 6) == ".dbtmp") ||
        (name.size() > 4 && name.substr(name.size() - 4) == ".log" && entry.file_size(ec) == 0);
    if (!bookkeeping) return false;
  }
  return !ec;
}

bool Table::HasDatabaseFiles(const std::string& dir) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name == "CURRENT" || name == "IDENTITY" || name.rfind("MANIFEST-", 0) == 0 ||
        (name.size() > 4 && name.substr(name.size() - 4) == ".sst"))
      return true;
  }
  return false;
}

absl::StatusOr<TableMeta> Table::ReadMeta(const std::string& dir) {
  if (absl::Status s = CheckHasTable(dir); !s.ok()) return s;
  std::error_code ec;
  // Killed before RocksDB wrote CURRENT: not a database yet, nor a damaged one.
  if (!std::filesystem::exists(dir + "/CURRENT", ec) && OnlyCreationFiles(dir))
    return absl::FailedPreconditionError(absl::StrCat(
        "table ", dir,
        " is empty: its creation did not finish (a build killed as it began: run it again)"));
  // Other files alone: not a table (a table that lost a file of its own is
  // damaged, which opening it says).
  if (!HasDatabaseFiles(dir))
    return absl::NotFoundError(absl::StrCat(dir, " holds no table (no RocksDB database)"));
  absl::StatusOr<std::unique_ptr<rocksdb::DB>> db = OpenDb(dir, DbMode{});
  if (!db.ok()) return db.status();
  return ReadMetaFrom(**db, dir);
}

absl::StatusOr<std::unique_ptr<Table>> Table::OpenExisting(const std::string& dir,
                                                           const TableMeta& expected, bool writable,
                                                           bool map,
                                                           std::optional<std::string>& complete) {
  if (absl::Status s = CheckHasTable(dir); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<rocksdb::DB>> db =
      OpenDb(dir, DbMode{.writable = writable, .map = map});
  if (!db.ok()) return db.status();
  absl::StatusOr<TableMeta> meta = ReadMetaFrom(**db, dir);
  if (!meta.ok()) return meta.status();
  std::unique_ptr<Table> table(new Table());
  table->db_ = std::move(*db);
  table->dir_ = dir;
  table->meta_ = *meta;
  table->mapped_ = map;
  if (absl::Status s = table->CheckMeta(expected); !s.ok()) return s;
  bool unsealed = false;
  absl::StatusOr<std::optional<std::string>> record = CompletionOf(*table->db_, dir, unsealed);
  if (!record.ok()) return record.status();
  // (Writable, unsealed: a resumed build finishes it again.)
  if (unsealed && !writable)
    return absl::DataLossError(absl::StrCat(
        "table ", dir, " is damaged: it is finished but has no seal (the file ", kSealName,
        "): its build stopped as it sealed it, or the file was removed", kRepairAdvice));
  complete = std::move(*record);
  return table;
}

absl::StatusOr<std::unique_ptr<Table>> Table::Open(const std::string& dir,
                                                   const TableMeta& expected,
                                                   const OpenOptions& options) {
  std::optional<std::string> complete;
  absl::StatusOr<std::unique_ptr<Table>> opened =
      OpenExisting(dir, expected, false, options.map_files, complete);
  if (!opened.ok()) return opened.status();
  std::unique_ptr<Table> table = std::move(*opened);
  if (!complete)
    return absl::FailedPreconditionError(absl::StrCat(
        "table ", dir, " is incomplete (half-written: no completion record)", kRepairAdvice));
  std::vector<absl::string_view> parts = absl::StrSplit(*complete, ' ');
  uint64_t want_count = 0, want_sum = 0;
  Checksum kind = Checksum::kFnv1a;
  if (parts.size() == 3 && parts[2] == kXxh3Sum) kind = Checksum::kXxh3;
  if (parts.size() == 3 && parts[2] == kStableSum) kind = Checksum::kStable;
  if ((parts.size() != 2 && kind == Checksum::kFnv1a) || !absl::SimpleAtoi(parts[0], &want_count) ||
      !absl::SimpleHexAtoi(parts[1], &want_sum))
    return absl::DataLossError(absl::StrCat("table ", dir, " has a malformed completion record"));
  table->count_ = want_count;
  table->checksum_ = want_sum;
  table->checksum_kind_ = kind;
  if (options.verify_checksum) {
    if (absl::Status st = table->Verify(); !st.ok()) return st;
    table->verified_ = true;
  }
  return table;
}

absl::Status Table::Verify() const {
  return ForEachVerified(nullptr);
}

absl::Status Table::ForEachVerified(
    const std::function<absl::Status(absl::string_view key, absl::string_view value)>& visit)
    const {
  uint64_t count = 0, sum = 0;
  if (absl::Status st = Scan(checksum_kind_, count, sum, visit ? &visit : nullptr); !st.ok())
    return st;
  if (count != count_ || sum != checksum_)
    return absl::DataLossError(
        absl::StrCat("table ", dir_, " is damaged: it holds ", count, " entries with checksum ",
                     absl::Hex(sum), ", its completion record says ", count_, " with checksum ",
                     absl::Hex(checksum_), kRepairAdvice));
  return absl::OkStatus();
}

absl::Status Table::CheckMeta(const TableMeta& expected) const {
  auto mismatch = [&](absl::string_view field, absl::string_view have, absl::string_view want) {
    return absl::FailedPreconditionError(absl::StrCat("table ", dir_, " does not match: its ",
                                                      field, " is \"", have, "\", expected \"",
                                                      want, "\""));
  };
  if (meta_.kind != expected.kind) return mismatch("kind", meta_.kind, expected.kind);
  if (meta_.version != expected.version)
    return mismatch("version", absl::StrCat(meta_.version), absl::StrCat(expected.version));
  if (meta_.geometry != expected.geometry)
    return mismatch("geometry", meta_.geometry, expected.geometry);
  if (meta_.rules != expected.rules) return mismatch("rules", meta_.rules, expected.rules);
  if (meta_.parameters != expected.parameters)
    return mismatch("parameters", meta_.parameters, expected.parameters);
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Table>> Table::Resume(const std::string& dir,
                                                     const TableMeta& expected) {
  std::optional<std::string> complete;
  absl::StatusOr<std::unique_ptr<Table>> opened =
      OpenExisting(dir, expected, true, false, complete);
  if (!opened.ok()) return opened.status();
  std::unique_ptr<Table> table = std::move(*opened);
  if (complete)
    return absl::FailedPreconditionError(absl::StrCat("table ", dir, " is already complete"));
  table->writable_ = true;
  return table;
}

absl::StatusOr<bool> Table::IsComplete(const std::string& dir) {
  absl::StatusOr<std::unique_ptr<rocksdb::DB>> db = OpenDb(dir, DbMode{});
  if (!db.ok()) return db.status();
  bool unsealed = false;
  absl::StatusOr<std::optional<std::string>> record = CompletionOf(**db, dir, unsealed);
  if (!record.ok()) return record.status();
  return record->has_value();
}

absl::Status Table::Ingest(const std::vector<std::string>& paths) {
  if (!writable_)
    return absl::FailedPreconditionError(absl::StrCat("table ", dir_, " is read-only"));
  if (paths.empty()) return absl::OkStatus();
  rocksdb::IngestExternalFileOptions options;
  options.move_files = true;
  // The sequence number goes into the MANIFEST only. Written into the file
  // (this RocksDB's default), it would change the file being ingested in
  // place, which is also the block file a killed run leaves for the next to
  // ingest again: that run then reads a sequence number the MANIFEST does
  // not hold, and the table no longer opens.
  options.write_global_seqno = false;
  // One file at a time: files whose key ranges interleave (the blocks of the
  // processes of a distributed build) each go in above the others.
  for (const std::string& path : paths)
    if (absl::Status s = FromRocks(db_->IngestExternalFile({path}, options),
                                   absl::StrCat("adding ", path, " to table ", dir_));
        !s.ok())
      return s;
  return absl::OkStatus();
}

absl::Status Table::IngestReplacing(const std::vector<std::string>& paths, absl::string_view begin,
                                    absl::string_view end) {
  if (!writable_)
    return absl::FailedPreconditionError(absl::StrCat("table ", dir_, " is read-only"));
  const std::string first = DataKey(begin), past = DataKey(end);
  const rocksdb::Slice from(first), to(past);
  auto holds_keys = [&]() -> absl::StatusOr<bool> {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
    it->Seek(from);
    const bool any = it->Valid() && it->key().compare(to) < 0;
    if (absl::Status s = FromRocks(it->status(), absl::StrCat("reading table ", dir_)); !s.ok())
      return s;
    return any;
  };
  // The usual case, a table written once, reads one key here and no more.
  absl::StatusOr<bool> held = holds_keys();
  if (!held.ok()) return held.status();
  if (*held) {
    // Whole files of the range go at once, but not those of level 0.
    if (absl::Status s =
            FromRocks(rocksdb::DeleteFilesInRange(db_.get(), db_->DefaultColumnFamily(), &from, &to,
                                                  /*include_end=*/false),
                      absl::StrCat("dropping old files of table ", dir_));
        !s.ok())
      return s;
    held = holds_keys();
    if (!held.ok()) return held.status();
  }
  if (absl::Status s = Ingest(paths); !s.ok()) return s;
  if (!*held) return absl::OkStatus();
  // What is left of the old keys is merged away under the new ones.
  rocksdb::CompactRangeOptions options;
  options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForceOptimized;
  return FromRocks(db_->CompactRange(options, &from, &to), absl::StrCat("compacting table ", dir_));
}

uint64_t Table::DiskBytes(const std::string& dir) {
  uint64_t bytes = 0;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    // The table's own files, not logs of past runs or files beside it.
    if (!entry.is_regular_file(ec) || absl::StartsWith(name, "LOG")) continue;
    if (absl::EndsWith(name, ".sst") || absl::StartsWith(name, "MANIFEST") ||
        absl::EndsWith(name, ".log") || name == "CURRENT" || absl::StartsWith(name, "OPTIONS"))
      bytes += entry.file_size(ec);
  }
  return bytes;
}

absl::Status Table::Scan(Checksum kind, uint64_t& count, uint64_t& checksum,
                         const std::function<absl::Status(absl::string_view key,
                                                          absl::string_view value)>* visit) const {
  count = 0;
  checksum = 0xCBF29CE484222325ull;
  // The checksum computed here checks a mapped table's data blocks; RocksDB's
  // own check of each would read them a second time.
  rocksdb::ReadOptions read;
  read.verify_checksums = !mapped_;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(read));
  for (it->Seek(std::string(kDataPrefix)); it->Valid(); it->Next()) {
    absl::string_view key(it->key().data(), it->key().size());
    if (!absl::StartsWith(key, kDataPrefix)) break;
    const absl::string_view value(it->value().data(), it->value().size());
    // A mapped value goes onto huge pages as it is first read: reading a
    // page the first time in a process can cost more than the reading, the
    // less the larger the kernel's pages of the file (twelve pattern tables
    // read from disk, 16 to 18 ms instead of 65 to 76 ms:
    // docs/scoring-measurements.md).
    if (mapped_) AdviseHugePages(value.data(), value.size());
    if (visit)
      if (absl::Status s = (*visit)(key.substr(kDataPrefix.size()), value); !s.ok()) return s;
    Mix(kind, checksum, key);
    Mix(kind, checksum, value);
    ++count;
  }
  return FromRocks(it->status(), absl::StrCat("reading table ", dir_));
}

absl::Status Table::Put(absl::string_view key, absl::string_view value) {
  if (!writable_)
    return absl::FailedPreconditionError(absl::StrCat("table ", dir_, " is read-only"));
  return FromRocks(
      db_->Put(rocksdb::WriteOptions(), DataKey(key), rocksdb::Slice(value.data(), value.size())),
      absl::StrCat("writing table ", dir_));
}

absl::Status Table::Write(const Batch& batch) {
  if (!writable_)
    return absl::FailedPreconditionError(absl::StrCat("table ", dir_, " is read-only"));
  rocksdb::WriteBatch wb;
  for (const auto& [k, v] : batch.entries_) wb.Put(DataKey(k), v);
  return FromRocks(db_->Write(rocksdb::WriteOptions(), &wb), absl::StrCat("writing table ", dir_));
}

absl::StatusOr<std::optional<std::string>> Table::Get(absl::string_view key) const {
  std::string value;
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), DataKey(key), &value);
  if (s.IsNotFound()) return std::optional<std::string>();
  if (!s.ok()) return FromRocks(s, absl::StrCat("reading table ", dir_));
  return std::optional<std::string>(std::move(value));
}

absl::StatusOr<std::optional<PinnedValue>> Table::GetPinned(absl::string_view key) const {
  PinnedValue value;
  value.slice_ = std::make_unique<rocksdb::PinnableSlice>();
  // A mapped table whose checksum was checked as it opened is not checked
  // again block by block.
  rocksdb::ReadOptions read;
  read.verify_checksums = !(mapped_ && verified_);
  rocksdb::Status s = db_->Get(read, db_->DefaultColumnFamily(), DataKey(key), value.slice_.get());
  if (s.IsNotFound()) return std::optional<PinnedValue>();
  if (!s.ok()) return FromRocks(s, absl::StrCat("reading table ", dir_));
  // Pinned, not copied: in a block RocksDB keeps (its block cache), which
  // for a mapped table without a block cache is the file itself.
  value.in_place_ = mapped_ && value.slice_->IsPinned();
  return std::optional<PinnedValue>(std::move(value));
}

PinnedValue::PinnedValue() = default;
PinnedValue::~PinnedValue() = default;
PinnedValue::PinnedValue(PinnedValue&&) noexcept = default;
PinnedValue& PinnedValue::operator=(PinnedValue&&) noexcept = default;

absl::string_view PinnedValue::bytes() const {
  if (!slice_) return {};
  return absl::string_view(slice_->data(), slice_->size());
}

bool PinnedValue::in_place() const {
  return in_place_;
}

absl::Status Table::ForEach(
    const std::function<absl::Status(absl::string_view key, absl::string_view value)>& visit)
    const {
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek(std::string(kDataPrefix)); it->Valid(); it->Next()) {
    absl::string_view key(it->key().data(), it->key().size());
    if (!absl::StartsWith(key, kDataPrefix)) break;
    if (absl::Status s = visit(key.substr(kDataPrefix.size()),
                               absl::string_view(it->value().data(), it->value().size()));
        !s.ok())
      return s;
  }
  return FromRocks(it->status(), absl::StrCat("reading table ", dir_));
}

absl::Status Table::Finish() {
  if (!writable_)
    return absl::FailedPreconditionError(absl::StrCat("table ", dir_, " is read-only"));
  uint64_t count = 0, sum = 0;
  if (absl::Status s = Scan(kChecksumNow, count, sum); !s.ok()) return s;
  rocksdb::FlushOptions flush;
  flush.wait = true;
  if (absl::Status s = FromRocks(db_->Flush(flush), absl::StrCat("flushing table ", dir_)); !s.ok())
    return s;
  rocksdb::WriteOptions sync;
  sync.sync = true;
  if (absl::Status s = FromRocks(
          db_->Put(sync, kCompleteKey, absl::StrCat(count, " ", absl::Hex(sum), " ", kXxh3Sum)),
          absl::StrCat("finishing table ", dir_));
      !s.ok())
    return s;
  if (absl::Status s = FromRocks(db_->Flush(flush), absl::StrCat("flushing table ", dir_)); !s.ok())
    return s;
  count_ = count;
  checksum_ = sum;
  checksum_kind_ = kChecksumNow;
  writable_ = false;
  // Closed, its files stay as they are: sealed, then read from there on.
  if (absl::Status s = FromRocks(db_->Close(), absl::StrCat("closing table ", dir_)); !s.ok())
    return s;
  db_.reset();
  if (absl::Status s = WriteSeal(dir_); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<rocksdb::DB>> db = OpenDb(dir_, DbMode{});
  if (!db.ok()) return db.status();
  db_ = std::move(*db);
  return absl::OkStatus();
}

}  // namespace salta
