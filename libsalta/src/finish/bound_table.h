// The table of proven bounds: for each search node whose search failed, the
// lower bound that failure proved (the least, over the moves searched, of
// one plus the child's bound). Later visits -- the same node in the next
// iteration of IDA*, or a transposition -- start from it.
//
// A node is a state, or, where the search skips moves by the way it came
// (the canonical order of commuting moves, search.h), a state and the last
// move's piece and from-square: what such a node searches depends on the
// move that led to it, so a bound proven under one history is kept for that
// history only.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "finish/limits.h"
#include "finish/problem.h"
#include "mapped_memory.h"

namespace salta::finish_internal {

// The key of a search node with a history: the state's key with the last
// move (piece and from-square, -1 at the root) in its spare bits.
inline Key NodeKey(Key state, int last_piece, int last_from) {
  state.a |= uint64_t(last_piece + 1) << 60;
  state.b |= uint64_t(last_from + 1) << 32;
  return state;
}

class BoundTable {
 public:
  explicit BoundTable(size_t max_entries) : max_(std::max<size_t>(max_entries, 1024)) {
    // Where not even that can be had, one window of its own, so that no
    // probe need ask whether there is a table.
    if (!Resize(1024)) {
      entries_ = fallback_;
      size_ = max_ = kWindow;
      grows_ = false;
      mask_ = kWindow - 1;
    }
  }

  // The most entries `megabytes` MiB hold (a power of two, at least 1024).
  static size_t EntriesIn(int megabytes) {
    return std::bit_floor(
        std::max<size_t>(size_t(megabytes) * (size_t(1) << 20) / sizeof(Entry), 1024));
  }

  // The proven bound of the node, 0 if none.
  int Probe(const Key& k) const {
    const size_t h = HashKey(k);
    for (size_t i = 0; i < kWindow; ++i) {
      const Entry& e = entries_[(h + i) & mask_];
      if (e.empty()) return 0;
      if (e.Is(k)) return e.bound();
    }
    return 0;
  }

  // Starts loading the node's entries: a search asks for the bounds of all
  // its children, and the table is far larger than the caches.
  void Prefetch(const Key& k) const { __builtin_prefetch(&entries_[HashKey(k) & mask_]); }

  // `inner`: the node's search went below it (else every child was cut by
  // its bound alone, and searching the node again costs one expansion).
  void Store(const Key& k, int bound, bool inner) {
    if (bound <= 0) return;
    const size_t h = HashKey(k);
    Entry* weakest = nullptr;
    for (size_t i = 0; i < kWindow; ++i) {
      Entry& e = entries_[(h + i) & mask_];
      if (e.empty()) {
        e.Set(k, bound, inner);
        ++used_;
        // Grown by the load alone: a full window is bad luck in a table
        // half empty, and growing for it would double the memory.
        if (used_ * 2 > size_ && size_ < max_) Resize(size_ * 2);
        return;
      }
      if (e.Is(k)) {
        e.Set(k, std::max(e.bound(), bound), inner || e.inner());
        return;
      }
      if (!weakest || e.worth() < weakest->worth()) weakest = &e;
    }
    weakest->Set(k, bound, inner);  // a bound is only an optimisation: losing one is safe
  }

  // The entries the table has now: it grows with its load, up to its most.
  size_t capacity() const { return size_; }
  // Lets the table grow to `max_entries` (it never shrinks), unless its
  // growth was stopped (no memory, or the deadline); a table its load
  // has filled grows now (a full one stores no more in empty entries,
  // where it grows otherwise).
  void AllowUpTo(size_t max_entries) {
    if (!grows_) return;
    max_ = std::max(max_, max_entries);
    while (used_ * 2 > size_ && size_ < max_ && Resize(size_ * 2)) {
    }
  }

  // Growing a large table takes time (its entries moved, new memory
  // touched: seconds for hundreds of MiB): growth still under way when the
  // search's time is up (its deadline, or its stop raised) is abandoned,
  // and the table keeps its size from then on, so that a search stops at
  // its time limit.
  void set_limits(const SearchLimits& limits) { limits_ = limits; }

  void Clear() {
    std::memset(static_cast<void*>(entries_), 0, size_ * sizeof(Entry));
    used_ = 0;
  }

 private:
  static constexpr size_t kWindow = 8;
  // The key with, in the top 16 bits of b (NodeKey leaves them free), the
  // bound in 15 (0x7FFF stands for kInf) and whether the node is inner.
  struct Entry {
    uint64_t a = 0, b = 0;
    bool empty() const { return (b >> 48) == 0; }
    bool Is(const Key& k) const { return a == k.a && (b & kKeyBits) == k.b; }
    int bound() const {
      const int v = int(b >> 48) & 0x7FFF;
      return v == 0x7FFF ? kInf : v;
    }
    bool inner() const { return b >> 63; }
    // Which entry gives way first: a leaf's, then the least bound's (the
    // inner bit above the bound).
    int worth() const { return int(b >> 48); }
    void Set(const Key& k, int v, bool inner) {
      a = k.a;
      b = k.b | (uint64_t(v >= 0x7FFF ? 0x7FFF : v) << 48) | (uint64_t(inner) << 63);
    }
  };
  static constexpr uint64_t kKeyBits = (uint64_t(1) << 48) - 1;

  // Grows the table to `size` entries, or keeps it where the memory cannot
  // be had (then it grows no more).
  bool Resize(size_t size) {
    MappedMemory memory(size * sizeof(Entry));
    if (!memory.data()) {
      max_ = size_;
      grows_ = false;
      return false;
    }
    Entry* const old = entries_;
    const size_t old_size = size_, old_used = used_;
    MappedMemory old_memory = std::move(memory_);
    memory_ = std::move(memory);
    entries_ = static_cast<Entry*>(memory_.data());  // zeroed: every entry empty
    size_ = size;
    mask_ = size - 1;
    used_ = 0;
    for (size_t i = 0; i < old_size; ++i) {
      if ((i & 0xFFFF) == 0xFFFF && limits_.TimeUp()) {
        // Back to the old table, whole (the new one is freed).
        memory_ = std::move(old_memory);
        entries_ = old;
        size_ = max_ = old_size;
        mask_ = old_size - 1;
        used_ = old_used;
        grows_ = false;
        return false;
      }
      if (!old[i].empty()) Insert(old[i]);
    }
    return true;
  }
  void Insert(const Entry& entry) {
    const size_t h = HashKey(Key{entry.a, entry.b & kKeyBits});
    for (size_t i = 0; i < kWindow; ++i) {
      Entry& e = entries_[(h + i) & mask_];
      if (e.empty()) {
        e = entry;
        ++used_;
        return;
      }
    }  // dropped: a bound is only an optimisation
  }

  size_t max_;
  bool grows_ = true;
  MappedMemory memory_;
  Entry fallback_[kWindow];
  Entry* entries_ = nullptr;
  size_t size_ = 0;
  size_t mask_ = 0;
  size_t used_ = 0;
  SearchLimits limits_;  // their deadline and stop only
};

}  // namespace salta::finish_internal
