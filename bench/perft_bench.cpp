// Perft speed from the start position. The targets: standard, depth
// 9, one thread at least 1.2x a compact bitboard perft measured side by side
// (../shared/bench/compare-perft build/tools/salta-perft 9), two threads at
// least 1.9x one.
//   build/bench/salta_bench --benchmark_filter=Perft
// BM_PerftShare counts a third of the depth-8 plan (what one of three MPI
// ranks would count).
#include <benchmark/benchmark.h>

#include "salta/perft.h"

namespace salta {
namespace {

void BM_PerftStart(benchmark::State& state, Rules rules) {
  const Position pos = Position::Start(Variant::Default(rules));
  PerftOptions options;
  options.threads = int(state.range(1));
  uint64_t nodes = 0;
  for (auto _ : state) nodes += Perft(pos, int(state.range(0)), options)->nodes;
  state.counters["leaves/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
  state.counters["threads"] = double(options.threads);
}

void BM_PerftShare(benchmark::State& state) {
  const Position pos = Position::Start(Variant::Default());
  const PerftPlan plan = *PlanPerft(pos, 8);
  PerftShare share;
  share.parts = 3;
  PerftOptions options;
  options.threads = 1;
  uint64_t nodes = 0;
  for (auto _ : state) nodes += CountPerftShare(plan, share, options)->nodes;
  state.counters["leaves/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PerftShare)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_CAPTURE(BM_PerftStart, standard, Rules::Standard())
    ->ArgsProduct({{7, 8, 9}, {1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_PerftStart, pre1900, Rules::Pre1900())
    ->Args({8, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_PerftStart, forward, Rules::Forward())
    ->Args({7, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace salta
