// Cancelling a running check (the shell's Ctrl-C, pmc_options_request_cancel):
// the caller owns an std::atomic<bool> and points SolverSettings::cancel at
// it; every solver loop, CPU and GPU, polls it between iterations and throws
// Error(cancelled). Polling is a relaxed load (the flag orders no other
// data), so it may be done every iteration. Setting the flag is a lock-free
// atomic store, safe from another thread or a signal handler.
//
// This header must stay free of fmt and the rest of the library: cuda/*.cu
// include it (fmt's headers do not compile under nvcc in C++20 mode).
//
// Where to poll: where the loop can stop without leaving shared state half
// written. Solvers own their vectors and throwing discards them; never poll
// inside Model::derived() builders or an OpenMP region (an exception must
// not leave a parallel region).
#pragma once

#include <atomic>

#include "common/error_code.hpp"

namespace pmc {

static_assert(std::atomic<bool>::is_always_lock_free, "the cancel flag is set from signal handlers");

inline bool cancel_requested(const std::atomic<bool>* flag) noexcept {
  return flag != nullptr && flag->load(std::memory_order_relaxed);
}

// Throws Error(ErrorCode::cancelled, "cancelled") when the flag is set.
inline void throw_if_cancelled(const std::atomic<bool>* flag) {
  if (cancel_requested(flag)) throw Error(ErrorCode::cancelled, "cancelled");
}

}  // namespace pmc
