#include "salta/store.h"

#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/write_batch.h"

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

// FNV-1a, 64 bits, over length-prefixed keys and values: stable across
// builds and machines, unlike std::hash or absl::Hash.
void Mix(uint64_t& h, absl::string_view bytes) {
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
  if (!kind.ok()) return kind.status();
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

absl::StatusOr<std::unique_ptr<rocksdb::DB>> OpenDb(const std::string& dir, bool writable,
                                                    bool create) {
  rocksdb::Options options;
  options.create_if_missing = create;
  options.error_if_exists = create;
  options.info_log_level = rocksdb::InfoLogLevel::ERROR_LEVEL;
  options.keep_log_file_num = 1;
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = writable ? rocksdb::DB::Open(options, dir, &raw)
                               : rocksdb::DB::OpenForReadOnly(options, dir, &raw);
  if (!s.ok()) return FromRocks(s, absl::StrCat("cannot open table ", dir));
  return std::unique_ptr<rocksdb::DB>(raw);
}

}  // namespace

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

void Table::Batch::Put(absl::string_view key, absl::string_view value) {
  entries_.emplace_back(std::string(key), std::string(value));
}

Table::~Table() {
  if (db_) db_->Close().PermitUncheckedError();
}

absl::StatusOr<std::unique_ptr<Table>> Table::Create(const std::string& dir, const TableMeta& meta,
                                                     const CreateOptions& options) {
  std::error_code ec;
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_empty(dir, ec)) {
    if (!options.replace)
      return absl::AlreadyExistsError(
          absl::StrCat("cannot create table ", dir, ": the directory exists and is not empty"));
    rocksdb::Status s = rocksdb::DestroyDB(dir, rocksdb::Options());
    if (!s.ok()) return FromRocks(s, absl::StrCat("cannot replace table ", dir));
    std::filesystem::remove_all(dir, ec);
    if (ec)
      return absl::InternalError(absl::StrCat("cannot replace table ", dir, ": ", ec.message()));
  }
  if (!dir.empty()) {
    std::filesystem::path parent = std::filesystem::path(dir).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  }
  absl::StatusOr<std::unique_ptr<rocksdb::DB>> db = OpenDb(dir, true, true);
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
  if (absl::Status s = FromRocks(table->db_->Write(rocksdb::WriteOptions(), &batch),
                                 absl::StrCat("writing table ", dir));
      !s.ok())
    return s;
  return table;
}

absl::StatusOr<TableMeta> Table::ReadMeta(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    return absl::NotFoundError(absl::StrCat("no table at ", dir));
  absl::StatusOr<std::unique_ptr<rocksdb::DB>> db = OpenDb(dir, false, false);
  if (!db.ok()) return db.status();
  return ReadMetaFrom(**db, dir);
}

absl::StatusOr<std::unique_ptr<Table>> Table::Open(const std::string& dir,
                                                   const TableMeta& expected,
                                                   const OpenOptions& options) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    return absl::NotFoundError(absl::StrCat("no table at ", dir));
  absl::StatusOr<std::unique_ptr<rocksdb::DB>> db = OpenDb(dir, false, false);
  if (!db.ok()) return db.status();
  absl::StatusOr<TableMeta> meta = ReadMetaFrom(**db, dir);
  if (!meta.ok()) return meta.status();
  auto mismatch = [&](absl::string_view field, absl::string_view have, absl::string_view want) {
    return absl::FailedPreconditionError(absl::StrCat("table ", dir, " does not match: its ", field,
                                                      " is \"", have, "\", expected \"", want,
                                                      "\""));
  };
  if (meta->kind != expected.kind) return mismatch("kind", meta->kind, expected.kind);
  if (meta->version != expected.version)
    return mismatch("version", absl::StrCat(meta->version), absl::StrCat(expected.version));
  if (meta->geometry != expected.geometry)
    return mismatch("geometry", meta->geometry, expected.geometry);
  if (meta->rules != expected.rules) return mismatch("rules", meta->rules, expected.rules);
  if (meta->parameters != expected.parameters)
    return mismatch("parameters", meta->parameters, expected.parameters);

  std::string complete;
  rocksdb::Status s = (*db)->Get(rocksdb::ReadOptions(), kCompleteKey, &complete);
  if (s.IsNotFound())
    return absl::FailedPreconditionError(
        absl::StrCat("table ", dir,
                     " is incomplete (half-written: no completion record); delete it and "
                     "build it again"));
  if (!s.ok()) return FromRocks(s, absl::StrCat("reading table ", dir));
  std::vector<absl::string_view> parts = absl::StrSplit(complete, ' ');
  uint64_t want_count = 0, want_sum = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &want_count) ||
      !absl::SimpleHexAtoi(parts[1], &want_sum))
    return absl::DataLossError(absl::StrCat("table ", dir, " has a malformed completion record"));

  std::unique_ptr<Table> table(new Table());
  table->db_ = std::move(*db);
  table->dir_ = dir;
  table->meta_ = *meta;
  table->count_ = want_count;
  if (options.verify_checksum) {
    uint64_t count = 0, sum = 0;
    if (absl::Status st = table->Scan(count, sum); !st.ok()) return st;
    if (count != want_count || sum != want_sum)
      return absl::DataLossError(
          absl::StrCat("table ", dir, " is damaged: it holds ", count, " entries with checksum ",
                       absl::Hex(sum), ", its completion record says ", want_count,
                       " with checksum ", absl::Hex(want_sum), "; delete it and build it again"));
  }
  return table;
}

absl::Status Table::Scan(uint64_t& count, uint64_t& checksum) const {
  count = 0;
  checksum = 0xCBF29CE484222325ull;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek(std::string(kDataPrefix)); it->Valid(); it->Next()) {
    absl::string_view key(it->key().data(), it->key().size());
    if (!absl::StartsWith(key, kDataPrefix)) break;
    Mix(checksum, key);
    Mix(checksum, absl::string_view(it->value().data(), it->value().size()));
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
  if (absl::Status s = Scan(count, sum); !s.ok()) return s;
  rocksdb::FlushOptions flush;
  flush.wait = true;
  if (absl::Status s = FromRocks(db_->Flush(flush), absl::StrCat("flushing table ", dir_)); !s.ok())
    return s;
  rocksdb::WriteOptions sync;
  sync.sync = true;
  if (absl::Status s =
          FromRocks(db_->Put(sync, kCompleteKey, absl::StrCat(count, " ", absl::Hex(sum))),
                    absl::StrCat("finishing table ", dir_));
      !s.ok())
    return s;
  if (absl::Status s = FromRocks(db_->Flush(flush), absl::StrCat("flushing table ", dir_)); !s.ok())
    return s;
  count_ = count;
  writable_ = false;
  return absl::OkStatus();
}

}  // namespace salta
