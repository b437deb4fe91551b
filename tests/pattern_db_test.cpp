// The solver's pattern databases as stored tables (libsalta/src/finish/
// pattern_db.h): how far each way of finding one goes, and what a damaged
// table does to it.
#include "finish/pattern_db.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "plain_group_counts.h"
#include "raw_table.h"
#include "salta/game.h"
#include "salta/store.h"

namespace salta::finish_internal {
namespace {

// The targets of p's pieces of these ranks in target order (ByTarget),
// in the order given: groups picked so that no other test of this process
// builds them (the process's cache answers before any table).
std::vector<int8_t> TargetsOfRanks(const Problem& p, std::initializer_list<int> ranks) {
  const std::vector<int> order = PiecesByTarget(p);
  std::vector<int8_t> targets;
  for (int r : ranks) targets.push_back(p.target[order[r]]);
  return targets;
}

// Tables built ahead only (kAhead, as for five pieces on 10x10) are loaded
// where whole, never built by a count; a damaged one is reported and left
// for the next build ahead, where kStored rebuilds it.
TEST(PatternDb, TablesBuiltAheadAreNeverBuiltByACount) {
  absl::StatusOr<const Variant*> v = MakeVariant("standard", {}, 6, 2);
  ASSERT_TRUE(v.ok()) << v.status();
  const Problem p = MakeProblem(Position::Start(**v), Side::kWhite);
  ASSERT_EQ(p.k, 6);
  // Groups of four that are no run by target.
  const std::vector<int8_t> built_first = TargetsOfRanks(p, {0, 1, 2, 4});
  const std::vector<int8_t> ahead = TargetsOfRanks(p, {0, 2, 3, 5});
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

// Building ahead stores again a table that carries an older, slower
// checksum (salta/store.h); a count only loads it.
TEST(PatternDb, BuildingAheadUpdatesAnOlderChecksum) {
  absl::StatusOr<const Variant*> v = MakeVariant("standard", {}, 6, 2);
  ASSERT_TRUE(v.ok()) << v.status();
  const Problem p = MakeProblem(Position::Start(**v), Side::kWhite);
  const std::vector<int8_t> targets = TargetsOfRanks(p, {1, 3, 5});
  char path[] = "/tmp/salta_pattern_db_XXXXXX";
  ASSERT_NE(mkdtemp(path), nullptr);
  std::vector<std::string> notes;
  const PatternSource source{path, [&notes](const std::string& m) { notes.push_back(m); }};
  const std::string table = PatternTableDir(p, targets, path);
  ASSERT_TRUE(FindPatternDb(p, targets, source, Find::kSave).ok());
  auto kind = [&table]() {
    absl::StatusOr<TableMeta> meta = Table::ReadMeta(table);
    EXPECT_TRUE(meta.ok()) << meta.status();
    absl::StatusOr<std::unique_ptr<Table>> t = Table::Open(table, *meta);
    EXPECT_TRUE(t.ok()) << t.status();
    return t.ok() ? (*t)->checksum_kind() : Table::kChecksumNow;
  };
  EXPECT_EQ(kind(), Table::kChecksumNow);
  for (Table::Checksum older : {Table::Checksum::kFnv1a, Table::Checksum::kStable}) {
    if (older == Table::Checksum::kFnv1a)
      testing::RewriteWithFirstChecksum(table);
    else
      testing::RewriteWithStableChecksum(table);
    EXPECT_EQ(kind(), older);
    notes.clear();
    ASSERT_TRUE(FindPatternDb(p, targets, source, Find::kStored).ok());
    EXPECT_EQ(kind(), older) << "a count only loads";
    EXPECT_TRUE(notes.empty());
    ASSERT_TRUE(FindPatternDb(p, targets, source, Find::kSave).ok());
    EXPECT_EQ(kind(), Table::kChecksumNow);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("stored"), std::string::npos) << notes[0];
  }
  std::filesystem::remove_all(path);
}

// A table stored in the layout an earlier release used for its size (four
// pieces, compressed by the perfect index) is reported as of another
// format, not as damaged, and stored again in today's layout.
TEST(PatternDb, ATableOfAnotherFormatIsStoredAgain) {
  absl::StatusOr<const Variant*> v = MakeVariant("standard", {}, 6, 2);
  ASSERT_TRUE(v.ok()) << v.status();
  const Problem p = MakeProblem(Position::Start(**v), Side::kBlack);
  const std::vector<int8_t> targets = TargetsOfRanks(p, {0, 2, 4});
  ASSERT_EQ(LayoutFor(p.n, 3), TableLayout::kInPlace);
  char path[] = "/tmp/salta_pattern_db_XXXXXX";
  ASSERT_NE(mkdtemp(path), nullptr);
  const std::string table = PatternTableDir(p, targets, path);
  const std::shared_ptr<const PatternDb> db = BuildPatternDb(p, targets);
  ASSERT_TRUE(SavePatternTable(p, *db, table, TableLayout::kChunked, false).ok());
  std::vector<std::string> notes;
  const PatternSource source{path, [&notes](const std::string& m) { notes.push_back(m); }};
  absl::StatusOr<std::shared_ptr<const PatternDb>> found =
      FindPatternDb(p, targets, source, Find::kStored);
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ((*found)->values, db->values);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("pattern table of another format"), std::string::npos) << notes[0];
  EXPECT_EQ(notes[0].find("damaged"), std::string::npos) << notes[0];
  StoredFormat format = StoredFormat::kAnother;
  absl::StatusOr<std::shared_ptr<const PatternDb>> loaded =
      LoadPatternTable(p, targets, table, TableLayout::kInPlace, format);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(format, StoredFormat::kCurrent);
  EXPECT_EQ((*loaded)->values, db->values);
  std::filesystem::remove_all(path);
}

// A table is written under a scratch name and renamed into place. The
// scratch is removed where the table cannot be written, and so are those
// of the same table that processes of this machine no longer running left
// (killed while storing); another running process's is left alone.
TEST(PatternDb, StoringLeavesNoScratchBehind) {
  char path[] = "/tmp/salta_pattern_db_XXXXXX";
  ASSERT_NE(mkdtemp(path), nullptr);
  const std::string dir = std::string(path) + "/table";
  // dir.new-HOST-PID-SERIAL, with the PID and serial cut off.
  const std::string mine = ScratchDirOf(dir);
  const std::string prefix = mine.substr(0, mine.rfind('-', mine.rfind('-') - 1) + 1);
  ASSERT_EQ(prefix.rfind(dir + ".new-", 0), 0u) << mine;
  const pid_t gone = fork();
  ASSERT_GE(gone, 0);
  if (gone == 0) _exit(0);
  ASSERT_EQ(waitpid(gone, nullptr, 0), gone);
  const std::string abandoned = absl::StrCat(prefix, gone, "-3");
  const std::string running = absl::StrCat(prefix, getppid(), "-0");
  const std::string other_host = absl::StrCat(dir, ".new-", gone, "-0");
  for (const std::string& d : {abandoned, running, other_host}) {
    std::filesystem::create_directories(d);
    std::ofstream(d + "/000001.sst") << "half a table";
  }
  auto scratches = [&] {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(path))
      names.push_back(e.path().string());
    std::sort(names.begin(), names.end());
    return names;
  };
  const TableMeta meta{"finish-test", 1, "6x6", "standard", ""};

  const absl::Status failed = StoreTable(dir, meta, true, false, [](Table& table) {
    if (absl::Status s = table.Put("a", "b"); !s.ok()) return s;
    return absl::DataLossError("the write failed");
  });
  EXPECT_EQ(failed.code(), absl::StatusCode::kDataLoss) << failed;
  std::vector<std::string> want = {running, other_host};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(scratches(), want);

  ASSERT_TRUE(
      StoreTable(dir, meta, true, false, [](Table& table) { return table.Put("a", "b"); }).ok());
  want.push_back(dir);
  std::sort(want.begin(), want.end());
  EXPECT_EQ(scratches(), want);
  absl::StatusOr<std::unique_ptr<Table>> stored = Table::Open(dir, meta);
  ASSERT_TRUE(stored.ok()) << stored.status();
  absl::StatusOr<std::optional<std::string>> value = (*stored)->Get("a");
  ASSERT_TRUE(value.ok() && value->has_value()) << value.status();
  EXPECT_EQ(**value, "b");
  std::filesystem::remove_all(path);
}

// The tables of a bound's partitions are stored together, one table (a
// set), and loaded back as built; a set of other groups is of another
// format; a damaged set is reported and rebuilt, where building ahead, or
// left for the next build ahead.
TEST(PatternDb, ThePartitionsTablesAreStoredTogether) {
  absl::StatusOr<const Variant*> v = MakeVariant("standard", {}, 8, 2);
  ASSERT_TRUE(v.ok()) << v.status();
  const Problem p = MakeProblem(Position::Start(**v), Side::kWhite);
  // (Groups of four: a set of small ones is built, never stored.)
  const std::vector<std::vector<int8_t>> groups = {
      TargetsOfRanks(p, {0, 1, 2, 3}), TargetsOfRanks(p, {4, 5, 6, 7}), TargetsOfRanks(p, {0}),
      TargetsOfRanks(p, {1, 2, 3, 4}), TargetsOfRanks(p, {5, 6})};
  std::vector<std::shared_ptr<const PatternDb>> built;
  for (const std::vector<int8_t>& g : groups) built.push_back(BuildPatternDb(p, g));
  char path[] = "/tmp/salta_pattern_db_XXXXXX";
  ASSERT_NE(mkdtemp(path), nullptr);
  const std::string dir = PatternSetDir(p, "groups_of_4", groups, path);
  EXPECT_NE(dir.find("_groups_of_4_"), std::string::npos) << dir;
  ASSERT_TRUE(SavePatternSet(p, built, dir, false).ok());
  StoredFormat format = StoredFormat::kAnother;
  absl::StatusOr<std::vector<std::shared_ptr<const PatternDb>>> loaded =
      LoadPatternSet(p, groups, dir, format);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(format, StoredFormat::kCurrent);
  ASSERT_EQ(loaded->size(), groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    EXPECT_EQ((*loaded)[g]->targets, groups[g]);
    EXPECT_EQ((*loaded)[g]->values, built[g]->values) << "group " << g;
    EXPECT_EQ((*loaded)[g]->beyond_distances, built[g]->beyond_distances) << "group " << g;
  }
  // The same groups in another order: another set.
  std::vector<std::vector<int8_t>> reordered = groups;
  std::swap(reordered[0], reordered[1]);
  EXPECT_TRUE(absl::IsDataLoss(LoadPatternSet(p, reordered, dir, format).status()));
  EXPECT_EQ(format, StoredFormat::kAnother);

  // Found through the set's table: groups no other test of this process
  // builds, in a set of their own, where another set's table lies.
  const std::vector<std::vector<int8_t>> others = {TargetsOfRanks(p, {0, 2, 4, 6}),
                                                   TargetsOfRanks(p, {1, 3, 5, 7})};
  const std::string other_dir = PatternSetDir(p, "groups_of_4", others, path);
  ASSERT_NE(other_dir, dir);
  std::filesystem::copy(dir, other_dir);
  std::vector<std::string> notes;
  const PatternSource source{path, [&notes](const std::string& m) { notes.push_back(m); }};
  EXPECT_TRUE(
      absl::IsNotFound(FindPatternSet(p, "groups_of_4", others, source, Find::kAhead).status()));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("another format (build the tables again ahead)"), std::string::npos)
      << notes[0];
  EXPECT_TRUE(LoadPatternSet(p, groups, other_dir, format).ok()) << "left as it was";
  notes.clear();
  absl::StatusOr<std::vector<std::shared_ptr<const PatternDb>>> found =
      FindPatternSet(p, "groups_of_4", others, source, Find::kStored);
  ASSERT_TRUE(found.ok()) << found.status();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("another format, rebuilding it"), std::string::npos) << notes[0];
  for (size_t g = 0; g < others.size(); ++g)
    EXPECT_EQ((*found)[g]->values, BuildPatternDb(p, others[g])->values) << "group " << g;
  EXPECT_TRUE(LoadPatternSet(p, others, other_dir, format).ok()) << "stored again";

  // Damaged (a value changed behind the table's back): building ahead, which
  // reads the table even where the process has its databases, rebuilds it.
  absl::StatusOr<std::vector<std::shared_ptr<const PatternDb>>> in_memory =
      FindPatternSet(p, "groups_of_4", groups, PatternSource{}, Find::kBuild);
  ASSERT_TRUE(in_memory.ok()) << in_memory.status();
  std::string value(built[1]->values.begin(), built[1]->values.end());
  value[0] = char(value[0] + 1);
  testing::PutRaw(dir, "d/" + EncodeKey(1), value);
  EXPECT_TRUE(absl::IsDataLoss(LoadPatternSet(p, groups, dir, format).status()));
  notes.clear();
  ASSERT_TRUE(FindPatternSet(p, "groups_of_4", groups, source, Find::kSave).ok());
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_NE(notes[0].find("pattern table damaged, rebuilding it"), std::string::npos) << notes[0];
  EXPECT_NE(notes[1].find("stored " + dir), std::string::npos) << notes[1];
  loaded = LoadPatternSet(p, groups, dir, format);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ((*loaded)[1]->values, built[1]->values);

  // A set built faster than a table opens (three of three on 8x8, 0.1 M
  // placements) is built, even where only a stored one was asked for.
  const std::vector<std::vector<int8_t>> small = {
      TargetsOfRanks(p, {0, 1, 5}), TargetsOfRanks(p, {2, 3, 4}), TargetsOfRanks(p, {1, 4, 5})};
  notes.clear();
  found = FindPatternSet(p, "groups_of_3", small, source, Find::kStored);
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ((*found)[2]->values, BuildPatternDb(p, small[2])->values);
  EXPECT_FALSE(std::filesystem::exists(PatternSetDir(p, "groups_of_3", small, path)));
  EXPECT_TRUE(notes.empty());
  std::filesystem::remove_all(path);
}

// A database's values are the counts of its group alone on the board,
// here found by a plain breadth-first search over every placement of the
// group, backwards along the forward moves of each piece.
void ExpectPlainCounts(const Problem& p, const std::vector<int8_t>& targets) {
  const std::map<std::vector<int8_t>, int> count = PlainGroupCounts(p, targets);
  const std::shared_ptr<const PatternDb> db = BuildPatternDb(p, targets);
  ASSERT_EQ(db->index.size(), count.size());
  int reached = 0;
  for (const auto& [placement, c] : count) {
    const int want = c < 0 ? kPdbUnreachable : c;
    reached += c >= 0;
    ASSERT_EQ(int(db->At(placement.data())), want)
        << "placement " << ::testing::PrintToString(placement);
  }
  EXPECT_GT(reached, 1);
  // Stored either way (by sparse index in place, by the perfect index in
  // chunks) and loaded back: the same table.
  for (TableLayout layout : {TableLayout::kInPlace, TableLayout::kChunked}) {
    SCOPED_TRACE(layout == TableLayout::kInPlace ? "in place" : "chunked");
    char path[] = "/tmp/salta_pattern_db_XXXXXX";
    ASSERT_NE(mkdtemp(path), nullptr);
    const std::string dir = std::string(path) + "/table";
    ASSERT_TRUE(SavePatternTable(p, *db, dir, layout, false).ok());
    StoredFormat format = StoredFormat::kAnother;
    absl::StatusOr<std::shared_ptr<const PatternDb>> loaded =
        LoadPatternTable(p, targets, dir, layout, format);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    EXPECT_EQ(format, StoredFormat::kCurrent);
    EXPECT_EQ((*loaded)->values, db->values);
    // Looked for in the other layout: of another format, to be rebuilt.
    const TableLayout other =
        layout == TableLayout::kInPlace ? TableLayout::kChunked : TableLayout::kInPlace;
    loaded = LoadPatternTable(p, targets, dir, other, format);
    EXPECT_TRUE(absl::IsDataLoss(loaded.status())) << loaded.status();
    EXPECT_EQ(format, StoredFormat::kAnother);
    std::filesystem::remove_all(path);
  }
}

TEST(PatternDb, ValuesAreTheGroupsPlainCounts) {
  // Each kind of steps, for one side each.
  for (const auto& [steps, side] :
       {std::pair{"steps=any", Side::kWhite}, std::pair{"steps=forward", Side::kBlack}}) {
    SCOPED_TRACE(steps);
    absl::StatusOr<const Variant*> v = MakeVariant("standard", {steps}, 6, 2);
    ASSERT_TRUE(v.ok()) << v.status();
    const Problem p = MakeProblem(Position::Start(**v), side);
    ASSERT_EQ(p.k, 6);
    const std::vector<int> o = ByTarget(p, {0, 1, 2, 3, 4, 5});
    // Groups of one to four, in target order and not.
    for (const std::vector<int>& group : std::vector<std::vector<int>>{{o[2]},
                                                                       {o[0], o[1]},
                                                                       {o[5], o[3]},
                                                                       {o[0], o[1], o[2]},
                                                                       {o[4], o[0], o[5]},
                                                                       {o[1], o[2], o[3], o[4]},
                                                                       {o[5], o[0], o[3], o[2]}}) {
      std::vector<int8_t> targets;
      for (int i : group) targets.push_back(p.target[i]);
      ExpectPlainCounts(p, targets);
    }
  }
}

// Past its size the cache drops the databases used least recently: a
// table every count looks up stays while one-off tables come and go.
TEST(PatternDb, TheCacheDropsTheLeastRecentlyUsed) {
  auto table = [](size_t bytes) {
    auto db = std::make_shared<PatternDb>(std::vector<int8_t>{}, *PlacementIndex::Make(10, 1));
    db->Own(TableBytes(bytes));
    return std::shared_ptr<const PatternDb>(std::move(db));
  };
  PatternCache cache(300);
  const std::shared_ptr<const PatternDb> shared = table(100);
  EXPECT_EQ(cache.Insert("shared", shared), shared);
  for (int i = 0; i < 5; ++i) {
    const std::string key = "one-off " + std::to_string(i);
    cache.Insert(key, table(100));
    ASSERT_EQ(cache.Lookup("shared"), shared) << "after " << key;
  }
  EXPECT_EQ(cache.Lookup("one-off 0"), nullptr);
  EXPECT_EQ(cache.Lookup("one-off 2"), nullptr);
  EXPECT_NE(cache.Lookup("one-off 4"), nullptr);
  // Inserting a key kept already keeps the first and uses it.
  const std::shared_ptr<const PatternDb> first = cache.Lookup("one-off 3");
  EXPECT_EQ(cache.Insert("one-off 3", table(100)), first);
  cache.Insert("one-off 5", table(100));  // drops the least recent: shared
  EXPECT_EQ(cache.Lookup("shared"), nullptr);
  EXPECT_EQ(cache.Lookup("one-off 3"), first);
  // A table larger than the whole is kept alone, the others dropped.
  const std::shared_ptr<const PatternDb> large = table(1000);
  EXPECT_EQ(cache.Insert("large", large), large);
  EXPECT_EQ(cache.Lookup("large"), large);
  EXPECT_EQ(cache.Lookup("one-off 3"), nullptr);
}

// Building ahead takes a core a table only while the free memory holds
// every build running at once.
TEST(PatternDb, BuildsAtOnceAreCappedByFreeMemory) {
  // A five on 10x10 (50 dark squares): 50^5 bytes of distances (the table
  // by sparse index), and three sets of a bitboard for each of the 50^4
  // placements of four or, once they are freed, the table to be stored, a
  // byte for each of its 254,251,200 placements.
  EXPECT_EQ(BuildBytes(50, 5), 312500000u + 254251200u);
  // A four on 6x6 (18): the sets of 18^3 bitboards outweigh the 73,440
  // placements.
  EXPECT_EQ(BuildBytes(18, 4), 104976u + 3u * 8u * 5832u);
  const uint64_t five = BuildBytes(50, 5), gib = uint64_t(1) << 30;
  EXPECT_EQ(BuildThreads(16, 9, 64 * gib, five), 9);    // a table a thread
  EXPECT_EQ(BuildThreads(16, 20, 64 * gib, five), 16);  // a core a thread
  EXPECT_EQ(BuildThreads(16, 9, 3 * gib, five), 5);     // 0.57 GB each
  EXPECT_EQ(BuildThreads(2, 9, 1 * gib, five), 1);      // less than one: one
  EXPECT_EQ(BuildThreads(2, 9, 0, five), 2);            // memory unknown
  EXPECT_EQ(BuildThreads(0, 0, 0, 0), 1);
}

}  // namespace
}  // namespace salta::finish_internal
