// Small helpers several test files share.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "salta/variant.h"

namespace salta {

// The variant of a rules spec ("standard chain=on") on an N x N board with R rows.
inline const Variant& V(const std::string& spec, int size = 10, int rows = 3) {
  absl::StatusOr<Rules> rules = Rules::Parse(spec);
  EXPECT_TRUE(rules.ok()) << spec << ": " << rules.status();
  absl::StatusOr<Geometry> g = Geometry::Make(size, rows);
  EXPECT_TRUE(g.ok()) << g.status();
  return *Variant::Get(g.value(), rules.value()).value();
}

struct CommandResult {
  int status = -1;  // the exit status; -1 if it did not exit normally
  std::string out;  // what it wrote to standard output
};

// Runs a shell command and collects its standard output.
inline CommandResult RunCommand(const std::string& command) {
  CommandResult r;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "popen failed: " << command;
    return r;
  }
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
  const int status = pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

struct CommandOutcome {
  int status = -1;  // the exit status; -1 if it did not exit normally
  std::string out;  // what it wrote to standard output
  std::string err;  // what it wrote to standard error
};

// Runs a shell command line with `input` on standard input (empty: none),
// and collects its standard output and standard error apart.
inline CommandOutcome RunCapturing(const std::string& command, const std::string& input = "") {
  CommandOutcome r;
  char err_path[] = "/tmp/salta_test_err_XXXXXX";
  char in_path[] = "/tmp/salta_test_in_XXXXXX";
  const int efd = mkstemp(err_path), ifd = mkstemp(in_path);
  if (efd >= 0) close(efd);
  if (ifd >= 0) {
    if (write(ifd, input.data(), input.size()) != ssize_t(input.size()))
      ADD_FAILURE() << "cannot write the input of: " << command;
    close(ifd);
  }
  if (efd < 0 || ifd < 0) {
    ADD_FAILURE() << "mkstemp failed";
    if (efd >= 0) unlink(err_path);
    if (ifd >= 0) unlink(in_path);
    return r;
  }
  CommandResult ran = RunCommand("{ " + command + "\n} 2>'" + err_path + "' <'" + in_path + "'");
  r.status = ran.status;
  r.out = std::move(ran.out);
  std::ifstream err(err_path, std::ios::binary);
  std::stringstream text;
  text << err.rdbuf();
  r.err = text.str();
  unlink(err_path);
  unlink(in_path);
  return r;
}

inline bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace salta
