// Tables on disk (salta/store.h): written, finished and read back; a
// half-written, mismatched or damaged table is refused with a clear error.
#include "salta/store.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "raw_table.h"
#include "rocksdb/db.h"
#include "xxhash.h"

namespace salta {
namespace {

// The flags (VmFlags in /proc/self/smaps) of the mapping that holds `at`;
// empty where none does.
std::string MappingFlags(const void* at) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(at);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2)
      inside = lo <= a && a < hi;
    else if (inside && line.rfind("VmFlags:", 0) == 0)
      return line + " ";
  }
  return "";
}

class StoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("salta_store_test_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static TableMeta Meta() {
    TableMeta meta;
    meta.kind = "test-table";
    meta.version = 3;
    meta.geometry = "10x10/3";
    meta.rules = "standard";
    meta.parameters = "pieces=4";
    return meta;
  }

  std::string dir() const { return dir_.string(); }

  // A finished table of 50 entries (key k: k bytes 'x'), closed.
  void WriteFiftyEntries() {
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Create(dir(), Meta());
    ASSERT_TRUE(t.ok()) << t.status();
    for (uint64_t k = 0; k < 50; ++k)
      ASSERT_TRUE((*t)->Put(EncodeKey(k), std::string(k, 'x')).ok());
    ASSERT_TRUE((*t)->Finish().ok());
    EXPECT_EQ((*t)->checksum_kind(), Table::Checksum::kXxh3);
  }

  std::filesystem::path dir_;
};

TEST_F(StoreTest, WritesFinishesAndReadsBack) {
  {
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Create(dir(), Meta());
    ASSERT_TRUE(t.ok()) << t.status();
    ASSERT_TRUE((*t)->Put(EncodeKey(7), "seven").ok());
    Table::Batch batch;
    for (uint64_t k = 100; k < 110; ++k) batch.PutTyped(k, int32_t(k * 2));
    EXPECT_EQ(batch.size(), 10u);
    ASSERT_TRUE((*t)->Write(batch).ok());
    ASSERT_TRUE((*t)->Finish().ok());
    EXPECT_EQ((*t)->count(), 11u);
    EXPECT_FALSE((*t)->Put("late", "x").ok());  // read-only once complete
  }
  absl::StatusOr<std::unique_ptr<Table>> t = Table::Open(dir(), Meta());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ((*t)->count(), 11u);
  EXPECT_EQ((*t)->meta(), Meta());
  absl::StatusOr<std::optional<std::string>> v = (*t)->Get(EncodeKey(7));
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->value_or(""), "seven");
  absl::StatusOr<std::optional<int32_t>> typed = (*t)->GetTyped<uint64_t, int32_t>(105);
  ASSERT_TRUE(typed.ok());
  EXPECT_EQ(typed->value_or(-1), 210);
  absl::StatusOr<std::optional<int32_t>> absent = (*t)->GetTyped<uint64_t, int32_t>(5);
  ASSERT_TRUE(absent.ok());
  EXPECT_FALSE(absent->has_value());
  int visited = 0;
  EXPECT_TRUE((*t)->ForEach([&](absl::string_view, absl::string_view) {
                    ++visited;
                    return absl::OkStatus();
                  })
                  .ok());
  EXPECT_EQ(visited, 11);
  EXPECT_FALSE((*t)->Put("x", "y").ok());  // opened read-only
}

// A kill can cut an ingestion short after the table has linked the file in
// but before the file's own name is gone; the run that resumes writes the
// file again under that name. The table's file must stay as it was.
TEST_F(StoreTest, WritingAFileAgainLeavesTheTableItWentIntoAlone) {
  namespace fs = std::filesystem;
  fs::create_directories(dir_);
  const std::string table_dir = dir() + "/table", path = dir() + "/blocks.sst";
  auto write_file = [&](const std::string& value) {
    absl::StatusOr<std::unique_ptr<TableFile>> f = TableFile::Create(path);
    ASSERT_TRUE(f.ok()) << f.status();
    ASSERT_TRUE((*f)->Add(EncodeKey(1), value).ok());
    ASSERT_TRUE((*f)->Finish().ok());
  };
  write_file("first");
  {
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Create(table_dir, Meta());
    ASSERT_TRUE(t.ok()) << t.status();
    ASSERT_TRUE((*t)->Ingest({path}).ok());
    ASSERT_TRUE((*t)->Finish().ok());
  }
  // The name the file had, again a link to the table's file.
  std::string ingested;
  for (const fs::directory_entry& e : fs::directory_iterator(table_dir))
    if (e.path().extension() == ".sst") ingested = e.path().string();
  ASSERT_FALSE(ingested.empty());
  ASSERT_FALSE(fs::exists(path));
  fs::create_hard_link(ingested, path);
  write_file("second");
  absl::StatusOr<std::unique_ptr<Table>> t = Table::Open(table_dir, Meta());
  ASSERT_TRUE(t.ok()) << t.status();
  absl::StatusOr<std::optional<std::string>> v = (*t)->Get(EncodeKey(1));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->value_or(""), "first");
}

// A build killed after ingesting its blocks and before finishing the table
// ingests them again when it is run again: the table must then hold one copy
// of them on disk, not two (a table of hundreds of gigabytes twice over).
// The old copies may lie in whole files or, after ingests of overlapping
// files, in level 0 too.
TEST_F(StoreTest, IngestingARangeAgainKeepsOneCopyOnDisk) {
  namespace fs = std::filesystem;
  fs::create_directories(dir_);
  const std::string path = dir() + "/blocks.sst";
  constexpr int kKeys = 20000;
  auto write_file = [&](const std::string& value, int step) {
    absl::StatusOr<std::unique_ptr<TableFile>> f = TableFile::Create(path);
    ASSERT_TRUE(f.ok()) << f.status();
    for (int k = 0; k < kKeys; k += step)
      ASSERT_TRUE(
          (*f)->Add(absl::StrCat("b", EncodeKey(uint64_t(k))), value + std::string(200, 'x')).ok());
    ASSERT_TRUE((*f)->Finish().ok());
  };
  for (int earlier : {1, 3}) {
    SCOPED_TRACE(absl::StrCat(earlier, " earlier ingests"));
    const std::string table_dir = dir() + "/table" + std::to_string(earlier);
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Create(table_dir, Meta());
    ASSERT_TRUE(t.ok()) << t.status();
    // The first run's ingests (interleaved key ranges go in above each other).
    for (int k = 0; k < earlier; ++k) {
      write_file("old", k + 1);
      ASSERT_TRUE((*t)->Ingest({path}).ok());
    }
    write_file("new", 1);
    const uint64_t one_copy = fs::file_size(path);
    ASSERT_TRUE((*t)->IngestReplacing({path}, "b", "c").ok());
    ASSERT_TRUE((*t)->Put("info", "kept").ok());
    ASSERT_TRUE((*t)->Finish().ok());
    t->reset();
    EXPECT_LT(Table::DiskBytes(table_dir), one_copy + one_copy / 4);
    absl::StatusOr<std::unique_ptr<Table>> read = Table::Open(table_dir, Meta());
    ASSERT_TRUE(read.ok()) << read.status();
    for (int k : {0, 1, kKeys / 2, kKeys - 1}) {
      absl::StatusOr<std::optional<std::string>> v =
          (*read)->Get(absl::StrCat("b", EncodeKey(uint64_t(k))));
      ASSERT_TRUE(v.ok()) << v.status();
      EXPECT_EQ(v->value_or("").substr(0, 3), "new") << k;
    }
    EXPECT_EQ((*read)->Get("info")->value_or(""), "kept");
  }
}

TEST_F(StoreTest, KeysSortAsNumbers) {
  EXPECT_LT(EncodeKey(2), EncodeKey(256));
  EXPECT_EQ(DecodeKey(EncodeKey(0x0102030405060708ull)).value_or(0), 0x0102030405060708ull);
  EXPECT_FALSE(DecodeKey("short").has_value());
}

TEST_F(StoreTest, HalfWrittenTableIsRefused) {
  {
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Create(dir(), Meta());
    ASSERT_TRUE(t.ok()) << t.status();
    ASSERT_TRUE((*t)->Put("a", "1").ok());
    // Closed without Finish: as if the building process had died.
  }
  absl::StatusOr<std::unique_ptr<Table>> t = Table::Open(dir(), Meta());
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("incomplete"), std::string::npos) << t.status();
  // Creating over it needs replace.
  EXPECT_FALSE(Table::Create(dir(), Meta()).ok());
  Table::CreateOptions replace;
  replace.replace = true;
  absl::StatusOr<std::unique_ptr<Table>> again = Table::Create(dir(), Meta(), replace);
  ASSERT_TRUE(again.ok()) << again.status();
  ASSERT_TRUE((*again)->Finish().ok());
  again->reset();
  EXPECT_TRUE(Table::Open(dir(), Meta()).ok());
}

// A table gets its seal last, as it is finished. One whose seal could not
// be written (here a directory where its temporary file goes; a full disk
// in use) has its completion record but no seal: it is not complete, opens
// as damaged, and a build that resumes it finishes it again. One whose
// seal is removed later is damaged the same way, not taken for a table
// finished before seals, which opens without the check.
TEST_F(StoreTest, AFinishedTableWithoutItsSealIsNotComplete) {
  {
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Create(dir(), Meta());
    ASSERT_TRUE(t.ok()) << t.status();
    ASSERT_TRUE((*t)->Put(EncodeKey(1), "one").ok());
    std::filesystem::create_directory(dir() + "/SEAL.tmp");
    const absl::Status finished = (*t)->Finish();
    EXPECT_FALSE(finished.ok());
    EXPECT_TRUE(absl::StrContains(finished.message(), "SEAL")) << finished;
  }
  std::filesystem::remove(dir() + "/SEAL.tmp");
  ASSERT_FALSE(std::filesystem::exists(dir() + "/SEAL"));
  absl::StatusOr<bool> complete = Table::IsComplete(dir());
  ASSERT_TRUE(complete.ok()) << complete.status();
  EXPECT_FALSE(*complete);
  auto expect_unsealed = [&] {
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Open(dir(), Meta());
    ASSERT_FALSE(t.ok());
    EXPECT_EQ(t.status().code(), absl::StatusCode::kDataLoss) << t.status();
    EXPECT_TRUE(absl::StrContains(t.status().message(), "has no seal")) << t.status();
    EXPECT_TRUE(absl::EndsWith(t.status().message(), kRepairAdvice)) << t.status();
  };
  expect_unsealed();
  {
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Resume(dir(), Meta());
    ASSERT_TRUE(t.ok()) << t.status();
    ASSERT_TRUE((*t)->Finish().ok());
  }
  complete = Table::IsComplete(dir());
  ASSERT_TRUE(complete.ok()) << complete.status();
  EXPECT_TRUE(*complete);
  absl::StatusOr<std::unique_ptr<Table>> t = Table::Open(dir(), Meta());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ((*t)->count(), 1u);
  t->reset();
  std::filesystem::remove(dir() + "/SEAL");
  expect_unsealed();
  testing::Unseal(dir());  // now as a table of before seals
  EXPECT_TRUE(Table::Open(dir(), Meta()).ok());
}

// A table another process is writing (RocksDB's lock on it) is said to be
// in use, not a bare I/O error.
TEST_F(StoreTest, ATableAnotherProcessWritesIsInUse) {
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t writer = fork();
  ASSERT_GE(writer, 0);
  if (writer == 0) {
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Create(dir(), Meta());
    const char done = t.ok() ? 'y' : 'n';
    if (write(ready[1], &done, 1) != 1) _exit(1);
    pause();  // holding the table until killed
    _exit(0);
  }
  char done = 0;
  ASSERT_EQ(read(ready[0], &done, 1), 1);
  EXPECT_EQ(done, 'y');
  absl::StatusOr<std::unique_ptr<Table>> t = Table::Resume(dir(), Meta());
  kill(writer, SIGKILL);
  waitpid(writer, nullptr, 0);
  close(ready[0]);
  close(ready[1]);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kFailedPrecondition) << t.status();
  EXPECT_TRUE(absl::StrContains(t.status().message(), "is in use: another process is writing it"))
      << t.status();
  // Its writer gone, it resumes.
  EXPECT_TRUE(Table::Resume(dir(), Meta()).ok());
}

TEST_F(StoreTest, MismatchedTableIsRefused) {
  {
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Create(dir(), Meta());
    ASSERT_TRUE(t.ok());
    ASSERT_TRUE((*t)->Finish().ok());
  }
  TableMeta other = Meta();
  other.rules = "pre1900";
  absl::StatusOr<std::unique_ptr<Table>> t = Table::Open(dir(), other);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("rules"), std::string::npos) << t.status();
  other = Meta();
  other.version = 4;
  t = Table::Open(dir(), other);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("version"), std::string::npos) << t.status();
  other = Meta();
  other.kind = "endgame";
  EXPECT_FALSE(Table::Open(dir(), other).ok());
  absl::StatusOr<TableMeta> meta = Table::ReadMeta(dir());
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(*meta, Meta());
}

// A table is written with a checksum that Open checks: a value changed
// behind its back is found.
TEST_F(StoreTest, ChangedValueIsFound) {
  WriteFiftyEntries();
  ASSERT_TRUE(Table::Open(dir(), Meta()).ok());
  testing::PutRaw(dir(), "d/" + EncodeKey(17), std::string(17, 'y'));
  absl::StatusOr<std::unique_ptr<Table>> t = Table::Open(dir(), Meta());
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(t.status().message().find("is damaged"), std::string::npos) << t.status();
  // It says what to do, and a caller that rebuilds the table can leave that out.
  const absl::string_view message = t.status().message();
  EXPECT_TRUE(absl::EndsWith(message, kRepairAdvice)) << message;
  EXPECT_EQ(RepairAdviceRemoved(message), message.substr(0, message.size() - kRepairAdvice.size()));
  EXPECT_EQ(RepairAdviceRemoved("no advice"), "no advice");
}

// Tables finished before the checksum was StableHash carry FNV-1a over the
// same stream, in a record of two fields: they still open, and damage in
// them is still found.
TEST_F(StoreTest, TablesWithTheFirstChecksumStillOpen) {
  WriteFiftyEntries();
  testing::RewriteWithFirstChecksum(dir());
  absl::StatusOr<std::unique_ptr<Table>> t = Table::Open(dir(), Meta());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ((*t)->count(), 50u);
  EXPECT_EQ((*t)->checksum_kind(), Table::Checksum::kFnv1a);
  t->reset();
  // The same record with another sum: damage.
  testing::RewriteWithFirstChecksum(dir(), 1);
  t = Table::Open(dir(), Meta());
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("is damaged"), std::string::npos) << t.status();
  // A record naming a checksum this library does not know is malformed.
  testing::PutRaw(dir(), "m/complete", "50 1234 crc");
  t = Table::Open(dir(), Meta());
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("malformed completion record"), std::string::npos)
      << t.status();
}

// The completion record names its checksum: XXH3 chained over the data
// keys and values, each seeded with the hash so far, computed here plainly.
TEST_F(StoreTest, TheChecksumIsXxh3ChainedOverTheEntries) {
  WriteFiftyEntries();
  uint64_t sum = 0xCBF29CE484222325ull;
  for (uint64_t k = 0; k < 50; ++k) {
    const std::string key = "d/" + EncodeKey(k), value(k, 'x');
    sum = XXH3_64bits_withSeed(key.data(), key.size(), sum);
    sum = XXH3_64bits_withSeed(value.data(), value.size(), sum);
  }
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::OpenForReadOnly(rocksdb::Options(), dir(), &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  std::string record;
  ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), "m/complete", &record).ok());
  EXPECT_EQ(record, absl::StrCat("50 ", absl::Hex(sum), " xxh3"));
}

// Tables finished with StableHash, before XXH3, still open, and damage in
// them is still found.
TEST_F(StoreTest, TablesWithTheStableChecksumStillOpen) {
  WriteFiftyEntries();
  testing::RewriteWithStableChecksum(dir());
  absl::StatusOr<std::unique_ptr<Table>> t = Table::Open(dir(), Meta());
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ((*t)->count(), 50u);
  EXPECT_EQ((*t)->checksum_kind(), Table::Checksum::kStable);
  t->reset();
  testing::RewriteWithStableChecksum(dir(), 4);
  t = Table::Open(dir(), Meta());
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("is damaged"), std::string::npos) << t.status();
}

// A table stored uncompressed and opened with map_files hands out its
// values where they lie in the mapped file, marked for large pages; damage
// in them is still found, by the table's checksum as it opens, else by
// RocksDB's as it reads.
TEST_F(StoreTest, AnUncompressedTableIsReadInPlace) {
  std::string big(3 << 20, '\0');
  for (size_t i = 0; i < big.size(); ++i) big[i] = char(i * 7 % 251);
  {
    Table::CreateOptions create;
    create.uncompressed = true;
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Create(dir(), Meta(), create);
    ASSERT_TRUE(t.ok()) << t.status();
    ASSERT_TRUE((*t)->Put(EncodeKey(1), big).ok());
    ASSERT_TRUE((*t)->Put(EncodeKey(2), "small").ok());
    ASSERT_TRUE((*t)->Finish().ok());
  }
  EXPECT_GE(Table::DiskBytes(dir()), big.size()) << "stored as it is";
  for (bool map : {true, false}) {
    SCOPED_TRACE(map ? "mapped" : "read");
    Table::OpenOptions open;
    open.map_files = map;
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Open(dir(), Meta(), open);
    ASSERT_TRUE(t.ok()) << t.status();
    absl::StatusOr<std::optional<PinnedValue>> v = (*t)->GetPinned(EncodeKey(1));
    ASSERT_TRUE(v.ok() && v->has_value()) << v.status();
    EXPECT_EQ((*v)->in_place(), map);
    EXPECT_TRUE((*v)->bytes() == big);
    // Marked for large pages (MADV_HUGEPAGE: "hg") as the checksum read
    // it, so that a file not yet in memory is read into large pages.
    if (map && std::filesystem::exists("/sys/kernel/mm/transparent_hugepage")) {
      const std::string flags = MappingFlags((*v)->bytes().data() + big.size() / 2);
      EXPECT_NE(flags.find(" hg "), std::string::npos) << flags;
    }
    v = (*t)->GetPinned(EncodeKey(3));
    ASSERT_TRUE(v.ok()) << v.status();
    EXPECT_FALSE(v->has_value());
  }
  // A byte of the value changed in its file (the largest), not at its end.
  std::filesystem::path largest;
  for (const auto& entry : std::filesystem::directory_iterator(dir()))
    if (entry.path().extension() == ".sst" &&
        (largest.empty() || entry.file_size() > std::filesystem::file_size(largest)))
      largest = entry.path();
  ASSERT_FALSE(largest.empty());
  {
    std::fstream f(largest, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(big.size() / 2));
    f.put('\x5a');
  }
  Table::OpenOptions open;
  open.map_files = true;
  absl::StatusOr<std::unique_ptr<Table>> t = Table::Open(dir(), Meta(), open);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kDataLoss) << t.status();
  open.verify_checksum = false;
  t = Table::Open(dir(), Meta(), open);
  ASSERT_TRUE(t.ok()) << t.status();
  absl::StatusOr<std::optional<PinnedValue>> v = (*t)->GetPinned(EncodeKey(1));
  EXPECT_EQ(v.status().code(), absl::StatusCode::kDataLoss) << v.status();
}

TEST_F(StoreTest, MissingDirectoryIsRefused) {
  absl::StatusOr<std::unique_ptr<Table>> t = Table::Open(dir(), Meta());
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("no table"), std::string::npos);
}

}  // namespace
}  // namespace salta
