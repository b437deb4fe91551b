// The one way the tools open their inputs: a file name, or "-" for standard
// input. Reads go through read(2), so that an error keeps its reason
// (errno); messages put the input's name first, as locations do:
// "games.sgn: cannot open: No such file or directory",
// "adir: cannot read: Is a directory".
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <istream>
#include <memory>
#include <streambuf>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"

namespace salta::tools {

class Input {
 public:
  static absl::StatusOr<std::unique_ptr<Input>> Open(const std::string& name) {
    if (name == "-") return std::unique_ptr<Input>(new Input(STDIN_FILENO, name, false));
    const int fd = ::open(name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return absl::NotFoundError(absl::StrCat(name, ": cannot open: ", strerror(errno)));
    // A directory opens, and fails at the first read: said at once.
    struct stat st;
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
      ::close(fd);
      return absl::FailedPreconditionError(absl::StrCat(name, ": cannot read: ", strerror(EISDIR)));
    }
    return std::unique_ptr<Input>(new Input(fd, name, true));
  }
  Input(const Input&) = delete;
  Input& operator=(const Input&) = delete;
  ~Input() {
    if (owned_) ::close(buffer_.fd());
  }

  std::istream& stream() { return stream_; }
  // The name as given ("-" for standard input).
  const std::string& name() const { return name_; }
  // OK, or why reading failed: "games.sgn: cannot read: Input/output error".
  absl::Status status() const {
    if (buffer_.error() == 0) return absl::OkStatus();
    return absl::DataLossError(absl::StrCat(Label(name_), ": ", error_text()));
  }
  // The reason alone ("cannot read: Is a directory"), for reports that name
  // the input apart.
  std::string error_text() const {
    return buffer_.error() == 0 ? std::string()
                                : absl::StrCat("cannot read: ", strerror(buffer_.error()));
  }

 private:
  class Buffer : public std::streambuf {
   public:
    explicit Buffer(int fd) : fd_(fd), data_(size_t{1} << 16) {}
    int fd() const { return fd_; }
    int error() const { return error_; }

   protected:
    int_type underflow() override {
      if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
      if (error_ != 0) return traits_type::eof();
      ssize_t n;
      do {
        n = ::read(fd_, data_.data(), data_.size());
      } while (n < 0 && errno == EINTR);
      if (n < 0) error_ = errno;
      if (n <= 0) return traits_type::eof();
      setg(data_.data(), data_.data(), data_.data() + n);
      return traits_type::to_int_type(*gptr());
    }

   private:
    int fd_;
    int error_ = 0;
    std::vector<char> data_;
  };

  static std::string Label(const std::string& name) {
    return name == "-" ? "standard input" : name;
  }

  Input(int fd, std::string name, bool owned)
      : buffer_(fd), stream_(&buffer_), name_(std::move(name)), owned_(owned) {}

  Buffer buffer_;
  std::istream stream_;
  std::string name_;
  bool owned_;
};

}  // namespace salta::tools
