// The solver's constants, in one place, with what they were measured on
// (bench/finish_bench.cpp; docs/scoring.md, "Speed").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "salta/finish.h"

namespace salta::finish_internal {

struct Policy {
  // Pattern databases of at most this many placements per group by default
  // (4 pieces on 10x10: 5.5 million), and the most a count builds: larger
  // ones (5 on 10x10, 254 million placements, about 4 s each) are built
  // ahead only.
  uint64_t max_default_pdb_entries = uint64_t(8) << 20;
  // Partitions by target, each starting its runs at another offset.
  int partitions = 4;
  // IDA* nodes tried before the beam search: most counts need fewer.
  uint64_t first_ida_nodes = 5000;
  // The beam searches' widths, tried in turn while the bounds differ, and
  // the IDA* nodes tried before each but the first.
  std::array<int, 4> beam_widths = {64, 256, 1024, 4096};
  std::array<uint64_t, 3> ida_nodes = {100000, 400000, 1600000};
  // Nodes each group's search may take when groups are merged for a
  // better bound at the root.
  uint64_t group_nodes = 20000;
  // The lengths of the runs of pieces by target whose counts alone, summed
  // over each partition into such runs, bound the count at the root.
  std::array<int, 2> longer_runs = {5, 6};
  // Nodes a pair's or triple's search may take when the position's own
  // conflicts are looked for (most take a few dozen), and the steps of the
  // search for the best disjoint ones.
  uint64_t small_group_nodes = 20000;
  // Nodes the search of each set of the tangle in the goal may take, grown
  // piece by piece (ten or so pieces: a few hundred thousand), at each
  // stage (0: not then). Again after the third IDA* run, with more: where a
  // count gets that far, a set of twelve or thirteen pieces counted alone
  // often proves it (unseen far positions: one from 8.6 s to 1.2 s, one
  // from 2.7 s to 1.9 s; 1,000,000 at the first run instead took two far
  // positions from 0.5 s to 0.99 s).
  std::array<uint64_t, 4> grow_nodes = {0, 200000, 1000000, 0};
  // Nodes each merged group's search may take when the merges run again,
  // at each stage (0: not then), and all of them together. Unseen far
  // positions s3 #57 from 9.2 s to 0.64 s and #99 from 2.2 s to 0.73 s (a
  // group of twelve pieces, cut short at 20,000 nodes, needs two moves
  // more than its parts); four others 0.03 to 0.46 s slower; on seed 4,
  // neutral. After the third IDA* run instead, neither was proven sooner.
  std::array<uint64_t, 4> remerge_nodes = {0, 100000, 0, 0};
  uint64_t remerge_budget = 300000;
  // Set searches cut short kept to go on with (the latest first): the
  // remerges run between the tangle's runs and cut short searches of
  // their own, which, with one kept, took the tangle's place, so that its
  // next run started over. Four: game 28 of the scenario 3.36 M nodes to
  // 3.16 M, unseen seed 5 #46 2.56 M to 2.36 M, every other count of the
  // eight sets the same nodes.
  size_t kept_set_searches = 4;
  // The searches of sets of at least this many pieces (the tangle's, the
  // larger merges) take the bound of pairs in conflict into their bound
  // too, as the count's own search does (FinishTechniques::pairs_in_sets).
  // The seven sets of docs/scoring.md and seed 7: 94.6 M nodes to 80.6 M,
  // the totals 83.0 and 79.5 s to 74.3 and 69.1 s (unseen seed 6 #35 5.8 s to
  // 2.0 s); from five pieces on, nearly the same nodes (89.97 M to
  // 89.86 M).
  int set_pairs_pieces = 8;
  uint64_t packing_steps = 100000;
  // The partitions whose groups' counts IDA* carries (the best sums at the
  // start; at most Ida::kMaxSplits): their bounds fall with different
  // moves. Measured on the four sets of docs/scoring.md, one against four
  // and eight: unseen seed 2 position 48 7.48 M nodes against 4.60 M and
  // 4.52 M, seed 3 position 57 proven in 9.0 M and 7.9 M nodes (not in
  // 12 M with one); no count took more nodes.
  int carried_splits = 8;
  // Ways found are shortened piece by piece unless this many moves longer
  // than the best one (replanning takes time in the length).
  size_t shorten_margin = 8;
  // Rounds of the large neighbourhood search at each stage (after its
  // beams and group bound), the last also after each IDA* run of the last
  // stage, while IDA*'s nodes double: in the finish-bench, far and unseen
  // far sets, no way found was shortened after 40,000 rounds, and a round
  // for four nodes, as before, took a third of the time of the counts
  // that IDA* proves last. Over 700 counts (those sets and seeds 5 and 6),
  // no run after the second shortened a way (27 runs of 40,000 and 80,000
  // rounds, all in the slowest counts), so those runs get 10,000: seed 3
  // #40 proven in 9.4 to 10.0 s, where it was not in 10 s, the seven
  // sets' totals 3 % lower, and every count the same.
  std::array<uint64_t, 4> neighbourhood_rounds = {10000, 20000, 10000, 10000};
  // Pieces taken out in a round at most, and the odds of keeping a way two
  // moves longer than the best (to leave a plateau of ways of equal
  // length): measured on far positions 34, 58, 59 and 60, where the way
  // is the hard half (the median time to a shortest way, over ten seeds,
  // 0.03 to 0.13 s; with 1 in 1,000, and a plateau left from any way, 0.03
  // to 0.5 s).
  int neighbourhood_pieces = 4;
  uint64_t neighbourhood_worse_odds = 30;
  // The bound table's largest size (16 bytes an entry): a count sets it
  // from FinishOptions::bound_table_megabytes.
  size_t bound_table_entries = (size_t(kDefaultBoundTableMegabytes) << 20) / 16;
  // The large databases are built (under a second on 10x10; seconds in a
  // sanitized build) only with at least this much time left, and under a
  // node limit with at least this many nodes left: their build is not
  // counted in nodes, so a tight limit would not bound the count's time.
  double large_pdb_seconds = 4.0;
  uint64_t large_pdb_nodes = 1000000;
  // ... and only once the count has searched this many nodes.
  uint64_t large_pdb_after_nodes = 0;
  // The same for the count back from the goal (CountBothWays), whose
  // databases no other count shares: building its thirteen of four pieces
  // takes about 0.65 s on 10x10, so only once the count back has searched
  // 300,000 nodes on the small ones (then before its next IDA* run). Unseen
  // seed 4 #57 went from 9.8 s to 3.1 s, seed 3 #62 from unproven to 10 s,
  // seed 4 #34 from 1.6 s to 1.9 s; built at once instead, seed 4 #59 took
  // 4.0 s (1.1 s) and seed 2 #48 1.8 s (0.9 s).
  double back_large_pdb_seconds = 2.0;
  uint64_t back_large_pdb_after_nodes = 300000;
  // The count back from the goal starts once the count to the goal has
  // taken this many nodes: most counts take fewer.
  uint64_t back_after_nodes = 400000;
  // Side by side (FinishOptions::threads), the count back takes nothing
  // from the count to the goal, so it starts sooner: over the 800 counts
  // of the eight sets of Speed, in 67 to 73 s for any start from 20,000
  // to 200,000 nodes (two rounds), 84 s from 400,000, and 110 s in turns.
  uint64_t side_by_side_back_after_nodes = 100000;
  // The two counts then take turns by work done: nodes, and the large
  // databases built, each placement as 1/144 of a node (set when a
  // four-piece table of 5.5 M placements built in 40 ms, and IDA* searched
  // about a million nodes a second; the build now takes about 25 ms, and
  // the charge was kept, so that every count kept its nodes). Uncharged,
  // the count back's builds (0.5 s) came free of its share: one count to
  // the goal of 3.3 s took 4.4 s.
  uint64_t placements_per_node = 144;
  // The large databases stored in the pattern directory are loaded (a
  // quarter of a second) only with at least this much time left: a count
  // under a shorter limit keeps to it.
  double large_pdb_load_seconds = 0.5;
  // Tables built ahead only, larger than the board's (five pieces on
  // 10x10, nine of 312 MB), are loaded only with at least this much time
  // left, unless the process holds them: they took 1.5 s to load from the
  // kernel's page cache and 5.1 s from disk, where a count under a limit
  // of 0.05 s then took 5.2 s.
  double ahead_pdb_load_seconds = 5.0;
  // The most placements a count's cone table (cone_table.h) may have: a byte
  // each, each placement a node. The forward preset's start on 10x10 with
  // one row has 3.6 M.
  uint64_t cone_table_placements = uint64_t(1) << 24;
};

}  // namespace salta::finish_internal
