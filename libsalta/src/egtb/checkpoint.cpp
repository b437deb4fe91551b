#include "salta/egtb/checkpoint.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "salta/store.h"

namespace salta::egtb {
namespace {

constexpr absl::string_view kMagic = "salta-egtb-checkpoint 1\n";

absl::Status Errno(absl::string_view what, const std::string& path) {
  return absl::InternalError(absl::StrCat(what, " ", path, ": ", std::strerror(errno)));
}

// Writes all of data or fails with the reason.
absl::Status WriteAll(int fd, const void* data, size_t n, const std::string& path) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return Errno("cannot write checkpoint", path);
    p += w;
    n -= size_t(w);
  }
  return absl::OkStatus();
}

bool ReadAll(std::FILE* f, void* data, size_t n) {
  return std::fread(data, 1, n, f) == n;
}

uint64_t Checksum(absl::string_view header, std::span<const Code> values,
                  std::span<const uint8_t> counts) {
  uint64_t h = StableHash(header);
  h = StableHash(
      absl::string_view(reinterpret_cast<const char*>(values.data()), values.size_bytes()), h);
  return StableHash(
      absl::string_view(reinterpret_cast<const char*>(counts.data()), counts.size_bytes()), h);
}

std::string HeaderText(const CheckpointHeader& h) {
  return nlohmann::ordered_json{{"class", h.class_text},
                                {"rank", h.rank},
                                {"processes", h.processes},
                                {"positions", h.positions},
                                {"level", h.level},
                                {"resolved", h.resolved},
                                {"done", h.done}}
      .dump();
}

// Reads the header of the checkpoint open in f into h (its text into text);
// false, with the reason in why, where it is damaged or of another run.
bool ReadHeader(std::FILE* f, const CheckpointHeader& expected, CheckpointHeader& h,
                std::string& text, std::string& why) {
  std::string magic(kMagic.size(), '\0');
  uint64_t length = 0;
  if (!ReadAll(f, magic.data(), magic.size()) || magic != kMagic ||
      !ReadAll(f, &length, sizeof length) || length > (1 << 20)) {
    why = "the checkpoint is damaged (bad header)";
    return false;
  }
  text.assign(length, '\0');
  if (!ReadAll(f, text.data(), text.size())) {
    why = "the checkpoint is truncated";
    return false;
  }
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  try {
    h.class_text = j.at("class").get<std::string>();
    h.rank = j.at("rank").get<int>();
    h.processes = j.at("processes").get<int>();
    h.positions = j.at("positions").get<uint64_t>();
    h.level = j.at("level").get<int>();
    h.resolved = j.at("resolved").get<uint64_t>();
    h.done = j.at("done").get<bool>();
  } catch (const nlohmann::json::exception&) {
    why = "the checkpoint is damaged (bad header)";
    return false;
  }
  if (!h.SameRun(expected)) {
    why = "the checkpoint is of another build";
    return false;
  }
  return true;
}

// A checkpoint file opened and its header read; f is null where there is
// none or it does not fit (the reason in why).
struct Opened {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f{nullptr, &std::fclose};
  CheckpointHeader header;
  std::string text;
};

absl::StatusOr<Opened> OpenCheckpoint(const std::string& path, const CheckpointHeader& expected,
                                      std::string& why) {
  Opened o;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    why = "no checkpoint";
    return o;
  }
  o.f.reset(std::fopen(path.c_str(), "rb"));
  if (o.f == nullptr) return Errno("cannot read checkpoint", path);
  if (!ReadHeader(o.f.get(), expected, o.header, o.text, why)) o.f.reset();
  return o;
}

// The header of the checkpoint at path, its data unread (LoadCheckpoint
// checks it); nullopt where there is none or it does not fit.
absl::StatusOr<std::optional<CheckpointHeader>> PeekCheckpoint(const std::string& path,
                                                               const CheckpointHeader& expected) {
  std::string why;
  absl::StatusOr<Opened> o = OpenCheckpoint(path, expected, why);
  if (!o.ok()) return o.status();
  if (o->f == nullptr) return std::nullopt;
  return o->header;
}

// A checkpoint's place in the run: later levels, and the last level done
// after it was begun, are larger; 0 for none.
uint64_t Progress(const std::optional<CheckpointHeader>& h) {
  return h ? uint64_t(h->level) * 2 + h->done + 1 : 0;
}

std::string PreviousPath(const std::string& path) {
  return path + ".previous";
}

}  // namespace

std::string CheckpointPath(const std::string& dir, int rank, int processes) {
  return (std::filesystem::path(dir) / absl::StrCat("checkpoint-", rank, "-of-", processes))
      .string();
}

void RemoveFilesNamed(const std::string& dir, const std::string& prefix) {
  std::error_code ec;
  std::vector<std::filesystem::path> found;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().filename().string().rfind(prefix, 0) == 0) found.push_back(e.path());
  for (const auto& path : found) std::filesystem::remove(path, ec);
}

void RemoveCheckpoints(const std::string& dir) {
  RemoveFilesNamed(dir, "checkpoint-");
}

absl::Status SaveCheckpoint(const std::string& path, const CheckpointHeader& header,
                            std::span<const Code> values, std::span<const uint8_t> counts) {
  const std::string tmp = path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Errno("cannot create checkpoint", tmp);
  const std::string text = HeaderText(header);
  const uint64_t length = text.size();
  const uint64_t sum = Checksum(text, values, counts);
  absl::Status s = WriteAll(fd, kMagic.data(), kMagic.size(), tmp);
  if (s.ok()) s = WriteAll(fd, &length, sizeof length, tmp);
  if (s.ok()) s = WriteAll(fd, text.data(), text.size(), tmp);
  if (s.ok()) s = WriteAll(fd, values.data(), values.size_bytes(), tmp);
  if (s.ok()) s = WriteAll(fd, counts.data(), counts.size_bytes(), tmp);
  if (s.ok()) s = WriteAll(fd, &sum, sizeof sum, tmp);
  if (s.ok() && ::fsync(fd) != 0) s = Errno("cannot sync checkpoint", tmp);
  if (::close(fd) != 0 && s.ok()) s = Errno("cannot close checkpoint", tmp);
  if (!s.ok()) {
    ::unlink(tmp.c_str());
    return s;
  }
  // The last checkpoint stays, as the previous one, until every process has
  // saved (DropPreviousCheckpoint).
  std::error_code ec;
  if (std::filesystem::exists(path, ec) &&
      std::rename(path.c_str(), PreviousPath(path).c_str()) != 0)
    return Errno("cannot keep the previous checkpoint", path);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) return Errno("cannot rename checkpoint", tmp);
  // The rename itself must reach the disk.
  const std::string dir = std::filesystem::path(path).parent_path().string();
  const int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<CheckpointHeader>> LoadCheckpoint(const std::string& path,
                                                               const CheckpointHeader& expected,
                                                               std::span<Code> values,
                                                               std::span<uint8_t> counts,
                                                               std::string& why) {
  absl::StatusOr<Opened> o = OpenCheckpoint(path, expected, why);
  if (!o.ok()) return o.status();
  if (o->f == nullptr) return std::nullopt;
  std::FILE* f = o->f.get();
  const CheckpointHeader& h = o->header;
  const std::string& text = o->text;
  if (values.size() != h.positions || counts.size() != h.positions) {
    why = "the checkpoint is of another build";
    return std::nullopt;
  }
  uint64_t sum = 0;
  if (!ReadAll(f, values.data(), values.size_bytes()) ||
      !ReadAll(f, counts.data(), counts.size_bytes()) || !ReadAll(f, &sum, sizeof sum) ||
      std::fgetc(f) != EOF || sum != Checksum(text, values, counts)) {
    why = "the checkpoint is damaged (its checksum does not match)";
    return std::nullopt;
  }
  return h;
}

absl::StatusOr<std::optional<CheckpointHeader>> LoadCommonCheckpoint(
    Cluster& cluster, const std::string& path, const CheckpointHeader& expected,
    std::span<Code> values, std::span<uint8_t> counts, std::string& note) {
  std::string why, why_previous;
  note.clear();
  absl::StatusOr<std::optional<CheckpointHeader>> current =
      LoadCheckpoint(path, expected, values, counts, why);
  // A checkpoint that is there and cannot be used is worth a note; one
  // missing is not (a kill before the first, or between two renames).
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) why.clear();
  auto tell = [&](bool resumes) {
    if (!why.empty())
      note = absl::StrCat(path, ": ", why,
                          resumes ? "; the build resumes from the checkpoint before it"
                                  : "; the build starts afresh");
  };
  absl::StatusOr<std::optional<CheckpointHeader>> previous =
      PeekCheckpoint(PreviousPath(path), expected);
  if (absl::Status s = cluster.Agree(current.ok() ? previous.status() : current.status()); !s.ok())
    return s;
  // The checkpoints the first process holds; each process says which of
  // them it lacks.
  uint64_t mine[2] = {Progress(*current), Progress(*previous)};
  std::string first(reinterpret_cast<const char*>(mine), sizeof mine);
  if (absl::Status s = cluster.Broadcast(first, 0); !s.ok()) return s;
  uint64_t theirs[2], lacks[2];
  std::memcpy(theirs, first.data(), sizeof theirs);
  for (int i = 0; i < 2; ++i)
    lacks[i] = theirs[i] == 0 || (theirs[i] != mine[0] && theirs[i] != mine[1]);
  if (absl::Status s = cluster.MaxAll(lacks); !s.ok()) return s;
  uint64_t common = 0;
  for (int i = 0; i < 2; ++i)
    if (!lacks[i]) common = std::max(common, theirs[i]);
  if (common == 0) {
    tell(false);
    return std::nullopt;
  }
  // The process whose own checkpoint is newer loads the previous one.
  std::optional<CheckpointHeader> chosen = *current;
  absl::Status loaded;
  if (mine[0] != common) {
    absl::StatusOr<std::optional<CheckpointHeader>> older =
        LoadCheckpoint(PreviousPath(path), expected, values, counts, why_previous);
    loaded = older.status();
    chosen = older.ok() ? *older : std::nullopt;
  }
  if (absl::Status s = cluster.Agree(loaded); !s.ok()) return s;
  uint64_t failed[1] = {Progress(chosen) != common};
  if (absl::Status s = cluster.MaxAll(failed); !s.ok()) return s;
  tell(!failed[0]);
  if (failed[0]) return std::nullopt;
  return chosen;
}

void DropPreviousCheckpoint(const std::string& path) {
  std::error_code ec;
  std::filesystem::remove(PreviousPath(path), ec);
}

}  // namespace salta::egtb
