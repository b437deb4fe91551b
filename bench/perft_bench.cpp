// Perft speed from the start position. The target: standard, one
// thread, depth 9, against a compact bitboard perft (about 650-700 M leaves/s
// on the 2-core development machine); two threads at least 1.8x one.
//   build/bench/salta_bench --benchmark_filter=Perft
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
