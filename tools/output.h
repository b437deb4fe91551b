// Output that is checked: a tool writes its results through an Output and
// reports success only when they were written whole. Writes go to a file
// descriptor with write(2); the first error is kept with its reason (errno)
// and later writes are dropped, so a script never takes lost output (a full
// disk, a closed standard output) for success.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <ostream>
#include <streambuf>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace salta::tools {

class Output {
 public:
  // Standard output.
  Output() : buffer_(STDOUT_FILENO), stream_(&buffer_), name_("standard output") {}
  // A file, created or truncated; "-" is standard output. The error says why not.
  static absl::StatusOr<std::unique_ptr<Output>> Open(const std::string& path) {
    if (path == "-") return std::make_unique<Output>();
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) return absl::NotFoundError(absl::StrCat(path, ": cannot open: ", strerror(errno)));
    return std::unique_ptr<Output>(new Output(fd, path));
  }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;
  ~Output() { (void)Close(); }

  std::ostream& stream() { return stream_; }
  // Whether some output was lost already.
  bool failed() const { return buffer_.error() != 0; }
  // Marks the output as lost before anything is written (a standard output
  // that was closed when the tool started).
  void Fail(int error) { buffer_.Fail(error); }
  // Writes what is buffered, and closes a file. OK, or why not:
  // "cannot write to standard output: No space left on device".
  absl::Status Close() {
    stream_.flush();
    buffer_.Flush();
    if (owned_) {
      owned_ = false;
      if (::close(buffer_.fd()) != 0 && buffer_.error() == 0) buffer_.Fail(errno);
    }
    if (buffer_.error() == 0) return absl::OkStatus();
    return absl::DataLossError(
        absl::StrCat("cannot write to ", name_, ": ", strerror(buffer_.error())));
  }

 private:
  class Buffer : public std::streambuf {
   public:
    explicit Buffer(int fd) : fd_(fd), data_(size_t{1} << 16) { Reset(); }
    int fd() const { return fd_; }
    int error() const { return error_; }
    void Fail(int error) {
      if (error_ == 0) error_ = error;
    }
    bool Flush() {
      const char* p = pbase();
      size_t n = size_t(pptr() - pbase());
      Reset();
      while (error_ == 0 && n > 0) {
        const ssize_t w = ::write(fd_, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) error_ = errno;
        if (w <= 0) break;
        p += w;
        n -= size_t(w);
      }
      return error_ == 0;
    }

   protected:
    int_type overflow(int_type c) override {
      if (!Flush()) return traits_type::eof();
      if (!traits_type::eq_int_type(c, traits_type::eof())) {
        *pptr() = traits_type::to_char_type(c);
        pbump(1);
      }
      return traits_type::not_eof(c);
    }
    int sync() override { return Flush() ? 0 : -1; }

   private:
    void Reset() { setp(data_.data(), data_.data() + data_.size()); }
    int fd_;
    int error_ = 0;
    std::vector<char> data_;
  };

  Output(int fd, std::string name)
      : buffer_(fd), stream_(&buffer_), name_(std::move(name)), owned_(true) {}

  Buffer buffer_;
  std::ostream stream_;
  std::string name_;
  bool owned_ = false;
};

}  // namespace salta::tools
