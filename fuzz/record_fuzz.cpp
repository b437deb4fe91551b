// libFuzzer target for the record parser and the replay: any bytes must
// parse and replay without crashing or hanging, and every game read without
// a syntax error must come back unchanged from the canonical writer.
//
//   cmake -S . -B build-fuzz -G Ninja -DSALTA_FUZZ=ON \
//         -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
//   ninja -C build-fuzz salta_record_fuzz
//   build-fuzz/fuzz/salta_record_fuzz -max_total_time=60 -dict=fuzz/record.dict CORPUS \
//       data/games/valid data/games/invalid
//
// (CI's run, fuzz/CMakeLists.txt, is a fixed one that repeats exactly; a
// longer run with another -seed, the comparison tracing left on, is where
// new failures are found.)
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "salta/record.h"
#include "salta/replay.h"

namespace {
constexpr uint64_t kCountNodeLimit = 5000;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Small limits so that the limits themselves are exercised too.
  salta::RecordLimits limits;
  limits.max_game_bytes = 1 << 16;
  limits.max_comment_bytes = 1 << 10;
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const salta::ParsedGame& game : salta::ParseRecords(text, limits)) {
    salta::ReplayOptions options;
    // A scoring count of a far position can take minutes in this
    // instrumented build under the default limit; a few thousand nodes still
    // reach every stage of the count, and the limit's own verdicts.
    options.count = salta::ScoreCountOptions(kCountNodeLimit);
    const salta::ReplayReport strict = salta::ReplayGame(game, options);
    options.lenient = true;
    const salta::ReplayReport lenient = salta::ReplayGame(game, options);
    // Lenient only forgives: a game valid under the strict rules stays valid.
    if (strict.valid && !lenient.valid) abort();
    if (strict.plies > int(game.record.moves.size())) abort();
    if (game.error) continue;
    const std::vector<salta::ParsedGame> back =
        salta::ParseRecords(salta::WriteRecord(game.record));
    if (back.size() != 1 || back[0].error || !(back[0].record == game.record)) abort();
  }
  return 0;
}
