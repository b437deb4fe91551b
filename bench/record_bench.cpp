// Validation speed: reading records (split, parse) and replaying every move,
// over 10,000 generated standard games (salta-play's greedy players, at most
// 300 plies each). Items are plies validated.
//
//   build/bench/salta_bench --benchmark_filter=Validate
//
// BM_Validate/T splits the same text into games on one thread and parses
// and replays them on T threads of the ThreadPool (salta-validate --threads T
// overlaps the two).
#include <benchmark/benchmark.h>

#include <atomic>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "salta/parallel.h"
#include "salta/record.h"
#include "salta/replay.h"
#include "salta/selfplay.h"

namespace {

constexpr int kGames = 10000;

const std::string& GamesText() {
  static const std::string text = [] {
    std::string t;
    const salta::Position start = salta::Position::Start(salta::Variant::Default());
    salta::SelfPlayOptions o;
    o.max_plies = 300;
    o.score = false;  // the games are for speed, not scores
    for (int g = 0; g < kGames; ++g) {
      t += salta::WriteRecord(salta::PlayGame(start, o, 2024, uint64_t(g)).record);
      t += "\n";
    }
    return t;
  }();
  return text;
}

// Split, parse and replay every game of the text on one thread.
void BM_ValidateOneThread(benchmark::State& state) {
  const std::string& text = GamesText();
  int64_t plies = 0, invalid = 0;
  for (auto _ : state) {
    std::istringstream in(text);
    salta::RecordReader reader(in);
    salta::ParsedGame game;
    while (reader.Next(game)) {
      const salta::ReplayReport r = salta::ReplayGame(game, {});
      plies += r.plies;
      invalid += !r.valid;
    }
  }
  state.SetItemsProcessed(plies);
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(text.size()));
  state.counters["invalid"] = double(invalid);
}
BENCHMARK(BM_ValidateOneThread)->Unit(benchmark::kMillisecond)->UseRealTime();

// Only the reading: split and parse, no replay.
void BM_ParseOnly(benchmark::State& state) {
  const std::string& text = GamesText();
  int64_t moves = 0;
  for (auto _ : state) {
    std::istringstream in(text);
    salta::RecordReader reader(in);
    salta::ParsedGame game;
    while (reader.Next(game)) moves += int64_t(game.record.moves.size());
  }
  state.SetItemsProcessed(moves);
}
BENCHMARK(BM_ParseOnly)->Unit(benchmark::kMillisecond)->UseRealTime();

// Only cutting the text into games: the part of BM_Validate that stays on
// one thread.
void BM_SplitOnly(benchmark::State& state) {
  const std::string& text = GamesText();
  int64_t games = 0;
  for (auto _ : state) {
    std::istringstream in(text);
    salta::GameSplitter splitter(in);
    salta::GameText t;
    while (splitter.Next(t)) ++games;
  }
  state.SetItemsProcessed(games);
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(text.size()));
}
BENCHMARK(BM_SplitOnly)->Unit(benchmark::kMillisecond)->UseRealTime();

// The main thread splits the text into game texts; T threads of the
// library's pool take them in batches of 64 and parse and replay them.
void BM_Validate(benchmark::State& state) {
  const int threads = int(state.range(0));
  const std::string& text = GamesText();
  std::unique_ptr<salta::ThreadPool> pool = *salta::ThreadPool::Make(threads);
  int64_t plies_total = 0;
  for (auto _ : state) {
    std::istringstream in(text);
    salta::GameSplitter splitter(in);
    std::vector<std::vector<salta::GameText>> batches;
    // Split everything into batches of 64 games (timed), then parse and
    // replay them on T threads.
    std::vector<salta::GameText> batch;
    salta::GameText t;
    while (splitter.Next(t)) {
      batch.push_back(std::move(t));
      if (batch.size() == 64) batches.push_back(std::move(batch)), batch.clear();
    }
    if (!batch.empty()) batches.push_back(std::move(batch));
    std::atomic<int64_t> plies{0};
    pool->Run(0, batches.size(), 1, [&](uint64_t lo, uint64_t hi, int) {
      int64_t local = 0;
      for (uint64_t b = lo; b < hi; ++b)
        for (const salta::GameText& g : batches[b])
          salta::ParseGames(
              g, [&](salta::ParsedGame&& game) { local += salta::ReplayGame(game, {}).plies; });
      plies += local;
    });
    plies_total += plies;
  }
  state.SetItemsProcessed(plies_total);
}
BENCHMARK(BM_Validate)->Arg(1)->Arg(2)->Arg(4)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
