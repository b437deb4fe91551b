// What every tool's main shares: its name on every message, standard output
// checked to the end (output.h), errors that scripts can parse, and no
// exception escaping (memory that cannot be had is a clear error).
//
//   int main(int argc, char** argv) {
//     return salta::tools::Main("salta-x", argc, argv, [](salta::tools::Tool& tool) { ... });
//   }
//
// An error is one line "salta-x: message" on standard error and, when the
// command line asks for --json, also one JSON object on standard output:
// {"error": message, "tool": "salta-x", "exit_status": 2} with "file",
// "line" and "column" when the error is in an input.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <iostream>
#include <new>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "output.h"
#include "salta/record.h"
#include "salta/text.h"

namespace salta::tools {

// The exit status of bad input (usage, arguments, unreadable input, lost
// output) in every tool.
inline constexpr int kExitBadInput = 2;

// Where an error is: an input, and a line and column in it when known.
struct Where {
  std::string file;
  SourcePos at;  // line 0: the input as a whole
};

// "FILE:LINE:COLUMN:", or "FILE:" without a line, as compilers write it.
inline std::string WhereText(const Where& w) {
  if (w.at.line <= 0) return absl::StrCat(w.file, ":");
  return absl::StrCat(w.file, ":", w.at.line, ":", w.at.column, ":");
}

class Tool {
 public:
  Tool(std::string name, int argc, char** argv) : name_(std::move(name)) {
    for (int i = 1; i < argc; ++i) {
      const absl::string_view arg = argv[i];
      if (arg == "--") break;
      if (arg == "--json") json_ = true;
    }
  }

  const std::string& name() const { return name_; }
  // Whether errors also go to standard output as JSON (the command line has --json).
  bool json() const { return json_; }
  void set_json(bool json) { json_ = json; }
  std::ostream& out() { return out_.stream(); }
  Output& output() { return out_; }

  // Reports an error and returns the exit status to end with (kExitBadInput).
  int Fail(absl::string_view message) { return Fail(message, nullptr); }
  int Fail(const Where& where, absl::string_view message) { return Fail(message, &where); }
  // A message on standard error alone (a warning, a note), with the tool's name.
  void Note(absl::string_view message) const {
    const std::string line = absl::StrCat(name_, ": ", EscapeForMessage(message), "\n");
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
  }

  // Ends the run with `status`, unless standard output could not be written:
  // then that is said, and the status is kExitBadInput.
  int Finish(int status) {
    if (absl::Status s = out_.Close(); !s.ok()) {
      Note(s.message());
      return kExitBadInput;
    }
    return status;
  }

 private:
  int Fail(absl::string_view message, const Where* where) {
    const std::string located =
        where ? absl::StrCat(WhereText(*where), " ", message) : std::string(message);
    Note(located);
    if (json_ && !out_.failed()) {
      nlohmann::ordered_json j;
      j["error"] = EscapeForMessage(located);
      j["tool"] = name_;
      j["exit_status"] = kExitBadInput;
      if (where) {
        j["file"] = EscapeForMessage(where->file);  // as the message shows it
        j["line"] = where->at.line > 0 ? nlohmann::ordered_json(where->at.line)
                                       : nlohmann::ordered_json(nullptr);
        j["column"] = where->at.line > 0 ? nlohmann::ordered_json(where->at.column)
                                         : nlohmann::ordered_json(nullptr);
      }
      out_.stream() << j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
                    << "\n";
    }
    return kExitBadInput;
  }

  std::string name_;
  bool json_ = false;
  Output out_;
};

// Memory put aside at the start and given back when an allocation fails,
// before std::bad_alloc is thrown: the unwinding that follows needs some
// (nlohmann::json's destructor allocates, and one that fails in a
// destructor ends the process), and so does the message. Untouched, it
// costs address space only.
class MemoryReserve {
 public:
  static constexpr size_t kBytes = size_t(16) << 20;
  MemoryReserve() {
    reserve_ = static_cast<char*>(std::malloc(kBytes));
    previous_ = std::set_new_handler(&OutOfMemory);
  }
  ~MemoryReserve() {
    std::set_new_handler(previous_);
    std::free(reserve_);
    reserve_ = nullptr;
  }

 private:
  static void OutOfMemory() {
    std::free(reserve_);
    reserve_ = nullptr;
    throw std::bad_alloc();
  }
  static inline char* reserve_ = nullptr;
  std::new_handler previous_ = nullptr;
};

// Runs a tool's body: the status it returns, after standard output is
// checked; std::bad_alloc and any other exception end the run with a
// message and kExitBadInput instead of an abort.
inline int Main(const char* name, int argc, char** argv, const std::function<int(Tool&)>& body) {
  const MemoryReserve reserve;
  // A standard output or error closed at the start: the descriptor is kept
  // taken (on /dev/null), so that no file opened later lands on it, and
  // standard output counts as lost.
  const bool stdout_closed = fcntl(STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF;
  for (int fd : {STDOUT_FILENO, STDERR_FILENO})
    if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
      const int null = ::open("/dev/null", O_WRONLY);
      if (null >= 0 && null != fd) {
        ::dup2(null, fd);
        ::close(null);
      }
    }
  Tool tool(name, argc, argv);
  if (stdout_closed) tool.output().Fail(EBADF);
  // Whatever writes std::cout (a library, CLI11) goes through the checked output too.
  std::streambuf* const cout_buffer = std::cout.rdbuf(tool.out().rdbuf());
  int status;
  try {
    status = body(tool);
  } catch (const std::bad_alloc&) {
    status = tool.Fail("out of memory");
  } catch (const std::exception& e) {
    status = tool.Fail(absl::StrCat("internal error: ", e.what()));
  }
  std::cout.flush();
  std::cout.rdbuf(cout_buffer);
  return tool.Finish(status);
}

}  // namespace salta::tools
