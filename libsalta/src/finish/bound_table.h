// The table of proven lower bounds: for states whose search failed, the
// bound that failure proved.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace salta::finish_internal {

// A state: the square of each piece, packed six bits a piece in two words.

struct Key {
  uint64_t a = 0, b = 0;
  bool operator==(const Key&) const = default;
};

// MurmurHash3's finaliser: every bit of the input reaches the low bits.
inline uint64_t Mix64(uint64_t h) {
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 33);
}
inline uint64_t HashKey(const Key& k) {
  return Mix64(k.a ^ Mix64(k.b + 0x9E3779B97F4A7C15ull));
}

// Lower bounds proven by failed searches, by exact state. Grows up to a
// maximum, then replaces the weakest bound in the probed window.
class BoundTable {
 public:
  explicit BoundTable(size_t max_entries) : max_(max_entries) { Resize(1 << 10); }

  int Probe(const Key& k) const {
    const size_t h = HashKey(k);
    for (size_t i = 0; i < kWindow; ++i) {
      const Entry& e = entries_[(h + i) & mask_];
      if (e.bound == 0) return 0;
      if (e.key == k) return e.bound;
    }
    return 0;
  }

  void Store(const Key& k, int bound) {
    if (bound <= 0) return;
    for (;;) {
      const size_t h = HashKey(k);
      Entry* weakest = nullptr;
      for (size_t i = 0; i < kWindow; ++i) {
        Entry& e = entries_[(h + i) & mask_];
        if (e.bound == 0) {
          e.key = k;
          e.bound = bound;
          ++used_;
          if (used_ * 2 > entries_.size() && entries_.size() < max_) Resize(entries_.size() * 2);
          return;
        }
        if (e.key == k) {
          e.bound = std::max(e.bound, bound);
          return;
        }
        if (!weakest || e.bound < weakest->bound) weakest = &e;
      }
      if (entries_.size() < max_) {
        Resize(entries_.size() * 2);
        continue;
      }
      weakest->key = k;
      weakest->bound = bound;
      return;
    }
  }

 private:
  static constexpr size_t kWindow = 8;
  struct Entry {
    Key key;
    int bound = 0;  // 0: empty
  };

  void Resize(size_t size) {
    std::vector<Entry> old = std::move(entries_);
    entries_.assign(size, Entry{});
    mask_ = size - 1;
    used_ = 0;
    for (const Entry& e : old)
      if (e.bound > 0) Insert(e);
  }
  void Insert(const Entry& entry) {
    const size_t h = HashKey(entry.key);
    for (size_t i = 0; i < kWindow; ++i) {
      Entry& e = entries_[(h + i) & mask_];
      if (e.bound == 0) {
        e = entry;
        ++used_;
        return;
      }
    }  // dropped: a bound is only an optimisation
  }

  size_t max_;
  std::vector<Entry> entries_;
  size_t mask_ = 0;
  size_t used_ = 0;
};

}  // namespace salta::finish_internal
