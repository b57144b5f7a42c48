// What a single-GPU solve starts with: the settings' primary device made
// current, and a stream of its own on it, so that its work never waits on
// (or holds up) the legacy default stream. Every launch and copy of the
// solve goes to `stream`.
#pragma once

#include "cuda/device_runtime.hpp"
#include "solver/device/device_selection.hpp"
#include "solver/problem.hpp"

namespace pmc::gpu {

class SolveContext {
 public:
  // Throws Error(no_device) without a usable GPU, naming the reason.
  explicit SolveContext(const SolverSettings& settings) : ordinal_(select(settings)) {}
  cuda::StreamHandle stream() const { return stream_.get(); }
  int ordinal() const { return ordinal_; }  // the CUDA device number

 private:
  static int select(const SolverSettings& settings) {
    const int ordinal = primary_device_ordinal(settings);
    cuda::make_device_current(ordinal);
    return ordinal;
  }
  int ordinal_;  // made current before the stream is created on it
  cuda::Stream stream_;
};

}  // namespace pmc::gpu
