// A small, fast random stream that is the same on every platform
// (SplitMix64), for what must be reproducible from a seed: the hash keys,
// generated games, benchmark sets.
#pragma once

#include <cstdint>

namespace salta {

class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform enough below n (n > 0) for games and samples.
  int Below(int n) { return int(Next() % uint64_t(n)); }

 private:
  uint64_t state_;
};

}  // namespace salta
