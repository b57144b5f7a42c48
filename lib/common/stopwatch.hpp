// Wall-clock timing of a solve, a loop or a phase, on the monotonic clock
// (wall-clock adjustments must not produce negative durations). Free of fmt
// and the rest of the library: cuda/*.cu include it.
#pragma once

#include <chrono>

namespace pmc {

// Seconds from `start` until now.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Starts when constructed; seconds() reads it without stopping it.
class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  double seconds() const { return seconds_since(start_); }
  std::chrono::steady_clock::time_point started() const { return start_; }
  void restart() { start_ = std::chrono::steady_clock::now(); }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace pmc
