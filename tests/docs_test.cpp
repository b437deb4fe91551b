// Every example in README.md and docs/*.md is run against the built tools,
// so that none can drift (issue 10, item 3). Each fenced block says what it
// is by its info string:
//
//   console         "$ command" lines, each followed by what it prints: its
//                   standard output, then its standard error when its exit
//                   status is not 0. In an expected line "…" stands for any
//                   text (times, rates). The commands of one file run in
//                   order in one scratch directory that holds `data`,
//                   `docs` and `build/tools` of this checkout, with the tools
//                   on PATH.
//   sgn [FILE]      a game record: with FILE it is written there for the
//                   commands that follow; without, every game in it must be
//                   valid with no warning.
//   position [ARGS] one position text a line, which must read and print back
//                   as itself (ARGS: --board N --rows R --rules P ...).
//   sh              a shell fragment shown, not run (a build, a placeholder
//                   such as your-perft); text: an illustration.
//
// And a table whose header starts "| text | prints as |" holds position
// texts and how they print.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "test_util.h"

namespace {

namespace fs = std::filesystem;

const fs::path kSource = fs::path(SALTA_DATA_DIR).parent_path();
const fs::path kTools = SALTA_TOOLS_DIR;

struct Block {
  std::string info;  // the info string, e.g. "console" or "sgn games.sgn"
  int line = 0;      // of the opening fence
  std::vector<std::string> lines;
};

std::vector<std::string> ReadLines(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<Block> Blocks(const std::vector<std::string>& lines) {
  std::vector<Block> blocks;
  bool open = false;
  size_t indent = 0;  // of the opening fence: a block in a list is indented
  for (size_t k = 0; k < lines.size(); ++k) {
    const std::string& line = lines[k];
    const size_t first = line.find_first_not_of(' ');
    const bool fence = first != std::string::npos && line.compare(first, 3, "```") == 0;
    if (fence && !open) {
      blocks.push_back({line.substr(first + 3), int(k) + 1, {}});
      open = true;
      indent = first;
    } else if (fence) {
      open = false;
    } else if (open) {
      const size_t cut = std::min(indent, first == std::string::npos ? line.size() : first);
      blocks.back().lines.push_back(line.substr(cut));
    }
  }
  EXPECT_FALSE(open) << "a fence is not closed";
  return blocks;
}

std::string Word(const std::string& info, size_t n) {
  std::istringstream in(info);
  std::string w;
  for (size_t i = 0; i <= n; ++i)
    if (!(in >> w)) return "";
  return w;
}

std::string Rest(const std::string& info) {
  const size_t space = info.find(' ');
  return space == std::string::npos ? "" : info.substr(space + 1);
}

using Outcome = salta::CommandOutcome;

// Runs a command line with sh in `dir`, the tools first on PATH.
Outcome Sh(const fs::path& dir, const std::string& command) {
  return salta::RunCapturing("cd '" + dir.string() + "' && PATH='" + kTools.string() +
                             "':\"$PATH\" && export PATH && { " + command + "\n}");
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Whether `line` matches `expected`, where "…" in expected stands for any text.
bool Matches(const std::string& expected, const std::string& line) {
  static const std::string kAny = "…";
  std::vector<std::string> parts;
  for (size_t from = 0;;) {
    const size_t at = expected.find(kAny, from);
    parts.push_back(expected.substr(from, at == std::string::npos ? std::string::npos : at - from));
    if (at == std::string::npos) break;
    from = at + kAny.size();
  }
  if (parts.size() == 1) return expected == line;
  if (line.rfind(parts.front(), 0) != 0) return false;
  size_t pos = parts.front().size();
  for (size_t k = 1; k + 1 < parts.size(); ++k) {
    const size_t at = line.find(parts[k], pos);
    if (at == std::string::npos) return false;
    pos = at + parts[k].size();
  }
  const std::string& last = parts.back();
  return line.size() >= pos + last.size() &&
         line.compare(line.size() - last.size(), last.size(), last) == 0;
}

// A scratch directory with this checkout's data, docs and tools.
fs::path Scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("salta_docs_" + std::to_string(getpid()) + "_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir / "build");
  fs::create_directory_symlink(kSource / "data", dir / "data");
  fs::create_directory_symlink(kSource / "docs", dir / "docs");
  fs::create_directory_symlink(kTools, dir / "build" / "tools");
  return dir;
}

void CheckConsole(const fs::path& dir, const Block& b, const std::string& where) {
  size_t k = 0;
  while (k < b.lines.size()) {
    const std::string& line = b.lines[k];
    ASSERT_EQ(line.rfind("$ ", 0), 0u) << where << ": a console block starts each example with "
                                       << "\"$ \": " << line;
    const std::string command = line.substr(2);
    std::vector<std::string> expected;
    for (++k; k < b.lines.size() && b.lines[k].rfind("$ ", 0) != 0; ++k)
      expected.push_back(b.lines[k]);
    const Outcome r = Sh(dir, command);
    std::vector<std::string> got = SplitLines(r.out);
    if (r.status != 0)
      for (const std::string& e : SplitLines(r.err)) got.push_back(e);
    bool same = got.size() == expected.size();
    for (size_t i = 0; same && i < got.size(); ++i) same = Matches(expected[i], got[i]);
    std::string shown;
    for (const std::string& g : got) shown += g + "\n";
    EXPECT_TRUE(same) << where << ": $ " << command << "\nexit status " << r.status
                      << ", printed:\n"
                      << shown << "stderr:\n"
                      << r.err;
  }
}

void CheckRecord(const fs::path& dir, const Block& b, const std::string& where) {
  std::string text;
  for (const std::string& l : b.lines) text += l + "\n";
  const std::string name = Word(b.info, 1);
  if (!name.empty()) {
    std::ofstream(dir / name, std::ios::binary) << text;
    return;
  }
  const fs::path file = dir / ".record.sgn";
  std::ofstream(file, std::ios::binary) << text;
  const Outcome r = Sh(dir, "salta-validate --json .record.sgn");
  EXPECT_EQ(r.status, 0) << where << ": the record is not valid:\n" << r.out << r.err;
  for (const std::string& l : SplitLines(r.out)) {
    const nlohmann::json j = nlohmann::json::parse(l, nullptr, false);
    ASSERT_TRUE(j.is_object()) << l;
    if (j.contains("summary")) {
      EXPECT_GE(j["summary"]["games"].get<int>(), 1) << where;
      continue;
    }
    EXPECT_EQ(j["valid"], true) << where << ": " << l;
    EXPECT_TRUE(j["warnings"].empty()) << where << ": " << l;
  }
  fs::remove(file);
}

// The text as salta-perft prints it back (its JSON "position"), or the error.
std::string PrintedBack(const fs::path& dir, const std::string& args, const std::string& text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  quoted += "'";
  const Outcome r = Sh(dir, "salta-perft " + args + " --json --position " + quoted + " 0");
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  if (r.status != 0 || !j.is_object() || !j.contains("position")) return "error: " + r.err;
  return j["position"].get<std::string>();
}

void CheckPositions(const fs::path& dir, const Block& b, const std::string& where) {
  for (const std::string& line : b.lines) {
    if (line.empty()) continue;
    EXPECT_EQ(PrintedBack(dir, Rest(b.info), line), line) << where;
  }
}

// "| `w S1a1,s1j10` | `w S1a1,s1j10 0 -` | ..." rows after a "| text | prints as |" header.
void CheckPositionTables(const fs::path& dir, const std::vector<std::string>& lines,
                         const std::string& file) {
  for (size_t k = 0; k < lines.size(); ++k) {
    if (lines[k].rfind("| text | prints as |", 0) != 0) continue;
    int rows = 0;
    for (size_t r = k + 2; r < lines.size() && lines[r].rfind("|", 0) == 0; ++r, ++rows) {
      std::vector<std::string> cells;
      std::istringstream in(lines[r].substr(1));
      for (std::string cell; std::getline(in, cell, '|');) cells.push_back(cell);
      ASSERT_GE(cells.size(), 2u) << file << ":" << r + 1;
      auto code = [&](const std::string& cell) {
        const size_t a = cell.find('`'), z = cell.rfind('`');
        EXPECT_TRUE(a != std::string::npos && z > a) << file << ":" << r + 1 << ": " << cell;
        return a != std::string::npos && z > a ? cell.substr(a + 1, z - a - 1) : cell;
      };
      EXPECT_EQ(PrintedBack(dir, "", code(cells[0])), code(cells[1])) << file << ":" << r + 1;
    }
    EXPECT_GT(rows, 0) << file << ":" << k + 1;
  }
}

std::vector<fs::path> DocFiles() {
  std::vector<fs::path> files = {kSource / "README.md"};
  for (const fs::directory_entry& e : fs::directory_iterator(kSource / "docs"))
    if (e.path().extension() == ".md") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(DocsTest, EveryExampleRunsAsShown) {
  int console = 0, records = 0, positions = 0;
  for (const fs::path& file : DocFiles()) {
    const std::string name = fs::relative(file, kSource).string();
    SCOPED_TRACE(name);
    const std::vector<std::string> lines = ReadLines(file);
    const fs::path dir = Scratch(file.stem().string());
    for (const Block& b : Blocks(lines)) {
      const std::string where = name + ":" + std::to_string(b.line);
      const std::string kind = Word(b.info, 0);
      if (kind == "console") {
        CheckConsole(dir, b, where);
        ++console;
      } else if (kind == "sgn") {
        CheckRecord(dir, b, where);
        ++records;
      } else if (kind == "position") {
        CheckPositions(dir, b, where);
        ++positions;
      } else {
        EXPECT_TRUE(kind == "sh" || kind == "text")
            << where << ": a fenced block says what it is: console, sgn, position, sh or text "
            << "(tests/docs_test.cpp), not \"" << b.info << "\"";
      }
    }
    CheckPositionTables(dir, lines, name);
    fs::remove_all(dir);
  }
  // The docs have examples of each kind.
  EXPECT_GT(console, 10);
  EXPECT_GT(records, 0);
  EXPECT_GT(positions, 0);
}

TEST(DocsTest, TheMatcherOfExpectedLines) {
  EXPECT_TRUE(Matches("nodes 81", "nodes 81"));
  EXPECT_FALSE(Matches("nodes 81", "nodes 811"));
  EXPECT_TRUE(Matches("depth 6: … s, … nodes/s", "depth 6: 0.005 s, 299568571 nodes/s"));
  EXPECT_FALSE(Matches("depth 6: … s", "depth 7: 0.005 s"));
  EXPECT_TRUE(Matches("{\"seconds\":…}", "{\"seconds\":0.1}"));
  EXPECT_TRUE(Matches("…", ""));
  EXPECT_FALSE(Matches("a…b…c", "acb"));
}

}  // namespace
