// A one-line progress display on stderr, shown only when stderr is a
// terminal and the tool is not writing JSON.
#pragma once

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>

namespace salta::tools {

class Progress {
 public:
  Progress(std::string label, bool enabled)
      : label_(std::move(label)), enabled_(enabled && isatty(STDERR_FILENO)) {}
  ~Progress() { Finish(); }

  // Thread-safe; redraws at most ten times a second.
  void Update(double fraction) {
    if (!enabled_) return;
    const int64_t now = Now();
    int64_t last = last_ms_.load(std::memory_order_relaxed);
    if (now - last < 100 || !last_ms_.compare_exchange_strong(last, now)) return;
    std::fprintf(stderr, "\r%s: %5.1f%%", label_.c_str(), 100.0 * fraction);
    std::fflush(stderr);
    shown_ = true;
  }
  void Finish() {
    if (shown_.exchange(false)) std::fprintf(stderr, "\r\033[K");
  }

 private:
  static int64_t Now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  std::string label_;
  bool enabled_;
  std::atomic<int64_t> last_ms_{0};
  std::atomic<bool> shown_{false};
};

}  // namespace salta::tools
