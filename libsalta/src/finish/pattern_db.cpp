#include "finish/pattern_db.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <type_traits>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "machine.h"
#include "salta/notation.h"
#include "salta/parallel.h"
#include "salta/store.h"

namespace salta::finish_internal {

uint64_t SparseSize(int n, int k) {
  uint64_t size = 1;
  for (int j = 0; j < k; ++j) size *= uint64_t(n);
  return size;
}

TableLayout LayoutFor(int n, int k) {
  return SparseSize(n, k) <= (uint64_t(64) << 20) ? TableLayout::kInPlace : TableLayout::kChunked;
}

namespace {

// Calls row(at, taken) for every placement of all but the last piece
// (pieces 0..j-1 on `used`, at sparse index `sparse`), in the perfect
// index's order: the last piece, weighing 1, then stands at sparse
// indices at to at + n - 1, its squares in `taken` held by the others.
template <typename Row>
void ByRows(int j, int k, int n, Bitboard used, uint64_t sparse, const uint32_t* weight, Row& row) {
  if (j + 1 == k) {
    row(sparse, used);
    return;
  }
  for (Square s = 0; s < n; ++s)
    if (!Contains(used, s))
      ByRows(j + 1, k, n, used | SquareBit(s), sparse + uint64_t(s) * weight[j], weight, row);
}

// Calls run(sparse_at, dense_at, len) for the database's placements in
// runs of the last piece's squares that follow each other both by sparse
// index and by the perfect index (the stored layout, `dense`), in order.
template <typename Run>
void ForEachRun(const PatternDb& pdb, Run run) {
  const int k = int(pdb.targets.size()), n = pdb.index.num_squares();
  if (k == 0) {  // one placement, the empty one
    run(0, 0, 1);
    return;
  }
  uint64_t dense = 0;
  auto row = [&](uint64_t at, Bitboard taken) {
    // The runs between the squares taken.
    Square s = 0;
    for (;; taken &= taken - 1) {
      const Square end = taken ? Square(std::countr_zero(taken)) : Square(n);
      if (end > s) {
        run(at + uint64_t(s), dense, size_t(end - s));
        dense += uint64_t(end - s);
      }
      if (!taken) return;
      s = end + 1;
    }
  };
  ByRows(0, k, n, 0, 0, pdb.weight.data(), row);
}

// Copies len <= 64 bytes (a run of ForEachRun) by two fixed-size moves
// that may overlap: memcpy of a length known only when run, inlined as
// `rep movs`, took a table of four on 10x10 1.6 ms to load where this
// takes 1.0 ms.
inline void CopyRun(uint8_t* to, const uint8_t* from, size_t len) {
  auto two = [&](auto size) {
    std::memcpy(to, from, size);
    std::memcpy(to + len - size, from + len - size, size);
  };
  if (len >= 32)
    two(std::integral_constant<size_t, 32>());
  else if (len >= 16)
    two(std::integral_constant<size_t, 16>());
  else if (len >= 8)
    two(std::integral_constant<size_t, 8>());
  else if (len >= 4)
    two(std::integral_constant<size_t, 4>());
  else
    for (size_t i = 0; i < len; ++i) to[i] = from[i];
}

// The sets of the search, one bitboard of the last piece's squares a
// block: a step of the last piece is a few bitboard operations for all of
// a block's placements at once, and a step of another piece moves the
// whole set to another block. (A queue of placements, one at a time, took
// 0.4 s for four pieces on 10x10 where this takes 0.05 s; five, 84 s
// against 3.7 s.) The blocks are grouped by where all but the last two
// pieces stand (a super-block, one block a square of the last but one):
// a step of one of those pieces moves a whole super-block at once, rows
// side by side, where moving block by block took 1.7 to 2.2 times as long.
struct Layers {
  std::vector<Bitboard> seen, now, next;  // by block
  // By super-block, whether it holds any of the layer (now), and any of
  // the next by a step of one of the pieces that fix it (next).
  std::vector<uint8_t> active_now, active_next;
  Layers(uint64_t supers, int rows)
      : seen(supers * rows, 0),
        now(supers * rows, 0),
        next(supers * rows, 0),
        active_now(supers, 0),
        active_next(supers, 0) {}
};

}  // namespace

std::array<uint32_t, kMaxGroupSize> SparseWeights(int n, int k) {
  static_assert(
      [] {
        uint64_t size = 1;
        for (int j = 0; j < kMaxGroupSize; ++j) size *= kMaxSquares;
        return size <= (uint64_t(1) << 32);
      }(),
      "a sparse index fits in 32 bits");
  std::array<uint32_t, kMaxGroupSize> weight{};
  for (int j = 0; j < k; ++j) weight[j] = uint32_t(SparseSize(n, k - 1 - j));
  return weight;
}

PatternDb::PatternDb(std::vector<int8_t> group_targets, PlacementIndex stored_index)
    : targets(std::move(group_targets)),
      index(stored_index),
      weight(SparseWeights(index.num_squares(), int(targets.size()))) {}

void FindBeyondDistances(const Problem& p, PatternDb& pdb) {
  if (pdb.targets.size() != 2) return;
  pdb.beyond_distances = false;
  for (Square a = 0; a < p.n; ++a)
    for (Square b = 0; b < p.n; ++b) {
      const int da = p.dist[a][pdb.targets[0]], db = p.dist[b][pdb.targets[1]];
      if (a != b && da != Problem::kNoWay && db != Problem::kNoWay &&
          pdb.values[a * pdb.weight[0] + b * pdb.weight[1]] != da + db) {
        pdb.beyond_distances = true;
        return;
      }
    }
}

std::shared_ptr<const PatternDb> BuildPatternDb(const Problem& p,
                                                const std::vector<int8_t>& targets) {
  const int k = int(targets.size()), n = p.n, last = k - 1;
  // Pieces 0..k-3 fix a super-block; piece k-2 picks its row, the block
  // (one bitboard, of the last piece's squares). With one piece, one row.
  // A block's index is the sparse index of the pieces but the last, so
  // that the distances below are the table.
  const bool row_piece = k >= 2;  // piece k-2 picks the row
  const int fixed = std::max(0, k - 2);
  const int rows = row_piece ? n : 1;
  const uint64_t supers = SparseSize(n, fixed);
  const uint64_t blocks = supers * uint64_t(rows);
  TableBytes dist(blocks * uint64_t(n), kPdbUnreachable);
  // The squares a piece now on s came from by a step.
  std::array<Bitboard, kMaxSquares> from{};
  for (Square s = 0; s < n; ++s)
    for (int d = 0; d < p.num_step_dirs; ++d)
      if (const int f = p.step_from[s][d]; f >= 0) from[s] |= SquareBit(f);
  const std::array<uint32_t, kMaxGroupSize> super_weight = SparseWeights(n, fixed);
  Layers layers(supers, rows);
  uint64_t goal_super = 0;
  for (int j = 0; j < fixed; ++j) goal_super += uint64_t(targets[j]) * super_weight[j];
  const uint64_t goal = goal_super * rows + (row_piece ? uint64_t(targets[k - 2]) : 0);
  layers.seen[goal] = layers.now[goal] = SquareBit(targets[last]);
  layers.active_now[goal_super] = 1;
  dist[goal * uint64_t(n) + uint64_t(targets[last])] = 0;
  // Backwards from the goal, a layer of placements at a time.
  for (int d = 0; d + 1 < kPdbUnreachable; ++d) {
    for (uint64_t sb = 0; sb < supers; ++sb) {
      if (!layers.active_now[sb]) continue;
      int sq[kMaxGroupSize];
      Bitboard fixed_on = 0;
      uint64_t rest = sb;
      for (int j = fixed - 1; j >= 0; --j) {
        sq[j] = int(rest % uint64_t(n));
        rest /= uint64_t(n);
        fixed_on |= SquareBit(sq[j]);
      }
      const Bitboard* now = layers.now.data() + sb * rows;
      Bitboard* next = layers.next.data() + sb * rows;
      // The last piece, and piece k-2, step within the super-block.
      for (int r = 0; r < rows; ++r) {
        const Bitboard here = now[r];
        if (!here) continue;
        const Bitboard occupied = fixed_on | (row_piece ? SquareBit(r) : 0);
        Bitboard came = 0;
        for (Bitboard h = here; h; h &= h - 1) came |= from[std::countr_zero(h)];
        next[r] |= came & ~occupied;
        if (row_piece)
          for (Bitboard f = from[r] & ~fixed_on; f; f &= f - 1) {
            const int s = std::countr_zero(f);
            next[s] |= here & ~SquareBit(s);
          }
      }
      // The fixed pieces: a step moves the whole super-block, but for the
      // row where piece k-2 stands on the square stepped to.
      for (int j = 0; j < fixed; ++j)
        for (Bitboard f = from[sq[j]] & ~fixed_on; f; f &= f - 1) {
          const int s = std::countr_zero(f);
          const uint64_t to =
              uint64_t(int64_t(sb) + (int64_t(s) - sq[j]) * int64_t(super_weight[j]));
          Bitboard* dst = layers.next.data() + to * rows;
          const Bitboard keep = dst[s], mask = ~SquareBit(s);
          for (int r = 0; r < rows; ++r) dst[r] |= now[r] & mask;
          dst[s] = keep;
          layers.active_next[to] = 1;
        }
    }
    bool more = false;
    for (uint64_t sb = 0; sb < supers; ++sb) {
      if (!layers.active_now[sb] && !layers.active_next[sb]) continue;
      bool any = false;
      for (int r = 0; r < rows; ++r) {
        const uint64_t b = sb * rows + r;
        const Bitboard fresh = layers.next[b] & ~layers.seen[b];
        layers.next[b] = 0;
        layers.now[b] = fresh;
        if (!fresh) continue;
        any = true;
        layers.seen[b] |= fresh;
        uint8_t* row = dist.data() + b * uint64_t(n);
        for (Bitboard f = fresh; f; f &= f - 1) row[std::countr_zero(f)] = uint8_t(d + 1);
      }
      layers.active_now[sb] = any;
      layers.active_next[sb] = 0;
      more |= any;
    }
    if (!more) break;
  }
  // The search's distances are the table: they are by sparse index.
  auto pdb = std::make_shared<PatternDb>(targets, *PlacementIndex::Make(n, k));
  pdb->Own(std::move(dist));
  FindBeyondDistances(p, *pdb);
  return pdb;
}

// ---------------------------------------------------------------------------
// Storage. The databases of up to 64 MB by sparse index
// (TableLayout::kInPlace) that a bound's partitions use are stored
// together, one table for all (a set: ResolvePartitions), each database one
// uncompressed value read in place. Larger ones (built ahead) are stored
// one table each (PatternTableDir), in place or by the perfect index in
// compressed chunks of 1 MiB (TableLayout).

namespace {

constexpr size_t kChunk = size_t(1) << 20;
constexpr char kTableKind[] = "finish-pdb";
constexpr char kSetKind[] = "finish-pdb-set";

// What a table read in place holds: the table, open, and its values.
struct InPlaceTable {
  std::unique_ptr<Table> table;
  std::vector<PinnedValue> values;  // (released before the table)
};

std::string StepsName(const Problem& p) {
  return p.num_step_dirs == 4 ? "any" : "forward";
}

// "a9,b8,b10": the targets' squares, in order.
std::string TargetNames(const Problem& p, const std::vector<int8_t>& targets) {
  std::string names;
  for (size_t j = 0; j < targets.size(); ++j)
    absl::StrAppend(&names, j ? "," : "", SquareName(*p.g, targets[j]));
  return names;
}

std::string VariantKey(const Problem& p) {
  return absl::StrCat(p.g->size(), "x", p.g->size(), " steps=", StepsName(p));
}

std::string CacheKey(const Problem& p, const std::vector<int8_t>& targets) {
  return absl::StrCat(VariantKey(p), " targets=", TargetNames(p, targets));
}

TableMeta MetaOf(const Problem& p, absl::string_view kind, int version,
                 const std::string& parameters) {
  TableMeta meta;
  meta.kind = std::string(kind);
  meta.version = version;
  meta.geometry = absl::StrCat(p.g->size(), "x", p.g->size());
  meta.rules = absl::StrCat("steps=", StepsName(p));
  meta.parameters = parameters;
  return meta;
}

TableMeta TableMetaOf(const Problem& p, const std::vector<int8_t>& targets, TableLayout layout) {
  return MetaOf(p, kTableKind, layout == TableLayout::kInPlace ? 3 : 2, CacheKey(p, targets));
}

// A set's parameters name every group, in order: a set of other groups is
// of another format.
TableMeta SetMetaOf(const Problem& p, const std::vector<std::vector<int8_t>>& groups) {
  std::string parameters = absl::StrCat(VariantKey(p), " groups=");
  for (size_t g = 0; g < groups.size(); ++g)
    absl::StrAppend(&parameters, g ? " " : "", TargetNames(p, groups[g]));
  return MetaOf(p, kSetKind, 1, parameters);
}

// Why a pattern table did not open, for the caller: NotFound as it came;
// DataLoss where the table is ours to rebuild (damaged, incomplete, or of
// another layout or version: `format`); an error where the directory holds
// another kind of table, or could not be read.
absl::Status NotOpened(const std::string& dir, const TableMeta& want, const absl::Status& s,
                       StoredFormat& format) {
  if (absl::IsNotFound(s)) return s;
  if (!absl::IsFailedPrecondition(s) && !absl::IsDataLoss(s)) return s;
  absl::StatusOr<TableMeta> meta = Table::ReadMeta(dir);
  if (meta.ok() && meta->kind != kTableKind && meta->kind != kSetKind)
    return absl::FailedPreconditionError(
        absl::StrCat(dir, " holds a \"", meta->kind,
                     "\" table, not a pattern table: choose another pattern directory"));
  // (A set named as this one but of other groups: partitions another
  // release chose.)
  if (meta.ok() && (meta->kind != want.kind || meta->version != want.version ||
                    (want.kind == kSetKind && meta->parameters != want.parameters)))
    format = StoredFormat::kAnother;
  return absl::DataLossError(s.message());
}

// Opens a table of values read in place (checked once, as it opens).
absl::StatusOr<std::unique_ptr<Table>> OpenInPlace(const std::string& dir, const TableMeta& want,
                                                   StoredFormat& format) {
  Table::OpenOptions options;
  options.verify_checksum = true;
  options.map_files = true;
  absl::StatusOr<std::unique_ptr<Table>> table = Table::Open(dir, want, options);
  if (!table.ok()) return NotOpened(dir, want, table.status(), format);
  if ((*table)->checksum_kind() != Table::kChecksumNow) format = StoredFormat::kOlderChecksum;
  return table;
}

// The value at `key` of a table read in place, of `size` bytes.
absl::StatusOr<PinnedValue> ValueInPlace(const Table& table, const std::string& dir, uint64_t key,
                                         uint64_t size) {
  absl::StatusOr<std::optional<PinnedValue>> value = table.GetPinned(EncodeKey(key));
  if (!value.ok()) return value.status();  // (damage: DataLoss, rebuilt by the caller)
  if (!value->has_value() || (*value)->bytes().size() != size)
    return absl::DataLossError(absl::StrCat("pattern table ", dir, " has malformed values"));
  return std::move(**value);
}

// A database of `targets` whose values lie in `value`, kept by `held`.
std::shared_ptr<const PatternDb> InPlaceDb(const Problem& p, const std::vector<int8_t>& targets,
                                           const PinnedValue& value,
                                           std::shared_ptr<const void> held) {
  auto pdb = std::make_shared<PatternDb>(targets, *PlacementIndex::Make(p.n, int(targets.size())));
  const absl::string_view bytes = value.bytes();
  pdb->Borrow(absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
              std::move(held));
  FindBeyondDistances(p, *pdb);
  return pdb;
}

}  // namespace

absl::StatusOr<std::shared_ptr<const PatternDb>> LoadPatternTable(
    const Problem& p, const std::vector<int8_t>& targets, const std::string& dir,
    TableLayout layout, StoredFormat& format) {
  format = StoredFormat::kCurrent;
  const TableMeta want = TableMetaOf(p, targets, layout);
  const uint64_t sparse = SparseSize(p.n, int(targets.size()));
  if (layout == TableLayout::kInPlace) {
    absl::StatusOr<std::unique_ptr<Table>> table = OpenInPlace(dir, want, format);
    if (!table.ok()) return table.status();
    if ((*table)->count() != 1)
      return absl::DataLossError(
          absl::StrCat("pattern table ", dir, " has ", (*table)->count(), " entries, expected 1"));
    absl::StatusOr<PinnedValue> value = ValueInPlace(**table, dir, 0, sparse);
    if (!value.ok()) return value.status();
    auto held = std::make_shared<InPlaceTable>();
    held->table = std::move(*table);
    held->values.push_back(std::move(*value));
    return InPlaceDb(p, targets, held->values.front(), held);
  }
  // Checked while it is read (ForEachVerified).
  Table::OpenOptions options;
  options.verify_checksum = false;
  absl::StatusOr<std::unique_ptr<Table>> table = Table::Open(dir, want, options);
  if (!table.ok()) return NotOpened(dir, want, table.status(), format);
  if ((*table)->checksum_kind() != Table::kChecksumNow) format = StoredFormat::kOlderChecksum;
  absl::StatusOr<PlacementIndex> index = PlacementIndex::Make(p.n, int(targets.size()));
  if (!index.ok()) return index.status();
  auto pdb = std::make_shared<PatternDb>(targets, *index);
  const uint64_t size = index->size();
  const uint64_t chunks = (size + kChunk - 1) / kChunk;
  // Every chunk once: as many as there are, each of its own key.
  if ((*table)->count() != chunks)
    return absl::DataLossError(absl::StrCat("pattern table ", dir, " has ", (*table)->count(),
                                            " chunks, expected ", chunks));
  std::vector<uint8_t> stored(size);
  absl::Status read =
      (*table)->ForEachVerified([&](absl::string_view key, absl::string_view value) {
        const std::optional<uint64_t> chunk = DecodeKey(key);
        if (!chunk || *chunk >= chunks ||
            value.size() != std::min<uint64_t>(kChunk, size - *chunk * kChunk))
          return absl::DataLossError(absl::StrCat("pattern table ", dir, " has a malformed chunk"));
        std::memcpy(stored.data() + *chunk * kChunk, value.data(), value.size());
        return absl::OkStatus();
      });
  if (!read.ok()) return read;  // (damage: DataLoss, rebuilt by the caller)
  TableBytes values(sparse, kPdbUnreachable);
  ForEachRun(*pdb, [&](uint64_t sparse_at, uint64_t dense_at, size_t len) {
    CopyRun(values.data() + sparse_at, stored.data() + dense_at, len);
  });
  pdb->Own(std::move(values));
  FindBeyondDistances(p, *pdb);
  return std::shared_ptr<const PatternDb>(std::move(pdb));
}

namespace {

// The scratch names' prefix for `dir` on this machine.
std::string ScratchPrefixOf(const std::string& dir) {
  char host[256] = {};
  if (gethostname(host, sizeof(host) - 1) != 0) host[0] = '\0';
  return absl::StrCat(dir, ".new-", host, "-");
}

// Removes the scratch directories of `dir` whose process (on this machine)
// no longer runs. Best effort: what cannot be read or removed is left.
void RemoveAbandonedScratch(const std::string& dir) {
  const std::filesystem::path prefix = ScratchPrefixOf(dir);
  const std::string name = prefix.filename().string();
  std::error_code ec;
  for (std::filesystem::directory_iterator it(prefix.parent_path(), ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string entry = it->path().filename().string();
    if (!absl::StartsWith(entry, name)) continue;
    // PID-SERIAL after the prefix.
    const std::vector<absl::string_view> rest =
        absl::StrSplit(absl::string_view(entry).substr(name.size()), '-');
    int pid = 0;
    uint64_t serial = 0;
    if (rest.size() != 2 || !absl::SimpleAtoi(rest[0], &pid) || pid <= 0 ||
        !absl::SimpleAtoi(rest[1], &serial))
      continue;
    if (pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH) continue;
    std::error_code ignored;
    std::filesystem::remove_all(it->path(), ignored);
  }
}

}  // namespace

std::string ScratchDirOf(const std::string& dir) {
  static std::atomic<uint64_t> serial{0};
  return absl::StrCat(ScratchPrefixOf(dir), getpid(), "-", serial++);
}

absl::Status StoreTable(const std::string& dir, const TableMeta& meta, bool uncompressed,
                        bool replace, const std::function<absl::Status(Table&)>& write) {
  RemoveAbandonedScratch(dir);
  const std::string scratch = ScratchDirOf(dir);
  absl::Status written = [&]() -> absl::Status {
    Table::CreateOptions create;
    create.replace = true;
    create.uncompressed = uncompressed;
    absl::StatusOr<std::unique_ptr<Table>> table = Table::Create(scratch, meta, create);
    if (!table.ok()) return table.status();
    if (absl::Status s = write(**table); !s.ok()) return s;
    return (*table)->Finish();
  }();  // (the table closed: its files whole before the rename)
  std::error_code ec, ignored;
  if (!written.ok()) {
    std::filesystem::remove_all(scratch, ignored);
    return written;
  }
  // The table replaced moves aside in one step, and goes once the new one
  // is in place: removed where it lay, another process read half of it, or
  // stored its own in the meantime and lost it.
  std::string aside;
  if (replace) {
    aside = ScratchDirOf(dir);
    std::filesystem::rename(dir, aside, ec);
    if (ec == std::errc::no_such_file_or_directory) {
      aside.clear();  // (another process moved it first)
    } else if (ec) {
      std::filesystem::remove_all(scratch, ignored);
      return absl::InternalError(
          absl::StrCat("cannot move ", dir, " aside to replace it: ", ec.message()));
    }
  }
  // Another process that stored the table first stored one as good: a
  // rename onto it fails, and it stays. (Tried again where the table went
  // away between the two, moved aside by a third.)
  bool in_place = false;
  for (int tries = 0; tries < 4 && !in_place; ++tries) {
    std::filesystem::rename(scratch, dir, ec);
    in_place = !ec || std::filesystem::is_directory(dir, ignored);
  }
  if (ec) std::filesystem::remove_all(scratch, ignored);
  if (!aside.empty()) std::filesystem::remove_all(aside, ignored);
  if (!in_place)
    return absl::InternalError(
        absl::StrCat("cannot rename ", scratch, " to ", dir, ": ", ec.message()));
  return absl::OkStatus();
}

absl::Status SavePatternTable(const Problem& p, const PatternDb& pdb, const std::string& dir,
                              TableLayout layout, bool replace) {
  const bool in_place = layout == TableLayout::kInPlace;
  return StoreTable(dir, TableMetaOf(p, pdb.targets, layout), in_place, replace, [&](Table& table) {
    if (in_place) {
      const absl::string_view bytes(reinterpret_cast<const char*>(pdb.values.data()),
                                    pdb.values.size());
      return table.Put(EncodeKey(0), bytes);
    }
    std::vector<uint8_t> stored(pdb.index.size());
    ForEachRun(pdb, [&](uint64_t sparse_at, uint64_t dense_at, size_t len) {
      CopyRun(stored.data() + dense_at, pdb.values.data() + sparse_at, len);
    });
    const uint64_t size = stored.size();
    for (uint64_t chunk = 0; chunk * kChunk < size; ++chunk) {
      const uint64_t len = std::min<uint64_t>(kChunk, size - chunk * kChunk);
      absl::string_view bytes(reinterpret_cast<const char*>(stored.data()) + chunk * kChunk, len);
      if (absl::Status s = table.Put(EncodeKey(chunk), bytes); !s.ok()) return s;
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<std::vector<std::shared_ptr<const PatternDb>>> LoadPatternSet(
    const Problem& p, const std::vector<std::vector<int8_t>>& groups, const std::string& dir,
    StoredFormat& format) {
  format = StoredFormat::kCurrent;
  absl::StatusOr<std::unique_ptr<Table>> table = OpenInPlace(dir, SetMetaOf(p, groups), format);
  if (!table.ok()) return table.status();
  if ((*table)->count() != groups.size())
    return absl::DataLossError(absl::StrCat("pattern table ", dir, " has ", (*table)->count(),
                                            " entries, expected ", groups.size()));
  auto held = std::make_shared<InPlaceTable>();
  for (size_t g = 0; g < groups.size(); ++g) {
    absl::StatusOr<PinnedValue> value =
        ValueInPlace(**table, dir, g, SparseSize(p.n, int(groups[g].size())));
    if (!value.ok()) return value.status();
    held->values.push_back(std::move(*value));
  }
  held->table = std::move(*table);
  std::vector<std::shared_ptr<const PatternDb>> dbs;
  for (size_t g = 0; g < groups.size(); ++g)
    dbs.push_back(InPlaceDb(p, groups[g], held->values[g], held));
  return dbs;
}

absl::Status SavePatternSet(const Problem& p,
                            const std::vector<std::shared_ptr<const PatternDb>>& dbs,
                            const std::string& dir, bool replace) {
  std::vector<std::vector<int8_t>> groups;
  for (const auto& db : dbs) groups.push_back(db->targets);
  return StoreTable(dir, SetMetaOf(p, groups), /*uncompressed=*/true, replace, [&](Table& table) {
    for (size_t g = 0; g < dbs.size(); ++g) {
      const absl::string_view bytes(reinterpret_cast<const char*>(dbs[g]->values.data()),
                                    dbs[g]->values.size());
      if (absl::Status s = table.Put(EncodeKey(g), bytes); !s.ok()) return s;
    }
    return absl::OkStatus();
  });
}

PatternCache& PatternCache::Process() {
  // Two variants' databases of five pieces on 10x10 (nine of 312 MB each
  // in memory; the two sides of a variant share them).
  static PatternCache* cache = new PatternCache(size_t(6) << 30);  // used until exit
  return *cache;
}

std::shared_ptr<const PatternDb> PatternCache::Lookup(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = map_.find(key);
  if (it == map_.end()) return nullptr;
  order_.splice(order_.end(), order_, it->second.used);
  return it->second.pdb;
}

std::shared_ptr<const PatternDb> PatternCache::Insert(const std::string& key,
                                                      std::shared_ptr<const PatternDb> pdb) {
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, inserted] = map_.emplace(key, Entry{std::move(pdb), {}});
  if (!inserted) {
    order_.splice(order_.end(), order_, it->second.used);
    return it->second.pdb;
  }
  it->second.used = order_.insert(order_.end(), key);
  bytes_ += it->second.pdb->values.size();
  std::shared_ptr<const PatternDb> kept = it->second.pdb;  // (it may be dropped)
  while (bytes_ > max_bytes_ && order_.size() > 1) {
    auto old = map_.find(order_.front());
    bytes_ -= old->second.pdb->values.size();
    map_.erase(old);
    order_.pop_front();
  }
  return kept;
}

namespace {

std::string DirName(std::string name) {
  for (char& c : name)
    if (c == ' ' || c == '=' || c == ',') c = '_';
  return name;
}

}  // namespace

std::string PatternTableDir(const Problem& p, const std::vector<int8_t>& targets,
                            const std::string& dir) {
  return absl::StrCat(dir, "/", DirName(CacheKey(p, targets)));
}

std::string PatternSetDir(const Problem& p, absl::string_view name,
                          const std::vector<std::vector<int8_t>>& groups, const std::string& dir) {
  std::vector<int8_t> targets;
  for (const std::vector<int8_t>& group : groups)
    for (int8_t t : group)
      if (std::find(targets.begin(), targets.end(), t) == targets.end()) targets.push_back(t);
  return absl::StrCat(
      dir, "/",
      DirName(absl::StrCat(VariantKey(p), " ", name, " targets=", TargetNames(p, targets))));
}

namespace {

// The directory at `path` as the file system knows it (device and inode);
// nullopt where there is none.
std::optional<std::pair<uint64_t, uint64_t>> DirIdentity(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return std::make_pair(uint64_t(st.st_dev), uint64_t(st.st_ino));
}

// `load()` of the table at dir, again where another process replaced or
// stored the table as it was read (StoreTable's renames: the files named
// then are another table's, which is no damage, nor a missing table).
template <typename Load>
auto LoadSteadily(const std::string& dir, const Load& load) {
  for (int tries = 0;; ++tries) {
    const auto before = DirIdentity(dir);
    auto loaded = load();
    if (loaded.ok() || tries == 2 || DirIdentity(dir) == before) return loaded;
  }
}

// What a find does where a stored table did not load (`s`; found in
// `format`): returns an error, or NotFound where `find` stops short (a
// damaged table built ahead is reported and left for the next build
// ahead); else whether the table it builds replaces one that is there
// (damaged, or of another format: reported).
absl::StatusOr<bool> ReplacesStored(const absl::Status& s, StoredFormat format, Find find,
                                    const PatternSource& source) {
  if (!absl::IsNotFound(s) && !absl::IsDataLoss(s)) return s;
  if (find == Find::kStored && absl::IsNotFound(s)) return s;
  const bool damaged = absl::IsDataLoss(s);
  const char* what = format == StoredFormat::kAnother ? "pattern table of another format"
                                                      : "pattern table damaged";
  if (find == Find::kAhead) {
    if (damaged && source.report)
      source.report(absl::StrCat(
          what, " (build the tables again ahead): ", RepairAdviceRemoved(s.message())));
    return absl::NotFoundError("no whole table");
  }
  if (damaged && source.report)
    source.report(absl::StrCat(what, ", rebuilding it: ", RepairAdviceRemoved(s.message())));
  return damaged;
}

// What storing a table at `dir` came to (`saved`), said where building
// ahead: that takes minutes where the tables are large.
absl::Status Stored(const absl::Status& saved, const std::string& dir, Find find,
                    const PatternSource& source) {
  if (!saved.ok())
    return absl::Status(saved.code(),
                        absl::StrCat("cannot store pattern table: ", saved.message()));
  if (find == Find::kSave && source.report) source.report(absl::StrCat("stored ", dir));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<const PatternDb>> FindPatternDb(const Problem& p,
                                                               const std::vector<int8_t>& targets,
                                                               const PatternSource& source,
                                                               Find find) {
  const std::string key = CacheKey(p, targets);
  const std::shared_ptr<const PatternDb> cached = PatternCache::Process().Lookup(key);
  if (cached && (find != Find::kSave || source.dir.empty())) return cached;
  if (find == Find::kCached) return absl::NotFoundError("not in the cache");
  if (source.dir.empty()) {
    if (find == Find::kStored || find == Find::kAhead)
      return absl::NotFoundError("no pattern directory");
    return PatternCache::Process().Insert(key, BuildPatternDb(p, targets));
  }
  const std::string dir = PatternTableDir(p, targets, source.dir);
  const TableLayout layout = LayoutFor(p.n, int(targets.size()));
  StoredFormat format = StoredFormat::kCurrent;
  absl::StatusOr<std::shared_ptr<const PatternDb>> loaded =
      LoadSteadily(dir, [&] { return LoadPatternTable(p, targets, dir, layout, format); });
  if (loaded.ok()) {
    // Building ahead stores again a table whose checksum takes longer to
    // check at each load (store.h).
    if (find == Find::kSave && format == StoredFormat::kOlderChecksum)
      if (absl::Status s = Stored(SavePatternTable(p, **loaded, dir, layout, /*replace=*/true), dir,
                                  find, source);
          !s.ok())
        return s;
    return PatternCache::Process().Insert(key, *loaded);
  }
  const absl::StatusOr<bool> replace = ReplacesStored(loaded.status(), format, find, source);
  if (!replace.ok()) return replace.status();
  std::shared_ptr<const PatternDb> built = cached ? cached : BuildPatternDb(p, targets);
  if (absl::Status s =
          Stored(SavePatternTable(p, *built, dir, layout, *replace), dir, find, source);
      !s.ok())
    return s;
  return PatternCache::Process().Insert(key, std::move(built));
}

namespace {

// The pool that builds or loads `tables` tables at once where building ahead
// (seconds to minutes each): one a core, but no more builds at once than
// the memory free now holds (a build holds twice the table it leaves: a
// five on 10x10, 0.57 GB); else none: one after another.
std::unique_ptr<ThreadPool> PoolFor(const Problem& p, size_t tables, size_t largest, Find find,
                                    const PatternSource& source) {
  if ((find != Find::kSave && find != Find::kAhead) || tables <= 1) return nullptr;
  const int cores = std::min<int>(ThreadPool::Cores(), int(tables));
  int threads = cores;
  if (find == Find::kSave) {
    const uint64_t per_table = BuildBytes(p.n, int(largest)), available = AvailableMemory();
    threads = BuildThreads(cores, tables, available, per_table);
    if (threads < cores && source.report)
      source.report(absl::StrCat("building ", threads, " table", threads > 1 ? "s" : "",
                                 " at a time, not ", cores, ": each holds up to ",
                                 (per_table >> 20) + 1, " MB while it is built and ",
                                 available >> 20, " MB are free"));
  }
  if (threads <= 1) return nullptr;
  absl::StatusOr<std::unique_ptr<ThreadPool>> made = ThreadPool::Make(threads);
  return made.ok() ? std::move(*made) : nullptr;  // (else one thread)
}

// Whether a set takes longer to build than to open (about 1 ms, a RocksDB
// open and the checksum): its placements by sparse index, and each group's
// own set-up as so many more (on 10x10 the thirteen three-piece groups,
// 1.6 M placements, built in 11.5 ms; the 105 pairs, 262,500, in 2.7 ms).
// One-shot counts on 6x6 and 8x8 of two rows took 1 to 3 ms longer with
// theirs stored (three-piece sets of 24,000 and 200,000 placements).
bool WorthStoring(const Problem& p, const std::vector<std::vector<int8_t>>& groups) {
  constexpr uint64_t kPerGroup = 3000, kLeast = 300000;
  uint64_t cost = 0;
  for (const std::vector<int8_t>& group : groups)
    cost += SparseSize(p.n, int(group.size())) + kPerGroup;
  return cost >= kLeast;
}

// Builds the databases of `groups` at the indices `missing` into `dbs`.
void BuildMissing(const Problem& p, const std::vector<std::vector<int8_t>>& groups,
                  const std::vector<size_t>& missing, size_t largest, Find find,
                  const PatternSource& source, std::vector<std::shared_ptr<const PatternDb>>& dbs) {
  auto build = [&](uint64_t lo, uint64_t hi, int) {
    for (uint64_t i = lo; i < hi; ++i) dbs[missing[i]] = BuildPatternDb(p, groups[missing[i]]);
  };
  if (std::unique_ptr<ThreadPool> pool = PoolFor(p, missing.size(), largest, find, source))
    pool->Run(0, missing.size(), 1, build);
  else
    build(0, missing.size(), 0);
}

}  // namespace

absl::StatusOr<std::vector<std::shared_ptr<const PatternDb>>> FindPatternSet(
    const Problem& p, absl::string_view name, const std::vector<std::vector<int8_t>>& groups,
    const PatternSource& source, Find find) {
  std::vector<std::shared_ptr<const PatternDb>> dbs(groups.size());
  std::vector<size_t> missing;
  size_t largest = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    dbs[g] = PatternCache::Process().Lookup(CacheKey(p, groups[g]));
    if (!dbs[g]) missing.push_back(g);
    largest = std::max(largest, groups[g].size());
  }
  if (missing.empty() && (find != Find::kSave || source.dir.empty())) return dbs;
  if (find == Find::kCached) return absl::NotFoundError("not in the cache");
  auto keep = [&](std::vector<std::shared_ptr<const PatternDb>> found) {
    for (size_t g = 0; g < groups.size(); ++g)
      dbs[g] = PatternCache::Process().Insert(CacheKey(p, groups[g]), std::move(found[g]));
    return dbs;
  };
  if (!source.dir.empty() && WorthStoring(p, groups)) {
    const std::string dir = PatternSetDir(p, name, groups, source.dir);
    StoredFormat format = StoredFormat::kCurrent;
    absl::StatusOr<std::vector<std::shared_ptr<const PatternDb>>> loaded =
        LoadSteadily(dir, [&] { return LoadPatternSet(p, groups, dir, format); });
    if (loaded.ok()) return keep(*std::move(loaded));
    const absl::StatusOr<bool> replace = ReplacesStored(loaded.status(), format, find, source);
    if (!replace.ok()) return replace.status();
    BuildMissing(p, groups, missing, largest, find, source, dbs);
    if (absl::Status s = Stored(SavePatternSet(p, dbs, dir, *replace), dir, find, source); !s.ok())
      return s;
    return keep(dbs);
  }
  if (source.dir.empty() && (find == Find::kStored || find == Find::kAhead))
    return absl::NotFoundError("no pattern directory");
  BuildMissing(p, groups, missing, largest, find, source, dbs);
  return keep(dbs);
}

std::vector<const PatternDb*> DatabasesOf(const std::vector<Partition>& partitions) {
  std::vector<const PatternDb*> dbs;
  for (const Partition& partition : partitions)
    for (const Group& group : partition) dbs.push_back(group.pdb.get());
  return dbs;
}

std::vector<int> ByTarget(const Problem& p, std::vector<int> pieces) {
  std::sort(pieces.begin(), pieces.end(), [&](int a, int b) {
    const int fa = p.g->file_of(p.target[a]), fb = p.g->file_of(p.target[b]);
    if (fa != fb) return fa < fb;
    return p.g->rank_of(p.target[a]) < p.g->rank_of(p.target[b]);
  });
  return pieces;
}

std::vector<int> PiecesByTarget(const Problem& p) {
  std::vector<int> pieces(p.k);
  for (int i = 0; i < p.k; ++i) pieces[i] = i;
  return ByTarget(p, std::move(pieces));
}

std::vector<std::vector<std::vector<int>>> PartitionsByTarget(const Problem& p, int size,
                                                              const std::vector<int>& offsets) {
  const std::vector<int> order = PiecesByTarget(p);
  std::vector<std::vector<std::vector<int>>> layouts;
  for (int offset : offsets) {
    if (offset >= p.k && offset != 0) continue;
    std::vector<std::vector<int>> layout;
    for (int start = 0; start < p.k;) {
      const int len = std::min(start == 0 && offset > 0 ? offset : size, p.k - start);
      layout.emplace_back(order.begin() + start, order.begin() + start + len);
      start += len;
    }
    layouts.push_back(std::move(layout));
  }
  return layouts;
}

uint64_t BuildBytes(int n, int k) {
  absl::StatusOr<PlacementIndex> index = PlacementIndex::Make(n, k);
  const uint64_t placements = index.ok() ? index->size() : SparseSize(n, k);
  // The search's distances by sparse index (the table it leaves), and its
  // three sets (a bitboard a block) or, once they are freed, the table laid
  // out by the perfect index to be stored: a five on 10x10 measured 0.57 GB
  // at most.
  const uint64_t sets = 3 * sizeof(Bitboard) * SparseSize(n, std::max(k - 1, 0));
  return SparseSize(n, k) + std::max(sets, placements);
}

int BuildThreads(int cores, size_t tables, uint64_t available, uint64_t per_table) {
  uint64_t threads = std::min<uint64_t>(std::max(cores, 1), std::max<size_t>(tables, 1));
  if (available > 0 && per_table > 0) threads = std::min(threads, available / per_table);
  return int(std::max<uint64_t>(threads, 1));
}

absl::StatusOr<std::vector<Partition>> ResolvePartitions(
    const Problem& p, const std::vector<std::vector<std::vector<int>>>& layout,
    const PatternSource& source, Find find) {
  // The distinct groups (partitions share some), found in order.
  std::map<std::vector<int>, size_t> slot;
  std::vector<std::vector<int8_t>> groups;
  size_t largest = 0;
  for (const std::vector<std::vector<int>>& partition : layout)
    for (const std::vector<int>& pieces : partition)
      if (slot.emplace(pieces, groups.size()).second) {
        std::vector<int8_t> targets;
        for (int i : pieces) targets.push_back(p.target[i]);
        groups.push_back(std::move(targets));
        largest = std::max(largest, pieces.size());
      }
  std::vector<absl::StatusOr<std::shared_ptr<const PatternDb>>> found(
      groups.size(), absl::NotFoundError("not looked for"));
  if (LayoutFor(p.n, int(largest)) == TableLayout::kInPlace) {
    // Stored together: one table to open and check.
    absl::StatusOr<std::vector<std::shared_ptr<const PatternDb>>> set =
        FindPatternSet(p, absl::StrCat("groups_of_", largest), groups, source, find);
    if (!set.ok() && !absl::IsNotFound(set.status())) return set.status();
    for (size_t g = 0; set.ok() && g < groups.size(); ++g) found[g] = (*set)[g];
  } else {
    // The user is told one line at a time, whatever thread finds a table.
    std::mutex told;
    PatternSource one_at_a_time{source.dir, nullptr};
    if (source.report)
      one_at_a_time.report = [&](const std::string& message) {
        std::lock_guard<std::mutex> lock(told);
        source.report(message);
      };
    auto find_range = [&](uint64_t lo, uint64_t hi, int) {
      for (uint64_t g = lo; g < hi; ++g)
        found[g] = FindPatternDb(p, groups[g], one_at_a_time, find);
    };
    if (std::unique_ptr<ThreadPool> pool = PoolFor(p, groups.size(), largest, find, source)) {
      pool->Run(0, groups.size(), 1, find_range);
    } else {
      // One group after another, up to the first missing.
      for (size_t g = 0; g < groups.size() && (g == 0 || found[g - 1].ok()); ++g)
        find_range(g, g + 1, 0);
    }
  }
  std::vector<Partition> partitions;
  for (const std::vector<std::vector<int>>& partition : layout) {
    Partition part;
    for (const std::vector<int>& pieces : partition) {
      const absl::StatusOr<std::shared_ptr<const PatternDb>>& pdb = found[slot[pieces]];
      if (!pdb.ok()) {
        if (find != Find::kBuild && find != Find::kSave && absl::IsNotFound(pdb.status()))
          return std::vector<Partition>();
        return pdb.status();
      }
      part.push_back(Group{pieces, *pdb});
    }
    partitions.push_back(std::move(part));
  }
  return partitions;
}

absl::StatusOr<Partition> ConflictPartition(const Problem& p,
                                            const std::vector<std::vector<int>>& groups) {
  std::vector<std::vector<int>> layout = groups;
  std::vector<bool> grouped(p.k, false);
  for (const std::vector<int>& group : groups)
    for (int i : group) grouped[i] = true;
  std::vector<int> rest;
  for (int i = 0; i < p.k; ++i)
    if (!grouped[i]) rest.push_back(i);
  rest = ByTarget(p, std::move(rest));
  for (size_t start = 0; start < rest.size(); start += kSmallGroupSize)
    layout.emplace_back(rest.begin() + start,
                        rest.begin() + std::min(rest.size(), start + kSmallGroupSize));
  absl::StatusOr<std::vector<Partition>> resolved =
      ResolvePartitions(p, {layout}, PatternSource{}, Find::kBuild);
  if (!resolved.ok()) return resolved.status();
  return std::move(resolved->front());
}

Partition SinglePieces(const Problem& p) {
  const std::vector<Bitboard> reach = RelaxedMoves(p);
  Partition part;
  for (int i = 0; i < p.k; ++i) {
    const std::array<int, kMaxSquares> dist = RelaxedDistances(p, reach, p.target[i]);
    auto pdb = std::make_shared<PatternDb>(std::vector<int8_t>{p.target[i]},
                                           *PlacementIndex::Make(p.n, 1));
    TableBytes values(p.n);  // (one piece: by its square)
    for (Square s = 0; s < p.n; ++s)
      values[s] = dist[s] >= kPdbUnreachable ? kPdbUnreachable : uint8_t(dist[s]);
    pdb->Own(std::move(values));
    part.push_back(Group{{i}, std::move(pdb)});
  }
  return part;
}

}  // namespace salta::finish_internal
