#include "salta/egtb/storage.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "nlohmann/json.hpp"

namespace salta::egtb {
namespace {

constexpr absl::string_view kKind = "salta-egtb";
constexpr absl::string_view kInfoKey = "info";
// Decoded blocks kept by Get, in bytes.
constexpr uint64_t kCacheBytes = uint64_t(512) << 20;
// The payload of a damaged-block error: the block's first index.
constexpr absl::string_view kDamagedPayload = "salta/egtb/damaged-index";

// Every block's key starts with it, and no other key does.
constexpr absl::string_view kBlockPrefix = "b";

std::string BlockKey(uint64_t block) {
  return absl::StrCat(kBlockPrefix, EncodeKey(block));
}

uint64_t Mix(uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::string EncodeCodes(std::span<const Code> values, int code_bytes) {
  std::string out(values.size() * code_bytes, '\0');
  for (size_t i = 0; i < values.size(); ++i) {
    out[i * code_bytes] = char(values[i] & 0xFF);
    if (code_bytes == 2) out[i * 2 + 1] = char(values[i] >> 8);
  }
  return out;
}

// The checksum of a block's payload also covers which block it is.
uint64_t BlockChecksum(uint64_t block, absl::string_view payload) {
  return StableHash(payload, Mix(block + 0x51A17A));
}

absl::StatusOr<Geometry> ParseGeometry(absl::string_view text) {
  // "NxN/R"
  std::vector<absl::string_view> parts = absl::StrSplit(text, absl::ByAnyChar("x/"));
  int n = 0, n2 = 0, rows = 0;
  if (parts.size() != 3 || !absl::SimpleAtoi(parts[0], &n) || !absl::SimpleAtoi(parts[1], &n2) ||
      !absl::SimpleAtoi(parts[2], &rows) || n != n2)
    return absl::DataLossError(absl::StrCat("malformed geometry \"", text, "\""));
  return Geometry::Make(n, rows);
}

}  // namespace

void Tally::Add(const Tally& o) {
  positions += o.positions;
  wins += o.wins;
  losses += o.losses;
  draws += o.draws;
  checksum += o.checksum;
  max_code = std::max(max_code, o.max_code);
  if (o.longest_win > longest_win ||
      (o.longest_win == longest_win && o.longest_win_index < longest_win_index)) {
    longest_win = o.longest_win;
    longest_win_index = o.longest_win_index;
  }
}

uint64_t PositionHash(uint64_t index, Code code) {
  return Mix(index << 16 | code);
}

namespace {

// The tally of values[k] at index_of(k), in parallel.
template <typename IndexOf>
Tally TallyWith(std::span<const Code> values, ThreadPool& pool, IndexOf index_of) {
  std::mutex mutex;
  Tally total;
  pool.Run(0, values.size(), 1 << 16, [&](uint64_t lo, uint64_t hi, int) {
    Tally t;
    for (uint64_t k = lo; k < hi; ++k) {
      const Code c = values[k];
      const uint64_t index = index_of(k);
      ++t.positions;
      t.checksum += PositionHash(index, c);
      t.max_code = std::max(t.max_code, c);
      if (c == kDraw) {
        ++t.draws;
      } else if (IsWin(c)) {
        ++t.wins;
        if (PliesOf(c) > t.longest_win) {
          t.longest_win = PliesOf(c);
          t.longest_win_index = index;
        }
      } else {
        ++t.losses;
      }
    }
    std::lock_guard<std::mutex> lock(mutex);
    total.Add(t);
  });
  return total;
}

}  // namespace

Tally TallyOf(uint64_t begin, std::span<const Code> values, ThreadPool& pool) {
  return TallyWith(values, pool, [begin](uint64_t k) { return begin + k; });
}

Tally TallyOf(const Partition& partition, int rank, std::span<const Code> values,
              ThreadPool& pool) {
  return TallyWith(values, pool, [&](uint64_t k) { return partition.global(rank, k); });
}

TableMeta MetaOf(const TableClass& cls) {
  const Geometry& g = cls.variant().geometry();
  return TableMeta{std::string(kKind), kFormatVersion,
                   absl::StrCat(g.size(), "x", g.size(), "/", g.rows()),
                   cls.variant().rules().ToString(),
                   absl::StrCat(cls.material().ToString(), "; blocks of ", kBlockPositions)};
}

namespace {

// Writes the blocks values[k * B ...] as block first_block(k), in
// increasing block order.
template <typename BlockOf>
absl::Status WriteBlocksWith(const std::string& path, std::span<const Code> values, int code_bytes,
                             BlockOf block_of) {
  if (values.empty()) return absl::OkStatus();  // a process that owns no position
  absl::StatusOr<std::unique_ptr<TableFile>> file = TableFile::Create(path);
  if (!file.ok()) return file.status();
  for (uint64_t k = 0; k < values.size(); k += kBlockPositions) {
    const uint64_t block = block_of(k / kBlockPositions);
    const std::string payload = EncodeCodes(
        values.subspan(k, std::min<uint64_t>(kBlockPositions, values.size() - k)), code_bytes);
    std::string value = EncodeValue(BlockChecksum(block, payload));
    value += payload;
    if (absl::Status s = (*file)->Add(BlockKey(block), value); !s.ok()) return s;
  }
  return (*file)->Finish();
}

}  // namespace

absl::Status WriteBlocks(const std::string& path, uint64_t begin, std::span<const Code> values,
                         int code_bytes) {
  if (begin % kBlockPositions != 0)
    return absl::InternalError("a run of blocks must start at a block boundary");
  return WriteBlocksWith(path, values, code_bytes,
                         [&](uint64_t k) { return begin / kBlockPositions + k; });
}

absl::Status WriteBlocks(const std::string& path, const Partition& partition, int rank,
                         std::span<const Code> values, int code_bytes) {
  if (partition.block() != kBlockPositions)
    return absl::InternalError("a partition's blocks must be the table's blocks");
  return WriteBlocksWith(path, values, code_bytes,
                         [&](uint64_t k) { return k * partition.parts() + rank; });
}

absl::Status CompleteTable(Table& table, const std::vector<std::string>& block_files,
                           const TableClass& cls, const Tally& tally) {
  // The keys after every block's: kBlockPrefix's last byte one up.
  const std::string past_blocks = {char(kBlockPrefix[0] + 1)};
  if (absl::Status s = table.IngestReplacing(block_files, kBlockPrefix, past_blocks); !s.ok())
    return s;
  nlohmann::ordered_json info = {
      {"class", cls.ToString()},
      {"positions", tally.positions},
      {"wins", tally.wins},
      {"losses", tally.losses},
      {"draws", tally.draws},
      {"longest_win", tally.longest_win},
      {"longest_win_index", tally.longest_win_index},
      {"checksum", absl::StrCat(absl::Hex(tally.checksum, absl::kZeroPad16))},
      {"max_code", tally.max_code},
      {"code_bytes", tally.max_code > 0xFF ? 2 : 1},
  };
  if (absl::Status s = table.Put(kInfoKey, info.dump()); !s.ok()) return s;
  return table.Finish();
}

absl::StatusOr<TableClass> EndgameTable::ClassOf(const TableMeta& meta) {
  if (meta.kind != kKind)
    return absl::FailedPreconditionError(
        absl::StrCat("not an endgame table: it holds a table of kind \"", meta.kind, "\""));
  if (meta.version != kFormatVersion)
    return absl::FailedPreconditionError(absl::StrCat("endgame table format version ", meta.version,
                                                      " is not the one this build reads (",
                                                      kFormatVersion, ")"));
  absl::StatusOr<Geometry> g = ParseGeometry(meta.geometry);
  if (!g.ok()) return g.status();
  absl::StatusOr<Rules> rules = Rules::Parse(meta.rules);
  if (!rules.ok())
    return absl::DataLossError(absl::StrCat("malformed rules: ", rules.status().message()));
  absl::StatusOr<const Variant*> v = Variant::Get(*g, *rules);
  if (!v.ok()) return v.status();
  std::vector<absl::string_view> parts = absl::StrSplit(meta.parameters, ';');
  std::vector<absl::string_view> sides = absl::StrSplit(parts[0], " v ");
  if (sides.size() != 2 || parts.size() != 2 ||
      absl::StripAsciiWhitespace(parts[1]) != absl::StrCat("blocks of ", kBlockPositions))
    return absl::DataLossError(absl::StrCat("malformed class \"", meta.parameters, "\""));
  absl::StatusOr<Material> m = Material::Parse(**v, sides[0], sides[1]);
  if (!m.ok()) return m.status();
  return TableClass::Make(**v, *m);
}

absl::StatusOr<std::unique_ptr<EndgameTable>> EndgameTable::Open(const std::string& dir,
                                                                 bool check_entries) {
  absl::StatusOr<TableMeta> meta = Table::ReadMeta(dir);
  if (!meta.ok()) return meta.status();
  absl::StatusOr<TableClass> cls = ClassOf(*meta);
  if (!cls.ok())
    return absl::Status(cls.status().code(), absl::StrCat(dir, ": ", cls.status().message()));
  if (absl::StatusOr<bool> complete = Table::IsComplete(dir); !complete.ok() || !*complete)
    return complete.ok()
               ? absl::FailedPreconditionError(absl::StrCat(
                     dir,
                     ": the build of this table did not finish (or is running now); run the same "
                     "salta-egtb build command again to resume it"))
               : complete.status();
  std::unique_ptr<EndgameTable> t(new EndgameTable(std::move(*cls)));
  Table::OpenOptions open;
  open.verify_checksum = check_entries;
  absl::StatusOr<std::unique_ptr<Table>> table = Table::Open(dir, *meta, open);
  if (!table.ok()) return table.status();
  t->table_ = std::move(*table);
  t->dir_ = dir;
  absl::StatusOr<std::optional<std::string>> info = t->table_->Get(kInfoKey);
  if (!info.ok()) return info.status();
  if (!info->has_value()) return absl::DataLossError(absl::StrCat(dir, ": no info entry"));
  nlohmann::json j = nlohmann::json::parse(**info, nullptr, false);
  auto bad = [&] { return absl::DataLossError(absl::StrCat(dir, ": malformed info entry")); };
  if (!j.is_object()) return bad();
  try {
    Tally& tl = t->tally_;
    tl.positions = j.at("positions").get<uint64_t>();
    tl.wins = j.at("wins").get<uint64_t>();
    tl.losses = j.at("losses").get<uint64_t>();
    tl.draws = j.at("draws").get<uint64_t>();
    tl.longest_win = j.at("longest_win").get<int>();
    tl.longest_win_index = j.at("longest_win_index").get<uint64_t>();
    tl.max_code = j.at("max_code").get<Code>();
    if (!absl::SimpleHexAtoi(j.at("checksum").get<std::string>(), &tl.checksum)) return bad();
    t->code_bytes_ = j.at("code_bytes").get<int>();
  } catch (const nlohmann::json::exception&) {
    return bad();
  }
  if (t->tally_.positions != t->cls_.size() || (t->code_bytes_ != 1 && t->code_bytes_ != 2))
    return bad();
  t->cache_.resize((t->cls_.size() + kBlockPositions - 1) / kBlockPositions);
  return t;
}

absl::Status EndgameTable::DecodeBlock(uint64_t block, std::span<Code> out) const {
  const uint64_t first = block * kBlockPositions;
  const uint64_t n = std::min<uint64_t>(kBlockPositions, cls_.size() - first);
  auto damaged = [&](absl::string_view why) {
    absl::Status s = absl::DataLossError(absl::StrCat(dir_, ": the block of positions ", first,
                                                      " to ", first + n - 1, " is damaged (", why,
                                                      "); delete the table and build it again"));
    s.SetPayload(kDamagedPayload, absl::Cord(absl::StrCat(first)));
    return s;
  };
  absl::StatusOr<std::optional<std::string>> raw = table_->Get(BlockKey(block));
  if (!raw.ok()) return damaged(raw.status().message());
  if (!raw->has_value()) return damaged("the block is missing");
  const std::string& bytes = **raw;
  if (bytes.size() != 8 + n * code_bytes_) return damaged("the block has the wrong size");
  const absl::string_view payload = absl::string_view(bytes).substr(8);
  if (DecodeValue<uint64_t>(bytes.substr(0, 8)) != BlockChecksum(block, payload))
    return damaged("its checksum does not match");
  for (uint64_t i = 0; i < n; ++i) {
    Code c = uint8_t(payload[i * code_bytes_]);
    if (code_bytes_ == 2) c |= Code(uint8_t(payload[i * 2 + 1])) << 8;
    out[i] = c;
  }
  return absl::OkStatus();
}

absl::StatusOr<Code> EndgameTable::Get(uint64_t index) const {
  if (index >= cls_.size()) return absl::OutOfRangeError("position index out of range");
  const uint64_t block = index / kBlockPositions;
  std::vector<Code>& cached = cache_[block];
  if (cached.empty()) {
    if (cached_bytes_ > kCacheBytes) {
      for (std::vector<Code>& c : cache_) std::vector<Code>().swap(c);
      cached_bytes_ = 0;
    }
    std::vector<Code> codes(
        std::min<uint64_t>(kBlockPositions, cls_.size() - block * kBlockPositions));
    if (absl::Status s = DecodeBlock(block, codes); !s.ok()) return s;
    cached_bytes_ += codes.size() * sizeof(Code);
    cached = std::move(codes);
  }
  return cached[index % kBlockPositions];
}

absl::Status EndgameTable::ReadAll(std::span<Code> out, ThreadPool& pool) const {
  const uint64_t blocks = cache_.size();
  std::mutex mutex;
  uint64_t first_bad = UINT64_MAX;
  absl::Status bad;
  pool.Run(0, blocks, 1, [&](uint64_t lo, uint64_t hi, int) {
    for (uint64_t b = lo; b < hi; ++b) {
      const uint64_t first = b * kBlockPositions;
      absl::Status s = DecodeBlock(
          b, out.subspan(first, std::min<uint64_t>(kBlockPositions, cls_.size() - first)));
      if (s.ok()) continue;
      std::lock_guard<std::mutex> lock(mutex);
      if (first < first_bad) {
        first_bad = first;
        bad = s;
      }
    }
  });
  return bad;
}

std::optional<uint64_t> DamagedIndex(const absl::Status& status) {
  const auto payload = status.GetPayload(kDamagedPayload);
  uint64_t index = 0;
  if (!payload || !absl::SimpleAtoi(std::string(*payload), &index)) return std::nullopt;
  return index;
}

}  // namespace salta::egtb
