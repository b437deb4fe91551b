// Pattern databases: for a group of pieces with given targets, the exact
// cost of every placement of the group alone on the board (the other pieces
// removed). Where no piece can jump, removing pieces only makes moves
// easier, so a group's cost is a lower bound on its pieces' share of any
// solution; a move moves one piece, so over disjoint groups the costs add
// up to a lower bound.
//
// Databases are built by breadth-first search backwards from the group's
// goal, kept in the process's cache (PatternCache: every count of a process
// shares them), and, given a directory, stored there as RocksDB tables
// (salta/store.h) that later processes load: those of a bound's partitions
// together, as one table, where they are read in place.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "finish/problem.h"
#include "huge_page_allocator.h"
#include "salta/finish.h"
#include "salta/index.h"
#include "salta/store.h"

namespace salta::finish_internal {

inline constexpr uint8_t kPdbUnreachable = 255;
// The most pieces one database may cover: 4 on 10x10 is 5.5 million
// placements (6.25 MB in memory by sparse index), built in 0.04 s; 5 is 254
// million (312 MB), built in 2.6 s, ahead only
// (Policy::max_default_pdb_entries).
inline constexpr int kMaxGroupSize = kMaxPatternGroupSize;
// Groups of at most this many pieces have databases built in a millisecond
// (117,600 placements of three on 10x10), where a count needs them.
inline constexpr int kSmallGroupSize = 3;

// The sparse index of k pieces on n squares: the sum over the pieces of
// square * weight[j], weight[j] = n^(k-1-j) (placements with two pieces on
// one square are never read). A move of one piece changes it by one
// product, so the searches' hot paths look a placement up without the
// perfect index's counting of the squares below (on 10x10, 50^4 entries
// for four pieces where the perfect index has 5.5 million).
std::array<uint32_t, kMaxGroupSize> SparseWeights(int n, int k);

// A table's bytes (huge_page_allocator.h).
using TableBytes = std::vector<uint8_t, HugePageAllocator<uint8_t>>;

struct PatternDb {
  PatternDb(std::vector<int8_t> group_targets, PlacementIndex stored_index);
  PatternDb(const PatternDb&) = delete;  // (values may point into owned_)
  PatternDb& operator=(const PatternDb&) = delete;
  std::vector<int8_t> targets;  // of the group's pieces, in index order
  // The perfect index of salta/index.h: the layout of a large stored table
  // (TableLayout::kChunked), smaller on disk; converted as it is saved and
  // loaded.
  PlacementIndex index;
  std::array<uint32_t, kMaxGroupSize> weight{};  // SparseWeights
  // By sparse index; kPdbUnreachable: cannot finish. In memory the
  // database owns (built, or read from a compressed table), or in a stored
  // table's file, mapped and read in place.
  absl::Span<const uint8_t> values;
  // Whether some placement, each piece on a square it can finish from,
  // needs more than the pieces' distances (a conflict): found as groups
  // of two are built (the bound of pairs skips the others), else true.
  bool beyond_distances = true;
  // The value with piece j of the group on squares[j].
  uint8_t At(const int8_t* squares) const {
    uint64_t at = 0;
    for (size_t j = 0; j < targets.size(); ++j) at += uint64_t(squares[j]) * weight[j];
    return values[at];
  }
  // The values are `bytes`, owned from now on.
  void Own(TableBytes bytes) {
    owned_ = std::move(bytes);
    values = absl::MakeConstSpan(owned_);
  }
  // The values are `bytes`, kept valid by `holder` (a table and its value).
  void Borrow(absl::Span<const uint8_t> bytes, std::shared_ptr<const void> holder) {
    holder_ = std::move(holder);
    values = bytes;
  }

 private:
  TableBytes owned_;
  std::shared_ptr<const void> holder_;
};

// The entries of a database of k pieces on n squares by sparse index.
uint64_t SparseSize(int n, int k);

// How a database is stored. Up to 64 MB by sparse index (four pieces on
// 10x10: 6.25 MB), as the searches read it, uncompressed, and read in
// place as it is loaded (loading twelve such tables, copied, took 0.1 to
// 0.2 s, most of it the kernel clearing fresh memory); larger ones (five
// pieces: 312 MB) by the perfect index, compressed (a few MB).
enum class TableLayout { kInPlace, kChunked };
TableLayout LayoutFor(int n, int k);

// Breadth-first search backwards from the group's goal; targets.size() is
// at most kMaxGroupSize. Needs a problem without jumps.
std::shared_ptr<const PatternDb> BuildPatternDb(const Problem& p,
                                                const std::vector<int8_t>& targets);
// Sets a database of two pieces' beyond_distances from its values (built
// or loaded alike).
void FindBeyondDistances(const Problem& p, PatternDb& pdb);

// The table stored at `dir` (salta/store.h): NotFound when there is none;
// DataLoss when there is one of ours that is damaged, incomplete or of
// another format (to be rebuilt); any other error as it came.
// `format`: how the table found there was stored.
enum class StoredFormat {
  kCurrent,
  kOlderChecksum,  // with an older, slower checksum (store.h): loaded
  kAnother,        // in another layout (an earlier release's): DataLoss, to be rebuilt
};
// `layout`: how it is stored (LayoutFor the group's size).
absl::StatusOr<std::shared_ptr<const PatternDb>> LoadPatternTable(
    const Problem& p, const std::vector<int8_t>& targets, const std::string& dir,
    TableLayout layout, StoredFormat& format);
// Stores the database at `dir`; `replace`: the table now there (damaged,
// or outdated) is to be replaced.
absl::Status SavePatternTable(const Problem& p, const PatternDb& pdb, const std::string& dir,
                              TableLayout layout, bool replace);
// A set: the databases of `groups` stored together in one table at `dir`
// (each a value read in place, TableLayout::kInPlace), so that a count
// opens and checks one table for a bound's partitions, not one a group
// (twelve tables of four on 10x10 took 9 ms to open, one 0.8 ms). Loaded
// as LoadPatternTable, in the order of `groups`; a set of other groups is
// of another format.
absl::StatusOr<std::vector<std::shared_ptr<const PatternDb>>> LoadPatternSet(
    const Problem& p, const std::vector<std::vector<int8_t>>& groups, const std::string& dir,
    StoredFormat& format);
absl::Status SavePatternSet(const Problem& p,
                            const std::vector<std::shared_ptr<const PatternDb>>& dbs,
                            const std::string& dir, bool replace);

// Stores a table at `dir` by `write`: under a scratch name of this process
// (ScratchDirOf), then renamed into place, so that other processes only
// ever see complete tables, and two processes storing the same table at
// once do not meet. The scratch is removed where the table cannot be
// written, and so are those of `dir` that processes of this machine,
// killed while storing it, left (a table of five on 10x10 is 312 MB).
// `replace`: the table now there (damaged, or outdated) is replaced.
absl::Status StoreTable(const std::string& dir, const TableMeta& meta, bool uncompressed,
                        bool replace, const std::function<absl::Status(Table&)>& write);
// `dir`.new-HOST-PID-SERIAL: whose it is, so that one left by a process
// that no longer runs can be told from one still being written.
std::string ScratchDirOf(const std::string& dir);

// Where tables come from and what to tell the user about them.
struct PatternSource {
  std::string dir;  // empty: in memory only
  // Told when a stored table is damaged (and rebuilt) or built and stored.
  std::function<void(const std::string&)> report;
};

// Databases kept in memory, by key; past `max_bytes` in all, those used
// least recently are dropped (where a process counts many slow positions,
// the count back's, built for one position's squares, before the tables
// every count uses).
class PatternCache {
 public:
  explicit PatternCache(size_t max_bytes) : max_bytes_(max_bytes) {}
  // The process's cache, shared by every count (behind a mutex).
  static PatternCache& Process();

  // nullptr where the key is not kept.
  std::shared_ptr<const PatternDb> Lookup(const std::string& key);
  // The database kept for the key: the one given, or the one kept before.
  std::shared_ptr<const PatternDb> Insert(const std::string& key,
                                          std::shared_ptr<const PatternDb> pdb);

 private:
  struct Entry {
    std::shared_ptr<const PatternDb> pdb;
    std::list<std::string>::iterator used;  // in order_
  };
  const size_t max_bytes_;
  std::mutex mu_;
  std::map<std::string, Entry> map_;
  std::list<std::string> order_;  // least recently used first
  size_t bytes_ = 0;
};

// How far FindPatternDb goes for a database.
enum class Find {
  kCached,  // the process's cache only
  kStored,  // the cache, else a table in source.dir (a damaged one rebuilt)
  kAhead,   // as kStored, but a damaged table is reported and left for the
            // next build ahead: for tables too large to build in a count
  kBuild,   // the cache, else a table, else built (and stored in source.dir)
  kSave,    // as kBuild, and a table in source.dir afterwards even where the
            // cache had the database (building ahead)
};

// The database for the group, from the process's cache, else loaded from
// source.dir, else built (and stored in source.dir): NotFound when `find`
// stops short of it. A damaged stored table is reported and rebuilt; a
// directory that holds some other kind of table, and any I/O or database
// error, is an error.
absl::StatusOr<std::shared_ptr<const PatternDb>> FindPatternDb(const Problem& p,
                                                               const std::vector<int8_t>& targets,
                                                               const PatternSource& source,
                                                               Find find = Find::kBuild);
// The databases of `groups` as FindPatternDb finds one, stored together (a
// set, `name`d for what it holds, as "groups_of_4" or "pairs"): all from
// the cache, else the set's table, else built (those the cache lacks) and
// stored as one; NotFound where `find` stops short. A set built faster
// than a table opens (small boards) is never stored.
absl::StatusOr<std::vector<std::shared_ptr<const PatternDb>>> FindPatternSet(
    const Problem& p, absl::string_view name, const std::vector<std::vector<int8_t>>& groups,
    const PatternSource& source, Find find);
// The directory a database's table has under `dir`, and a set's (by its
// name and its targets).
std::string PatternTableDir(const Problem& p, const std::vector<int8_t>& targets,
                            const std::string& dir);
std::string PatternSetDir(const Problem& p, absl::string_view name,
                          const std::vector<std::vector<int8_t>>& groups, const std::string& dir);

// A partition of the pieces into groups, each with its database (or, for
// groups of one piece, its relaxed distances).
struct Group {
  std::vector<int> pieces;
  std::shared_ptr<const PatternDb> pdb;
};
using Partition = std::vector<Group>;

// The partitions' databases, group by group in order.
std::vector<const PatternDb*> DatabasesOf(const std::vector<Partition>& partitions);

// A group's pieces (in its database's index order) and its database, for
// the searches' hot paths: the cost of where the pieces stand.
struct GroupCost {
  const uint8_t* values = nullptr;
  int size = 0;
  std::array<int8_t, kMaxGroupSize> pieces{};
  std::array<uint32_t, kMaxGroupSize> weight{};  // the database's SparseWeights

  GroupCost() = default;
  GroupCost(const PatternDb& db, const std::vector<int>& group_pieces)
      : values(db.values.data()), size(int(group_pieces.size())), weight(db.weight) {
    for (int j = 0; j < size; ++j) pieces[j] = int8_t(group_pieces[j]);
  }
  // Each piece's weight in the index, by piece (entries of other pieces
  // left as they are).
  template <size_t N>
  void WeightsByPiece(std::array<uint32_t, N>& weight_of) const {
    for (int j = 0; j < size; ++j) weight_of[pieces[j]] = weight[j];
  }
  // Where the pieces stand in sq: the sparse index (SparseWeights).
  uint32_t IndexOf(const Squares& sq) const {
    uint32_t at = 0;
    for (int j = 0; j < size; ++j) at += uint32_t(sq[pieces[j]]) * weight[j];
    return at;
  }
  // The cost at a sparse index (kInf: cannot finish).
  int ValueAt(uint32_t at) const {
    const uint8_t v = values[at];
    return v == kPdbUnreachable ? kInf : v;
  }
};

// The pieces sorted by target (file, then rank): the order of the pieces in
// the databases' groups, and so in their tables' keys.
std::vector<int> ByTarget(const Problem& p, std::vector<int> pieces);
// All of p's pieces so.
std::vector<int> PiecesByTarget(const Problem& p);

// Partitions by where pieces go: the pieces sorted by target (file, then
// rank) and cut into runs of `size`, the first run `offset` long (one
// partition per offset), so that pieces whose paths cross the same squares
// share a group in some partition. Only the piece indices; no databases.
std::vector<std::vector<std::vector<int>>> PartitionsByTarget(const Problem& p, int size,
                                                              const std::vector<int>& offsets);

// The bytes building a database of k pieces on n squares holds at most.
uint64_t BuildBytes(int n, int k);
// How many of `tables` databases to build at once: one a core, as many as
// `available` bytes hold at `per_table` each (0: not known, no cap), one
// at least.
int BuildThreads(int cores, size_t tables, uint64_t available, uint64_t per_table);

// The groups of `layout` with their databases: stored together where each
// is read in place (FindPatternSet), else one table each (FindPatternDb,
// five pieces on 10x10); an empty list when `find` stops short of one.
absl::StatusOr<std::vector<Partition>> ResolvePartitions(
    const Problem& p, const std::vector<std::vector<std::vector<int>>>& layout,
    const PatternSource& source, Find find);

// A partition chosen by the position: `groups` (disjoint, of at most three
// pieces) and the other pieces in runs of three by target, with databases
// built in memory (milliseconds each).
absl::StatusOr<Partition> ConflictPartition(const Problem& p,
                                            const std::vector<std::vector<int>>& groups);

// One partition of single pieces with their relaxed distances (jumps as if
// always possible): the bound where no database applies.
Partition SinglePieces(const Problem& p);

}  // namespace salta::finish_internal
