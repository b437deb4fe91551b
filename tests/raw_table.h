// Tables written behind salta/store.h's back, as damage or an earlier
// version of the library leaves them.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "rocksdb/db.h"
#include "salta/store.h"

namespace salta::testing {

// A table finished before seals (store.cpp: the size and last bytes of each
// data file, checked before RocksDB opens them), as those written here
// stand for: the seal goes, so that what the tests look for is the damage
// inside, not the files' change.
// The record of a table created to be sealed ("m/sealed") goes as well,
// as a table of before seals has none. `db`: the table, already open.
inline void Unseal(const std::string& dir, rocksdb::DB* db = nullptr) {
  std::unique_ptr<rocksdb::DB> opened;
  if (db == nullptr) {
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(rocksdb::Options(), dir, &raw).ok());
    opened.reset(raw);
    db = raw;
  }
  ASSERT_TRUE(db->Delete(rocksdb::WriteOptions(), "m/sealed").ok());
  std::error_code ec;
  std::filesystem::remove(dir + "/SEAL", ec);
}

// Writes a record into the closed table at dir directly (data keys are
// "d/" and the table's key).
inline void PutRaw(const std::string& dir, const std::string& key, const std::string& value) {
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(rocksdb::Options(), dir, &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), key, value).ok());
  Unseal(dir, db.get());
}

// Rewrites the completion record of the closed, finished table at dir:
// mix(sum, bytes) over every stored key and value in order, from FNV-1a's
// offset basis, in a record "<count> <hex><suffix>", with `flip` xored
// into the sum (0: a whole table).
template <typename Mix>
void RewriteCompletion(const std::string& dir, Mix mix, const std::string& suffix, uint64_t flip) {
  rocksdb::DB* raw = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(rocksdb::Options(), dir, &raw).ok());
  std::unique_ptr<rocksdb::DB> db(raw);
  Unseal(dir, db.get());
  uint64_t sum = 0xCBF29CE484222325ull, count = 0;
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek("d/"); it->Valid() && it->key().starts_with("d/"); it->Next()) {
    mix(sum, absl::string_view(it->key().data(), it->key().size()));
    mix(sum, absl::string_view(it->value().data(), it->value().size()));
    ++count;
  }
  ASSERT_TRUE(it->status().ok());
  it.reset();
  ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "m/complete",
                      absl::StrCat(count, " ", absl::Hex(sum ^ flip), suffix))
                  .ok());
}

// Tables as the first version of salta/store.h finished them: FNV-1a over
// every stored key and value (each after its length in 8 bytes,
// little-endian), in a completion record of two fields; a plain second
// implementation of that checksum.
inline void RewriteWithFirstChecksum(const std::string& dir, uint64_t flip = 0) {
  auto fnv = [](uint64_t& h, absl::string_view bytes) {
    for (int i = 0; i < 8; ++i)
      h = (h ^ ((uint64_t(bytes.size()) >> (8 * i)) & 0xFF)) * 0x100000001B3ull;
    for (unsigned char c : bytes) h = (h ^ c) * 0x100000001B3ull;
  };
  RewriteCompletion(dir, fnv, "", flip);
}

// Tables as salta/store.h finished them before XXH3: StableHash chained
// over every stored key and value, each seeded with the hash so far, in a
// record "<count> <hex> stable".
inline void RewriteWithStableChecksum(const std::string& dir, uint64_t flip = 0) {
  auto stable = [](uint64_t& h, absl::string_view bytes) { h = StableHash(bytes, h); };
  RewriteCompletion(dir, stable, " stable", flip);
}

}  // namespace salta::testing
