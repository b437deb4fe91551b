// Pattern databases: the exact cost of a group of pieces alone on the
// board, for every placement of the group; partitions of the pieces into
// groups, whose costs add up to a lower bound.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "finish/problem.h"

namespace salta::finish_internal {

struct Pdb {
  int k = 0;
  int n = 0;
  std::vector<uint8_t> table;  // index sum(s_j * n^j); kPdbUnreachable: cannot finish
};

uint64_t PdbSize(int n, int k);
// Breadth-first search backwards from the goal over the group's moves.
std::shared_ptr<Pdb> BuildPdb(const Problem& p, const std::vector<int8_t>& targets);
// Relaxed single-piece distances as a one-piece database.
std::shared_ptr<Pdb> BuildDistance(const Problem& p, const std::vector<Bitboard>& reach,
                                   Square target);

// A partition of the pieces into groups, each with its database.
struct Group {
  std::vector<int> pieces;
  std::shared_ptr<const Pdb> pdb;
  std::array<uint32_t, 8> weight{};
};
struct Partition {
  std::vector<Group> groups;
  std::array<int8_t, kMaxPiecesInProblem> group_of{};
};

int DefaultGroupSize(int n);
// Groups of at most `size` pieces, by where they go: the pieces sorted by
// target (file, then rank) and cut into runs, the first run `offset` long.
absl::StatusOr<std::vector<Partition>> MakePartitions(const Problem& p, int size,
                                                      const std::vector<int>& offsets,
                                                      const std::string& dir,
                                                      bool cached_only = false);
std::vector<int> DefaultOffsets(int size);

}  // namespace salta::finish_internal
