// Exceptions out of a parallel loop. None may leave an OpenMP parallel
// region, so each iteration runs inside FirstFailure::run, which keeps the
// first exception thrown; the caller rethrows it once the region is over.
// Later iterations may ask failed() and skip their work.
#pragma once

#include <atomic>
#include <exception>
#include <mutex>

namespace pmc {

class FirstFailure {
 public:
  // Calls f(); an exception it throws is kept if it is the first.
  template <typename F>
  void run(F&& f) noexcept {
    try {
      f();
    } catch (...) {
      keep(std::current_exception());
    }
  }

  bool failed() const noexcept { return failed_.load(std::memory_order_relaxed); }

  // After the parallel region: the first exception, if any, again.
  void rethrow_if_failed() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void keep(std::exception_ptr error) noexcept {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = std::move(error);
    failed_.store(true, std::memory_order_relaxed);
  }

  std::mutex mutex_;
  std::exception_ptr error_;
  std::atomic<bool> failed_{false};
};

}  // namespace pmc
