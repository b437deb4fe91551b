// Small helpers several test files share.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
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

}  // namespace salta
