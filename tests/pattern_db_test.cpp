// The solver's pattern databases as stored tables (libsalta/src/finish/
// pattern_db.h): how far each way of finding one goes, and what a damaged
// table does to it.
#include "finish/pattern_db.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include "raw_table.h"
#include "salta/game.h"
#include "salta/store.h"

namespace salta::finish_internal {
namespace {

// Tables built ahead only (kAhead, as for five pieces on 10x10) are loaded
// where whole, never built by a count; a damaged one is reported and left
// for the next build ahead, where kStored rebuilds it.
TEST(PatternDb, TablesBuiltAheadAreNeverBuiltByACount) {
  absl::StatusOr<const Variant*> v = MakeVariant("standard", {}, 6, 2);
  ASSERT_TRUE(v.ok()) << v.status();
  const Problem p = MakeProblem(Position::Start(**v), Side::kWhite);
  ASSERT_EQ(p.k, 6);
  // Groups of four that are no run by target, so that nothing else in this
  // process has built them (the process's cache answers before any table).
  std::vector<int> o = ByTarget(p, {0, 1, 2, 3, 4, 5});
  auto targets_of = [&p](const std::vector<int>& pieces) {
    std::vector<int8_t> t;
    for (int i : pieces) t.push_back(p.target[i]);
    return t;
  };
  const std::vector<int8_t> built_first = targets_of({o[0], o[1], o[2], o[4]});
  const std::vector<int8_t> ahead = targets_of({o[0], o[2], o[3], o[5]});
  char path[] = "/tmp/salta_pattern_db_XXXXXX";
  ASSERT_NE(mkdtemp(path), nullptr);
  std::vector<std::string> notes;
  const PatternSource source{path, [&notes](const std::string& m) { notes.push_back(m); }};
  const std::string table = PatternTableDir(p, ahead, path);

  EXPECT_TRUE(absl::IsNotFound(FindPatternDb(p, ahead, source, Find::kAhead).status()));
  EXPECT_FALSE(std::filesystem::exists(table)) << "built by a count";
  EXPECT_TRUE(notes.empty());

  // Another group's table where this one's belongs: of our kind, not this
  // table (as a damaged one).
  ASSERT_TRUE(FindPatternDb(p, built_first, source, Find::kSave).ok());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("stored"), std::string::npos) << notes[0];
  std::filesystem::copy(PatternTableDir(p, built_first, path), table);
  absl::StatusOr<TableMeta> before = Table::ReadMeta(table);
  ASSERT_TRUE(before.ok()) << before.status();
  notes.clear();
  EXPECT_TRUE(absl::IsNotFound(FindPatternDb(p, ahead, source, Find::kAhead).status()));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("damaged (build the tables again ahead)"), std::string::npos) << notes[0];
  absl::StatusOr<TableMeta> after = Table::ReadMeta(table);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(after->parameters, before->parameters) << "left as it was";

  notes.clear();
  absl::StatusOr<std::shared_ptr<const PatternDb>> rebuilt =
      FindPatternDb(p, ahead, source, Find::kStored);
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
  EXPECT_EQ((*rebuilt)->targets, ahead);
  ASSERT_FALSE(notes.empty());
  EXPECT_NE(notes[0].find("rebuilding"), std::string::npos) << notes[0];
  absl::StatusOr<TableMeta> whole = Table::ReadMeta(table);
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_NE(whole->parameters, before->parameters);
  std::filesystem::remove_all(path);
}

// Building ahead stores again a table that carries the first, slower
// checksum (salta/store.h); a count only loads it.
TEST(PatternDb, BuildingAheadUpdatesTheFirstChecksum) {
  absl::StatusOr<const Variant*> v = MakeVariant("standard", {}, 6, 2);
  ASSERT_TRUE(v.ok()) << v.status();
  const Problem p = MakeProblem(Position::Start(**v), Side::kWhite);
  // A group no other test of this process builds (the cache answers first).
  std::vector<int> o = ByTarget(p, {0, 1, 2, 3, 4, 5});
  std::vector<int8_t> targets;
  for (int i : {o[1], o[3], o[5]}) targets.push_back(p.target[i]);
  char path[] = "/tmp/salta_pattern_db_XXXXXX";
  ASSERT_NE(mkdtemp(path), nullptr);
  std::vector<std::string> notes;
  const PatternSource source{path, [&notes](const std::string& m) { notes.push_back(m); }};
  const std::string table = PatternTableDir(p, targets, path);
  ASSERT_TRUE(FindPatternDb(p, targets, source, Find::kSave).ok());
  testing::RewriteWithFirstChecksum(table);
  auto kind = [&table]() {
    absl::StatusOr<TableMeta> meta = Table::ReadMeta(table);
    EXPECT_TRUE(meta.ok()) << meta.status();
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Open(table, *meta);
    EXPECT_TRUE(t.ok()) << t.status();
    return t.ok() ? (*t)->checksum_kind() : Table::Checksum::kStable;
  };
  EXPECT_EQ(kind(), Table::Checksum::kFnv1a);
  notes.clear();
  ASSERT_TRUE(FindPatternDb(p, targets, source, Find::kStored).ok());
  EXPECT_EQ(kind(), Table::Checksum::kFnv1a) << "a count only loads";
  EXPECT_TRUE(notes.empty());
  ASSERT_TRUE(FindPatternDb(p, targets, source, Find::kSave).ok());
  EXPECT_EQ(kind(), Table::Checksum::kStable);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("stored"), std::string::npos) << notes[0];
  std::filesystem::remove_all(path);
}

// Building ahead takes a core a table only while the free memory holds
// every build running at once.
TEST(PatternDb, BuildsAtOnceAreCappedByFreeMemory) {
  // A five on 10x10 (50 dark squares): 50^5 bytes of distances and five
  // bytes for each of its 254,251,200 placements.
  EXPECT_EQ(BuildBytes(50, 5), 312500000u + 5u * 254251200u);
  const uint64_t five = BuildBytes(50, 5), gib = uint64_t(1) << 30;
  EXPECT_EQ(BuildThreads(16, 9, 64 * gib, five), 9);    // a table a thread
  EXPECT_EQ(BuildThreads(16, 20, 64 * gib, five), 16);  // a core a thread
  EXPECT_EQ(BuildThreads(16, 9, 8 * gib, five), 5);     // 1.6 GB each
  EXPECT_EQ(BuildThreads(2, 9, 1 * gib, five), 1);      // less than one: one
  EXPECT_EQ(BuildThreads(2, 9, 0, five), 2);            // memory unknown
  EXPECT_EQ(BuildThreads(0, 0, 0, 0), 1);
}

}  // namespace
}  // namespace salta::finish_internal
