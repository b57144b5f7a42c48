// The shared work pool of a multi-threaded exploration (the PRISM-language
// explorer's pass 1, state_discovery.cpp, and the model generators'
// explorer, formats/generator/): chunks of unexpanded states taken by the
// threads, and the pauses in which one thread grows the StateSet, which
// cannot grow while others insert. A thread that finds the set full (or
// nearly full before taking a chunk) asks for a pause: the others finish
// their current chunk and wait, one thread grows the table, and all go on.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/memory_limit.hpp"
#include "formats/prism_language/state_set.hpp"

namespace pmc::prism_language {

// The memory limit: before the set grows, the old and the new table
// together, beside the rows recorded so far, must fit the memory limit.
inline void require_room(const StateSet& set, uint64_t more, uint64_t rows, uint64_t memory_limit, const std::string& file) {
  require_memory(set.bytes_while_growing(more) + rows, memory_limit,
                 fmt::format("{}: exploration stopped after {} states: growing the state store", file, set.size()),
                 fmt::format("state store while it grows {}, rows found so far {}",
                             format_bytes(set.bytes_while_growing(more)), format_bytes(rows)));
}

class ExplorationPool {
 public:
  ExplorationPool(StateSet& set, const std::atomic<uint64_t>& row_bytes, unsigned threads, uint64_t memory_limit,
       const std::string& file)
      : set_(set), row_bytes_(row_bytes), threads_(threads), memory_limit_(memory_limit), file_(file) {}

  void push(std::vector<uint64_t> chunk) {
    std::lock_guard<std::mutex> lock(mutex_);
    chunks_.push_back(std::move(chunk));
    changed_.notify_one();
  }

  // The next chunk to expand, or empty when every thread is out of work (or
  // one failed). The caller is "active" (may insert) until it calls pop
  // again or stops.
  std::vector<uint64_t> pop(bool was_active) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (was_active) leave_locked();
    while (true) {
      if (done_) return {};
      if (!chunks_.empty() && !growing_) {
        std::vector<uint64_t> chunk = std::move(chunks_.back());
        chunks_.pop_back();
        ++active_;
        return chunk;
      }
      if (chunks_.empty() && active_ == 0 && !growing_ && waiting_to_grow_ == 0) {
        // Nobody holds work and nothing is queued: exploration is over.
        done_ = true;
        changed_.notify_all();
        return {};
      }
      changed_.wait(lock);
    }
  }

  // Called by an active thread: waits until no other thread is inside a
  // chunk, then grows the table for `more` states (unless another thread
  // already did).
  // A caller waiting for its turn still holds work (the states it found and
  // the rest of its chunk): `waiting_to_grow_` keeps pop() from ending the
  // exploration meanwhile. Once the pool has failed (done_ set while work
  // was pending) there is nothing to grow for: the caller is stopped with
  // an exception that fail() ignores, since the first error is kept.
  void grow(uint64_t more) {
    std::unique_lock<std::mutex> lock(mutex_);
    leave_locked();
    ++waiting_to_grow_;
    while (growing_) changed_.wait(lock);
    --waiting_to_grow_;
    growing_ = true;
    changed_.wait(lock, [&] { return active_ == 0 || done_; });
    try {
      if (done_) throw Error(ErrorCode::internal, "exploration stopped by another thread's error");
      if (!set_.has_room_for(more)) {
        require_room(set_, more, row_bytes_.load(std::memory_order_relaxed), memory_limit_, file_);
        set_.grow(more, threads_);
      }
    } catch (...) {
      // The caller fails the pool; the others must not wait for this growth.
      growing_ = false;
      changed_.notify_all();
      throw;
    }
    growing_ = false;
    ++active_;
    changed_.notify_all();
  }

  // The set and the rows kept so far, with `in_progress` bytes of rows
  // not yet kept, must fit the memory limit: checked after each chunk (the
  // set's growth is checked before it happens). Thread-safe.
  void require_rows_room(uint64_t in_progress) const {
    const uint64_t rows = row_bytes_.load(std::memory_order_relaxed) + in_progress;
    if (set_.bytes() + rows <= memory_) return;
    require_memory(set_.bytes() + rows, memory_limit_,
                   fmt::format("{}: exploration stopped after {} states: holding the rows found so far", file_,
                               set_.size()),
                   fmt::format("state store {}, rows {}", format_bytes(set_.bytes()), format_bytes(rows)));
  }

  void fail(std::exception_ptr error) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!error_) error_ = error;
    done_ = true;
    changed_.notify_all();
  }
  void rethrow() {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void leave_locked() {
    if (--active_ == 0) changed_.notify_all();
  }

  StateSet& set_;
  const std::atomic<uint64_t>& row_bytes_;
  const unsigned threads_;
  const uint64_t memory_limit_;
  const uint64_t memory_ = effective_memory_limit(memory_limit_);  // the limit in bytes, 0 resolved
  const std::string& file_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::vector<uint64_t>> chunks_;
  unsigned active_ = 0, waiting_to_grow_ = 0;
  bool growing_ = false, done_ = false;
  std::exception_ptr error_;
};

}  // namespace pmc::prism_language
